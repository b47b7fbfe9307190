//! The algorithm catalog: every algorithm cryptobench knows, described as data.
//!
//! Backends map these ids to their own names; the harness derives key, IV and
//! buffer requirements from the fields here, so adding an algorithm is adding
//! a row (and its known answers), not a code path.

use serde::Serialize;

/// The three classes differ in what one operation means (see docs/METHOD.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AlgorithmClass {
    /// A block or stream cipher without authentication.
    Cipher,
    /// Authenticated encryption with associated data.
    Aead,
    /// A hash function.
    Digest,
}

/// One catalog entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AlgorithmSpec {
    /// Canonical id, lowercase, in OpenSSL's spelling where OpenSSL has one.
    pub id: &'static str,
    /// Other accepted spellings on the command line.
    pub aliases: &'static [&'static str],
    pub class: AlgorithmClass,
    /// Primitive family, e.g. "aes", "sha2" (what hardware acceleration is about).
    pub family: &'static str,
    /// Key length in bytes (XTS: both AES keys together).
    pub key_len: usize,
    /// IV, nonce or tweak length in bytes; 0 where there is none.
    pub iv_len: usize,
    /// Authentication tag length in bytes (AEAD only).
    pub tag_len: usize,
    /// Digest length in bytes (digests only).
    pub digest_len: usize,
    /// Message lengths must be a multiple of this (block ciphers without padding).
    pub granularity: usize,
    /// Shortest message the mode accepts (XTS needs a whole block).
    pub min_len: usize,
}

impl AlgorithmSpec {
    pub const fn is_digest(&self) -> bool {
        matches!(self.class, AlgorithmClass::Digest)
    }

    /// Why `size` cannot be processed by this algorithm, if it cannot.
    pub fn size_problem(&self, size: usize) -> Option<String> {
        if size < self.min_len {
            Some(format!("{} needs at least {} bytes per message", self.id, self.min_len))
        } else if !size.is_multiple_of(self.granularity) {
            Some(format!(
                "{} processes whole {}-byte blocks without padding; {} is not a multiple",
                self.id, self.granularity, size
            ))
        } else {
            None
        }
    }
}

const fn cipher(id: &'static str, family: &'static str, key_len: usize, iv_len: usize, granularity: usize) -> AlgorithmSpec {
    AlgorithmSpec {
        id,
        aliases: &[],
        class: AlgorithmClass::Cipher,
        family,
        key_len,
        iv_len,
        tag_len: 0,
        digest_len: 0,
        granularity,
        min_len: 0,
    }
}

const fn aead(id: &'static str, family: &'static str, key_len: usize) -> AlgorithmSpec {
    AlgorithmSpec {
        id,
        aliases: &[],
        class: AlgorithmClass::Aead,
        family,
        key_len,
        iv_len: 12,
        tag_len: 16,
        digest_len: 0,
        granularity: 1,
        min_len: 0,
    }
}

const fn digest(id: &'static str, family: &'static str, digest_len: usize) -> AlgorithmSpec {
    AlgorithmSpec {
        id,
        aliases: &[],
        class: AlgorithmClass::Digest,
        family,
        key_len: 0,
        iv_len: 0,
        tag_len: 0,
        digest_len,
        granularity: 1,
        min_len: 0,
    }
}

const fn with_aliases(mut spec: AlgorithmSpec, aliases: &'static [&'static str]) -> AlgorithmSpec {
    spec.aliases = aliases;
    spec
}

const fn xts(id: &'static str, key_len: usize) -> AlgorithmSpec {
    let mut spec = cipher(id, "aes", key_len, 16, 1);
    spec.min_len = 16;
    spec
}

/// Every algorithm, in display order.
pub static CATALOG: &[AlgorithmSpec] = &[
    cipher("aes-128-ecb", "aes", 16, 0, 16),
    cipher("aes-192-ecb", "aes", 24, 0, 16),
    cipher("aes-256-ecb", "aes", 32, 0, 16),
    cipher("aes-128-cbc", "aes", 16, 16, 16),
    cipher("aes-192-cbc", "aes", 24, 16, 16),
    cipher("aes-256-cbc", "aes", 32, 16, 16),
    with_aliases(cipher("aes-128-cfb128", "aes", 16, 16, 1), &["aes-128-cfb"]),
    with_aliases(cipher("aes-192-cfb128", "aes", 24, 16, 1), &["aes-192-cfb"]),
    with_aliases(cipher("aes-256-cfb128", "aes", 32, 16, 1), &["aes-256-cfb"]),
    cipher("aes-128-ctr", "aes", 16, 16, 1),
    cipher("aes-192-ctr", "aes", 24, 16, 1),
    cipher("aes-256-ctr", "aes", 32, 16, 1),
    with_aliases(aead("aes-128-gcm", "aes", 16), &["id-aes128-gcm"]),
    with_aliases(aead("aes-192-gcm", "aes", 24), &["id-aes192-gcm"]),
    with_aliases(aead("aes-256-gcm", "aes", 32), &["id-aes256-gcm"]),
    xts("aes-128-xts", 32),
    xts("aes-256-xts", 64),
    aead("chacha20-poly1305", "chacha20", 32),
    with_aliases(cipher("des-ede3-cbc", "des", 24, 8, 8), &["3des", "des3"]),
    digest("md5", "md5", 16),
    digest("sha1", "sha1", 20),
    with_aliases(digest("sha224", "sha2", 28), &["sha2-224"]),
    with_aliases(digest("sha256", "sha2", 32), &["sha2-256"]),
    with_aliases(digest("sha384", "sha2", 48), &["sha2-384"]),
    with_aliases(digest("sha512", "sha2", 64), &["sha2-512"]),
    digest("sha3-256", "sha3", 32),
    digest("sha3-512", "sha3", 64),
    with_aliases(digest("blake2b512", "blake2", 64), &["blake2b"]),
    with_aliases(digest("blake2s256", "blake2", 32), &["blake2s"]),
];

/// What `cryptobench run` measures when no `--algos` is given.
pub const DEFAULT_SUITE: &[&str] = &[
    "aes-128-cbc",
    "aes-256-cbc",
    "aes-128-ctr",
    "aes-256-ctr",
    "aes-128-gcm",
    "aes-256-gcm",
    "chacha20-poly1305",
    "md5",
    "sha1",
    "sha256",
    "sha512",
];

/// Families of hardware acceleration that can be switched off together
/// (DESIGN: mask whole families, not single bits: clearing AES-NI alone
/// leaves the VAES path running).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// AES rounds in hardware: AES-NI and VAES on x86, the AES instructions on arm.
    Aes,
    /// Carry-less multiplication (GHASH of GCM): PCLMULQDQ and VPCLMULQDQ, PMULL on arm.
    Clmul,
    /// SHA-1/SHA-2 in hardware: SHA-NI (and the SHA512 extension) on x86, SHA1/SHA2/SHA512 on arm.
    Sha,
    /// Vector units the libraries' software paths use (ChaCha20, Poly1305,
    /// SHA-2 without SHA instructions, AES without AES instructions through
    /// vpaes/bsaes, the stitched AES-GCM): SSSE3/AVX/AVX2/AVX-512 on x86, NEON on arm, AltiVec on POWER.
    Simd,
}

impl Family {
    pub const ALL: [Family; 4] = [Family::Aes, Family::Clmul, Family::Sha, Family::Simd];

    pub fn name(self) -> &'static str {
        match self {
            Family::Aes => "aes",
            Family::Clmul => "clmul",
            Family::Sha => "sha",
            Family::Simd => "simd",
        }
    }
}

impl AlgorithmSpec {
    /// The acceleration families this algorithm can use.
    pub fn families(&self) -> Vec<Family> {
        let mut out = Vec::new();
        if self.family == "aes" {
            out.push(Family::Aes);
            if self.id.ends_with("-gcm") {
                out.push(Family::Clmul);
            }
        }
        if self.family == "sha1" || self.family == "sha2" {
            out.push(Family::Sha);
        }
        if matches!(self.family, "aes" | "chacha20" | "sha1" | "sha2") {
            out.push(Family::Simd);
        }
        out
    }
}

/// Looks an algorithm up by id or alias, ignoring case.
pub fn find(name: &str) -> Option<&'static AlgorithmSpec> {
    let name = name.trim();
    CATALOG
        .iter()
        .find(|a| a.id.eq_ignore_ascii_case(name) || a.aliases.iter().any(|x| x.eq_ignore_ascii_case(name)))
}

/// Looks an id up that is known to be in the catalog (ids that travel in jobs and results).
pub fn get(id: &str) -> Result<&'static AlgorithmSpec, UnknownAlgorithm> {
    find(id).ok_or_else(|| UnknownAlgorithm(id.to_string()))
}

#[derive(Debug, thiserror::Error)]
#[error("unknown algorithm '{0}'; valid: {list}", list = valid_names())]
pub struct UnknownAlgorithm(pub String);

/// All ids, comma separated, for error messages.
pub fn valid_names() -> String {
    CATALOG.iter().map(|a| a.id).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_aliases_are_unique() {
        let mut names: Vec<String> = CATALOG
            .iter()
            .flat_map(|a| std::iter::once(a.id).chain(a.aliases.iter().copied()))
            .map(str::to_ascii_lowercase)
            .collect();
        let total = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), total);
    }

    #[test]
    fn default_suite_is_in_catalog() {
        for id in DEFAULT_SUITE {
            assert_eq!(find(id).map(|a| a.id), Some(*id));
        }
    }

    #[test]
    fn lookup_ignores_case_and_accepts_aliases() {
        assert_eq!(find("AES-128-CFB").unwrap().id, "aes-128-cfb128");
        assert_eq!(find(" Sha256 ").unwrap().id, "sha256");
        assert!(find("rot13").is_none());
        let err = get("rot13").unwrap_err().to_string();
        assert!(err.contains("rot13") && err.contains("aes-128-gcm"), "{err}");
    }

    #[test]
    fn families_follow_the_primitive() {
        assert_eq!(
            find("aes-128-gcm").unwrap().families(),
            vec![Family::Aes, Family::Clmul, Family::Simd]
        );
        assert_eq!(find("aes-256-xts").unwrap().families(), vec![Family::Aes, Family::Simd]);
        assert_eq!(find("sha512").unwrap().families(), vec![Family::Sha, Family::Simd]);
        assert_eq!(find("chacha20-poly1305").unwrap().families(), vec![Family::Simd]);
        assert!(find("md5").unwrap().families().is_empty());
        assert!(find("sha3-256").unwrap().families().is_empty());
    }

    #[test]
    fn size_rules_follow_the_mode() {
        let cbc = find("aes-128-cbc").unwrap();
        assert!(cbc.size_problem(16).is_none());
        assert!(cbc.size_problem(15).unwrap().contains("multiple"));
        let xts = find("aes-256-xts").unwrap();
        assert!(xts.size_problem(8).unwrap().contains("at least 16"));
        assert!(xts.size_problem(17).is_none());
        assert!(find("sha256").unwrap().size_problem(0).is_none());
        assert!(find("des-ede3-cbc").unwrap().size_problem(16).is_none());
    }
}

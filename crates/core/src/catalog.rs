//! The algorithm catalog: every algorithm cryptobench knows, described as data.
//!
//! Backends map these ids to their own names; the harness derives key, IV and
//! buffer requirements from the fields here, so adding an algorithm is adding
//! a row (and its known answers), not a code path.

use serde::Serialize;

pub use crate::kinds::AlgorithmClass;
use crate::kinds::Mode;

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
    /// The mode whose semantics match `openssl speed` where it differs
    /// from the class's (GHASH: speed streams updates).
    pub default_mode: Option<Mode>,
    /// Why the mode cannot stream updates, where it cannot (CCM needs the
    /// length first; SIV and GCM-SIV read the message twice).
    pub no_stream: Option<&'static str>,
    /// An extendable-output function (SHAKE): `digest_len` bytes of output are read.
    pub xof: bool,
}

impl AlgorithmSpec {
    pub const fn is_digest(&self) -> bool {
        matches!(self.class, AlgorithmClass::Digest)
    }

    pub const fn is_mac(&self) -> bool {
        matches!(self.class, AlgorithmClass::Mac)
    }

    /// The mode a cell gets when the user names none (`openssl speed`'s semantics).
    pub fn default_mode(&self) -> Mode {
        self.default_mode.unwrap_or_else(|| Mode::default_for(self.class))
    }

    /// Why a cell in `mode` cannot be measured for this algorithm by any library, if so.
    pub fn mode_problem(&self, mode: Mode) -> Option<String> {
        match (mode, self.no_stream) {
            (Mode::Stream, Some(why)) => Some(format!("{} in stream mode ({why}; use --mode message)", self.id)),
            _ => None,
        }
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
        default_mode: None,
        no_stream: None,
        xof: false,
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
        default_mode: None,
        no_stream: None,
        xof: false,
    }
}

const fn with_iv(mut spec: AlgorithmSpec, iv_len: usize) -> AlgorithmSpec {
    spec.iv_len = iv_len;
    spec
}

/// An AEAD that cannot stream updates, with the reason.
const fn whole(mut spec: AlgorithmSpec, why: &'static str) -> AlgorithmSpec {
    spec.no_stream = Some(why);
    spec
}

const CCM: &str = "CCM needs the message length before the first byte (NIST SP 800-38C), so it cannot stream updates";
const OCB: &str = "OCB's last block and checksum are processed by the final call only (OpenSSL holds the last block back), so updates alone are not the work of a message";
const SIV: &str = "SIV reads the message twice, for the synthetic IV and then to encrypt (RFC 5297)";
const GCM_SIV: &str = "GCM-SIV reads the message twice, for the tag and then to encrypt (RFC 8452)";

/// A MAC: key and tag lengths; the tag is `digest_len`.
const fn mac(id: &'static str, family: &'static str, key_len: usize, tag_len: usize) -> AlgorithmSpec {
    AlgorithmSpec {
        id,
        aliases: &[],
        class: AlgorithmClass::Mac,
        family,
        key_len,
        iv_len: 0,
        tag_len: 0,
        digest_len: tag_len,
        granularity: 1,
        min_len: 0,
        default_mode: None,
        no_stream: None,
        xof: false,
    }
}

/// An extendable-output function read to `digest_len` bytes.
const fn xof(id: &'static str, digest_len: usize) -> AlgorithmSpec {
    let mut spec = digest(id, "sha3", digest_len);
    spec.xof = true;
    spec
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
        default_mode: None,
        no_stream: None,
        xof: false,
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
    // Added for breadth (issue #12); every entry has published known answers.
    with_aliases(whole(aead("aes-128-ccm", "aes", 16), CCM), &["id-aes128-ccm"]),
    with_aliases(whole(aead("aes-256-ccm", "aes", 32), CCM), &["id-aes256-ccm"]),
    whole(aead("aes-128-ocb", "aes", 16), OCB),
    whole(aead("aes-256-ocb", "aes", 32), OCB),
    // AES-SIV (RFC 5297), OpenSSL's model: no IV of its own; a nonce, where used, is the
    // last associated-data component. The key is the CMAC key and the CTR key together.
    whole(with_iv(aead("aes-128-siv", "aes", 32), 0), SIV),
    whole(aead("aes-128-gcm-siv", "aes", 16), GCM_SIV),
    whole(aead("aes-256-gcm-siv", "aes", 32), GCM_SIV),
    with_iv(aead("xchacha20-poly1305", "chacha20", 32), 24),
    // ChaCha20 alone (RFC 8439 §2.4): the IV is OpenSSL's 16 bytes, the 32-bit
    // little-endian block counter followed by the 96-bit nonce.
    cipher("chacha20", "chacha20", 32, 16, 1),
    cipher("camellia-128-cbc", "camellia", 16, 16, 16),
    cipher("camellia-192-cbc", "camellia", 24, 16, 16),
    cipher("camellia-256-cbc", "camellia", 32, 16, 16),
    cipher("aria-128-cbc", "aria", 16, 16, 16),
    cipher("sm4-cbc", "sm4", 16, 16, 16),
    digest("sha3-224", "sha3", 28),
    digest("sha3-384", "sha3", 48),
    // SHAKE read to twice the security level, 256 and 512 bits (FIPS 202 §A.2).
    xof("shake128", 32),
    xof("shake256", 64),
    digest("sm3", "sm3", 32),
    digest("blake3", "blake3", 32),
    // MACs: the key length is the one timed; known answers and vectors may use others (HMAC takes any).
    with_aliases(mac("hmac-md5", "md5", 16, 16), &["hmac(md5)"]),
    with_aliases(mac("hmac-sha1", "sha1", 20, 20), &["hmac(sha1)"]),
    with_aliases(mac("hmac-sha256", "sha2", 32, 32), &["hmac(sha256)"]),
    with_aliases(mac("hmac-sha512", "sha2", 64, 64), &["hmac(sha512)"]),
    with_aliases(mac("aes-128-cmac", "aes", 16, 16), &["cmac(aes-128-cbc)", "cmac-aes-128"]),
    mac("poly1305", "poly1305", 32, 16),
    // GHASH (NIST SP 800-38D §6.4) keyed by H over whole blocks, without GCM's length block;
    // `openssl speed` times it as updates.
    ghash(),
];

const fn ghash() -> AlgorithmSpec {
    let mut spec = mac("ghash", "ghash", 16, 16);
    spec.granularity = 16;
    spec.default_mode = Some(Mode::Stream);
    spec
}

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
    /// Big-number arithmetic of public key (RSA, ECDSA/ECDH on P-256, X25519):
    /// MULX and ADCX/ADOX (BMI2, ADX) and AVX-512 IFMA on x86, which OpenSSL's
    /// Montgomery multiplication, RSAZ, ecp_nistz256 and x25519-x86_64 choose
    /// at run time. Audited only with public-key algorithms: not in [`Family::ALL`].
    Bignum,
}

impl Family {
    /// The families of symmetric cryptography, which every audit switches off.
    pub const ALL: [Family; 4] = [Family::Aes, Family::Clmul, Family::Sha, Family::Simd];

    pub fn name(self) -> &'static str {
        match self {
            Family::Aes => "aes",
            Family::Clmul => "clmul",
            Family::Sha => "sha",
            Family::Simd => "simd",
            Family::Bignum => "bignum",
        }
    }
}

impl AlgorithmSpec {
    /// The acceleration families this algorithm can use.
    pub fn families(&self) -> Vec<Family> {
        let mut out = Vec::new();
        if self.family == "aes" {
            out.push(Family::Aes);
            if self.id.ends_with("-gcm") || self.id.ends_with("-gcm-siv") {
                out.push(Family::Clmul);
            }
        }
        if self.family == "ghash" {
            out.push(Family::Clmul);
        }
        if self.family == "sha1" || self.family == "sha2" {
            out.push(Family::Sha);
        }
        if matches!(self.family, "aes" | "chacha20" | "poly1305" | "sha1" | "sha2") {
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

/// What an `--algos` list names: catalog algorithms in the user's order
/// (`all` for the whole catalog), and whether it holds `openssl-speed`, the
/// default set of `openssl speed`, which depends on the library's version
/// and is resolved once the library is loaded (crate::speed_defaults).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Selection {
    pub algorithms: Vec<&'static AlgorithmSpec>,
    pub openssl_speed: bool,
}

/// The keyword of `--algos` for `openssl speed`'s default set.
pub const OPENSSL_SPEED: &str = "openssl-speed";

/// Parses the names of an `--algos` list; an empty list gives `default`.
pub fn select(names: &[&str], default: &[&str]) -> Result<Selection, UnknownAlgorithm> {
    let names: Vec<&str> = names.iter().map(|s| s.trim()).filter(|s| !s.is_empty()).collect();
    if names.is_empty() {
        return Ok(Selection {
            algorithms: default.iter().map(|id| get(id)).collect::<Result<_, _>>()?,
            openssl_speed: false,
        });
    }
    let mut out = Selection::default();
    if names.iter().any(|n| n.eq_ignore_ascii_case("all")) {
        out.algorithms = CATALOG.iter().collect();
    }
    for name in names {
        if name.eq_ignore_ascii_case("all") {
            continue;
        }
        if name.eq_ignore_ascii_case(OPENSSL_SPEED) {
            out.openssl_speed = true;
            continue;
        }
        let alg = find(name).ok_or_else(|| UnknownAlgorithm(name.to_string()))?;
        if !out.algorithms.contains(&alg) {
            out.algorithms.push(alg);
        }
    }
    Ok(out)
}

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
    fn selections_keep_order_and_know_the_keywords() {
        let s = select(&["sha256", " AES-128-GCM", "sha256", ""], &[]).unwrap();
        assert_eq!(s.algorithms.iter().map(|a| a.id).collect::<Vec<_>>(), ["sha256", "aes-128-gcm"]);
        assert!(!s.openssl_speed);
        assert_eq!(select(&["all"], &[]).unwrap().algorithms.len(), CATALOG.len());
        let s = select(&["openssl-speed", "blake3"], &[]).unwrap();
        assert!(s.openssl_speed && s.algorithms.len() == 1);
        assert_eq!(select(&[], DEFAULT_SUITE).unwrap().algorithms.len(), DEFAULT_SUITE.len());
        assert_eq!(select(&["rot13"], &[]).unwrap_err().0, "rot13");
    }

    #[test]
    fn every_entry_is_consistent() {
        for a in CATALOG {
            match a.class {
                AlgorithmClass::Digest => assert!(a.digest_len > 0 && a.key_len == 0, "{}", a.id),
                AlgorithmClass::Mac => assert!(a.digest_len > 0 && a.key_len > 0 && a.tag_len == 0, "{}", a.id),
                AlgorithmClass::Aead => assert!(a.tag_len > 0 && a.key_len > 0, "{}", a.id),
                AlgorithmClass::Cipher => assert!(a.key_len > 0 && a.tag_len == 0, "{}", a.id),
            }
            assert!(
                a.mode_problem(a.default_mode()).is_none(),
                "{}: its default mode cannot be measured",
                a.id
            );
        }
        assert_eq!(find("ghash").unwrap().default_mode(), Mode::Stream);
        assert!(find("aes-128-ccm").unwrap().mode_problem(Mode::Stream).unwrap().contains("length"));
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

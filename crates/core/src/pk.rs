//! The public-key catalog: signatures, key agreement and key encapsulation,
//! described as data like the symmetric [`crate::catalog`].
//!
//! A public-key cell's figure is **operations per second** (and its inverse,
//! time per operation), not bytes per second: one call is one signature, one
//! verification, one derived secret, one encapsulation. The cell's `size` is
//! the length of what is signed (a precomputed digest for RSA and ECDSA, the
//! whole message for EdDSA, ML-DSA and SLH-DSA, which hash it themselves) and
//! 0 where an operation takes no message (key generation, derive, encaps,
//! decaps). docs/METHOD.md says what each operation calls per library and
//! which `openssl speed` semantics it matches.

use serde::{Deserialize, Serialize};

use crate::kinds::Operation;

/// What kind of public-key scheme an algorithm is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PkKind {
    /// RSASSA-PKCS1-v1_5 over a precomputed SHA-256 digest (RFC 8017 §8.2).
    RsaPkcs1,
    /// RSASSA-PSS, SHA-256, MGF1-SHA-256, 32-byte salt (RFC 8017 §8.1).
    RsaPss,
    /// RSAES-OAEP, SHA-256, MGF1-SHA-256, empty label (RFC 8017 §7.1).
    RsaOaep,
    /// ECDSA over a precomputed digest (FIPS 186-5 §6.4).
    Ecdsa,
    /// Pure EdDSA over the whole message (RFC 8032).
    EdDsa,
    /// Diffie–Hellman on an elliptic curve: X25519/X448 (RFC 7748) or ECDH (SP 800-56A).
    Ecdh,
    /// ML-KEM (FIPS 203).
    MlKem,
    /// ML-DSA, pure, empty context, hedged signing (FIPS 204).
    MlDsa,
    /// SLH-DSA, pure, empty context, hedged signing (FIPS 205).
    SlhDsa,
    /// Falcon, the round-3 submission as liboqs ships it (signatures of
    /// variable length, compressed; FN-DSA, FIPS 206, is its draft standard
    /// and not yet final).
    Falcon,
    /// HQC, the key encapsulation NIST selected in March 2025 (NIST IR 8545),
    /// as its round-4 submission that liboqs ships; its standard is not yet out.
    Hqc,
}

/// How a library draws ECDSA's per-signature secret k: a property the
/// library declares (crates/backends: `PkLibrary::ecdsa_nonce`) and every
/// ECDSA figure is shown with, since the two differ in work per signature:
/// RFC 6979 derives k with HMAC-DRBG, several HMAC calls per signature that
/// a library drawing random bytes does not make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EcdsaNonce {
    /// k drawn from a random generator (FIPS 186-5 §6.4.1, Appendix A.3);
    /// some libraries mix the key and the digest into the random bytes.
    Random,
    /// k derived from the private key and the digest, deterministically
    /// (RFC 6979 §3.2): the same digest always gives the same signature.
    Rfc6979,
}

impl EcdsaNonce {
    /// "random nonces", "RFC 6979 deterministic nonces".
    pub fn describe(self) -> &'static str {
        match self {
            EcdsaNonce::Random => "random nonces",
            EcdsaNonce::Rfc6979 => "RFC 6979 deterministic nonces (HMAC-DRBG per signature)",
        }
    }

    /// The short form for a table cell: "random", "RFC 6979".
    pub fn short(self) -> &'static str {
        match self {
            EcdsaNonce::Random => "random",
            EcdsaNonce::Rfc6979 => "RFC 6979",
        }
    }
}

/// One public-key catalog entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PkAlgorithmSpec {
    /// Canonical id, lowercase, in `openssl speed`'s spelling where it has one.
    pub id: &'static str,
    pub aliases: &'static [&'static str],
    pub kind: PkKind,
    /// Key size in bits (RSA modulus; curve or parameter set security where no modulus).
    pub bits: u32,
    /// The parameter set or curve as OpenSSL 3.x names it ("P-256", "ED25519",
    /// "ML-KEM-768"); liboqs's name for schemes OpenSSL has not ("Falcon-512", "HQC-128").
    pub openssl_name: &'static str,
    /// Operations in display order.
    pub operations: &'static [Operation],
    /// Operations measured when `--ops` does not name any: those `openssl speed` shows.
    pub default_operations: &'static [Operation],
    /// Length of what a sign/verify call signs when no `--sizes` is given:
    /// the digest length for schemes that sign a digest, `openssl speed`'s
    /// message length for schemes that sign the message.
    pub message_len: usize,
    /// Whether the signed length can be chosen (`--sizes`): the scheme hashes
    /// the message itself, so its length changes the work.
    pub message_sized: bool,
    /// A key generation takes long (RSA: a prime search of random length):
    /// its cells get a longer budget.
    pub long_keygen: bool,
}

impl PkAlgorithmSpec {
    /// Whether the scheme signs (sign/verify), agrees (derive) or encapsulates.
    pub fn signs(&self) -> bool {
        matches!(
            self.kind,
            PkKind::RsaPkcs1 | PkKind::RsaPss | PkKind::Ecdsa | PkKind::EdDsa | PkKind::MlDsa | PkKind::SlhDsa | PkKind::Falcon
        )
    }

    /// Whether the scheme is a key encapsulation (encaps/decaps).
    pub fn encapsulates(&self) -> bool {
        matches!(self.kind, PkKind::MlKem | PkKind::Hqc)
    }

    /// Length of the shared secret a key encapsulation gives (0 for other
    /// kinds): 32 bytes for ML-KEM (FIPS 203 §7), 64 for HQC as liboqs 0.13
    /// ships it (the round-4 submission's SHARED_SECRET_BYTES).
    pub fn shared_secret_len(&self) -> usize {
        match self.kind {
            PkKind::MlKem => 32,
            PkKind::Hqc => 64,
            _ => 0,
        }
    }

    /// Whether the operation takes a message whose length is the cell's size.
    pub fn takes_message(&self, op: Operation) -> bool {
        matches!(op, Operation::Sign | Operation::Verify | Operation::Encrypt | Operation::Decrypt)
    }

    /// RSA modulus length in bytes (0 for other kinds).
    pub fn rsa_bytes(&self) -> usize {
        match self.kind {
            PkKind::RsaPkcs1 | PkKind::RsaPss | PkKind::RsaOaep => self.bits as usize / 8,
            _ => 0,
        }
    }

    /// Whether the id names an RSA scheme.
    pub fn is_rsa(&self) -> bool {
        self.rsa_bytes() > 0
    }
}

use Operation::{Decaps, Decrypt, Derive, Encaps, Encrypt, Keygen, Sign, Verify};

const SIGN_VERIFY: &[Operation] = &[Sign, Verify];
const KEYGEN_SIGN_VERIFY: &[Operation] = &[Keygen, Sign, Verify];
const KEM: &[Operation] = &[Keygen, Encaps, Decaps];
const DERIVE: &[Operation] = &[Derive];
const OAEP: &[Operation] = &[Encrypt, Decrypt];

const fn rsa(id: &'static str, aliases: &'static [&'static str], bits: u32) -> PkAlgorithmSpec {
    PkAlgorithmSpec {
        id,
        aliases,
        kind: PkKind::RsaPkcs1,
        bits,
        openssl_name: "RSA",
        operations: KEYGEN_SIGN_VERIFY,
        default_operations: SIGN_VERIFY,
        message_len: 32,
        message_sized: false,
        long_keygen: true,
    }
}

const fn rsa_pss(id: &'static str, bits: u32) -> PkAlgorithmSpec {
    PkAlgorithmSpec {
        id,
        aliases: &[],
        kind: PkKind::RsaPss,
        bits,
        openssl_name: "RSA",
        operations: SIGN_VERIFY,
        default_operations: SIGN_VERIFY,
        message_len: 32,
        message_sized: false,
        long_keygen: false,
    }
}

const fn rsa_oaep(id: &'static str, bits: u32) -> PkAlgorithmSpec {
    PkAlgorithmSpec {
        id,
        aliases: &[],
        kind: PkKind::RsaOaep,
        bits,
        openssl_name: "RSA",
        operations: OAEP,
        default_operations: OAEP,
        message_len: 32,
        message_sized: false,
        long_keygen: false,
    }
}

const fn ecdsa(id: &'static str, aliases: &'static [&'static str], bits: u32, curve: &'static str, digest_len: usize) -> PkAlgorithmSpec {
    PkAlgorithmSpec {
        id,
        aliases,
        kind: PkKind::Ecdsa,
        bits,
        openssl_name: curve,
        operations: KEYGEN_SIGN_VERIFY,
        default_operations: SIGN_VERIFY,
        message_len: digest_len,
        message_sized: false,
        long_keygen: false,
    }
}

const fn eddsa(id: &'static str, bits: u32, name: &'static str) -> PkAlgorithmSpec {
    PkAlgorithmSpec {
        id,
        aliases: &[],
        kind: PkKind::EdDsa,
        bits,
        openssl_name: name,
        operations: KEYGEN_SIGN_VERIFY,
        default_operations: SIGN_VERIFY,
        // apps/speed.c signs 20 bytes of its buffer in 1.1.1, 3.x and 4.x.
        message_len: 20,
        message_sized: true,
        long_keygen: false,
    }
}

const fn ecdh(id: &'static str, aliases: &'static [&'static str], bits: u32, name: &'static str) -> PkAlgorithmSpec {
    PkAlgorithmSpec {
        id,
        aliases,
        kind: PkKind::Ecdh,
        bits,
        openssl_name: name,
        operations: DERIVE,
        default_operations: DERIVE,
        message_len: 0,
        message_sized: false,
        long_keygen: false,
    }
}

const fn kem(id: &'static str, aliases: &'static [&'static str], kind: PkKind, bits: u32, name: &'static str) -> PkAlgorithmSpec {
    PkAlgorithmSpec {
        id,
        aliases,
        kind,
        bits,
        openssl_name: name,
        operations: KEM,
        default_operations: KEM,
        message_len: 0,
        message_sized: false,
        long_keygen: false,
    }
}

const fn signature(id: &'static str, aliases: &'static [&'static str], kind: PkKind, bits: u32, name: &'static str) -> PkAlgorithmSpec {
    PkAlgorithmSpec {
        id,
        aliases,
        kind,
        bits,
        openssl_name: name,
        operations: KEYGEN_SIGN_VERIFY,
        default_operations: KEYGEN_SIGN_VERIFY,
        // apps/speed.c 3.5+/4.0 signs a 32-byte buffer of zeros (SIG_sign_loop).
        message_len: 32,
        message_sized: true,
        long_keygen: false,
    }
}

/// Every public-key algorithm, in display order.
pub static PK_CATALOG: &[PkAlgorithmSpec] = &[
    rsa("rsa2048", &["rsa-2048"], 2048),
    rsa("rsa3072", &["rsa-3072"], 3072),
    rsa("rsa4096", &["rsa-4096"], 4096),
    rsa_pss("rsa2048-pss", 2048),
    rsa_pss("rsa3072-pss", 3072),
    rsa_pss("rsa4096-pss", 4096),
    rsa_oaep("rsa2048-oaep", 2048),
    rsa_oaep("rsa3072-oaep", 3072),
    rsa_oaep("rsa4096-oaep", 4096),
    ecdsa("ecdsap256", &["ecdsa-p256", "p256"], 256, "P-256", 32),
    ecdsa("ecdsap384", &["ecdsa-p384", "p384"], 384, "P-384", 48),
    ecdsa("ecdsap521", &["ecdsa-p521", "p521"], 521, "P-521", 64),
    eddsa("ed25519", 253, "ED25519"),
    eddsa("ed448", 456, "ED448"),
    ecdh("x25519", &["ecdhx25519"], 253, "X25519"),
    ecdh("x448", &["ecdhx448"], 448, "X448"),
    ecdh("ecdhp256", &["ecdh-p256"], 256, "P-256"),
    ecdh("ecdhp384", &["ecdh-p384"], 384, "P-384"),
    kem("mlkem512", &["ml-kem-512"], PkKind::MlKem, 512, "ML-KEM-512"),
    kem("mlkem768", &["ml-kem-768"], PkKind::MlKem, 768, "ML-KEM-768"),
    kem("mlkem1024", &["ml-kem-1024"], PkKind::MlKem, 1024, "ML-KEM-1024"),
    signature("mldsa44", &["ml-dsa-44"], PkKind::MlDsa, 44, "ML-DSA-44"),
    signature("mldsa65", &["ml-dsa-65"], PkKind::MlDsa, 65, "ML-DSA-65"),
    signature("mldsa87", &["ml-dsa-87"], PkKind::MlDsa, 87, "ML-DSA-87"),
    signature("slhdsa-sha2-128s", &["slh-dsa-sha2-128s"], PkKind::SlhDsa, 128, "SLH-DSA-SHA2-128s"),
    signature("slhdsa-sha2-128f", &["slh-dsa-sha2-128f"], PkKind::SlhDsa, 128, "SLH-DSA-SHA2-128f"),
    signature(
        "slhdsa-shake-128f",
        &["slh-dsa-shake-128f"],
        PkKind::SlhDsa,
        128,
        "SLH-DSA-SHAKE-128f",
    ),
    signature("falcon512", &["falcon-512"], PkKind::Falcon, 512, "Falcon-512"),
    signature("falcon1024", &["falcon-1024"], PkKind::Falcon, 1024, "Falcon-1024"),
    kem("hqc128", &["hqc-128"], PkKind::Hqc, 128, "HQC-128"),
    kem("hqc192", &["hqc-192"], PkKind::Hqc, 192, "HQC-192"),
    kem("hqc256", &["hqc-256"], PkKind::Hqc, 256, "HQC-256"),
];

/// Looks a public-key algorithm up by id or alias, ignoring case.
pub fn find(name: &str) -> Option<&'static PkAlgorithmSpec> {
    let name = name.trim();
    PK_CATALOG
        .iter()
        .find(|a| a.id.eq_ignore_ascii_case(name) || a.aliases.iter().any(|x| x.eq_ignore_ascii_case(name)))
}

/// Looks an id up that is known to be in the catalog (ids that travel in jobs and results).
pub fn get(id: &str) -> Result<&'static PkAlgorithmSpec, crate::catalog::UnknownAlgorithm> {
    find(id).ok_or_else(|| crate::catalog::UnknownAlgorithm(id.to_string()))
}

/// All public-key ids, comma separated, for error messages.
pub fn valid_names() -> String {
    PK_CATALOG.iter().map(|a| a.id).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_apart_from_the_symmetric_catalog() {
        let mut names: Vec<String> = PK_CATALOG
            .iter()
            .flat_map(|a| std::iter::once(a.id).chain(a.aliases.iter().copied()))
            .map(str::to_ascii_lowercase)
            .collect();
        let total = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), total);
        for n in &names {
            assert!(crate::catalog::find(n).is_none(), "{n} is in both catalogs");
        }
    }

    #[test]
    fn openssl_speed_names_are_accepted() {
        for (name, id) in [("ecdhx25519", "x25519"), ("ML-KEM-768", "mlkem768"), ("RSA2048", "rsa2048")] {
            assert_eq!(find(name).map(|a| a.id), Some(id));
        }
        assert!(get("rsa1024").is_err());
    }

    #[test]
    fn defaults_are_offered_operations() {
        for a in PK_CATALOG {
            assert!(a.default_operations.iter().all(|o| a.operations.contains(o)), "{}", a.id);
            assert_eq!(a.signs(), a.operations.contains(&Operation::Sign), "{}", a.id);
        }
        assert_eq!(find("rsa4096-oaep").unwrap().rsa_bytes(), 512);
    }
}

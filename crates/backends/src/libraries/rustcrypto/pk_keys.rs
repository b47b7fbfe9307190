//! The RustCrypto public-key types behind the run's keys
//! (crates/backends/src/pk/keys.rs): RSA keys from their DER, the curve
//! crate of a NIST curve, the ML-KEM and ML-DSA parameter set of an id,
//! and the generator of randomised operations.

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs8::DecodePublicKey;
use rsa::{RsaPrivateKey, RsaPublicKey};

use crate::error::BackendError;
use crate::pk::keys::PkKeys;

pub fn bad(what: impl std::fmt::Display) -> BackendError {
    BackendError::Invalid(what.to_string())
}

/// The generator of randomised operations (blinding, PSS salts, hedged
/// ML-DSA, encapsulation, key generation): ChaCha20 seeded from the OS
/// once per session.
pub fn rng() -> ChaCha20Rng {
    let mut seed = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut seed);
    ChaCha20Rng::from_seed(seed)
}

pub fn array<const N: usize>(v: &[u8]) -> Result<[u8; N], BackendError> {
    v.try_into().map_err(|_| bad(format!("expected {N} bytes, got {}", v.len())))
}

pub fn rsa_private(keys: &PkKeys) -> Result<RsaPrivateKey, BackendError> {
    RsaPrivateKey::from_pkcs1_der(&keys.private_der).map_err(bad)
}

pub fn rsa_public(keys: &PkKeys) -> Result<RsaPublicKey, BackendError> {
    if !keys.public_der.is_empty() {
        return RsaPublicKey::from_public_key_der(&keys.public_der).map_err(bad);
    }
    Ok(rsa_private(keys)?.to_public_key())
}

/// The peer whose public key a key agreement takes.
pub fn peer(keys: &PkKeys) -> Result<&PkKeys, BackendError> {
    keys.peer.as_deref().ok_or_else(|| bad("key agreement needs a peer"))
}

/// Runs `$body` with `$C` the RustCrypto curve crate of a NIST curve.
macro_rules! with_curve {
    ($alg:expr, $C:ident => $body:expr) => {
        match $alg.openssl_name {
            "P-256" => {
                use p256 as $C;
                $body
            }
            "P-384" => {
                use p384 as $C;
                $body
            }
            "P-521" => {
                use p521 as $C;
                $body
            }
            other => Err(BackendError::Unsupported(format!("curve {other}"))),
        }
    };
}

/// Runs `$body` with `$P` the ML-KEM parameter set type.
macro_rules! with_kem {
    ($alg:expr, $P:ident => $body:expr) => {
        match $alg.id {
            "mlkem512" => {
                type $P = ml_kem::MlKem512;
                $body
            }
            "mlkem768" => {
                type $P = ml_kem::MlKem768;
                $body
            }
            "mlkem1024" => {
                type $P = ml_kem::MlKem1024;
                $body
            }
            other => Err(BackendError::Unsupported(format!("{other}"))),
        }
    };
}

/// Runs `$body` with `$P` the ML-DSA parameter set type.
macro_rules! with_dsa {
    ($alg:expr, $P:ident => $body:expr) => {
        match $alg.id {
            "mldsa44" => {
                type $P = ml_dsa::MlDsa44;
                $body
            }
            "mldsa65" => {
                type $P = ml_dsa::MlDsa65;
                $body
            }
            "mldsa87" => {
                type $P = ml_dsa::MlDsa87;
                $body
            }
            other => Err(BackendError::Unsupported(format!("{other}"))),
        }
    };
}

pub(super) use {with_curve, with_dsa, with_kem};

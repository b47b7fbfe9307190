//! What a backend offers for public key (crates/core/src/pk.rs): one-shot
//! calls for verification (known answers, round trips, cross-library checks,
//! Wycheproof vectors) and timed primitives. Every method has a default that
//! says "not offered", so a backend without public key needs nothing.
//!
//! Key material always comes from [`PkKeys`] (crates/backends/src/pk_keys.rs):
//! the same seeded keys for every library, so that deterministic outputs
//! (RSA PKCS#1 v1.5 and EdDSA signatures, derived secrets, ML-KEM/ML-DSA
//! public keys from their seeds) can be compared byte for byte.

use cryptobench_core::pk::PkAlgorithmSpec;
use cryptobench_core::CellSpec;

use crate::error::BackendError;
use crate::pk_keys::PkKeys;
use crate::traits::{Primitive, Support};

fn not_offered<T>(alg: &PkAlgorithmSpec, what: &str) -> Result<T, BackendError> {
    Err(BackendError::Unsupported(format!("{} {what}", alg.id)))
}

/// A library's public-key operations. For RSA and ECDSA the `message` of
/// sign and verify is the precomputed digest (as `openssl speed` signs a
/// buffer it does not hash); EdDSA, ML-DSA and SLH-DSA sign the message itself.
pub trait PkBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support;

    /// The public key of `keys` as the library computes it from the private
    /// key: raw (Ed25519/Ed448/X25519/X448, ML-KEM encapsulation key, ML-DSA
    /// and SLH-DSA public key), the uncompressed point (EC), the modulus (RSA).
    fn public_key(&self, alg: &PkAlgorithmSpec, _keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        not_offered(alg, "public key")
    }
    fn sign(&self, alg: &PkAlgorithmSpec, _keys: &PkKeys, _message: &[u8]) -> Result<Vec<u8>, BackendError> {
        not_offered(alg, "signing")
    }
    /// Ok(false) when the signature does not verify.
    fn verify(&self, alg: &PkAlgorithmSpec, _keys: &PkKeys, _message: &[u8], _signature: &[u8]) -> Result<bool, BackendError> {
        not_offered(alg, "verification")
    }
    fn encrypt(&self, alg: &PkAlgorithmSpec, _keys: &PkKeys, _message: &[u8]) -> Result<Vec<u8>, BackendError> {
        not_offered(alg, "encryption")
    }
    /// Fails with [`BackendError::AuthenticationFailed`] when the ciphertext is rejected.
    fn decrypt(&self, alg: &PkAlgorithmSpec, _keys: &PkKeys, _ciphertext: &[u8]) -> Result<Vec<u8>, BackendError> {
        not_offered(alg, "decryption")
    }
    /// The shared secret of `keys`' private key and its peer's public key.
    fn derive(&self, alg: &PkAlgorithmSpec, _keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        not_offered(alg, "key agreement")
    }
    /// (ciphertext, shared secret) for `keys`' encapsulation key.
    fn encapsulate(&self, alg: &PkAlgorithmSpec, _keys: &PkKeys) -> Result<(Vec<u8>, Vec<u8>), BackendError> {
        not_offered(alg, "encapsulation")
    }
    fn decapsulate(&self, alg: &PkAlgorithmSpec, _keys: &PkKeys, _ciphertext: &[u8]) -> Result<Vec<u8>, BackendError> {
        not_offered(alg, "decapsulation")
    }
    /// Prepares a timed cell: keys imported, contexts and output buffers
    /// made, the signature or ciphertext a verify or decrypt cell checks
    /// computed once. `message` is what sign and verify calls sign.
    fn prepare_pk(
        &self,
        cell: &CellSpec,
        alg: &PkAlgorithmSpec,
        _keys: &PkKeys,
        _message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        not_offered(alg, &format!("{} cells", cell.operation.short()))
    }
}

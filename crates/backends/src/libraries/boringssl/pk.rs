//! BoringSSL's public key through EVP_PKEY ([`super::evp`]): RSA PKCS#1
//! v1.5, PSS and OAEP, ECDSA and ECDH on P-256/384/521, Ed25519 and X25519,
//! each with key generation. BoringSSL has no Curve448 and, in the version
//! boring-sys builds, no ML-KEM or ML-DSA behind EVP_PKEY (its `MLKEM768_*`
//! functions are not in boring-sys's bindings): n/a, saying so.

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::evp::{classic_session, classic_support, load, public_of};
use super::BoringBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::support::Support;

fn support(alg: &PkAlgorithmSpec) -> Result<(), BackendError> {
    match alg.kind {
        PkKind::MlKem | PkKind::MlDsa | PkKind::SlhDsa => Err(BackendError::Unsupported(format!(
            "{}: boring-sys binds no post-quantum EVP_PKEY type of BoringSSL",
            alg.id
        ))),
        _ => classic_support(alg, "BoringSSL"),
    }
}

impl PkLibrary for BoringBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        Support::from(support(alg))
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        support(alg)?;
        public_of(alg, &load(alg, keys)?)
    }

    /// BoringSSL draws k at random, mixing the private key and the digest
    /// into the generator's output (crypto/fipsmodule/ecdsa/ecdsa.c,
    /// `ecdsa_sign_with_nonce_for_known_answer_test` aside).
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Random)
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        support(alg)?;
        classic_session(alg, keys, op)
    }
}

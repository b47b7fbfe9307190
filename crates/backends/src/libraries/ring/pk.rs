//! ring's public key, where its API can take the catalog's cells: Ed25519
//! (`signature::Ed25519KeyPair::from_seed_unchecked`, `sign` per call into
//! a fixed-size `Signature`; verification through `UnparsedPublicKey`; key
//! generation as `Ed25519KeyPair::generate_pkcs8`, ring's only way to make
//! a key pair). The rest is n/a, with ring's reason:
//! - RSA and ECDSA: ring signs only messages it hashes itself
//!   (`RsaKeyPair::sign`, `EcdsaKeyPair::sign` take the message), where the
//!   catalog's RSA and ECDSA cells sign a precomputed digest as
//!   `openssl speed` does; a ring figure would include a hash the others'
//!   do not.
//! - X25519 and ECDH: ring's agreement keys are ephemeral only
//!   (`agreement::EphemeralPrivateKey` is generated, never imported, and
//!   consumed by `agree_ephemeral`), so no call derives from the catalog's
//!   keys, and every agreement would include a key generation.
//! - Ed448, X448, ML-KEM, ML-DSA, SLH-DSA: not in ring.

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;
use ring_crate::rand::SystemRandom;
use ring_crate::signature::{self, Ed25519KeyPair, KeyPair};

use super::RingBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::support::Support;

fn support(alg: &PkAlgorithmSpec) -> Result<(), BackendError> {
    let why = match alg.kind {
        PkKind::EdDsa if alg.openssl_name == "ED25519" => return Ok(()),
        PkKind::RsaPkcs1 | PkKind::RsaPss | PkKind::Ecdsa => {
            "ring signs only messages it hashes itself, not the precomputed digest the catalog's cells sign"
        }
        PkKind::RsaOaep => "ring has no RSA encryption",
        PkKind::Ecdh if alg.openssl_name != "X448" => {
            "ring's agreement keys are ephemeral only (generated, never imported, consumed by agree_ephemeral)"
        }
        _ => "not in ring",
    };
    Err(BackendError::Unsupported(format!("{}: {why}", alg.id)))
}

fn rejected(call: &'static str) -> impl FnOnce(ring_crate::error::KeyRejected) -> BackendError {
    move |e| BackendError::Call {
        call,
        detail: e.to_string(),
    }
}

fn key_pair(keys: &PkKeys) -> Result<Ed25519KeyPair, BackendError> {
    Ed25519KeyPair::from_seed_unchecked(&keys.seed).map_err(rejected("Ed25519KeyPair::from_seed_unchecked"))
}

impl PkLibrary for RingBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        Support::from(support(alg))
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        support(alg)?;
        Ok(key_pair(keys)?.public_key().as_ref().to_vec())
    }

    /// ring's ECDSA is not measured (its signing hashes the message itself).
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        None
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        support(alg)?;
        Ok(match op {
            Operation::Sign => Box::new(Ed25519Signing(key_pair(keys)?)),
            Operation::Verify => Box::new(Ed25519Verifying(if keys.seed.is_empty() {
                keys.public.clone()
            } else {
                key_pair(keys)?.public_key().as_ref().to_vec()
            })),
            Operation::Keygen => Box::new(Ed25519Keygen {
                rng: SystemRandom::new(),
                last: None,
            }),
            _ => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
        })
    }
}

struct Ed25519Signing(Ed25519KeyPair);

impl PkSession for Ed25519Signing {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        signature.clear();
        signature.extend_from_slice(self.0.sign(message).as_ref());
        Ok(())
    }
}

/// The raw public key; `UnparsedPublicKey` parses it per call, as ring's own verification does.
struct Ed25519Verifying(Vec<u8>);

impl PkSession for Ed25519Verifying {
    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        Ok(signature::UnparsedPublicKey::new(&signature::ED25519, &self.0)
            .verify(message, signature)
            .is_ok())
    }
}

/// `Ed25519KeyPair::generate_pkcs8` per call (a PKCS#8 document on the stack).
struct Ed25519Keygen {
    rng: SystemRandom,
    last: Option<ring_crate::pkcs8::Document>,
}

impl PkSession for Ed25519Keygen {
    fn keygen(&mut self) -> Result<(), BackendError> {
        let doc = Ed25519KeyPair::generate_pkcs8(&self.rng).map_err(|_| BackendError::Call {
            call: "Ed25519KeyPair::generate_pkcs8",
            detail: "the system's random generator failed".into(),
        })?;
        self.last = Some(doc);
        Ok(())
    }

    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        match &self.last {
            Some(doc) => Ok(Ed25519KeyPair::from_pkcs8(doc.as_ref())
                .map_err(rejected("Ed25519KeyPair::from_pkcs8"))?
                .public_key()
                .as_ref()
                .to_vec()),
            None => Ok(Vec::new()),
        }
    }
}

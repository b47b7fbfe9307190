//! Public key through the RustCrypto crates: `rsa` (PKCS#1 v1.5, PSS, OAEP,
//! all blinded), `p256`/`p384`/`p521` (ECDSA over a prehashed digest with
//! RFC 6979 nonces, ECDH), `ed25519-dalek`, `x25519-dalek`, `ml-kem` and
//! `ml-dsa` (hedged signing, empty context). Ed448, X448 and SLH-DSA have no
//! released RustCrypto crate the workspace uses: n/a.
//!
//! The sessions are in pk_sessions.rs (those of the crates generic over a
//! curve or parameter set are made by the macros of pk_generic.rs, expanded
//! here per type). The crates' own allocations are
//! theirs (the `rsa` crate computes with heap-allocated big integers and
//! returns results as `Vec`s; `ml-kem`'s and `ml-dsa`'s key expansion and
//! `ml-dsa`'s signing allocate): those sessions name them
//! (`PkSession::allocates`), and the test allows nothing else
//! (crates/backends/tests/pk_every_backend.rs).

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::pk_generic::{ecdh, ecdsa, mldsa, mlkem};
use super::pk_keys::{array, bad, rsa_private, with_curve, with_dsa, with_kem};
use super::pk_sessions;
use super::RustcryptoBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::support::Support;

impl PkLibrary for RustcryptoBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        match (alg.kind, alg.openssl_name) {
            (PkKind::EdDsa, "ED448") | (PkKind::Ecdh, "X448") => {
                Support::Unsupported(format!("{}: the workspace has no released RustCrypto crate for Curve448", alg.id))
            }
            (PkKind::SlhDsa, _) => Support::Unsupported(format!("{}: the workspace has no RustCrypto SLH-DSA crate", alg.id)),
            (PkKind::Falcon | PkKind::Hqc, _) => Support::Unsupported(format!("{}: RustCrypto has no released crate for it", alg.id)),
            _ => Support::Supported,
        }
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        match alg.kind {
            _ if alg.is_rsa() => {
                use rsa::traits::PublicKeyParts;
                let n = rsa_private(keys)?.n().as_ref().to_be_bytes();
                let start = n.iter().position(|&b| b != 0).unwrap_or(0);
                Ok(n[start..].to_vec())
            }
            PkKind::Ecdh if alg.openssl_name == "X25519" => {
                Ok(
                    x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(array::<32>(&keys.seed)?))
                        .as_bytes()
                        .to_vec(),
                )
            }
            PkKind::Ecdsa | PkKind::Ecdh => {
                with_curve!(alg, C => Ok(C::SecretKey::from_slice(&keys.ec_private).map_err(bad)?.public_key().to_sec1_bytes().to_vec()))
            }
            PkKind::EdDsa => Ok(ed25519_dalek::SigningKey::from_bytes(&array(&keys.seed)?)
                .verifying_key()
                .to_bytes()
                .to_vec()),
            PkKind::MlKem => with_kem!(alg, P => {
                use ml_kem::KeyExport;
                let dk = ml_kem::DecapsulationKey::<P>::from_seed(array::<64>(&keys.seed)?.into());
                Ok(dk.encapsulation_key().to_bytes().to_vec())
            }),
            PkKind::MlDsa => with_dsa!(alg, P => {
                let sk = ml_dsa::SigningKey::<P>::from_seed(&array::<32>(&keys.seed)?.into());
                Ok(sk.expanded_key().verifying_key().encode().to_vec())
            }),
            _ => Err(BackendError::Unsupported(alg.id.to_string())),
        }
    }

    /// The `ecdsa` crate's `sign_prehash` derives k by RFC 6979 (HMAC-DRBG
    /// over the key and the digest).
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Rfc6979)
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        if let Support::Unsupported(why) = PkLibrary::pk_support(self, alg) {
            return Err(BackendError::Unsupported(why));
        }
        match alg.kind {
            _ if alg.is_rsa() => pk_sessions::rsa(alg, keys, op),
            PkKind::Ecdsa => with_curve!(alg, C => ecdsa!(C, alg, keys, op)),
            PkKind::EdDsa => pk_sessions::ed25519(alg, keys, op),
            PkKind::Ecdh if op != Operation::Derive => Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
            PkKind::Ecdh if alg.openssl_name == "X25519" => pk_sessions::x25519(keys),
            PkKind::Ecdh => with_curve!(alg, C => ecdh!(C, keys)),
            PkKind::MlKem => with_kem!(alg, P => mlkem!(P, alg, keys, op)),
            PkKind::MlDsa => with_dsa!(alg, P => mldsa!(P, alg, keys, op)),
            _ => Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
        }
    }
}

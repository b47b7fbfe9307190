//! libsodium's public key: Ed25519 (`crypto_sign_ed25519_detached`,
//! `crypto_sign_ed25519_verify_detached`, `crypto_sign_ed25519_keypair`)
//! and X25519 (`crypto_scalarmult_curve25519`). Keys come from the run's
//! seeds (`crypto_sign_ed25519_seed_keypair`); libsodium has no RSA,
//! ECDSA, Curve448 or post-quantum algorithms.
//! API: <https://doc.libsodium.org/public-key_cryptography/public-key_signatures>,
//! <https://doc.libsodium.org/advanced/scalar_multiplication>.

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::pk_api::PkApi;
use super::SodiumBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{fill, PkLibrary, PkSession};
use crate::support::Support;

fn array<const N: usize>(v: &[u8]) -> Result<[u8; N], BackendError> {
    v.try_into()
        .map_err(|_| BackendError::Invalid(format!("expected {N} bytes, got {}", v.len())))
}

fn failed(call: &'static str) -> BackendError {
    BackendError::Call {
        call,
        detail: String::new(),
    }
}

impl SodiumBackend {
    fn pk_api(&self) -> Result<&PkApi, BackendError> {
        self.pk_api
            .as_ref()
            .map_err(|s| BackendError::Unsupported(format!("public key (this libsodium lacks {s})")))
    }

    /// (public key, 64-byte secret key) from a 32-byte seed.
    fn ed25519_keypair(&self, seed: &[u8]) -> Result<([u8; 32], [u8; 64]), BackendError> {
        let api = self.pk_api()?;
        let (mut pk, mut sk) = ([0u8; 32], [0u8; 64]);
        let seed: [u8; 32] = array(seed)?;
        // SAFETY: buffers of the sizes crypto_sign_ed25519 documents.
        if unsafe { (api.crypto_sign_ed25519_seed_keypair)(pk.as_mut_ptr(), sk.as_mut_ptr(), seed.as_ptr()) } != 0 {
            return Err(failed("crypto_sign_ed25519_seed_keypair"));
        }
        Ok((pk, sk))
    }

    /// `crypto_scalarmult_curve25519` of `scalar` and `point`, or of the base point.
    fn x25519(&self, scalar: &[u8], point: Option<&[u8]>) -> Result<[u8; 32], BackendError> {
        let api = self.pk_api()?;
        let n: [u8; 32] = array(scalar)?;
        let mut q = [0u8; 32];
        // SAFETY: 32-byte buffers.
        let rc = unsafe {
            match point {
                Some(p) => (api.crypto_scalarmult_curve25519)(q.as_mut_ptr(), n.as_ptr(), array::<32>(p)?.as_ptr()),
                None => (api.crypto_scalarmult_curve25519_base)(q.as_mut_ptr(), n.as_ptr()),
            }
        };
        if rc != 0 {
            return Err(failed("crypto_scalarmult_curve25519"));
        }
        Ok(q)
    }
}

impl PkLibrary for SodiumBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        if let Err(e) = self.pk_api() {
            return Support::Unsupported(e.to_string());
        }
        match (alg.kind, alg.openssl_name) {
            (PkKind::EdDsa, "ED25519") | (PkKind::Ecdh, "X25519") => Support::Supported,
            _ => Support::Unsupported(format!("{}: libsodium has only Ed25519 and X25519", alg.id)),
        }
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        match alg.kind {
            PkKind::EdDsa => Ok(self.ed25519_keypair(&keys.seed)?.0.to_vec()),
            _ => Ok(self.x25519(&keys.seed, None)?.to_vec()),
        }
    }

    /// libsodium has no ECDSA.
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        None
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        if let Support::Unsupported(why) = PkLibrary::pk_support(self, alg) {
            return Err(BackendError::Unsupported(why));
        }
        let api = self.pk_api()?;
        Ok(match (alg.kind, op) {
            (PkKind::EdDsa, Operation::Sign) => Box::new(Ed25519 {
                api,
                key: self.ed25519_keypair(&keys.seed)?.1,
            }),
            (PkKind::EdDsa, Operation::Verify) => {
                let public = if keys.seed.is_empty() {
                    match array::<32>(&keys.public) {
                        Ok(p) => p,
                        // A public key of another length verifies nothing (test vectors).
                        Err(_) => return Ok(Box::new(Ed25519Verify { api, public: None })),
                    }
                } else {
                    self.ed25519_keypair(&keys.seed)?.0
                };
                Box::new(Ed25519Verify { api, public: Some(public) })
            }
            (PkKind::EdDsa, Operation::Keygen) => Box::new(Keygen {
                api,
                public: [0; 32],
                secret: [0; 64],
            }),
            (PkKind::Ecdh, Operation::Derive) => {
                let peer = keys
                    .peer
                    .as_deref()
                    .ok_or_else(|| BackendError::Invalid("key agreement needs a peer".into()))?;
                let point = if peer.public.is_empty() {
                    self.x25519(&peer.seed, None)?
                } else {
                    array(&peer.public)?
                };
                Box::new(X25519 {
                    api,
                    scalar: array(&keys.seed)?,
                    point,
                })
            }
            (_, other) => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, other.short()))),
        })
    }
}

/// Ed25519 signing: `crypto_sign_ed25519_detached` with the 64-byte secret key.
struct Ed25519<'a> {
    api: &'a PkApi,
    key: [u8; 64],
}

impl PkSession for Ed25519<'_> {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        fill(signature, 64, |out| {
            // SAFETY: room for the 64-byte signature; the message outlives the call.
            let rc = unsafe {
                (self.api.crypto_sign_ed25519_detached)(
                    out,
                    std::ptr::null_mut(),
                    message.as_ptr(),
                    message.len() as u64,
                    self.key.as_ptr(),
                )
            };
            if rc != 0 {
                return Err(failed("crypto_sign_ed25519_detached"));
            }
            Ok(64)
        })
    }
}

/// Ed25519 verification: `crypto_sign_ed25519_verify_detached` with the
/// public key (None: a public key that verifies nothing).
struct Ed25519Verify<'a> {
    api: &'a PkApi,
    public: Option<[u8; 32]>,
}

impl PkSession for Ed25519Verify<'_> {
    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let (Some(public), 64) = (&self.public, signature.len()) else {
            return Ok(false);
        };
        // SAFETY: a 64-byte signature, a 32-byte key.
        Ok(unsafe {
            (self.api.crypto_sign_ed25519_verify_detached)(signature.as_ptr(), message.as_ptr(), message.len() as u64, public.as_ptr())
        } == 0)
    }
}

/// Ed25519 key generation: `crypto_sign_ed25519_keypair`.
struct Keygen<'a> {
    api: &'a PkApi,
    public: [u8; 32],
    secret: [u8; 64],
}

impl PkSession for Keygen<'_> {
    fn keygen(&mut self) -> Result<(), BackendError> {
        // SAFETY: 32- and 64-byte buffers.
        if unsafe { (self.api.crypto_sign_ed25519_keypair)(self.public.as_mut_ptr(), self.secret.as_mut_ptr()) } != 0 {
            return Err(failed("crypto_sign_ed25519_keypair"));
        }
        Ok(())
    }

    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        Ok(self.public.to_vec())
    }
}

/// X25519: `crypto_scalarmult_curve25519` of our scalar and the peer's point.
struct X25519<'a> {
    api: &'a PkApi,
    scalar: [u8; 32],
    point: [u8; 32],
}

impl PkSession for X25519<'_> {
    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        fill(secret, 32, |out| {
            // SAFETY: room for 32 bytes; 32-byte scalar and point.
            if unsafe { (self.api.crypto_scalarmult_curve25519)(out, self.scalar.as_ptr(), self.point.as_ptr()) } != 0 {
                return Err(failed("crypto_scalarmult_curve25519"));
            }
            Ok(32)
        })
    }
}

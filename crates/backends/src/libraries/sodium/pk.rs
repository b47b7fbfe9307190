//! libsodium's public key: Ed25519 (`crypto_sign_ed25519_detached`,
//! `crypto_sign_ed25519_verify_detached`, `crypto_sign_ed25519_keypair`)
//! and X25519 (`crypto_scalarmult_curve25519`). Keys come from the run's
//! seeds (`crypto_sign_ed25519_seed_keypair`); libsodium has no RSA,
//! ECDSA, Curve448 or post-quantum algorithms.
//! API: <https://doc.libsodium.org/public-key_cryptography/public-key_signatures>,
//! <https://doc.libsodium.org/advanced/scalar_multiplication>.

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptobench_core::{CellSpec, Operation};

use super::pk_api::PkApi;
use super::SodiumBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::PkBackend;
use crate::backend::{Primitive, Support};

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

impl PkBackend for SodiumBackend {
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

    fn sign(&self, _alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let (_, sk) = self.ed25519_keypair(&keys.seed)?;
        let mut sig = [0u8; 64];
        // SAFETY: 64-byte signature buffer; the message outlives the call.
        let rc = unsafe {
            (self.pk_api()?.crypto_sign_ed25519_detached)(
                sig.as_mut_ptr(),
                std::ptr::null_mut(),
                message.as_ptr(),
                message.len() as u64,
                sk.as_ptr(),
            )
        };
        if rc != 0 {
            return Err(failed("crypto_sign_ed25519_detached"));
        }
        Ok(sig.to_vec())
    }

    fn verify(&self, _alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let pk = if keys.seed.is_empty() {
            match array::<32>(&keys.public) {
                Ok(p) => p,
                Err(_) => return Ok(false),
            }
        } else {
            self.ed25519_keypair(&keys.seed)?.0
        };
        let Ok(sig) = array::<64>(signature) else { return Ok(false) };
        // SAFETY: 64-byte signature, 32-byte key.
        Ok(unsafe {
            (self.pk_api()?.crypto_sign_ed25519_verify_detached)(sig.as_ptr(), message.as_ptr(), message.len() as u64, pk.as_ptr())
        } == 0)
    }

    fn derive(&self, _alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let peer = keys
            .peer
            .as_deref()
            .ok_or_else(|| BackendError::Invalid("key agreement needs a peer".into()))?;
        let theirs = if peer.public.is_empty() {
            self.x25519(&peer.seed, None)?.to_vec()
        } else {
            peer.public.clone()
        };
        Ok(self.x25519(&keys.seed, Some(&theirs))?.to_vec())
    }

    fn prepare_pk(
        &self,
        cell: &CellSpec,
        alg: &PkAlgorithmSpec,
        keys: &PkKeys,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        if let Support::Unsupported(why) = self.pk_support(alg) {
            return Err(BackendError::Unsupported(why));
        }
        let api = self.pk_api()?;
        Ok(match cell.operation {
            Operation::Sign | Operation::Verify => {
                let (pk, sk) = self.ed25519_keypair(&keys.seed)?;
                let sig: [u8; 64] = array(&self.sign(alg, keys, message)?)?;
                Box::new(Ed25519 {
                    api,
                    sign: cell.operation == Operation::Sign,
                    pk,
                    sk,
                    sig,
                })
            }
            Operation::Keygen => Box::new(Keygen {
                api,
                pk: [0; 32],
                sk: [0; 64],
            }),
            Operation::Derive => {
                let peer = keys
                    .peer
                    .as_deref()
                    .ok_or_else(|| BackendError::Invalid("key agreement needs a peer".into()))?;
                Box::new(X25519 {
                    api,
                    scalar: array(&keys.seed)?,
                    point: array(&peer.public)?,
                    out: [0; 32],
                })
            }
            other => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, other.short()))),
        })
    }
}

struct Ed25519<'a> {
    api: &'a PkApi,
    sign: bool,
    pk: [u8; 32],
    sk: [u8; 64],
    sig: [u8; 64],
}

impl Primitive for Ed25519<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: fixed-size key and signature buffers; buf outlives the call.
            unsafe {
                if self.sign {
                    if (self.api.crypto_sign_ed25519_detached)(
                        self.sig.as_mut_ptr(),
                        std::ptr::null_mut(),
                        buf.as_ptr(),
                        buf.len() as u64,
                        self.sk.as_ptr(),
                    ) != 0
                    {
                        return Err(failed("crypto_sign_ed25519_detached"));
                    }
                } else if (self.api.crypto_sign_ed25519_verify_detached)(
                    self.sig.as_ptr(),
                    buf.as_ptr(),
                    buf.len() as u64,
                    self.pk.as_ptr(),
                ) != 0
                {
                    return Err(BackendError::Invalid("the prepared signature does not verify".into()));
                }
            }
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.sig.to_vec()))
    }
}

struct Keygen<'a> {
    api: &'a PkApi,
    pk: [u8; 32],
    sk: [u8; 64],
}

impl Primitive for Keygen<'_> {
    fn run(&mut self, iterations: u64, _buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: 32- and 64-byte buffers.
            if unsafe { (self.api.crypto_sign_ed25519_keypair)(self.pk.as_mut_ptr(), self.sk.as_mut_ptr()) } != 0 {
                return Err(failed("crypto_sign_ed25519_keypair"));
            }
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.pk.to_vec()))
    }
}

struct X25519<'a> {
    api: &'a PkApi,
    scalar: [u8; 32],
    point: [u8; 32],
    out: [u8; 32],
}

impl Primitive for X25519<'_> {
    fn run(&mut self, iterations: u64, _buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: 32-byte buffers.
            if unsafe { (self.api.crypto_scalarmult_curve25519)(self.out.as_mut_ptr(), self.scalar.as_ptr(), self.point.as_ptr()) } != 0 {
                return Err(failed("crypto_scalarmult_curve25519"));
            }
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out.to_vec()))
    }
}

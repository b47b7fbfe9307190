//! Nettle's EdDSA and X25519/X448 on raw keys (libhogweed, eddsa.h,
//! curve25519.h, curve448.h): Ed25519 (`ed25519_sha512_sign`/`_verify`),
//! Ed448 (`ed448_shake256_sign`/`_verify`), X25519 and X448
//! (`curve25519_mul`, `curve448_mul`); the run's seeds are their private keys.

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::hogweed::Api;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{fill, PkSession};

type SignFn = unsafe extern "C" fn(*const u8, *const u8, usize, *const u8, *mut u8);
type VerifyFn = unsafe extern "C" fn(*const u8, usize, *const u8, *const u8) -> std::ffi::c_int;
type PublicKeyFn = unsafe extern "C" fn(*mut u8, *const u8);
type MulFn = unsafe extern "C" fn(*mut u8, *const u8, *const u8);

/// Key, signature and point lengths of the curve.
fn sizes(alg: &PkAlgorithmSpec) -> (usize, usize) {
    match alg.openssl_name {
        "ED448" => (57, 114),
        "X448" => (56, 0),
        _ => (32, 64),
    }
}

fn is448(alg: &PkAlgorithmSpec) -> bool {
    matches!(alg.openssl_name, "ED448" | "X448")
}

fn exact(v: &[u8], n: usize, what: &str) -> Result<(), BackendError> {
    if v.len() == n {
        Ok(())
    } else {
        Err(BackendError::Invalid(format!("{what} of {} bytes, not {n}", v.len())))
    }
}

/// The public key of a private key: `*_public_key` for EdDSA, `*_mul_g` for X25519/X448.
pub fn public_of(api: &Api, alg: &PkAlgorithmSpec, private: &[u8]) -> Result<Vec<u8>, BackendError> {
    let (n, _) = sizes(alg);
    exact(private, n, "private key")?;
    let mut out = vec![0u8; n];
    // SAFETY: buffers of the curve's key length.
    unsafe {
        match (alg.kind, is448(alg)) {
            (PkKind::EdDsa, false) => (api.nettle_ed25519_sha512_public_key)(out.as_mut_ptr(), private.as_ptr()),
            (PkKind::EdDsa, true) => (api.nettle_ed448_shake256_public_key)(out.as_mut_ptr(), private.as_ptr()),
            (_, false) => (api.nettle_curve25519_mul_g)(out.as_mut_ptr(), private.as_ptr()),
            (_, true) => (api.nettle_curve448_mul_g)(out.as_mut_ptr(), private.as_ptr()),
        }
    }
    Ok(out)
}

/// The session of `op` on `keys`.
pub fn session(api: &Api, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession>, BackendError> {
    let b448 = is448(alg);
    let (n, signature_len) = sizes(alg);
    Ok(match op {
        Operation::Sign | Operation::Verify if alg.kind == PkKind::EdDsa => Box::new(EdDsa {
            sign: if b448 {
                api.nettle_ed448_shake256_sign
            } else {
                api.nettle_ed25519_sha512_sign
            },
            verify: if b448 {
                api.nettle_ed448_shake256_verify
            } else {
                api.nettle_ed25519_sha512_verify
            },
            // Signing checks the private key's length; a public key alone (test vectors) is taken as it is.
            public: if op == Operation::Sign || !keys.seed.is_empty() {
                public_of(api, alg, &keys.seed)?
            } else {
                keys.public.clone()
            },
            private: keys.seed.clone(),
            key_len: n,
            signature_len,
        }),
        Operation::Keygen if alg.kind == PkKind::EdDsa => Box::new(Keygen {
            public_key: if b448 {
                api.nettle_ed448_shake256_public_key
            } else {
                api.nettle_ed25519_sha512_public_key
            },
            private: vec![0u8; n],
            public: vec![0u8; n],
        }),
        Operation::Derive if alg.kind == PkKind::Ecdh => {
            let peer = keys
                .peer
                .as_deref()
                .ok_or_else(|| BackendError::Invalid("key agreement needs a peer".into()))?;
            let point = if peer.public.is_empty() {
                public_of(api, alg, &peer.seed)?
            } else {
                peer.public.clone()
            };
            exact(&keys.seed, n, "private key")?;
            exact(&point, n, "public key")?;
            Box::new(Mul {
                mul: if b448 { api.nettle_curve448_mul } else { api.nettle_curve25519_mul },
                scalar: keys.seed.clone(),
                point,
            })
        }
        other => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, other.short()))),
    })
}

/// `*_sign` / `*_verify` with the key pair's raw bytes.
struct EdDsa {
    sign: SignFn,
    verify: VerifyFn,
    public: Vec<u8>,
    private: Vec<u8>,
    key_len: usize,
    signature_len: usize,
}

impl PkSession for EdDsa {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let n = self.signature_len;
        fill(signature, n, |out| {
            // SAFETY: key buffers of the curve's lengths (checked when made); `out` has room for the signature.
            unsafe { (self.sign)(self.public.as_ptr(), self.private.as_ptr(), message.len(), message.as_ptr(), out) };
            Ok(n)
        })
    }

    /// False for a public key or signature of another length than the curve's.
    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        if self.public.len() != self.key_len || signature.len() != self.signature_len {
            return Ok(false);
        }
        // SAFETY: lengths checked above.
        Ok(unsafe { (self.verify)(self.public.as_ptr(), message.len(), message.as_ptr(), signature.as_ptr()) } == 1)
    }
}

/// A random private key and its public key per call (Nettle has no key
/// generation call: the secret is random bytes, RFC 8032 §5.1.5).
struct Keygen {
    public_key: PublicKeyFn,
    private: Vec<u8>,
    public: Vec<u8>,
}

impl PkSession for Keygen {
    fn keygen(&mut self) -> Result<(), BackendError> {
        rand::RngCore::fill_bytes(&mut rand::rng(), &mut self.private);
        // SAFETY: buffers of the curve's key length.
        unsafe { (self.public_key)(self.public.as_mut_ptr(), self.private.as_ptr()) };
        Ok(())
    }

    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        Ok(self.public.clone())
    }
}

/// `curve25519_mul` / `curve448_mul` of the private key and the peer's public key.
struct Mul {
    mul: MulFn,
    scalar: Vec<u8>,
    point: Vec<u8>,
}

impl PkSession for Mul {
    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let n = self.point.len();
        fill(secret, n, |out| {
            // SAFETY: `out` has room for the curve's length, as the scalar and point have.
            unsafe { (self.mul)(out, self.scalar.as_ptr(), self.point.as_ptr()) };
            Ok(n)
        })
    }
}

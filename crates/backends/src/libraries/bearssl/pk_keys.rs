//! BearSSL's key structures over owned bytes, and its random generator.
//! `br_rsa_private_key`, `br_rsa_public_key` and `br_ec_*_key` hold
//! pointers to the caller's big-endian bytes (bearssl_rsa.h, bearssl_ec.h);
//! the bytes live in the `Vec`s here, whose heap data stays put, and the
//! structures are made per call (plain copies of pointers: no allocation).

use std::ffi::c_int;

use cryptobench_core::pk::PkAlgorithmSpec;

use super::api::*;
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::pk::keys::{PkKeys, RsaParts};

/// An RSA private key in CRT form (BearSSL takes no d).
pub struct RsaPrivate {
    n_bitlen: u32,
    p: Vec<u8>,
    q: Vec<u8>,
    dp: Vec<u8>,
    dq: Vec<u8>,
    iq: Vec<u8>,
}

impl RsaPrivate {
    pub fn of(alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<RsaPrivate, BackendError> {
        let r = keys
            .rsa
            .as_ref()
            .filter(|r| !r.p.is_empty())
            .ok_or_else(|| BackendError::Invalid(format!("{}: no RSA private key", alg.id)))?;
        Ok(RsaPrivate {
            n_bitlen: bit_len(&r.n),
            p: r.p.clone(),
            q: r.q.clone(),
            dp: r.dp.clone(),
            dq: r.dq.clone(),
            iq: r.qinv.clone(),
        })
    }

    pub fn raw(&self) -> RsaPrivateKey {
        RsaPrivateKey {
            n_bitlen: self.n_bitlen,
            p: self.p.as_ptr().cast_mut(),
            plen: self.p.len(),
            q: self.q.as_ptr().cast_mut(),
            qlen: self.q.len(),
            dp: self.dp.as_ptr().cast_mut(),
            dplen: self.dp.len(),
            dq: self.dq.as_ptr().cast_mut(),
            dqlen: self.dq.len(),
            iq: self.iq.as_ptr().cast_mut(),
            iqlen: self.iq.len(),
        }
    }

    /// The modulus length in bytes.
    pub fn len(&self) -> usize {
        self.n_bitlen.div_ceil(8) as usize
    }
}

fn bit_len(be: &[u8]) -> u32 {
    let start = be.iter().position(|&b| b != 0).unwrap_or(be.len());
    match be.get(start) {
        Some(&top) => ((be.len() - start - 1) * 8) as u32 + (8 - top.leading_zeros()),
        None => 0,
    }
}

/// An RSA public key: n and e.
pub struct RsaPublic {
    n: Vec<u8>,
    e: Vec<u8>,
}

impl RsaPublic {
    pub fn of(alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<RsaPublic, BackendError> {
        let parts = match &keys.rsa {
            Some(r) => r.clone(),
            None if !keys.public_der.is_empty() => RsaParts::of_public_der(&keys.public_der).map_err(BackendError::Invalid)?,
            None => return Err(BackendError::Invalid(format!("{}: no RSA public key", alg.id))),
        };
        Ok(RsaPublic { n: parts.n, e: parts.e })
    }

    pub fn raw(&self) -> RsaPublicKey {
        RsaPublicKey {
            n: self.n.as_ptr().cast_mut(),
            nlen: self.n.len(),
            e: self.e.as_ptr().cast_mut(),
            elen: self.e.len(),
        }
    }

    pub fn len(&self) -> usize {
        self.n.len()
    }
}

/// BearSSL's curve id of an EC or X25519 algorithm.
pub fn curve_of(alg: &PkAlgorithmSpec) -> Option<c_int> {
    Some(match alg.openssl_name {
        "P-256" => BR_EC_SECP256R1,
        "P-384" => BR_EC_SECP384R1,
        "P-521" => BR_EC_SECP521R1,
        "X25519" => BR_EC_CURVE25519,
        _ => return None,
    })
}

/// An EC private scalar: big-endian for the NIST curves; X25519's as
/// RFC 7748 writes it (32 bytes, little-endian). bearssl_ec.h:345 says a
/// `mul` multiplier is big-endian, but the Curve25519 code reads RFC 7748's
/// bytes (the RFC 7748 §6.1 known answer passes so, and fails reversed)
/// and clamps them itself (bearssl_ec.h:505-507).
pub struct EcPrivate {
    pub curve: c_int,
    pub x: Vec<u8>,
}

impl EcPrivate {
    pub fn of(alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<EcPrivate, BackendError> {
        let curve = curve_of(alg).ok_or_else(|| BackendError::Unsupported(alg.id.to_string()))?;
        let x = if curve == BR_EC_CURVE25519 {
            keys.seed.clone()
        } else {
            keys.ec_private.clone()
        };
        if x.is_empty() {
            return Err(BackendError::Invalid(format!("{}: no private key", alg.id)));
        }
        Ok(EcPrivate { curve, x })
    }

    pub fn raw(&self) -> EcKey {
        EcKey {
            curve: self.curve,
            data: self.x.as_ptr().cast_mut(),
            len: self.x.len(),
        }
    }

    /// The public point BearSSL computes (`br_ec_compute_pub`): uncompressed for the NIST curves, u for X25519.
    pub fn public(&self, api: &Api, ec: *const EcImpl) -> Result<Vec<u8>, BackendError> {
        let mut out = vec![0u8; 160];
        let sk = self.raw();
        let mut pk = EcKey {
            curve: 0,
            data: std::ptr::null_mut(),
            len: 0,
        };
        // SAFETY: out exceeds BR_EC_KBUF_PUB_MAX_SIZE (145, bearssl_ec.h); sk points at live bytes.
        let n = unsafe { (api.br_ec_compute_pub)(ec, &mut pk, out.as_mut_ptr().cast(), &sk) };
        if n == 0 {
            return Err(BackendError::Call {
                call: "br_ec_compute_pub",
                detail: "returned 0 (curve not supported)".into(),
            });
        }
        out.truncate(n);
        Ok(out)
    }
}

/// BearSSL's HMAC-DRBG (SHA-256) seeded from the system (`br_prng_seeder_system`):
/// the generator OAEP padding and key generation draw from.
pub struct Drbg {
    ctx: CtxMem,
}

impl Drbg {
    pub fn new(api: &Api, sha256: *const HashClass) -> Result<Drbg, BackendError> {
        let mut ctx = CtxMem::new(CTX_BYTES);
        // SAFETY: the memory exceeds br_hmac_drbg_context (api.rs); an empty seed, then the system's.
        unsafe {
            (api.br_hmac_drbg_init)(ctx.ptr(), sha256, std::ptr::null(), 0);
            let seeder = (api.br_prng_seeder_system)(std::ptr::null_mut()).ok_or_else(|| BackendError::Call {
                call: "br_prng_seeder_system",
                detail: "no system seeder in this BearSSL build".into(),
            })?;
            if seeder(ctx.ptr().cast_const().cast()) == 0 {
                return Err(BackendError::Call {
                    call: "br_prng_seeder_system",
                    detail: "the seeder failed".into(),
                });
            }
        }
        Ok(Drbg { ctx })
    }

    /// The `const br_prng_class **` BearSSL's calls take.
    pub fn class(&mut self) -> *const *const PrngClass {
        self.ctx.ptr().cast_const().cast()
    }
}

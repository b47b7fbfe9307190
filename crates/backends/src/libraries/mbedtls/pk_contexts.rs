//! Mbed TLS's public-key contexts as owned values: memory for an opaque
//! context (pk_api.rs gives the sizes), the CTR_DRBG every randomised call
//! takes (seeded from Mbed TLS's own entropy collector, as its
//! programs/pkey/*.c do), a parsed key (`mbedtls_pk_context`), an RSA
//! context of its own (key generation), an ECDH context with both parties
//! set. Each is freed on drop with its `*_free`.

use std::ffi::{c_int, c_void};

use cryptobench_core::pk::PkAlgorithmSpec;

use super::pk_api::*;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;

/// A failed call: Mbed TLS's negative code, in hex as its headers list them.
pub fn check(rc: c_int, call: &'static str) -> Result<(), BackendError> {
    if rc == 0 {
        Ok(())
    } else {
        Err(BackendError::Call {
            call,
            detail: format!("-0x{:04x}", rc.unsigned_abs()),
        })
    }
}

/// Zeroed, 16-byte aligned memory for an opaque context.
pub struct Blob(Box<[u128]>);

impl Blob {
    pub fn new(bytes: usize) -> Blob {
        Blob(vec![0u128; bytes.div_ceil(16)].into_boxed_slice())
    }

    pub fn ptr(&self) -> Ctx {
        self.0.as_ptr() as Ctx
    }
}

/// Mbed TLS's CTR_DRBG over its entropy collector: `f_rng`/`p_rng` of every
/// call that draws randomness (blinding, nonces, padding, key generation).
pub struct Rng<'a> {
    pk: &'a PkApi,
    entropy: Blob,
    drbg: Blob,
}

impl<'a> Rng<'a> {
    pub fn new(pk: &'a PkApi) -> Result<Rng<'a>, BackendError> {
        let rng = Rng {
            pk,
            entropy: Blob::new(ENTROPY_BYTES),
            drbg: Blob::new(PK_CTX_BYTES),
        };
        // SAFETY: contexts in owned memory, initialised before use; the
        // entropy context outlives the DRBG that points to it (both freed in drop).
        unsafe {
            (pk.mbedtls_entropy_init)(rng.entropy.ptr());
            (pk.mbedtls_ctr_drbg_init)(rng.drbg.ptr());
            let personal = b"cryptobench";
            check(
                (pk.mbedtls_ctr_drbg_seed)(
                    rng.drbg.ptr(),
                    pk.mbedtls_entropy_func,
                    rng.entropy.ptr(),
                    personal.as_ptr(),
                    personal.len(),
                ),
                "mbedtls_ctr_drbg_seed",
            )?;
        }
        Ok(rng)
    }

    pub fn f(&self) -> RngFn {
        self.pk.mbedtls_ctr_drbg_random
    }

    pub fn p(&self) -> *mut c_void {
        self.drbg.ptr()
    }
}

impl Drop for Rng<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in new.
        unsafe {
            (self.pk.mbedtls_ctr_drbg_free)(self.drbg.ptr());
            (self.pk.mbedtls_entropy_free)(self.entropy.ptr());
        }
    }
}

/// A parsed key (`mbedtls_pk_context`).
pub struct Pk<'a> {
    pub api: &'a PkApi,
    mem: Blob,
}

impl<'a> Pk<'a> {
    pub fn new(api: &'a PkApi) -> Pk<'a> {
        let mem = Blob::new(PK_CTX_BYTES);
        // SAFETY: owned memory.
        unsafe { (api.mbedtls_pk_init)(mem.ptr()) };
        Pk { api, mem }
    }

    pub fn ptr(&self) -> Ctx {
        self.mem.ptr()
    }

    /// Frees the key and initialises the context again in the same memory
    /// (`mbedtls_pk_free`, `mbedtls_pk_init`): a new key needs no new memory
    /// of ours.
    pub fn reset(&self) {
        // SAFETY: initialised in new; init after free makes it a fresh context.
        unsafe {
            (self.api.mbedtls_pk_free)(self.ptr());
            (self.api.mbedtls_pk_init)(self.ptr());
        }
    }

    /// The key's own context (`pk_ctx`, pk.h: what the inline
    /// `mbedtls_pk_rsa()` and `mbedtls_pk_ec()` return): an RSA context or
    /// an `mbedtls_ecp_keypair`.
    pub fn inner(&self) -> Ctx {
        // SAFETY: pk_ctx is the second pointer of mbedtls_pk_context (pk.h, 2.x).
        unsafe { *(self.mem.ptr() as *const Ctx).add(1) }
    }

    /// The private key of `keys` (PKCS#1 or SEC1 DER), or its public key
    /// alone (SubjectPublicKeyInfo) for test vectors.
    pub fn load(api: &'a PkApi, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Pk<'a>, BackendError> {
        let pk = Pk::new(api);
        // SAFETY: a live context; the DER outlives the calls, which copy it.
        unsafe {
            if !keys.private_der.is_empty() {
                let der = &keys.private_der;
                check(
                    (api.mbedtls_pk_parse_key)(pk.ptr(), der.as_ptr(), der.len(), std::ptr::null(), 0),
                    "mbedtls_pk_parse_key",
                )?;
            } else {
                let der = if keys.public_der.is_empty() && !alg.is_rsa() {
                    crate::pk::encoding::ec_spki(alg, &keys.public)
                } else {
                    keys.public_der.clone()
                };
                check(
                    (api.mbedtls_pk_parse_public_key)(pk.ptr(), der.as_ptr(), der.len()),
                    "mbedtls_pk_parse_public_key",
                )?;
            }
        }
        Ok(pk)
    }

    /// The SubjectPublicKeyInfo (`mbedtls_pk_write_pubkey_der` writes at the buffer's end).
    pub fn public_der(&self) -> Result<Vec<u8>, BackendError> {
        let mut buf = vec![0u8; 2048];
        // SAFETY: a live key; the call writes at most buf.len() bytes.
        let n = unsafe { (self.api.mbedtls_pk_write_pubkey_der)(self.ptr(), buf.as_mut_ptr(), buf.len()) };
        if n <= 0 {
            check(n.min(-1), "mbedtls_pk_write_pubkey_der")?;
        }
        Ok(buf.split_off(buf.len() - n as usize))
    }
}

impl Drop for Pk<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in new.
        unsafe { (self.api.mbedtls_pk_free)(self.ptr()) };
    }
}

/// An `mbedtls_ecp_keypair` of our own (X25519/X448 scalars, ECDH keys).
pub struct Keypair<'a> {
    api: &'a PkApi,
    mem: Blob,
}

impl<'a> Keypair<'a> {
    /// `mbedtls_ecp_read_key`: a private scalar, big-endian on Weierstrass
    /// curves, little-endian (and clamped, RFC 7748) on Montgomery curves.
    pub fn read(api: &'a PkApi, group: c_int, scalar: &[u8]) -> Result<Keypair<'a>, BackendError> {
        let kp = Keypair {
            api,
            mem: Blob::new(PK_CTX_BYTES),
        };
        // SAFETY: owned memory, initialised, then filled.
        unsafe {
            (api.mbedtls_ecp_keypair_init)(kp.mem.ptr());
            check(
                (api.mbedtls_ecp_read_key)(group, kp.mem.ptr(), scalar.as_ptr(), scalar.len()),
                "mbedtls_ecp_read_key",
            )?;
        }
        Ok(kp)
    }
}

impl Drop for Keypair<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in read.
        unsafe { (self.api.mbedtls_ecp_keypair_free)(self.mem.ptr()) };
    }
}

/// An ECDH context with our private key and the peer's public key set.
pub struct Ecdh<'a> {
    api: &'a PkApi,
    mem: Blob,
}

impl<'a> Ecdh<'a> {
    /// `ours` through `mbedtls_ecdh_get_params`, the peer's public key
    /// through `mbedtls_ecdh_read_public` (the TLS encoding: a length byte,
    /// then the point: uncompressed on NIST curves, the u-coordinate on
    /// Montgomery curves).
    pub fn new(api: &'a PkApi, ours: &Keypair<'_>, peer_public: &[u8]) -> Result<Ecdh<'a>, BackendError> {
        let ecdh = Ecdh {
            api,
            mem: Blob::new(PK_CTX_BYTES),
        };
        let mut tls = Vec::with_capacity(peer_public.len() + 1);
        tls.push(u8::try_from(peer_public.len()).map_err(|_| BackendError::Invalid("a public key over 255 bytes".into()))?);
        tls.extend_from_slice(peer_public);
        // SAFETY: owned memory, initialised, then set up from live values.
        unsafe {
            (api.mbedtls_ecdh_init)(ecdh.mem.ptr());
            check(
                (api.mbedtls_ecdh_get_params)(ecdh.mem.ptr(), ours.mem.ptr(), MBEDTLS_ECDH_OURS),
                "mbedtls_ecdh_get_params",
            )?;
            check(
                (api.mbedtls_ecdh_read_public)(ecdh.mem.ptr(), tls.as_ptr(), tls.len()),
                "mbedtls_ecdh_read_public",
            )?;
        }
        Ok(ecdh)
    }

    pub fn ptr(&self) -> Ctx {
        self.mem.ptr()
    }
}

impl Drop for Ecdh<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in new.
        unsafe { (self.api.mbedtls_ecdh_free)(self.mem.ptr()) };
    }
}

/// Whether Mbed TLS was built with the curve (`mbedtls_ecp_curve_info_from_grp_id`).
pub fn has_curve(api: &PkApi, group: c_int) -> bool {
    // SAFETY: a table lookup.
    !unsafe { (api.mbedtls_ecp_curve_info_from_grp_id)(group) }.is_null()
}

/// The group of a catalog curve, with the digest its ECDSA signs (md.h's ids).
pub fn group_of(alg: &PkAlgorithmSpec) -> Option<c_int> {
    Some(match alg.openssl_name {
        "P-256" => MBEDTLS_ECP_DP_SECP256R1,
        "P-384" => MBEDTLS_ECP_DP_SECP384R1,
        "P-521" => MBEDTLS_ECP_DP_SECP521R1,
        "X25519" => MBEDTLS_ECP_DP_CURVE25519,
        "X448" => MBEDTLS_ECP_DP_CURVE448,
        _ => return None,
    })
}

//! The run's seeded keys as wolfCrypt key structures: RSA from its PKCS#1
//! DER (`wc_RsaPrivateKeyDecode`) or SubjectPublicKeyInfo
//! (`wc_RsaPublicKeyDecode`, else n and e through `wc_RsaPublicKeyDecodeRaw`),
//! the NIST curves from the scalar and the uncompressed point
//! (`wc_ecc_import_private_key_ex`, `wc_ecc_import_x963_ex`, else the
//! SubjectPublicKeyInfo through `wc_EccPublicKeyDecode`), Ed25519/Ed448 from
//! the seed with the public key wolfCrypt computes from it
//! (`wc_ed*_make_public`, then `wc_ed*_import_private_key`), X25519/X448
//! from the scalar, little-endian as RFC 7748 writes it.

use std::ffi::c_int;

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};

use super::api::Api;
use super::pk_api::*;
use super::sessions::{check, len32};
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::pk::keys::PkKeys;

/// The structure a key lives in, which decides how it is made and freed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Rsa,
    Ecc,
    Ed25519,
    Ed448,
    X25519,
    X448,
}

impl Kind {
    pub fn of(alg: &PkAlgorithmSpec) -> Option<Kind> {
        Some(match (alg.kind, alg.openssl_name) {
            (PkKind::RsaPkcs1 | PkKind::RsaPss | PkKind::RsaOaep, _) => Kind::Rsa,
            (PkKind::Ecdsa | PkKind::Ecdh, "P-256" | "P-384" | "P-521") => Kind::Ecc,
            (PkKind::EdDsa, "ED25519") => Kind::Ed25519,
            (PkKind::EdDsa, "ED448") => Kind::Ed448,
            (PkKind::Ecdh, "X25519") => Kind::X25519,
            (PkKind::Ecdh, "X448") => Kind::X448,
            _ => return None,
        })
    }

    /// Raw key length of the Edwards and Montgomery curves (RFC 8032, RFC 7748).
    pub fn raw_len(self) -> usize {
        match self {
            Kind::Ed448 => 57,
            Kind::X448 => 56,
            _ => 32,
        }
    }
}

/// wolfCrypt's `ecc_curve_id` of a NIST curve.
pub fn curve_id(alg: &PkAlgorithmSpec) -> Result<c_int, BackendError> {
    Ok(match alg.openssl_name {
        "P-256" => ECC_SECP256R1,
        "P-384" => ECC_SECP384R1,
        "P-521" => ECC_SECP521R1,
        other => return Err(BackendError::Unsupported(format!("{other} keys"))),
    })
}

/// One initialised wolfCrypt key, freed on drop.
pub struct WcKey<'a> {
    pk: &'a PkApi,
    pub kind: Kind,
    pub ptr: Key,
    /// The structure's memory, where wolfCrypt has no allocating constructor.
    _mem: Option<CtxMem>,
}

impl<'a> WcKey<'a> {
    /// An empty key of `kind` (`wc_InitRsaKey`, `wc_ecc_key_new`, `wc_ed*_init`, `wc_curve*_init`).
    pub fn new(api: &Api, pk: &'a PkApi, kind: Kind) -> Result<WcKey<'a>, BackendError> {
        if kind == Kind::Ecc {
            // SAFETY: allocates and initialises a key (NULL heap hint: the default allocator).
            let ptr = unsafe { need!(pk, wc_ecc_key_new)(std::ptr::null_mut()) };
            need!(pk, wc_ecc_key_free);
            if ptr.is_null() {
                return Err(BackendError::Call {
                    call: "wc_ecc_key_new",
                    detail: "no memory".into(),
                });
            }
            return Ok(WcKey { pk, kind, ptr, _mem: None });
        }
        let mut mem = CtxMem::new(KEY_BYTES);
        let ptr = mem.ptr();
        // SAFETY (each call): initialises the structure in `mem`, larger than it (KEY_BYTES).
        let (rc, call) = match kind {
            Kind::Rsa => {
                need!(pk, wc_FreeRsaKey);
                (unsafe { need!(pk, wc_InitRsaKey)(ptr, std::ptr::null_mut()) }, "wc_InitRsaKey")
            }
            Kind::Ed25519 => (unsafe { need!(pk, wc_ed25519_init)(ptr) }, "wc_ed25519_init"),
            Kind::Ed448 => (unsafe { need!(pk, wc_ed448_init)(ptr) }, "wc_ed448_init"),
            Kind::X25519 => (unsafe { need!(pk, wc_curve25519_init)(ptr) }, "wc_curve25519_init"),
            Kind::X448 => (unsafe { need!(pk, wc_curve448_init)(ptr) }, "wc_curve448_init"),
            Kind::Ecc => unreachable!("made above"),
        };
        check(api, rc, call)?;
        Ok(WcKey {
            pk,
            kind,
            ptr,
            _mem: Some(mem),
        })
    }
}

impl WcKey<'_> {
    /// Frees what the key holds and initialises it again in its own memory
    /// (`wc_FreeRsaKey` + `wc_InitRsaKey`, `wc_ecc_free` + `wc_ecc_init`,
    /// `wc_ed*_free` + `wc_ed*_init`): before each key generation, which
    /// then allocates nothing on Rust's side.
    pub fn reset(&mut self, api: &Api) -> Result<(), BackendError> {
        let (pk, p) = (self.pk, self.ptr);
        // SAFETY (each call): an initialised key of the call's type, cleared, then initialised in place.
        let (rc, call) = unsafe {
            match self.kind {
                Kind::Rsa => {
                    need!(pk, wc_FreeRsaKey)(p);
                    (need!(pk, wc_InitRsaKey)(p, std::ptr::null_mut()), "wc_InitRsaKey")
                }
                Kind::Ecc => {
                    need!(pk, wc_ecc_free)(p);
                    (need!(pk, wc_ecc_init)(p), "wc_ecc_init")
                }
                Kind::Ed25519 => {
                    need!(pk, wc_ed25519_free)(p);
                    (need!(pk, wc_ed25519_init)(p), "wc_ed25519_init")
                }
                Kind::Ed448 => {
                    need!(pk, wc_ed448_free)(p);
                    (need!(pk, wc_ed448_init)(p), "wc_ed448_init")
                }
                Kind::X25519 | Kind::X448 => return Err(BackendError::Unsupported("key generation for key agreement".into())),
            }
        };
        check(api, rc, call)
    }
}

impl Drop for WcKey<'_> {
    fn drop(&mut self) {
        let (pk, ptr) = (self.pk, self.ptr);
        // SAFETY (each call): an initialised key, freed once (its memory, where ours, after this).
        unsafe {
            match self.kind {
                Kind::Rsa => {
                    if let Some(free) = pk.wc_FreeRsaKey {
                        free(ptr);
                    }
                }
                Kind::Ecc => {
                    if let Some(free) = pk.wc_ecc_key_free {
                        free(ptr);
                    }
                }
                Kind::Ed25519 => {
                    if let Some(free) = pk.wc_ed25519_free {
                        free(ptr)
                    }
                }
                Kind::Ed448 => {
                    if let Some(free) = pk.wc_ed448_free {
                        free(ptr)
                    }
                }
                Kind::X25519 => {
                    if let Some(free) = pk.wc_curve25519_free {
                        free(ptr)
                    }
                }
                Kind::X448 => {
                    if let Some(free) = pk.wc_curve448_free {
                        free(ptr)
                    }
                }
            }
        }
    }
}

/// wolfCrypt's DRBG (`wc_rng_new`), for RSA blinding, PSS salts, OAEP seeds,
/// ECDSA nonces and ECDH blinding.
pub struct Random<'a> {
    pk: &'a PkApi,
    pub rng: Rng,
}

impl<'a> Random<'a> {
    pub fn new(pk: &'a PkApi) -> Result<Random<'a>, BackendError> {
        need!(pk, wc_rng_free);
        // SAFETY: no nonce, the default heap; NULL on failure.
        let rng = unsafe { need!(pk, wc_rng_new)(std::ptr::null_mut(), 0, std::ptr::null_mut()) };
        if rng.is_null() {
            return Err(BackendError::Call {
                call: "wc_rng_new",
                detail: "the DRBG could not be seeded".into(),
            });
        }
        Ok(Random { pk, rng })
    }
}

impl Drop for Random<'_> {
    fn drop(&mut self) {
        if let Some(free) = self.pk.wc_rng_free {
            // SAFETY: owned, freed once (after the keys that point to it: fields drop in order).
            unsafe { free(self.rng) };
        }
    }
}

/// The private key of `keys`. An RSA or EC key gets `rng` for blinding
/// (`wc_RsaSetRNG`, `wc_ecc_set_rng`): wolfCrypt's RSA private operation
/// and its ECDH (built with `WC_RSA_BLINDING` and `ECC_TIMING_RESISTANT`)
/// fail without one.
pub fn private<'a>(api: &Api, pk: &'a PkApi, alg: &PkAlgorithmSpec, keys: &PkKeys, rng: Rng) -> Result<WcKey<'a>, BackendError> {
    let kind = Kind::of(alg).ok_or_else(|| BackendError::Unsupported(format!("{} keys", alg.id)))?;
    let key = WcKey::new(api, pk, kind)?;
    let p = key.ptr;
    match kind {
        Kind::Rsa => {
            let der = &keys.private_der;
            let mut idx = 0u32;
            // SAFETY: a live key; `der` holds its length.
            let rc = unsafe { need!(pk, wc_RsaPrivateKeyDecode)(der.as_ptr(), &mut idx, p, len32(der.len())?) };
            check(api, rc, "wc_RsaPrivateKeyDecode")?;
            // SAFETY: a live key and generator (the generator outlives the key in every session).
            check(api, unsafe { need!(pk, wc_RsaSetRNG)(p, rng) }, "wc_RsaSetRNG")?;
        }
        Kind::Ecc => {
            let (scalar, point) = (&keys.ec_private, &keys.public);
            let point_ptr = if point.is_empty() { std::ptr::null() } else { point.as_ptr() };
            // SAFETY: a live key; the inputs hold their lengths (no point: a private-only key).
            let rc = unsafe {
                need!(pk, wc_ecc_import_private_key_ex)(
                    scalar.as_ptr(),
                    len32(scalar.len())?,
                    point_ptr,
                    len32(point.len())?,
                    p,
                    curve_id(alg)?,
                )
            };
            check(api, rc, "wc_ecc_import_private_key_ex")?;
            // SAFETY: a live key and generator.
            check(api, unsafe { need!(pk, wc_ecc_set_rng)(p, rng) }, "wc_ecc_set_rng")?;
        }
        Kind::Ed25519 | Kind::Ed448 => {
            let seed = raw(&keys.seed, kind, "private key")?;
            let mut public = [0u8; 57];
            let public = &mut public[..kind.raw_len()];
            let n = len32(seed.len())?;
            // SAFETY (each call): a live key; the buffers hold their lengths.
            let rc = unsafe {
                if kind == Kind::Ed25519 {
                    need!(pk, wc_ed25519_import_private_only)(seed.as_ptr(), n, p)
                } else {
                    need!(pk, wc_ed448_import_private_only)(seed.as_ptr(), n, p)
                }
            };
            check(api, rc, "wc_ed*_import_private_only")?;
            let rc = unsafe {
                if kind == Kind::Ed25519 {
                    need!(pk, wc_ed25519_make_public)(p, public.as_mut_ptr(), n)
                } else {
                    need!(pk, wc_ed448_make_public)(p, public.as_mut_ptr(), n)
                }
            };
            check(api, rc, "wc_ed*_make_public")?;
            let rc = unsafe {
                if kind == Kind::Ed25519 {
                    need!(pk, wc_ed25519_import_private_key)(seed.as_ptr(), n, public.as_ptr(), n, p)
                } else {
                    need!(pk, wc_ed448_import_private_key)(seed.as_ptr(), n, public.as_ptr(), n, p)
                }
            };
            check(api, rc, "wc_ed*_import_private_key")?;
        }
        Kind::X25519 | Kind::X448 => {
            let scalar = clamped(&keys.seed, kind)?;
            let n = len32(scalar.len())?;
            // SAFETY: a live key; the scalar holds its length.
            let rc = unsafe {
                if kind == Kind::X25519 {
                    need!(pk, wc_curve25519_import_private_ex)(scalar.as_ptr(), n, p, LITTLE_ENDIAN)
                } else {
                    need!(pk, wc_curve448_import_private_ex)(scalar.as_ptr(), n, p, LITTLE_ENDIAN)
                }
            };
            check(api, rc, "wc_curve*_import_private_ex")?;
        }
    }
    Ok(key)
}

/// The public key of `keys` (for verification, encryption, or as a peer).
pub fn public<'a>(api: &Api, pk: &'a PkApi, alg: &PkAlgorithmSpec, keys: &PkKeys, rng: Rng) -> Result<WcKey<'a>, BackendError> {
    let kind = Kind::of(alg).ok_or_else(|| BackendError::Unsupported(format!("{} keys", alg.id)))?;
    let no_public = || BackendError::Invalid(format!("{}: no public key to import", alg.id));
    let key = WcKey::new(api, pk, kind)?;
    let p = key.ptr;
    match kind {
        Kind::Rsa if !keys.public_der.is_empty() => {
            let der = &keys.public_der;
            let mut idx = 0u32;
            // SAFETY: a live key; `der` holds its length.
            let rc = unsafe { need!(pk, wc_RsaPublicKeyDecode)(der.as_ptr(), &mut idx, p, len32(der.len())?) };
            check(api, rc, "wc_RsaPublicKeyDecode")?;
        }
        Kind::Rsa => {
            let r = keys.rsa.as_ref().ok_or_else(no_public)?;
            // SAFETY: a live key; n and e hold their lengths.
            let rc = unsafe { need!(pk, wc_RsaPublicKeyDecodeRaw)(r.n.as_ptr(), len32(r.n.len())?, r.e.as_ptr(), len32(r.e.len())?, p) };
            check(api, rc, "wc_RsaPublicKeyDecodeRaw")?;
        }
        Kind::Ecc if !keys.public.is_empty() => {
            let point = &keys.public;
            // SAFETY: a live key; the point holds its length.
            let rc = unsafe { need!(pk, wc_ecc_import_x963_ex)(point.as_ptr(), len32(point.len())?, p, curve_id(alg)?) };
            check(api, rc, "wc_ecc_import_x963_ex")?;
        }
        Kind::Ecc if !keys.public_der.is_empty() => {
            let der = &keys.public_der;
            let mut idx = 0u32;
            // SAFETY: a live key; `der` holds its length.
            let rc = unsafe { need!(pk, wc_EccPublicKeyDecode)(der.as_ptr(), &mut idx, p, len32(der.len())?) };
            check(api, rc, "wc_EccPublicKeyDecode")?;
        }
        Kind::Ed25519 | Kind::Ed448 | Kind::X25519 | Kind::X448 => {
            drop(key);
            let raw_key = raw_public(api, pk, alg, keys)?;
            return raw_public_key(api, pk, kind, &raw_key);
        }
        Kind::Ecc if !keys.ec_private.is_empty() => {
            drop(key);
            let key = private(api, pk, alg, keys, rng)?;
            // SAFETY: a live key; computes its point in place.
            check(
                api,
                unsafe { need!(pk, wc_ecc_make_pub)(key.ptr, std::ptr::null_mut()) },
                "wc_ecc_make_pub",
            )?;
            return Ok(key);
        }
        Kind::Ecc => return Err(no_public()),
    }
    Ok(key)
}

/// A key holding the raw public key `raw` of an Edwards or Montgomery curve.
fn raw_public_key<'a>(api: &Api, pk: &'a PkApi, kind: Kind, raw: &[u8]) -> Result<WcKey<'a>, BackendError> {
    let key = WcKey::new(api, pk, kind)?;
    let (p, n) = (key.ptr, len32(raw.len())?);
    // SAFETY (each call): a live key; `raw` holds its length.
    let rc = unsafe {
        match kind {
            Kind::Ed25519 => need!(pk, wc_ed25519_import_public)(raw.as_ptr(), n, p),
            Kind::Ed448 => need!(pk, wc_ed448_import_public)(raw.as_ptr(), n, p),
            Kind::X25519 => need!(pk, wc_curve25519_import_public_ex)(raw.as_ptr(), n, p, LITTLE_ENDIAN),
            _ => need!(pk, wc_curve448_import_public_ex)(raw.as_ptr(), n, p, LITTLE_ENDIAN),
        }
    };
    check(api, rc, "wc_*_import_public")?;
    Ok(key)
}

/// The raw public key of an Edwards or Montgomery `keys`: as given, else
/// computed by wolfCrypt from the private key.
pub fn raw_public(api: &Api, pk: &PkApi, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
    let kind = Kind::of(alg).ok_or_else(|| BackendError::Unsupported(format!("{} keys", alg.id)))?;
    if !keys.public.is_empty() {
        return Ok(keys.public.clone());
    }
    computed_public(api, pk, alg, kind, keys)
}

/// The public key wolfCrypt computes from the private key: the raw key
/// (Edwards, Montgomery), the uncompressed point (EC), the modulus (RSA).
pub fn computed_public(api: &Api, pk: &PkApi, alg: &PkAlgorithmSpec, kind: Kind, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
    let mut out = vec![0u8; 1024];
    let n = match kind {
        Kind::X25519 | Kind::X448 => {
            let scalar = clamped(&keys.seed, kind)?;
            let n = kind.raw_len() as c_int;
            // SAFETY: `out` and the scalar hold at least `n` bytes.
            let rc = unsafe {
                if kind == Kind::X25519 {
                    need!(pk, wc_curve25519_make_pub)(n, out.as_mut_ptr(), n, scalar.as_ptr())
                } else {
                    need!(pk, wc_curve448_make_pub)(n, out.as_mut_ptr(), n, scalar.as_ptr())
                }
            };
            check(api, rc, "wc_curve*_make_pub")?;
            kind.raw_len()
        }
        Kind::Ed25519 | Kind::Ed448 => {
            let key = private(api, pk, alg, keys, std::ptr::null_mut())?;
            let n = kind.raw_len();
            // SAFETY: a live key; `out` holds more than `n` bytes.
            let rc = unsafe {
                if kind == Kind::Ed25519 {
                    need!(pk, wc_ed25519_make_public)(key.ptr, out.as_mut_ptr(), n as u32)
                } else {
                    need!(pk, wc_ed448_make_public)(key.ptr, out.as_mut_ptr(), n as u32)
                }
            };
            check(api, rc, "wc_ed*_make_public")?;
            n
        }
        Kind::Ecc => {
            let rng = super::pk_keys::Random::new(pk)?;
            let bare = PkKeys {
                ec_private: keys.ec_private.clone(),
                ..PkKeys::default()
            };
            let key = private(api, pk, alg, &bare, rng.rng)?;
            // SAFETY: a live key; computes its point in place.
            check(
                api,
                unsafe { need!(pk, wc_ecc_make_pub)(key.ptr, std::ptr::null_mut()) },
                "wc_ecc_make_pub",
            )?;
            let mut n = out.len() as u32;
            // SAFETY: a live key; `out` holds `n` bytes.
            check(
                api,
                unsafe { need!(pk, wc_ecc_export_x963)(key.ptr, out.as_mut_ptr(), &mut n) },
                "wc_ecc_export_x963",
            )?;
            n as usize
        }
        Kind::Rsa => {
            let rng = super::pk_keys::Random::new(pk)?;
            let key = private(api, pk, alg, keys, rng.rng)?;
            let (mut e, mut en, mut nn) = ([0u8; 16], 16u32, out.len() as u32);
            // SAFETY: a live key; the buffers hold the lengths given.
            let rc = unsafe { need!(pk, wc_RsaFlattenPublicKey)(key.ptr, e.as_mut_ptr(), &mut en, out.as_mut_ptr(), &mut nn) };
            check(api, rc, "wc_RsaFlattenPublicKey")?;
            nn as usize
        }
    };
    out.truncate(n);
    Ok(out)
}

fn raw(bytes: &[u8], kind: Kind, what: &str) -> Result<Vec<u8>, BackendError> {
    if bytes.len() != kind.raw_len() {
        return Err(BackendError::Invalid(format!(
            "{what}: {} bytes, not {}",
            bytes.len(),
            kind.raw_len()
        )));
    }
    Ok(bytes.to_vec())
}

/// An X25519/X448 scalar as RFC 7748 §5 decodes it (decodeScalar25519/448:
/// the low bits cleared, the top bit set), which wolfCrypt's import expects
/// already done.
fn clamped(seed: &[u8], kind: Kind) -> Result<Vec<u8>, BackendError> {
    let mut k = raw(seed, kind, "private key")?;
    let last = k.len() - 1;
    if kind == Kind::X25519 {
        k[0] &= 248;
        k[last] &= 127;
        k[last] |= 64;
    } else {
        k[0] &= 252;
        k[last] |= 128;
    }
    Ok(k)
}

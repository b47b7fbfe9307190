//! The run's seeded keys as Botan key objects (botan/ffi.h): RSA from its
//! PKCS#1 DER (`botan_privkey_load_rsa_pkcs1`) or SubjectPublicKeyInfo
//! (`botan_pubkey_load`, else n and e), the NIST curves from the scalar
//! and the point's coordinates (`botan_privkey_load_ecdsa`/`_ecdh`,
//! `botan_pubkey_load_ecdsa`), Ed25519 and X25519 from their raw keys.

use std::ffi::CString;

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};

use super::api::Api;
use super::pk_api::*;
use super::sessions::check;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;

/// Botan's name of a NIST curve (Botan handbook, "Elliptic Curves").
pub fn curve_name(alg: &PkAlgorithmSpec) -> Option<&'static str> {
    Some(match alg.openssl_name {
        "P-256" => "secp256r1",
        "P-384" => "secp384r1",
        "P-521" => "secp521r1",
        _ => return None,
    })
}

/// An owned Botan multi-precision integer.
struct Integer<'a> {
    pk: &'a PkApi,
    mp: Mp,
}

impl<'a> Integer<'a> {
    fn of(api: &Api, pk: &'a PkApi, bytes: &[u8]) -> Result<Integer<'a>, BackendError> {
        let mut mp: Mp = std::ptr::null_mut();
        // SAFETY: writes a new integer handle.
        check(api, unsafe { (pk.botan_mp_init)(&mut mp) }, "botan_mp_init")?;
        let int = Integer { pk, mp };
        // SAFETY: a live integer; `bytes` holds its length.
        check(
            api,
            unsafe { (pk.botan_mp_from_bin)(mp, bytes.as_ptr(), bytes.len()) },
            "botan_mp_from_bin",
        )?;
        Ok(int)
    }
}

impl Drop for Integer<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, destroyed once.
        unsafe { (self.pk.botan_mp_destroy)(self.mp) };
    }
}

/// An owned private key.
pub struct Private<'a> {
    pub pk: &'a PkApi,
    pub key: PrivKey,
}

impl Drop for Private<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, destroyed once.
        unsafe { (self.pk.botan_privkey_destroy)(self.key) };
    }
}

/// An owned public key.
pub struct Public<'a> {
    pub pk: &'a PkApi,
    pub key: PubKey,
}

impl Drop for Public<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, destroyed once.
        unsafe { (self.pk.botan_pubkey_destroy)(self.key) };
    }
}

fn curve_c(alg: &PkAlgorithmSpec) -> Result<CString, BackendError> {
    let name = curve_name(alg).ok_or_else(|| BackendError::Unsupported(format!("{} keys", alg.id)))?;
    Ok(CString::new(name).expect("no NUL"))
}

fn array32(bytes: &[u8], what: &str) -> Result<[u8; 32], BackendError> {
    bytes
        .try_into()
        .map_err(|_| BackendError::Invalid(format!("{what}: {} bytes, not 32", bytes.len())))
}

/// The private key of `keys` (for ECDH: a key-agreement key).
pub fn private<'a>(api: &Api, pk: &'a PkApi, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Private<'a>, BackendError> {
    let mut key: PrivKey = std::ptr::null_mut();
    // SAFETY (each call): writes a new key handle from inputs that hold their lengths.
    let (rc, call) = match alg.kind {
        PkKind::RsaPkcs1 | PkKind::RsaPss => (
            unsafe { (pk.botan_privkey_load_rsa_pkcs1)(&mut key, keys.private_der.as_ptr(), keys.private_der.len()) },
            "botan_privkey_load_rsa_pkcs1",
        ),
        PkKind::Ecdsa | PkKind::Ecdh if curve_name(alg).is_some() => {
            let scalar = Integer::of(api, pk, &keys.ec_private)?;
            let curve = curve_c(alg)?;
            if alg.kind == PkKind::Ecdsa {
                (
                    unsafe { (pk.botan_privkey_load_ecdsa)(&mut key, scalar.mp, curve.as_ptr()) },
                    "botan_privkey_load_ecdsa",
                )
            } else {
                (
                    unsafe { (pk.botan_privkey_load_ecdh)(&mut key, scalar.mp, curve.as_ptr()) },
                    "botan_privkey_load_ecdh",
                )
            }
        }
        PkKind::EdDsa if alg.openssl_name == "ED25519" => {
            let seed = array32(&keys.seed, "Ed25519 seed")?;
            (
                unsafe { (pk.botan_privkey_load_ed25519)(&mut key, seed.as_ptr()) },
                "botan_privkey_load_ed25519",
            )
        }
        PkKind::Ecdh if alg.openssl_name == "X25519" => {
            let seed = array32(&keys.seed, "X25519 private key")?;
            (
                unsafe { (pk.botan_privkey_load_x25519)(&mut key, seed.as_ptr()) },
                "botan_privkey_load_x25519",
            )
        }
        _ => return Err(BackendError::Unsupported(format!("{} keys", alg.id))),
    };
    check(api, rc, call)?;
    Ok(Private { pk, key })
}

/// The public key of `keys`.
pub fn public<'a>(api: &Api, pk: &'a PkApi, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Public<'a>, BackendError> {
    let mut key: PubKey = std::ptr::null_mut();
    // SAFETY (each call): writes a new key handle from inputs that hold their lengths.
    let (rc, call) = match alg.kind {
        _ if !keys.public_der.is_empty() && alg.kind != PkKind::EdDsa => (
            unsafe { (pk.botan_pubkey_load)(&mut key, keys.public_der.as_ptr(), keys.public_der.len()) },
            "botan_pubkey_load",
        ),
        PkKind::RsaPkcs1 | PkKind::RsaPss => {
            let r = keys
                .rsa
                .as_ref()
                .ok_or_else(|| BackendError::Invalid(format!("{}: no public key", alg.id)))?;
            let (n, e) = (Integer::of(api, pk, &r.n)?, Integer::of(api, pk, &r.e)?);
            (unsafe { (pk.botan_pubkey_load_rsa)(&mut key, n.mp, e.mp) }, "botan_pubkey_load_rsa")
        }
        PkKind::Ecdsa if curve_name(alg).is_some() => {
            // The uncompressed point 04 ‖ x ‖ y (SEC 1 2.3.3).
            let p = &keys.public;
            if p.first() != Some(&4) || p.len() % 2 != 1 {
                return Err(BackendError::Invalid(format!("{}: not an uncompressed point", alg.id)));
            }
            let half = (p.len() - 1) / 2;
            let (x, y) = (Integer::of(api, pk, &p[1..1 + half])?, Integer::of(api, pk, &p[1 + half..])?);
            let curve = curve_c(alg)?;
            (
                unsafe { (pk.botan_pubkey_load_ecdsa)(&mut key, x.mp, y.mp, curve.as_ptr()) },
                "botan_pubkey_load_ecdsa",
            )
        }
        PkKind::EdDsa if alg.openssl_name == "ED25519" => {
            let raw = array32(&keys.public, "Ed25519 public key")?;
            (
                unsafe { (pk.botan_pubkey_load_ed25519)(&mut key, raw.as_ptr()) },
                "botan_pubkey_load_ed25519",
            )
        }
        _ => return Err(BackendError::Unsupported(format!("{} keys", alg.id))),
    };
    check(api, rc, call)?;
    Ok(Public { pk, key })
}

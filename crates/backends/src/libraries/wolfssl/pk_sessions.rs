//! wolfCrypt's public-key calls on imported keys, one session per
//! operation; outputs go into the caller's buffers, the inputs wolfCrypt
//! takes in another form (the DigestInfo of a PKCS#1 v1.5 signature, a
//! mutable copy of a PSS signature) into buffers of the session sized once.

use std::ffi::c_int;

use super::api::Api;
use super::pk_api::*;
use super::pk_keys::{Kind, Random, WcKey};
use super::sessions::{check, len32};
use crate::error::BackendError;
use crate::pk::{fill, PkSession};

/// DER prefix of the DigestInfo of a SHA-256 digest (RFC 8017 §9.2, note 1).
pub const SHA256_DIGEST_INFO: [u8; 19] = [
    0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
];
/// PSS salt length of the catalog (crates/core/src/pk.rs: 32 bytes).
pub const PSS_SALT: c_int = 32;

/// A call that returns a length, or a negative error code.
fn length(api: &Api, rc: c_int, call: &'static str) -> Result<usize, BackendError> {
    if rc < 0 {
        check(api, rc, call)?;
    }
    Ok(rc as usize)
}

/// `prefix ‖ digest` into `out` (capacity kept from call to call).
fn digest_info(out: &mut Vec<u8>, digest: &[u8]) {
    out.clear();
    out.extend_from_slice(&SHA256_DIGEST_INFO);
    out.extend_from_slice(digest);
}

/// RSA signing: PKCS#1 v1.5 (`wc_RsaSSL_Sign` of the DigestInfo) or PSS
/// (`wc_RsaPSS_Sign_ex`, SHA-256, MGF1-SHA-256, 32-byte salt).
pub struct RsaSigner<'a> {
    pub api: &'a Api,
    pub pk: &'a PkApi,
    pub key: WcKey<'a>,
    pub rng: Random<'a>,
    pub pss: bool,
    pub max: usize,
    pub encoded: Vec<u8>,
}

impl PkSession for RsaSigner<'_> {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, pk, key, rng, max) = (self.api, self.pk, self.key.ptr, self.rng.rng, self.max);
        let n = len32(message.len())?;
        if self.pss {
            let call = need!(pk, wc_RsaPSS_Sign_ex);
            // SAFETY: `out` has room for `max` (the modulus) bytes; live key and generator.
            return fill(signature, max, |out| {
                length(
                    api,
                    unsafe {
                        call(
                            message.as_ptr(),
                            n,
                            out,
                            max as u32,
                            WC_HASH_TYPE_SHA256,
                            WC_MGF1SHA256,
                            PSS_SALT,
                            key,
                            rng,
                        )
                    },
                    "wc_RsaPSS_Sign_ex",
                )
            });
        }
        let call = need!(pk, wc_RsaSSL_Sign);
        digest_info(&mut self.encoded, message);
        let encoded = &self.encoded;
        // SAFETY: as above; `encoded` holds its length.
        fill(signature, max, |out| {
            length(
                api,
                unsafe { call(encoded.as_ptr(), encoded.len() as u32, out, max as u32, key, rng) },
                "wc_RsaSSL_Sign",
            )
        })
    }
}

/// RSA verification: PKCS#1 v1.5 (`wc_RsaSSL_Verify`, the recovered
/// DigestInfo compared) or PSS (`wc_RsaPSS_Verify_ex`, then
/// `wc_RsaPSS_CheckPadding_ex` against the digest). wolfCrypt reports a
/// rejected signature as an error code (a padding, length or range
/// error): every one is a failed verification.
pub struct RsaVerifier<'a> {
    pub pk: &'a PkApi,
    pub key: WcKey<'a>,
    pub pss: bool,
    pub bits: c_int,
    pub max: usize,
    /// `max` bytes, written by the calls.
    pub recovered: Vec<u8>,
    pub signature: Vec<u8>,
    pub expected: Vec<u8>,
}

impl PkSession for RsaVerifier<'_> {
    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let (pk, key, max) = (self.pk, self.key.ptr, self.max);
        if signature.len() > max {
            return Ok(false);
        }
        let (n, s) = (len32(message.len())?, signature.len() as u32);
        let out = self.recovered.as_mut_ptr();
        if self.pss {
            let (verify, padding) = (need!(pk, wc_RsaPSS_Verify_ex), need!(pk, wc_RsaPSS_CheckPadding_ex));
            self.signature.clear();
            self.signature.extend_from_slice(signature);
            // SAFETY: a live key; the buffers hold the lengths given (the call reads the signature).
            let rc = unsafe {
                verify(
                    self.signature.as_mut_ptr(),
                    s,
                    out,
                    max as u32,
                    WC_HASH_TYPE_SHA256,
                    WC_MGF1SHA256,
                    PSS_SALT,
                    key,
                )
            };
            if rc < 0 {
                return Ok(false);
            }
            // SAFETY: the digest and the `rc` recovered bytes hold their lengths.
            let rc = unsafe { padding(message.as_ptr(), n, out, rc as u32, WC_HASH_TYPE_SHA256, PSS_SALT, self.bits) };
            return Ok(rc == 0);
        }
        let verify = need!(pk, wc_RsaSSL_Verify);
        // SAFETY: a live key; the buffers hold the lengths given.
        let rc = unsafe { verify(signature.as_ptr(), s, out, max as u32, key) };
        if rc < 0 {
            return Ok(false);
        }
        digest_info(&mut self.expected, message);
        Ok(self.recovered[..rc as usize] == self.expected[..])
    }
}

/// RSA-OAEP (SHA-256, MGF1-SHA-256, no label): `wc_RsaPublicEncrypt_ex` /
/// `wc_RsaPrivateDecrypt_ex`.
pub struct RsaOaep<'a> {
    pub api: &'a Api,
    pub pk: &'a PkApi,
    pub key: WcKey<'a>,
    pub rng: Random<'a>,
    pub max: usize,
}

impl PkSession for RsaOaep<'_> {
    fn encrypt(&mut self, message: &[u8], ciphertext: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, key, rng, max) = (self.api, self.key.ptr, self.rng.rng, self.max);
        let call = need!(self.pk, wc_RsaPublicEncrypt_ex);
        let n = len32(message.len())?;
        // SAFETY: `out` has room for the modulus; live key and generator; no label.
        fill(ciphertext, max, |out| {
            let rc = unsafe {
                call(
                    message.as_ptr(),
                    n,
                    out,
                    max as u32,
                    key,
                    rng,
                    WC_RSA_OAEPPAD,
                    WC_HASH_TYPE_SHA256,
                    WC_MGF1SHA256,
                    std::ptr::null_mut(),
                    0,
                )
            };
            length(api, rc, "wc_RsaPublicEncrypt_ex")
        })
    }

    /// Any error of the private operation is a rejected ciphertext.
    fn decrypt(&mut self, ciphertext: &[u8], message: &mut Vec<u8>) -> Result<(), BackendError> {
        let (key, max) = (self.key.ptr, self.max);
        let call = need!(self.pk, wc_RsaPrivateDecrypt_ex);
        let n = len32(ciphertext.len())?;
        // SAFETY: `out` has room for the modulus; a live key (its generator set for blinding).
        fill(message, max, |out| {
            let rc = unsafe {
                call(
                    ciphertext.as_ptr(),
                    n,
                    out,
                    max as u32,
                    key,
                    WC_RSA_OAEPPAD,
                    WC_HASH_TYPE_SHA256,
                    WC_MGF1SHA256,
                    std::ptr::null_mut(),
                    0,
                )
            };
            if rc < 0 {
                return Err(BackendError::AuthenticationFailed);
            }
            Ok(rc as usize)
        })
    }
}

/// ECDSA on the digest: `wc_ecc_sign_hash` (DER out) / `wc_ecc_verify_hash`.
pub struct Ecdsa<'a> {
    pub api: &'a Api,
    pub pk: &'a PkApi,
    pub key: WcKey<'a>,
    pub rng: Random<'a>,
    pub max: usize,
}

impl PkSession for Ecdsa<'_> {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, key, rng, max) = (self.api, self.key.ptr, self.rng.rng, self.max);
        let call = need!(self.pk, wc_ecc_sign_hash);
        let n = len32(message.len())?;
        fill(signature, max, |out| {
            let mut len = max as u32;
            // SAFETY: `out` has room for `len` bytes; live key and generator.
            check(
                api,
                unsafe { call(message.as_ptr(), n, out, &mut len, rng, key) },
                "wc_ecc_sign_hash",
            )?;
            Ok(len as usize)
        })
    }

    /// A malformed signature is an error code: a failed verification.
    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let call = need!(self.pk, wc_ecc_verify_hash);
        let mut res: c_int = 0;
        // SAFETY: a live key; the inputs hold their lengths.
        let rc = unsafe {
            call(
                signature.as_ptr(),
                len32(signature.len())?,
                message.as_ptr(),
                len32(message.len())?,
                &mut res,
                self.key.ptr,
            )
        };
        Ok(rc == 0 && res == 1)
    }
}

/// Pure Ed25519 (`wc_ed25519_sign_msg`/`_verify_msg`) and Ed448 (`wc_ed448_*`, empty context).
pub struct EdDsa<'a> {
    pub api: &'a Api,
    pub pk: &'a PkApi,
    pub key: WcKey<'a>,
    pub ed448: bool,
}

impl PkSession for EdDsa<'_> {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, pk, key) = (self.api, self.pk, self.key.ptr);
        let n = len32(message.len())?;
        let max = if self.ed448 { 114 } else { 64 };
        let (ed25519, ed448) = if self.ed448 {
            (None, Some(need!(pk, wc_ed448_sign_msg)))
        } else {
            (Some(need!(pk, wc_ed25519_sign_msg)), None)
        };
        fill(signature, max, |out| {
            let mut len = max as u32;
            // SAFETY: `out` has room for `len` bytes; a live key; no context.
            let rc = unsafe {
                match (ed25519, ed448) {
                    (Some(sign), _) => sign(message.as_ptr(), n, out, &mut len, key),
                    (_, Some(sign)) => sign(message.as_ptr(), n, out, &mut len, key, std::ptr::null(), 0),
                    _ => unreachable!("one of the two"),
                }
            };
            check(api, rc, "wc_ed*_sign_msg")?;
            Ok(len as usize)
        })
    }

    /// A rejected signature is `SIG_VERIFY_E` or a length error: a failed verification.
    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let (pk, key) = (self.pk, self.key.ptr);
        let (n, s) = (len32(message.len())?, len32(signature.len())?);
        let mut res: c_int = 0;
        // SAFETY: a live key; the inputs hold their lengths; no context.
        let rc = unsafe {
            if self.ed448 {
                need!(pk, wc_ed448_verify_msg)(signature.as_ptr(), s, message.as_ptr(), n, &mut res, key, std::ptr::null(), 0)
            } else {
                need!(pk, wc_ed25519_verify_msg)(signature.as_ptr(), s, message.as_ptr(), n, &mut res, key)
            }
        };
        Ok(rc == 0 && res == 1)
    }
}

/// Key agreement: ECDH (`wc_ecc_shared_secret`, the x coordinate) or
/// X25519/X448 (`wc_curve*_shared_secret_ex`, little-endian).
pub struct Agreement<'a> {
    pub api: &'a Api,
    pub pk: &'a PkApi,
    pub key: WcKey<'a>,
    pub peer: WcKey<'a>,
    /// The generator the EC key blinds with (kept alive; unused by X25519/X448).
    pub _rng: Random<'a>,
    pub max: usize,
}

impl PkSession for Agreement<'_> {
    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, pk, key, peer, max) = (self.api, self.pk, self.key.ptr, self.peer.ptr, self.max);
        let kind = self.key.kind;
        fill(secret, max, |out| {
            let mut len = max as u32;
            // SAFETY (each call): live keys of one curve; `out` has room for `len` bytes.
            let (rc, call) = unsafe {
                match kind {
                    Kind::Ecc => (need!(pk, wc_ecc_shared_secret)(key, peer, out, &mut len), "wc_ecc_shared_secret"),
                    Kind::X25519 => (
                        need!(pk, wc_curve25519_shared_secret_ex)(key, peer, out, &mut len, LITTLE_ENDIAN),
                        "wc_curve25519_shared_secret_ex",
                    ),
                    _ => (
                        need!(pk, wc_curve448_shared_secret_ex)(key, peer, out, &mut len, LITTLE_ENDIAN),
                        "wc_curve448_shared_secret_ex",
                    ),
                }
            };
            check(api, rc, call)?;
            Ok(len as usize)
        })
    }
}

/// A new key pair per call, the previous one freed first (pk_keys.rs
/// `WcKey::reset`): `wc_MakeRsaKey` (e = 65537), `wc_ecc_make_key_ex`,
/// `wc_ed25519_make_key`, `wc_ed448_make_key`.
pub struct KeyGen<'a> {
    pub api: &'a Api,
    pub pk: &'a PkApi,
    pub key: WcKey<'a>,
    pub rng: Random<'a>,
    /// RSA: the modulus in bits; EC: the field in bytes; EdDSA: the key in bytes.
    pub size: c_int,
    /// EC: wolfCrypt's `ecc_curve_id`.
    pub curve: c_int,
}

/// The public exponent of generated RSA keys, as the run's keys have (crates/backends/src/pk/keys.rs).
const RSA_E: std::ffi::c_long = 65537;

impl PkSession for KeyGen<'_> {
    fn keygen(&mut self) -> Result<(), BackendError> {
        self.key.reset(self.api)?;
        let (pk, key, rng, size) = (self.pk, self.key.ptr, self.rng.rng, self.size);
        // SAFETY (each call): a freshly initialised key of the call's type; a live generator.
        let (rc, call) = unsafe {
            match self.key.kind {
                Kind::Rsa => (need!(pk, wc_MakeRsaKey)(key, size, RSA_E, rng), "wc_MakeRsaKey"),
                Kind::Ecc => (need!(pk, wc_ecc_make_key_ex)(rng, size, key, self.curve), "wc_ecc_make_key_ex"),
                Kind::Ed25519 => (need!(pk, wc_ed25519_make_key)(rng, size, key), "wc_ed25519_make_key"),
                Kind::Ed448 => (need!(pk, wc_ed448_make_key)(rng, size, key), "wc_ed448_make_key"),
                Kind::X25519 | Kind::X448 => return Err(BackendError::Unsupported("key generation for key agreement".into())),
            }
        };
        check(self.api, rc, call)
    }

    /// The modulus (RSA), the uncompressed point (EC), the raw key (EdDSA).
    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        let (api, pk, key) = (self.api, self.pk, self.key.ptr);
        let mut out = vec![0u8; 1024];
        let mut n = out.len() as u32;
        // SAFETY (each call): a live, generated key; `out` holds `n` bytes.
        let (rc, call) = unsafe {
            match self.key.kind {
                Kind::Rsa => {
                    let (mut e, mut en) = ([0u8; 16], 16u32);
                    (
                        need!(pk, wc_RsaFlattenPublicKey)(key, e.as_mut_ptr(), &mut en, out.as_mut_ptr(), &mut n),
                        "wc_RsaFlattenPublicKey",
                    )
                }
                Kind::Ecc => (need!(pk, wc_ecc_export_x963)(key, out.as_mut_ptr(), &mut n), "wc_ecc_export_x963"),
                Kind::Ed25519 => (
                    need!(pk, wc_ed25519_export_public)(key, out.as_mut_ptr(), &mut n),
                    "wc_ed25519_export_public",
                ),
                Kind::Ed448 => (
                    need!(pk, wc_ed448_export_public)(key, out.as_mut_ptr(), &mut n),
                    "wc_ed448_export_public",
                ),
                Kind::X25519 | Kind::X448 => return Err(BackendError::Unsupported("key generation for key agreement".into())),
            }
        };
        check(api, rc, call)?;
        out.truncate(n as usize);
        Ok(out)
    }
}

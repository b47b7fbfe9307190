//! libgcrypt's public-key sessions: per call one `gcry_pk_sign`/`verify`/
//! `encrypt`/`decrypt`/`genkey` on the key S-expression built when the
//! session is made, and the release of the S-expression it returns (the
//! library's own allocations, as its API has them); X25519 and X448 one
//! `gcry_ecc_mul_point`.
//!
//! The data a call takes (the digest or message signed, the signature
//! verified, the message or ciphertext of RSA-OAEP) is an S-expression too:
//! it is built from the bytes by the first call and kept while later calls
//! pass the same bytes (`KeptInput`), as the timed loop does, so each timed
//! call is the `gcry_pk_*` call alone. Outputs are read out of the returned
//! S-expression into the caller's buffer (`gcry_sexp_find_token`,
//! `gcry_sexp_nth_data`, a copy) by the call that made them.

use std::ffi::c_int;
use std::ptr::null_mut;

use cryptobench_core::pk::PkAlgorithmSpec;

use super::pk_api::{call, PkApi, S};
use super::pk_sexp::{oaep_ciphertext, oaep_data, sign_data, signature_text, write_signature};
use crate::error::BackendError;
use crate::pk::encoding::pad_into;
use crate::pk::{fill, KeptInput, PkSession};

/// A data S-expression kept for the bytes it was built from; None for bytes
/// that make none (a signature that is not one verifies nothing).
type Kept<'a> = KeptInput<Option<S<'a>>>;

fn parse<'a>(api: &'a PkApi, text: &str) -> Result<Option<S<'a>>, BackendError> {
    S::parse(api, text).map(Some)
}

fn parsed<'s, 'a>(s: &'s Option<S<'a>>) -> Result<&'s S<'a>, BackendError> {
    s.as_ref().ok_or_else(|| BackendError::Invalid("no data S-expression".into()))
}

/// Signing and verification (RSA PKCS#1 v1.5 and PSS, ECDSA, Ed25519) with
/// one key S-expression: private to sign, public to verify.
pub struct Signing<'a> {
    pub api: &'a PkApi,
    pub alg: &'static PkAlgorithmSpec,
    pub key: S<'a>,
    pub data: Kept<'a>,
    pub sig: Kept<'a>,
}

impl PkSession for Signing<'_> {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, alg) = (self.api, self.alg);
        let data = parsed(self.data.get(message, |m| parse(api, &sign_data(alg, m)))?)?;
        let mut out = null_mut();
        // SAFETY: live S-expressions.
        call(unsafe { (api.gcry_pk_sign)(&mut out, data.ptr, self.key.ptr) }, "gcry_pk_sign")?;
        let result = S::returned(api, out).ok_or_else(|| BackendError::Invalid("gcry_pk_sign returned no signature".into()))?;
        write_signature(alg, &result, signature)
    }

    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let (api, alg) = (self.api, self.alg);
        let data = self.data.get(message, |m| Ok(S::parse(api, &sign_data(alg, m)).ok()))?;
        let sig = self
            .sig
            .get(signature, |s| Ok(signature_text(alg, s).and_then(|t| S::parse(api, &t).ok())))?;
        let (Some(data), Some(sig)) = (data, sig) else {
            return Ok(false);
        };
        // SAFETY: live S-expressions.
        Ok(unsafe { (api.gcry_pk_verify)(sig.ptr, data.ptr, self.key.ptr) } == 0)
    }
}

/// RSA-OAEP (SHA-256): encryption with the public key, decryption with the private one.
pub struct Oaep<'a> {
    pub api: &'a PkApi,
    pub alg: &'static PkAlgorithmSpec,
    pub key: S<'a>,
    pub data: Kept<'a>,
}

impl PkSession for Oaep<'_> {
    fn encrypt(&mut self, message: &[u8], ciphertext: &mut Vec<u8>) -> Result<(), BackendError> {
        let api = self.api;
        let data = parsed(self.data.get(message, |m| parse(api, &oaep_data(m)))?)?;
        let mut out = null_mut();
        // SAFETY: live S-expressions.
        call(
            unsafe { (api.gcry_pk_encrypt)(&mut out, data.ptr, self.key.ptr) },
            "gcry_pk_encrypt",
        )?;
        let n = self.alg.rsa_bytes();
        S::returned(api, out)
            .and_then(|ct| ct.with_value("a", |a| pad_into(ciphertext, a, n)))
            .ok_or_else(|| BackendError::Invalid("no ciphertext".into()))
    }

    fn decrypt(&mut self, ciphertext: &[u8], message: &mut Vec<u8>) -> Result<(), BackendError> {
        let api = self.api;
        let data = parsed(self.data.get(ciphertext, |c| parse(api, &oaep_ciphertext(c)))?)?;
        let mut out = null_mut();
        // SAFETY: live S-expressions.
        if unsafe { (api.gcry_pk_decrypt)(&mut out, data.ptr, self.key.ptr) } != 0 {
            return Err(BackendError::AuthenticationFailed);
        }
        S::returned(api, out)
            .and_then(|plain| {
                plain.with_value("value", |v| {
                    message.clear();
                    message.extend_from_slice(v);
                })
            })
            .ok_or(BackendError::AuthenticationFailed)
    }
}

/// `gcry_pk_genkey`; the result S-expression is released by the next call.
pub struct Keygen<'a> {
    pub api: &'a PkApi,
    pub alg: &'static PkAlgorithmSpec,
    pub parameters: S<'a>,
    pub result: Option<S<'a>>,
}

impl PkSession for Keygen<'_> {
    fn keygen(&mut self) -> Result<(), BackendError> {
        let mut out = null_mut();
        // SAFETY: a live parameter S-expression.
        call(
            unsafe { (self.api.gcry_pk_genkey)(&mut out, self.parameters.ptr) },
            "gcry_pk_genkey",
        )?;
        // Releasing the previous result is the release each call pays.
        self.result = S::returned(self.api, out);
        Ok(())
    }

    /// The new public key's value: n of RSA keys, q of EC keys.
    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        let result = self
            .result
            .as_ref()
            .ok_or_else(|| BackendError::Invalid("no key generated yet".into()))?;
        Ok(result.value(if self.alg.is_rsa() { "n" } else { "q" }).unwrap_or_default())
    }
}

/// X25519 and X448: `gcry_ecc_mul_point` of the private scalar and the peer's point.
pub struct Mul<'a> {
    pub api: &'a PkApi,
    pub curve: c_int,
    pub scalar: Vec<u8>,
    pub point: Vec<u8>,
}

impl PkSession for Mul<'_> {
    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let n = self.point.len();
        fill(secret, n, |out| {
            // SAFETY: `out` has room for n bytes, the curve's length, as the scalar and point have.
            call(
                unsafe { (self.api.gcry_ecc_mul_point)(self.curve, out, self.scalar.as_ptr(), self.point.as_ptr()) },
                "gcry_ecc_mul_point",
            )?;
            Ok(n)
        })
    }
}

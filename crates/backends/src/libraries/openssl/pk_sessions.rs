//! OpenSSL's public-key sessions: per call what `apps/speed.c` calls per
//! iteration, on contexts made once (crates/backends/src/libraries/openssl/pk.rs).

use std::ptr::{null, null_mut};

use cryptobench_core::pk::PkAlgorithmSpec;

use super::handles::error_queue;
use super::pk_contexts::{Ctx, Lib, MdCtx, Pkey};
use crate::error::BackendError;
use crate::pk::{fill, PkSession};

/// Room for any signature of the catalog (SLH-DSA-256f: 49,856 bytes).
const MAX_SIGNATURE: usize = 64 * 1024;

/// `EVP_PKEY_sign` / `EVP_PKEY_verify` on one initialised context
/// (apps/speed.c `RSA_sign_loop`, `ECDSA_sign_loop`, `SIG_sign_loop`).
pub struct Signing<'a> {
    pub ctx: Ctx<'a>,
    pub _key: Pkey<'a>,
}

impl PkSession for Signing<'_> {
    fn implementation(&self) -> Option<String> {
        self.ctx.served()
    }

    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let lib = self.ctx.lib;
        fill(signature, MAX_SIGNATURE, |out| {
            let mut len = MAX_SIGNATURE;
            // SAFETY: out has room for MAX_SIGNATURE bytes.
            lib.check(
                unsafe { (lib.pk.EVP_PKEY_sign)(self.ctx.ptr, out, &mut len, message.as_ptr(), message.len()) },
                "EVP_PKEY_sign",
            )?;
            Ok(len)
        })
    }

    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let lib = self.ctx.lib;
        // SAFETY: live context; buffers outlive the call.
        let rc = unsafe { (lib.pk.EVP_PKEY_verify)(self.ctx.ptr, signature.as_ptr(), signature.len(), message.as_ptr(), message.len()) };
        verdict(lib, rc)
    }
}

/// A verification's answer: 1 verifies; anything else rejects (the error queue is drained).
fn verdict(lib: Lib<'_>, rc: std::ffi::c_int) -> Result<bool, BackendError> {
    if rc != 1 {
        error_queue(lib.api);
    }
    Ok(rc == 1)
}

/// EdDSA: `EVP_DigestSign` / `EVP_DigestVerify`, re-initialised with the
/// kept key per call from 3.0 on (apps/speed.c `EdDSA_sign_loop`: a one-shot
/// EdDSA context is spent after one call).
pub struct EdDsa<'a> {
    pub md: MdCtx<'a>,
    pub key: Pkey<'a>,
    pub reinit: bool,
}

impl PkSession for EdDsa<'_> {
    fn implementation(&self) -> Option<String> {
        // SAFETY: a live key; the getter only reads it.
        let provider = self.key.lib.pk.EVP_PKEY_get0_provider.map(|f| unsafe { f(self.key.ptr) });
        self.key.lib.served(provider)
    }

    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let lib = self.md.lib;
        // SAFETY: live contexts; NULL key and digest keep the ones set before.
        if self.reinit {
            lib.check(
                unsafe { (lib.pk.EVP_DigestSignInit)(self.md.ptr, null_mut(), null(), null_mut(), null_mut()) },
                "EVP_DigestSignInit",
            )?;
        }
        fill(signature, MAX_SIGNATURE, |out| {
            let mut len = MAX_SIGNATURE;
            // SAFETY: out has room for MAX_SIGNATURE bytes.
            lib.check(
                unsafe { (lib.pk.EVP_DigestSign)(self.md.ptr, out, &mut len, message.as_ptr(), message.len()) },
                "EVP_DigestSign",
            )?;
            Ok(len)
        })
    }

    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let lib = self.md.lib;
        let _ = &self.key;
        // SAFETY: as for `sign`.
        unsafe {
            if self.reinit {
                lib.check(
                    (lib.pk.EVP_DigestVerifyInit)(self.md.ptr, null_mut(), null(), null_mut(), null_mut()),
                    "EVP_DigestVerifyInit",
                )?;
            }
            let rc = (lib.pk.EVP_DigestVerify)(self.md.ptr, signature.as_ptr(), signature.len(), message.as_ptr(), message.len());
            verdict(lib, rc)
        }
    }
}

/// RSA-OAEP: `EVP_PKEY_encrypt` / `EVP_PKEY_decrypt` on one initialised context.
pub struct Oaep<'a> {
    pub ctx: Ctx<'a>,
    pub _key: Pkey<'a>,
    /// The modulus length: the longest ciphertext or plaintext.
    pub len: usize,
}

impl PkSession for Oaep<'_> {
    fn implementation(&self) -> Option<String> {
        self.ctx.served()
    }

    fn encrypt(&mut self, message: &[u8], ciphertext: &mut Vec<u8>) -> Result<(), BackendError> {
        let lib = self.ctx.lib;
        fill(ciphertext, self.len, |out| {
            let mut len = self.len;
            // SAFETY: out holds a modulus-sized ciphertext.
            lib.check(
                unsafe { (lib.pk.EVP_PKEY_encrypt)(self.ctx.ptr, out, &mut len, message.as_ptr(), message.len()) },
                "EVP_PKEY_encrypt",
            )?;
            Ok(len)
        })
    }

    fn decrypt(&mut self, ciphertext: &[u8], message: &mut Vec<u8>) -> Result<(), BackendError> {
        let lib = self.ctx.lib;
        fill(message, self.len, |out| {
            let mut len = self.len;
            // SAFETY: out holds a modulus-sized plaintext.
            let rc = unsafe { (lib.pk.EVP_PKEY_decrypt)(self.ctx.ptr, out, &mut len, ciphertext.as_ptr(), ciphertext.len()) };
            if rc != 1 {
                error_queue(lib.api);
                return Err(BackendError::AuthenticationFailed);
            }
            Ok(len)
        })
    }
}

/// `EVP_PKEY_derive` on a context with the peer set (apps/speed.c `ECDH_EVP_derive_key_loop`).
pub struct Secret<'a> {
    pub ctx: Ctx<'a>,
    pub _keys: (Pkey<'a>, Pkey<'a>),
}

impl PkSession for Secret<'_> {
    fn implementation(&self) -> Option<String> {
        self.ctx.served()
    }

    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let lib = self.ctx.lib;
        fill(secret, 256, |out| {
            let mut len = 256;
            // SAFETY: out holds any curve's secret.
            lib.check(unsafe { (lib.pk.EVP_PKEY_derive)(self.ctx.ptr, out, &mut len) }, "EVP_PKEY_derive")?;
            Ok(len)
        })
    }
}

/// `EVP_PKEY_encapsulate` / `EVP_PKEY_decapsulate` (OpenSSL 3.0+ KEM API;
/// apps/speed.c `KEM_encaps_loop`/`KEM_decaps_loop`).
pub struct Kem<'a> {
    lib: Lib<'a>,
    ctx: Ctx<'a>,
    _key: Pkey<'a>,
    ct_len: usize,
    ss_len: usize,
}

impl<'a> Kem<'a> {
    pub fn new(lib: Lib<'a>, key: Pkey<'a>, encaps: bool) -> Result<Kem<'a>, BackendError> {
        let (Some(e_init), Some(d_init), Some(encapsulate)) = (
            lib.pk.EVP_PKEY_encapsulate_init,
            lib.pk.EVP_PKEY_decapsulate_init,
            lib.pk.EVP_PKEY_encapsulate,
        ) else {
            return Err(BackendError::Unsupported("KEMs (OpenSSL 3.0+)".into()));
        };
        let ctx = Ctx::for_key(&key)?;
        let (mut ct_len, mut ss_len) = (0usize, 0usize);
        // SAFETY: live context; the sizing call writes the two lengths.
        unsafe {
            let init_ctx = Ctx::for_key(&key)?;
            lib.check(e_init(init_ctx.ptr, null()), "EVP_PKEY_encapsulate_init")?;
            lib.check(
                encapsulate(init_ctx.ptr, null_mut(), &mut ct_len, null_mut(), &mut ss_len),
                "EVP_PKEY_encapsulate(sizes)",
            )?;
            if encaps {
                lib.check(e_init(ctx.ptr, null()), "EVP_PKEY_encapsulate_init")?;
            } else {
                lib.check(d_init(ctx.ptr, null()), "EVP_PKEY_decapsulate_init")?;
            }
        }
        Ok(Kem {
            lib,
            ctx,
            _key: key,
            ct_len,
            ss_len,
        })
    }
}

impl PkSession for Kem<'_> {
    fn implementation(&self) -> Option<String> {
        self.ctx.served()
    }

    fn encapsulate(&mut self, ciphertext: &mut Vec<u8>, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let f = self.lib.pk.EVP_PKEY_encapsulate.expect("checked in new");
        let (lib, ctx, ss_len) = (self.lib, self.ctx.ptr, self.ss_len);
        fill(ciphertext, self.ct_len, |ct| {
            let mut cl = self.ct_len;
            fill(secret, ss_len, |ss| {
                let mut sl = ss_len;
                // SAFETY: buffers of the sizes the library gave.
                lib.check(unsafe { f(ctx, ct, &mut cl, ss, &mut sl) }, "EVP_PKEY_encapsulate")?;
                Ok(sl)
            })?;
            Ok(cl)
        })
    }

    fn decapsulate(&mut self, ciphertext: &[u8], secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let f = self
            .lib
            .pk
            .EVP_PKEY_decapsulate
            .ok_or_else(|| BackendError::Unsupported("KEMs".into()))?;
        let (lib, ctx) = (self.lib, self.ctx.ptr);
        fill(secret, 64, |ss| {
            let mut sl = 64;
            // SAFETY: ss has room for the secret; the ciphertext outlives the call.
            lib.check(
                unsafe { f(ctx, ss, &mut sl, ciphertext.as_ptr(), ciphertext.len()) },
                "EVP_PKEY_decapsulate",
            )?;
            Ok(sl)
        })
    }
}

/// `EVP_PKEY_keygen` + `EVP_PKEY_free` per call (apps/speed.c
/// `KEM_keygen_loop`/`SIG_keygen_loop`): each call frees the key of the
/// call before, so that the last one can be reported.
pub struct Keygen<'a> {
    pub ctx: Ctx<'a>,
    pub last: Option<Pkey<'a>>,
    pub alg: &'static PkAlgorithmSpec,
}

impl PkSession for Keygen<'_> {
    fn implementation(&self) -> Option<String> {
        self.ctx.served()
    }

    fn keygen(&mut self) -> Result<(), BackendError> {
        let lib = self.ctx.lib;
        let mut key = null_mut();
        // SAFETY: an initialised keygen context.
        lib.check(unsafe { (lib.pk.EVP_PKEY_keygen)(self.ctx.ptr, &mut key) }, "EVP_PKEY_keygen")?;
        // Dropping the previous key is its EVP_PKEY_free.
        self.last = Some(Pkey::new(lib, key, "EVP_PKEY_keygen")?);
        Ok(())
    }

    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        match &self.last {
            Some(key) => self.ctx.lib.public_of(self.alg, key),
            None => Ok(Vec::new()),
        }
    }
}

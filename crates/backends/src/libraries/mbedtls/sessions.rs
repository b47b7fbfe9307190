//! Mbed TLS's calls behind the shared timed loops (crate::timed), one
//! module context per cipher (aes.h, gcm.h, chachapoly.h, des.h) and the
//! generic digest layer (md.h). Streams carry the library's own chaining
//! state on (CBC IV, CFB offset, CTR counter and keystream block, GCM and
//! ChaCha20-Poly1305 state); messages restart it from the IV.

use std::ffi::{c_char, c_int, c_uint};

use cryptobench_core::Mode;

use super::api::*;
use crate::error::BackendError;
use crate::libraries::block_mode::BlockMode;
use crate::named::Allocation;
use crate::native::{text, CtxMem};
use crate::sessions::{CipherSession, DigestSession};

/// An Mbed TLS return code as a Result, with Mbed TLS's own message where it has them.
pub fn check(api: &Api, rc: c_int, call: &'static str) -> Result<(), BackendError> {
    if rc == 0 {
        return Ok(());
    }
    if rc == MBEDTLS_ERR_GCM_AUTH_FAILED || rc == MBEDTLS_ERR_CHACHAPOLY_AUTH_FAILED {
        return Err(BackendError::AuthenticationFailed);
    }
    let detail = match api.mbedtls_strerror {
        Some(f) => {
            let mut buf = [0 as c_char; 128];
            // SAFETY: mbedtls_strerror writes at most buflen bytes, NUL-terminated.
            unsafe { f(rc, buf.as_mut_ptr(), buf.len()) };
            text(buf.as_ptr()).unwrap_or_default()
        }
        None => String::new(),
    };
    Err(BackendError::Call {
        call,
        detail: format!("returned -0x{:04x} {detail}", -rc),
    })
}

/// One keyed Mbed TLS context and the chaining state of its mode.
pub struct Cipher<'a> {
    api: &'a Api,
    kind: BlockMode,
    encrypt: bool,
    ctx: CtxMem,
    /// CBC/CFB IV, CTR counter block, XTS data unit (8 bytes used for 3DES).
    chain: [u8; 16],
    /// CFB/CTR position in the keystream block.
    offset: usize,
    /// CTR keystream block.
    block: [u8; 16],
}

fn missing(what: &str) -> BackendError {
    BackendError::Unsupported(format!("{what} (not built into this Mbed TLS)"))
}

impl<'a> Cipher<'a> {
    /// Keys a new context and starts a stream at `iv`.
    pub fn new(api: &'a Api, kind: BlockMode, key: &[u8], iv: &[u8], encrypt: bool) -> Result<Cipher<'a>, BackendError> {
        let mut ctx = CtxMem::new(CTX_BYTES);
        // SAFETY: the memory exceeds the context's size; init before any other call.
        unsafe {
            match kind {
                BlockMode::Xts => (api.mbedtls_aes_xts_init.ok_or_else(|| missing("AES-XTS"))?)(ctx.ptr()),
                BlockMode::Gcm => (api.mbedtls_gcm_init)(ctx.ptr()),
                BlockMode::ChaPoly => (api.mbedtls_chachapoly_init.ok_or_else(|| missing("ChaCha20-Poly1305"))?)(ctx.ptr()),
                BlockMode::Des3 => (api.mbedtls_des3_init.ok_or_else(|| missing("3DES"))?)(ctx.ptr()),
                BlockMode::CamelliaCbc => (api.mbedtls_camellia_init.ok_or_else(|| missing("Camellia"))?)(ctx.ptr()),
                _ => (api.mbedtls_aes_init)(ctx.ptr()),
            }
        }
        let mut c = Cipher {
            api,
            kind,
            encrypt,
            ctx,
            chain: [0; 16],
            offset: 0,
            block: [0; 16],
        };
        c.rekey(key)?;
        c.start(iv)?;
        Ok(c)
    }

    /// Starts a stream or message at `iv`: the chaining state from the IV
    /// (GCM and ChaCha20-Poly1305 streams: `*_starts` without AAD).
    fn start(&mut self, iv: &[u8]) -> Result<(), BackendError> {
        self.chain = [0; 16];
        self.chain[..iv.len().min(16)].copy_from_slice(&iv[..iv.len().min(16)]);
        self.offset = 0;
        let api = self.api;
        // SAFETY: keyed context; iv covers the length passed.
        unsafe {
            match self.kind {
                BlockMode::Gcm => {
                    let mode = if self.encrypt { MBEDTLS_ENCRYPT } else { MBEDTLS_DECRYPT };
                    check(
                        api,
                        (api.mbedtls_gcm_starts)(self.ctx.ptr(), mode, iv.as_ptr(), iv.len(), std::ptr::null(), 0),
                        "mbedtls_gcm_starts",
                    )
                }
                BlockMode::ChaPoly => {
                    let mode = if self.encrypt {
                        MBEDTLS_CHACHAPOLY_ENCRYPT
                    } else {
                        MBEDTLS_CHACHAPOLY_DECRYPT
                    };
                    let starts = api.mbedtls_chachapoly_starts.ok_or_else(|| missing("ChaCha20-Poly1305"))?;
                    check(api, starts(self.ctx.ptr(), iv.as_ptr(), mode), "mbedtls_chachapoly_starts")
                }
                _ => Ok(()),
            }
        }
    }

    /// One pass of the plain mode from `src` to `dst` (equal, for in place)
    /// over `len` bytes, the chaining state carried on.
    ///
    /// # Safety
    /// `src` and `dst` must be valid for `len` bytes.
    unsafe fn pass(&mut self, encrypt: bool, src: *const u8, dst: *mut u8, len: usize) -> Result<(), BackendError> {
        let api = self.api;
        let ctx = self.ctx.ptr();
        let mode = if encrypt { MBEDTLS_ENCRYPT } else { MBEDTLS_DECRYPT };
        // SAFETY: per the contract; the chaining buffers have the sizes Mbed TLS reads.
        unsafe {
            match self.kind {
                BlockMode::Ecb => {
                    // mbedtls_aes_crypt_ecb takes one block per call.
                    for at in (0..len).step_by(16) {
                        check(
                            api,
                            (api.mbedtls_aes_crypt_ecb)(ctx, mode, src.add(at), dst.add(at)),
                            "mbedtls_aes_crypt_ecb",
                        )?;
                    }
                    Ok(())
                }
                BlockMode::Cbc => check(
                    api,
                    (api.mbedtls_aes_crypt_cbc)(ctx, mode, len, self.chain.as_mut_ptr(), src, dst),
                    "mbedtls_aes_crypt_cbc",
                ),
                BlockMode::Cfb => check(
                    api,
                    (api.mbedtls_aes_crypt_cfb128)(ctx, mode, len, &mut self.offset, self.chain.as_mut_ptr(), src, dst),
                    "mbedtls_aes_crypt_cfb128",
                ),
                BlockMode::Ctr => check(
                    api,
                    (api.mbedtls_aes_crypt_ctr)(
                        ctx,
                        len,
                        &mut self.offset,
                        self.chain.as_mut_ptr(),
                        self.block.as_mut_ptr(),
                        src,
                        dst,
                    ),
                    "mbedtls_aes_crypt_ctr",
                ),
                BlockMode::Xts => {
                    let f = api.mbedtls_aes_crypt_xts.ok_or_else(|| missing("AES-XTS"))?;
                    check(api, f(ctx, mode, len, self.chain.as_ptr(), src, dst), "mbedtls_aes_crypt_xts")
                }
                BlockMode::Des3 => {
                    let f = api.mbedtls_des3_crypt_cbc.ok_or_else(|| missing("3DES"))?;
                    check(api, f(ctx, mode, len, self.chain.as_mut_ptr(), src, dst), "mbedtls_des3_crypt_cbc")
                }
                BlockMode::CamelliaCbc => {
                    let f = api.mbedtls_camellia_crypt_cbc.ok_or_else(|| missing("Camellia"))?;
                    check(
                        api,
                        f(ctx, mode, len, self.chain.as_mut_ptr(), src, dst),
                        "mbedtls_camellia_crypt_cbc",
                    )
                }
                BlockMode::Gcm => check(api, (api.mbedtls_gcm_update)(ctx, len, src, dst), "mbedtls_gcm_update"),
                BlockMode::ChaPoly => {
                    let f = api.mbedtls_chachapoly_update.ok_or_else(|| missing("ChaCha20-Poly1305"))?;
                    check(api, f(ctx, len, src, dst), "mbedtls_chachapoly_update")
                }
            }
        }
    }
}

impl Drop for Cipher<'_> {
    fn drop(&mut self) {
        let api = self.api;
        let ctx = self.ctx.ptr();
        // SAFETY: initialised in new() by the matching *_init, freed once.
        unsafe {
            let free = match self.kind {
                BlockMode::Xts => api.mbedtls_aes_xts_free,
                BlockMode::Gcm => Some(api.mbedtls_gcm_free),
                BlockMode::ChaPoly => api.mbedtls_chachapoly_free,
                BlockMode::Des3 => api.mbedtls_des3_free,
                BlockMode::CamelliaCbc => api.mbedtls_camellia_free,
                _ => Some(api.mbedtls_aes_free),
            };
            if let Some(free) = free {
                free(ctx);
            }
        }
    }
}

impl CipherSession for Cipher<'_> {
    /// The key schedule: `mbedtls_aes_setkey_enc`/`_dec` (CFB and CTR
    /// always encrypt), `mbedtls_aes_xts_setkey_*`, `mbedtls_gcm_setkey`,
    /// `mbedtls_chachapoly_setkey`, `mbedtls_des3_set3key_*`, `mbedtls_camellia_setkey_*`.
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        let api = self.api;
        let ctx = self.ctx.ptr();
        let bits = (key.len() * 8) as c_uint;
        let enc = self.encrypt;
        // SAFETY: initialised context; key lengths were checked against the catalog by the caller.
        unsafe {
            match self.kind {
                BlockMode::Cfb | BlockMode::Ctr => {
                    check(api, (api.mbedtls_aes_setkey_enc)(ctx, key.as_ptr(), bits), "mbedtls_aes_setkey_enc")
                }
                BlockMode::Ecb | BlockMode::Cbc if enc => {
                    check(api, (api.mbedtls_aes_setkey_enc)(ctx, key.as_ptr(), bits), "mbedtls_aes_setkey_enc")
                }
                BlockMode::Ecb | BlockMode::Cbc => {
                    check(api, (api.mbedtls_aes_setkey_dec)(ctx, key.as_ptr(), bits), "mbedtls_aes_setkey_dec")
                }
                BlockMode::Xts => {
                    let f = if enc {
                        api.mbedtls_aes_xts_setkey_enc
                    } else {
                        api.mbedtls_aes_xts_setkey_dec
                    };
                    check(
                        api,
                        (f.ok_or_else(|| missing("AES-XTS"))?)(ctx, key.as_ptr(), bits),
                        "mbedtls_aes_xts_setkey",
                    )
                }
                BlockMode::Gcm => check(
                    api,
                    (api.mbedtls_gcm_setkey)(ctx, MBEDTLS_CIPHER_ID_AES, key.as_ptr(), bits),
                    "mbedtls_gcm_setkey",
                ),
                BlockMode::ChaPoly => {
                    let f = api.mbedtls_chachapoly_setkey.ok_or_else(|| missing("ChaCha20-Poly1305"))?;
                    check(api, f(ctx, key.as_ptr()), "mbedtls_chachapoly_setkey")
                }
                BlockMode::Des3 => {
                    let f = if enc {
                        api.mbedtls_des3_set3key_enc
                    } else {
                        api.mbedtls_des3_set3key_dec
                    };
                    check(api, (f.ok_or_else(|| missing("3DES"))?)(ctx, key.as_ptr()), "mbedtls_des3_set3key")
                }
                BlockMode::CamelliaCbc => {
                    let f = if enc {
                        api.mbedtls_camellia_setkey_enc
                    } else {
                        api.mbedtls_camellia_setkey_dec
                    };
                    check(
                        api,
                        (f.ok_or_else(|| missing("Camellia"))?)(ctx, key.as_ptr(), bits),
                        "mbedtls_camellia_setkey",
                    )
                }
            }
        }
    }

    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let p = buf.as_mut_ptr();
        // SAFETY: in place over buf.
        unsafe { self.pass(self.encrypt, p, p, buf.len()) }
    }

    /// Plain modes encrypt apart: in place, Mbed TLS 2.28's
    /// `mbedtls_aes_crypt_xts` gets ciphertext stealing wrong (a length that
    /// is not a whole number of blocks: Wycheproof aes_xts cases fail in
    /// place and pass apart, checked here; aes.c copies the stolen bytes of
    /// the last full output block over the partial input before reading it).
    fn seal_into(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        if input.len() != out.len() {
            return Err(BackendError::Invalid("input and output differ in length".into()));
        }
        if self.kind == BlockMode::Gcm || self.kind == BlockMode::ChaPoly {
            out.copy_from_slice(input);
            return self.seal(iv, aad, out, tag);
        }
        self.start(iv)?;
        // SAFETY: both cover input.len() bytes and do not overlap.
        unsafe { self.pass(true, input.as_ptr(), out.as_mut_ptr(), input.len()) }
    }

    /// Plain modes: the chaining state from the IV, one pass in place.
    /// AEADs: the one-shot `mbedtls_gcm_crypt_and_tag` /
    /// `mbedtls_chachapoly_encrypt_and_tag` in place.
    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let api = self.api;
        let ctx = self.ctx.ptr();
        let (p, n) = (buf.as_mut_ptr(), buf.len());
        // SAFETY: buffers cover the lengths passed; Mbed TLS allows in-place encryption (gcm.h).
        unsafe {
            match self.kind {
                BlockMode::Gcm => check(
                    api,
                    (api.mbedtls_gcm_crypt_and_tag)(
                        ctx,
                        MBEDTLS_ENCRYPT,
                        n,
                        iv.as_ptr(),
                        iv.len(),
                        aad.as_ptr(),
                        aad.len(),
                        p,
                        p,
                        tag.len(),
                        tag.as_mut_ptr(),
                    ),
                    "mbedtls_gcm_crypt_and_tag",
                ),
                BlockMode::ChaPoly => {
                    let f = api.mbedtls_chachapoly_encrypt_and_tag.ok_or_else(|| missing("ChaCha20-Poly1305"))?;
                    check(
                        api,
                        f(ctx, n, iv.as_ptr(), aad.as_ptr(), aad.len(), p, p, tag.as_mut_ptr()),
                        "mbedtls_chachapoly_encrypt_and_tag",
                    )
                }
                _ => {
                    self.start(iv)?;
                    self.pass(true, p, p, n)
                }
            }
        }
    }

    /// Plain modes: the chaining state from the IV, one pass from `input`
    /// to `out`. AEADs: `mbedtls_gcm_auth_decrypt` /
    /// `mbedtls_chachapoly_auth_decrypt`, which verify the tag.
    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        if input.len() != out.len() {
            return Err(BackendError::Invalid("input and output differ in length".into()));
        }
        let api = self.api;
        let ctx = self.ctx.ptr();
        let n = input.len();
        // SAFETY: buffers cover the lengths passed and do not overlap.
        unsafe {
            match self.kind {
                BlockMode::Gcm => check(
                    api,
                    (api.mbedtls_gcm_auth_decrypt)(
                        ctx,
                        n,
                        iv.as_ptr(),
                        iv.len(),
                        aad.as_ptr(),
                        aad.len(),
                        tag.as_ptr(),
                        tag.len(),
                        input.as_ptr(),
                        out.as_mut_ptr(),
                    ),
                    "mbedtls_gcm_auth_decrypt",
                ),
                BlockMode::ChaPoly => {
                    let f = api.mbedtls_chachapoly_auth_decrypt.ok_or_else(|| missing("ChaCha20-Poly1305"))?;
                    check(
                        api,
                        f(
                            ctx,
                            n,
                            iv.as_ptr(),
                            aad.as_ptr(),
                            aad.len(),
                            tag.as_ptr(),
                            input.as_ptr(),
                            out.as_mut_ptr(),
                        ),
                        "mbedtls_chachapoly_auth_decrypt",
                    )
                }
                _ => {
                    self.start(iv)?;
                    self.pass(false, input.as_ptr(), out.as_mut_ptr(), n)
                }
            }
        }
    }

    /// `mbedtls_gcm_setkey` frees its cipher context and sets one up anew
    /// (`mbedtls_cipher_setup`, which allocates it: gcm.c, cipher.c).
    fn allocates(&self, _mode: Mode, rekey: bool) -> Option<Allocation> {
        (rekey && self.kind == BlockMode::Gcm).then_some(Allocation::in_c(
            "Mbed TLS's mbedtls_gcm_setkey frees its cipher context and allocates it anew (mbedtls_cipher_setup) for every key",
        ))
    }
}

/// A digest through the generic layer: `mbedtls_md` (one-shot) per message,
/// `mbedtls_md_update` on a set-up context for streams.
pub struct Hash<'a> {
    api: &'a Api,
    info: MdInfo,
    ctx: CtxMem,
}

impl<'a> Hash<'a> {
    pub fn new(api: &'a Api, info: MdInfo) -> Result<Hash<'a>, BackendError> {
        let mut ctx = CtxMem::new(CTX_BYTES);
        // SAFETY: init before setup; setup allocates the digest state (freed by mbedtls_md_free).
        unsafe { (api.mbedtls_md_init)(ctx.ptr()) };
        let mut h = Hash { api, info, ctx };
        // SAFETY: as above.
        unsafe {
            check(api, (api.mbedtls_md_setup)(h.ctx.ptr(), info, 0), "mbedtls_md_setup")?;
            check(api, (api.mbedtls_md_starts)(h.ctx.ptr()), "mbedtls_md_starts")?;
        }
        Ok(h)
    }
}

impl Drop for Hash<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised by mbedtls_md_init, freed once.
        unsafe { (self.api.mbedtls_md_free)(self.ctx.ptr()) };
    }
}

impl DigestSession for Hash<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        // SAFETY: out has the digest length (mbedtls_md_get_size, checked when the cell was prepared).
        check(
            self.api,
            unsafe { (self.api.mbedtls_md)(self.info, msg.as_ptr(), msg.len(), out.as_mut_ptr()) },
            "mbedtls_md",
        )
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: set-up and started context.
        check(
            self.api,
            unsafe { (self.api.mbedtls_md_update)(self.ctx.ptr(), msg.as_ptr(), msg.len()) },
            "mbedtls_md_update",
        )
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut copy = Hash::new(self.api, self.info)?;
        // SAFETY: both contexts set up for the same digest; clone copies the state.
        unsafe {
            check(
                self.api,
                (self.api.mbedtls_md_clone)(copy.ctx.ptr(), self.ctx.as_const()),
                "mbedtls_md_clone",
            )?;
            let mut out = vec![0u8; usize::from((self.api.mbedtls_md_get_size)(self.info))];
            check(
                self.api,
                (self.api.mbedtls_md_finish)(copy.ctx.ptr(), out.as_mut_ptr()),
                "mbedtls_md_finish",
            )?;
            Ok(out)
        }
    }
}

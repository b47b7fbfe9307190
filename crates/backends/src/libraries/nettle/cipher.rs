//! A keyed Nettle cipher context and the calls each mode makes on it.
//! Nettle has no generic cipher object: each mode is a function taking the
//! block cipher's context and function (cbc.h, ctr.h, cfb.h), or its own
//! context type (gcm.h, chacha-poly1305.h, xts.h). Contexts live in
//! [`CtxMem`] sized above the headers' structures (noted per scheme).

use std::ffi::c_int;

use super::api::{Api, CipherFn, CryptFn, DataFn, DigestFn, SetKeyFn, XtsFn};
use crate::error::BackendError;
use crate::native::CtxMem;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Chain {
    Ecb,
    Cbc,
    Cfb,
    Ctr,
}

#[derive(Clone, Copy)]
pub enum SetKey {
    Plain(SetKeyFn),
    /// des3_set_key: 0 means a weak key.
    Checked(unsafe extern "C" fn(*mut std::ffi::c_void, *const u8) -> c_int),
}

#[derive(Clone, Copy)]
pub enum Scheme {
    /// A block cipher under a chaining mode; `struct aes256_ctx` is 240 bytes, `des3_ctx` 384.
    Block {
        chain: Chain,
        block: usize,
        set_enc: SetKey,
        set_dec: SetKey,
        enc: CipherFn,
        dec: CipherFn,
    },
    /// `struct gcm_aes*_ctx`: a 4 KiB table (GCM_TABLE_BITS 8), the GCM state and the AES key.
    Gcm {
        set_key: SetKeyFn,
        set_iv: DataFn,
        update: DataFn,
        encrypt: CryptFn,
        decrypt: CryptFn,
        digest: DigestFn,
    },
    /// `struct chacha_poly1305_ctx`: under 256 bytes.
    ChaPoly {
        set_key: SetKeyFn,
        set_nonce: SetKeyFn,
        update: DataFn,
        encrypt: CryptFn,
        decrypt: CryptFn,
        digest: DigestFn,
    },
    /// `struct xts_aes*_key`: two AES contexts.
    Xts {
        set_enc: SetKeyFn,
        set_dec: SetKeyFn,
        enc: XtsFn,
        dec: XtsFn,
    },
}

impl Scheme {
    /// The update length a stream can continue after: Nettle's CTR, CFB and
    /// GCM drop the rest of a partial block's keystream, ChaCha-Poly1305 that
    /// of a partial 64-byte block (their manuals: all but the last call of a
    /// message must be whole blocks).
    pub fn stream_granularity(&self) -> usize {
        match self {
            Scheme::Block {
                chain: Chain::Ctr | Chain::Cfb,
                block,
                ..
            } => *block,
            Scheme::Gcm { .. } => 16,
            Scheme::ChaPoly { .. } => 64,
            _ => 1,
        }
    }
}

/// Context memory for every scheme: above the largest structure (the GCM context, about 4.4 KiB).
const CTX_BYTES: usize = 16 * 1024;

pub struct Keyed<'a> {
    api: &'a Api,
    scheme: Scheme,
    ctx: CtxMem,
    /// CBC/CFB chaining value, CTR counter block or XTS tweak.
    iv: Vec<u8>,
    encrypt: bool,
}

impl<'a> Keyed<'a> {
    pub fn new(api: &'a Api, scheme: Scheme, key: &[u8], iv: &[u8], encrypt: bool) -> Result<Keyed<'a>, BackendError> {
        let mut k = Keyed {
            api,
            scheme,
            ctx: CtxMem::new(CTX_BYTES),
            iv: Vec::new(),
            encrypt,
        };
        k.set_key(key)?;
        k.set_iv(iv);
        Ok(k)
    }

    /// The key schedule (CFB and CTR encrypt in both directions, so they take the encryption key).
    pub fn set_key(&mut self, key: &[u8]) -> Result<(), BackendError> {
        let ctx = self.ctx.ptr();
        // SAFETY: the context memory exceeds every scheme's structure; key lengths were checked by the caller.
        unsafe {
            match self.scheme {
                Scheme::Block {
                    chain, set_enc, set_dec, ..
                } => {
                    let f = if self.encrypt || matches!(chain, Chain::Cfb | Chain::Ctr) {
                        set_enc
                    } else {
                        set_dec
                    };
                    match f {
                        SetKey::Plain(f) => f(ctx, key.as_ptr()),
                        SetKey::Checked(f) => {
                            if f(ctx, key.as_ptr()) != 1 {
                                return Err(BackendError::Invalid("Nettle rejects this key as weak (des3_set_key)".into()));
                            }
                        }
                    }
                }
                Scheme::Gcm { set_key, .. } | Scheme::ChaPoly { set_key, .. } => set_key(ctx, key.as_ptr()),
                Scheme::Xts { set_enc, set_dec, .. } => (if self.encrypt { set_enc } else { set_dec })(ctx, key.as_ptr()),
            }
        }
        Ok(())
    }

    /// Starts a message: IV, nonce, counter block or tweak.
    pub fn set_iv(&mut self, iv: &[u8]) {
        // SAFETY: keyed context; the IV length is the catalog's for this algorithm.
        unsafe {
            match self.scheme {
                Scheme::Gcm { set_iv, .. } => set_iv(self.ctx.ptr(), iv.len(), iv.as_ptr()),
                Scheme::ChaPoly { set_nonce, .. } => set_nonce(self.ctx.ptr(), iv.as_ptr()),
                Scheme::Block { .. } | Scheme::Xts { .. } => {
                    self.iv.clear();
                    self.iv.extend_from_slice(iv);
                }
            }
        }
    }

    /// AAD of an AEAD message (before any data).
    pub fn aad(&mut self, aad: &[u8]) {
        // SAFETY: keyed context with the nonce set.
        unsafe {
            match self.scheme {
                Scheme::Gcm { update, .. } | Scheme::ChaPoly { update, .. } => update(self.ctx.ptr(), aad.len(), aad.as_ptr()),
                _ => {}
            }
        }
    }

    /// Encrypts or decrypts `len` bytes from `src` to `dst` (the same pointer for in place, which
    /// every function used here allows).
    ///
    /// # Safety
    /// `src` and `dst` must be valid for `len` bytes.
    pub unsafe fn crypt(&mut self, dst: *mut u8, src: *const u8, len: usize) {
        let ctx = self.ctx.ptr();
        let api = self.api;
        // SAFETY: per the function's contract; the chaining buffer has the block size.
        unsafe {
            match self.scheme {
                Scheme::Block {
                    chain, block, enc, dec, ..
                } => match (chain, self.encrypt) {
                    (Chain::Ecb, true) => enc(ctx, len, dst, src),
                    (Chain::Ecb, false) => dec(ctx, len, dst, src),
                    (Chain::Cbc, true) => (api.nettle_cbc_encrypt)(ctx, enc, block, self.iv.as_mut_ptr(), len, dst, src),
                    (Chain::Cbc, false) => (api.nettle_cbc_decrypt)(ctx, dec, block, self.iv.as_mut_ptr(), len, dst, src),
                    (Chain::Cfb, true) => {
                        (api.nettle_cfb_encrypt.expect("checked in scheme"))(ctx, enc, block, self.iv.as_mut_ptr(), len, dst, src)
                    }
                    (Chain::Cfb, false) => {
                        (api.nettle_cfb_decrypt.expect("checked in scheme"))(ctx, enc, block, self.iv.as_mut_ptr(), len, dst, src)
                    }
                    (Chain::Ctr, _) => (api.nettle_ctr_crypt)(ctx, enc, block, self.iv.as_mut_ptr(), len, dst, src),
                },
                Scheme::Gcm { encrypt, decrypt, .. } | Scheme::ChaPoly { encrypt, decrypt, .. } => {
                    (if self.encrypt { encrypt } else { decrypt })(ctx, len, dst, src)
                }
                Scheme::Xts { enc, dec, .. } => (if self.encrypt { enc } else { dec })(ctx, self.iv.as_ptr(), len, dst, src),
            }
        }
    }

    /// The tag of an AEAD message (GCM and ChaCha-Poly1305 `*_digest`).
    pub fn digest(&mut self, tag: &mut [u8]) {
        // SAFETY: keyed context; `tag` covers the length passed.
        unsafe {
            match self.scheme {
                Scheme::Gcm { digest, .. } | Scheme::ChaPoly { digest, .. } => digest(self.ctx.ptr(), tag.len(), tag.as_mut_ptr()),
                _ => {}
            }
        }
    }

    /// Compares a computed tag with a given one in constant time.
    pub fn tags_equal(&self, a: &[u8], b: &[u8]) -> bool {
        if a.len() != b.len() {
            return false;
        }
        match self.api.nettle_memeql_sec {
            // SAFETY: both cover the length passed.
            Some(f) => unsafe { f(a.as_ptr().cast(), b.as_ptr().cast(), a.len()) != 0 },
            None => a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0,
        }
    }
}

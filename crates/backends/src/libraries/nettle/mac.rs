//! Nettle's MACs: HMAC over MD5, SHA-1, SHA-256, SHA-512 (hmac.h) and
//! AES-128-CMAC (cmac.h, 3.5+). Their `*_digest` writes the tag and resets
//! the context to the keyed state (the manual: "the context is reset … for
//! processing a new message with the same key"), so a `message` is one
//! update and one digest on the kept context, a `stream` updates it and
//! reads the tag from a byte copy. Nettle's Poly1305 is Poly1305-AES only
//! and its GHASH is internal: neither is offered.

use super::api::{Api, DataFn, DigestFn};
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::sessions::DigestSession;

#[derive(Clone, Copy)]
enum SetKey {
    /// `hmac_*_set_key(ctx, key_length, key)`: any key length.
    AnyLength(unsafe extern "C" fn(*mut std::ffi::c_void, usize, *const u8)),
    /// `cmac_aes128_set_key(ctx, key)`: 16 bytes.
    Fixed(unsafe extern "C" fn(*mut std::ffi::c_void, *const u8), usize),
}

#[derive(Clone, Copy)]
pub struct MacFns {
    set_key: SetKey,
    update: DataFn,
    digest: DigestFn,
    pub len: usize,
}

/// `struct hmac_sha512_ctx` (three SHA-512 contexts) is the largest, well under this.
const MAC_CTX_BYTES: usize = 2048;

impl MacFns {
    pub fn of(api: &Api, id: &str) -> Option<Result<MacFns, &'static str>> {
        let hmac = |s, u, d, len, name| match (s, u, d) {
            (Some(s), Some(u), Some(d)) => Ok(MacFns {
                set_key: SetKey::AnyLength(s),
                update: u,
                digest: d,
                len,
            }),
            _ => Err(name),
        };
        Some(match id {
            "hmac-md5" => hmac(
                api.nettle_hmac_md5_set_key,
                api.nettle_hmac_md5_update,
                api.nettle_hmac_md5_digest,
                16,
                "hmac_md5_*",
            ),
            "hmac-sha1" => hmac(
                api.nettle_hmac_sha1_set_key,
                api.nettle_hmac_sha1_update,
                api.nettle_hmac_sha1_digest,
                20,
                "hmac_sha1_*",
            ),
            "hmac-sha256" => hmac(
                api.nettle_hmac_sha256_set_key,
                api.nettle_hmac_sha256_update,
                api.nettle_hmac_sha256_digest,
                32,
                "hmac_sha256_*",
            ),
            "hmac-sha512" => hmac(
                api.nettle_hmac_sha512_set_key,
                api.nettle_hmac_sha512_update,
                api.nettle_hmac_sha512_digest,
                64,
                "hmac_sha512_*",
            ),
            "aes-128-cmac" => match (
                api.nettle_cmac_aes128_set_key,
                api.nettle_cmac_aes128_update,
                api.nettle_cmac_aes128_digest,
            ) {
                (Some(s), Some(u), Some(d)) => Ok(MacFns {
                    set_key: SetKey::Fixed(s, 16),
                    update: u,
                    digest: d,
                    len: 16,
                }),
                _ => Err("cmac_aes128_* (Nettle 3.5+)"),
            },
            _ => return None,
        })
    }

    /// A context keyed with `key`.
    pub fn keyed(&self, key: &[u8]) -> Result<CtxMem, BackendError> {
        let mut ctx = CtxMem::new(MAC_CTX_BYTES);
        // SAFETY: the memory exceeds the MAC's context structure; the key covers the length passed.
        unsafe {
            match self.set_key {
                SetKey::AnyLength(f) => f(ctx.ptr(), key.len(), key.as_ptr()),
                SetKey::Fixed(f, len) => {
                    if key.len() != len {
                        return Err(BackendError::Invalid(format!("this MAC takes a {len}-byte key")));
                    }
                    f(ctx.ptr(), key.as_ptr())
                }
            }
        }
        Ok(ctx)
    }

    pub fn update(&self, ctx: &mut CtxMem, data: &[u8]) {
        // SAFETY: a keyed context of this MAC.
        unsafe { (self.update)(ctx.ptr(), data.len(), data.as_ptr()) }
    }

    pub fn digest(&self, ctx: &mut CtxMem, out: &mut [u8]) {
        // SAFETY: as `update`; `out` holds at least `len` bytes.
        unsafe { (self.digest)(ctx.ptr(), self.len, out.as_mut_ptr()) }
    }
}

/// A keyed MAC context: `message` is one update and one digest (which
/// returns the context to the keyed state); `stream` updates it, the tag
/// read from a byte copy.
pub struct MacSession {
    pub fns: MacFns,
    pub ctx: CtxMem,
}

impl DigestSession for MacSession {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        if out.len() < self.fns.len {
            return Err(BackendError::Invalid("the tag buffer is shorter than the tag".into()));
        }
        self.fns.update(&mut self.ctx, msg);
        self.fns.digest(&mut self.ctx, out);
        Ok(())
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        self.fns.update(&mut self.ctx, msg);
        Ok(())
    }

    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut copy = self.ctx.clone();
        let mut out = vec![0u8; self.fns.len];
        self.fns.digest(&mut copy, &mut out);
        Ok(out)
    }
}

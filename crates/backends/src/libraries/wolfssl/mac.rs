//! wolfCrypt's MACs behind the shared timed loops (crate::timed): HMAC
//! (hmac.h), AES-CMAC (cmac.h) and Poly1305 (poly1305.h).
//!
//! - HMAC: `wc_HmacFinal` leaves the key in place (the next update hashes
//!   the inner pad again), so a message is update and final on the kept
//!   object. wolfSSL 5.5 has no call that copies an `Hmac`; a stream's tag
//!   is read from a second object keyed alike, whose inner hash (the first
//!   member of `struct Hmac`) is replaced by a copy of the running one
//!   through the hash's own `wc_*Copy`.
//! - CMAC: `wc_CmacFinal` wipes the whole object (cmac.c: `ForceZero(cmac,
//!   sizeof(Cmac))`), so every message starts from a byte copy of an object
//!   keyed once (plain data: the AES key schedule, subkeys and buffers).
//! - Poly1305: a one-time key, set again per message (`wc_Poly1305SetKey`);
//!   its object is plain data, so a stream's tag comes from a byte copy.

use std::ffi::c_int;

use super::api::*;
use super::sessions::{check, len32, missing};
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::sessions::DigestSession;

#[derive(Clone, Copy)]
pub enum MacKind {
    /// `wc_HmacSetKey`'s hash type and that hash's `wc_*Copy`.
    Hmac(c_int, CopyFn),
    Cmac,
    Poly1305,
}

pub struct Mac<'a> {
    api: &'a Api,
    kind: MacKind,
    /// The running object.
    ctx: CtxMem,
    /// CMAC: the object as keyed, copied into `ctx` before every message.
    keyed: Option<CtxMem>,
    key: Vec<u8>,
}

/// A fresh object of `kind` keyed with `key`.
fn keyed(api: &Api, kind: MacKind, key: &[u8]) -> Result<CtxMem, BackendError> {
    let mut ctx = CtxMem::new(CTX_BYTES);
    let n = len32(key.len())?;
    // SAFETY (all calls): the memory exceeds the structure; each object is initialised
    // before use; the key is read only.
    unsafe {
        match kind {
            MacKind::Hmac(hash, _) => {
                let (Some(init), Some(set_key)) = (api.wc_HmacInit, api.wc_HmacSetKey) else {
                    return Err(missing("HMAC"));
                };
                check(api, init(ctx.ptr(), std::ptr::null_mut(), INVALID_DEVID), "wc_HmacInit")?;
                check(api, set_key(ctx.ptr(), hash, key.as_ptr(), n), "wc_HmacSetKey")?;
            }
            MacKind::Cmac => {
                let init = api.wc_InitCmac.ok_or_else(|| missing("CMAC"))?;
                check(
                    api,
                    init(ctx.ptr(), key.as_ptr(), n, WC_CMAC_AES, std::ptr::null_mut()),
                    "wc_InitCmac",
                )?;
            }
            MacKind::Poly1305 => {
                let set_key = api.wc_Poly1305SetKey.ok_or_else(|| missing("Poly1305"))?;
                check(api, set_key(ctx.ptr(), key.as_ptr(), n), "wc_Poly1305SetKey")?;
            }
        }
    }
    Ok(ctx)
}

impl<'a> Mac<'a> {
    pub fn new(api: &'a Api, kind: MacKind, key: &[u8]) -> Result<Mac<'a>, BackendError> {
        let ctx = keyed(api, kind, key)?;
        Ok(Mac {
            api,
            kind,
            keyed: matches!(kind, MacKind::Cmac).then(|| ctx.clone()),
            ctx,
            key: key.to_vec(),
        })
    }

    /// The tag of what `ctx` holds; `ctx` is then ended (CMAC: wiped) or ready for a new message.
    fn finish(api: &Api, kind: MacKind, ctx: &mut CtxMem, out: &mut [u8]) -> Result<(), BackendError> {
        // SAFETY: a keyed object of this kind; `out` holds the tag (checked when the cell was prepared).
        unsafe {
            match kind {
                MacKind::Hmac(..) => check(
                    api,
                    api.wc_HmacFinal.ok_or_else(|| missing("HMAC"))?(ctx.ptr(), out.as_mut_ptr()),
                    "wc_HmacFinal",
                ),
                MacKind::Cmac => {
                    let mut n = len32(out.len())?;
                    check(
                        api,
                        api.wc_CmacFinal.ok_or_else(|| missing("CMAC"))?(ctx.ptr(), out.as_mut_ptr(), &mut n),
                        "wc_CmacFinal",
                    )
                }
                MacKind::Poly1305 => check(
                    api,
                    api.wc_Poly1305Final.ok_or_else(|| missing("Poly1305"))?(ctx.ptr(), out.as_mut_ptr()),
                    "wc_Poly1305Final",
                ),
            }
        }
    }
}

impl Drop for Mac<'_> {
    fn drop(&mut self) {
        if let (MacKind::Hmac(..), Some(free)) = (self.kind, self.api.wc_HmacFree) {
            // SAFETY: initialised by wc_HmacInit, freed once.
            unsafe { free(self.ctx.ptr()) };
        }
    }
}

fn update(api: &Api, kind: MacKind, ctx: &mut CtxMem, msg: &[u8]) -> Result<(), BackendError> {
    let n = len32(msg.len())?;
    // SAFETY: a keyed object of this kind.
    unsafe {
        match kind {
            MacKind::Hmac(..) => check(
                api,
                api.wc_HmacUpdate.ok_or_else(|| missing("HMAC"))?(ctx.ptr(), msg.as_ptr(), n),
                "wc_HmacUpdate",
            ),
            MacKind::Cmac => check(
                api,
                api.wc_CmacUpdate.ok_or_else(|| missing("CMAC"))?(ctx.ptr(), msg.as_ptr(), n),
                "wc_CmacUpdate",
            ),
            MacKind::Poly1305 => check(
                api,
                api.wc_Poly1305Update.ok_or_else(|| missing("Poly1305"))?(ctx.ptr(), msg.as_ptr(), n),
                "wc_Poly1305Update",
            ),
        }
    }
}

impl DigestSession for Mac<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        match (&self.keyed, self.kind) {
            (Some(keyed), _) => self.ctx.copy_from(keyed),
            (None, MacKind::Poly1305) => {
                let set_key = self.api.wc_Poly1305SetKey.ok_or_else(|| missing("Poly1305"))?;
                // SAFETY: the object; a 32-byte key (checked when the cell was prepared).
                check(
                    self.api,
                    unsafe { set_key(self.ctx.ptr(), self.key.as_ptr(), 32) },
                    "wc_Poly1305SetKey",
                )?;
            }
            _ => {}
        }
        update(self.api, self.kind, &mut self.ctx, msg)?;
        Mac::finish(self.api, self.kind, &mut self.ctx, out)
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        update(self.api, self.kind, &mut self.ctx, msg)
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut out = vec![0u8; 64];
        let len = match self.kind {
            MacKind::Hmac(hash, copy) => {
                let mut dup = Mac::new(self.api, self.kind, &self.key)?;
                // An empty update hashes the inner pad (innerHashKeyed), which the copy then replaces.
                update(self.api, self.kind, &mut dup.ctx, &[])?;
                // SAFETY: both objects hold this hash type's state at offset 0 (struct Hmac's first member).
                check(self.api, unsafe { copy(self.ctx.ptr(), dup.ctx.ptr()) }, "wc_*Copy")?;
                Mac::finish(self.api, self.kind, &mut dup.ctx, &mut out)?;
                // SAFETY: plain query.
                usize::try_from(unsafe { (self.api.wc_HashGetDigestSize)(hash) }).unwrap_or(0)
            }
            MacKind::Cmac | MacKind::Poly1305 => {
                let mut dup = self.ctx.clone();
                Mac::finish(self.api, self.kind, &mut dup, &mut out[..16])?;
                16
            }
        };
        out.truncate(len);
        Ok(out)
    }
}

/// `wc_AesCmacGenerate`, wolfCrypt's one-shot CMAC, apart from the timed object.
pub fn cmac_once(api: &Api, key: &[u8], msg: &[u8]) -> Result<Vec<u8>, BackendError> {
    let generate = api.wc_AesCmacGenerate.ok_or_else(|| missing("CMAC"))?;
    let mut out = vec![0u8; 16];
    let mut n = 16u32;
    // SAFETY: `out` holds `n` bytes; key and message are read only.
    let rc = unsafe {
        generate(
            out.as_mut_ptr(),
            &mut n,
            msg.as_ptr(),
            len32(msg.len())?,
            key.as_ptr(),
            len32(key.len())?,
        )
    };
    check(api, rc, "wc_AesCmacGenerate")?;
    Ok(out)
}

//! LibTomCrypt's MACs behind the shared timed loops (crate::timed):
//! HMAC (`hmac_*`), AES-CMAC (`omac_*`, OMAC1 = CMAC) and Poly1305.
//!
//! - HMAC: `hmac_init` allocates a copy of the key that `hmac_done` needs
//!   for the outer hash and then frees (mac/hmac/hmac_init.c,
//!   hmac_done.c), so a keyed `hmac_state` cannot be kept or copied for
//!   another message: each message is `hmac_init`, `hmac_process`,
//!   `hmac_done` — the inner pad's block is hashed per message, what
//!   LibTomCrypt's own `hmac_memory` does — and there is no `stream`.
//! - CMAC: `omac_state` is plain data (the cipher's key schedule, the
//!   subkeys, the running block), so every message starts from a byte
//!   copy of a state keyed once, and a stream's tag comes from a copy.
//! - Poly1305: a one-time key, set again per message (`poly1305_init`); a
//!   stream's tag comes from a byte copy of the plain state.
//!
//! The checks use the one-shot calls `hmac_memory`, `omac_memory` and
//! `poly1305_memory`.

use std::ffi::{c_int, c_ulong};

use super::api::*;
use super::sessions::{check, missing, state_for, ulong};
use crate::error::BackendError;
use crate::named::Allocation;
use crate::native::CtxMem;
use crate::sessions::{unsupported, DigestSession};

/// `poly1305_state` (tomcrypt_mac.h: three arrays of 32-bit words, a
/// leftover count, a 16-byte buffer and a flag) is not among the sizes
/// `crypt_get_size` reports in 1.18; this is well above it.
const POLY1305_STATE_BYTES: usize = 256;

#[derive(Clone, Copy)]
pub enum MacKind {
    /// The registered hash's index.
    Hmac(c_int),
    /// The registered AES cipher's index.
    Cmac(c_int),
    Poly1305,
}

impl MacKind {
    pub fn streams(self) -> bool {
        !matches!(self, MacKind::Hmac(_))
    }
}

pub struct Mac<'a> {
    api: &'a Api,
    kind: MacKind,
    ctx: CtxMem,
    /// CMAC: the state as keyed, copied into `ctx` before every message.
    keyed: Option<CtxMem>,
    key: Vec<u8>,
    len: usize,
}

impl<'a> Mac<'a> {
    pub fn new(api: &'a Api, kind: MacKind, key: &[u8], len: usize) -> Result<Mac<'a>, BackendError> {
        let ctx = match kind {
            MacKind::Hmac(_) => state_for(api, "hmac_state")?,
            MacKind::Cmac(_) => state_for(api, "omac_state")?,
            MacKind::Poly1305 => CtxMem::new(POLY1305_STATE_BYTES),
        };
        let mut mac = Mac {
            api,
            kind,
            ctx,
            keyed: None,
            key: key.to_vec(),
            len,
        };
        // An HMAC state is keyed per message only: a key `hmac_init` allocates
        // here would be lost when `digest` keys it again.
        if kind.streams() {
            mac.start()?;
        }
        if let MacKind::Cmac(_) = kind {
            mac.keyed = Some(mac.ctx.clone());
        }
        Ok(mac)
    }

    /// Keys `ctx` for a new message (CMAC: a copy of the keyed state).
    fn start(&mut self) -> Result<(), BackendError> {
        let (api, key) = (self.api, &self.key);
        if let (MacKind::Cmac(_), Some(keyed)) = (self.kind, &self.keyed) {
            self.ctx.copy_from(keyed);
            return Ok(());
        }
        // SAFETY: the memory holds the state (crypt_get_size or above it); the key is read only.
        unsafe {
            match self.kind {
                MacKind::Hmac(hash) => check(
                    api,
                    api.hmac_init.ok_or_else(|| missing("HMAC"))?(self.ctx.ptr(), hash, key.as_ptr(), ulong(key.len())),
                    "hmac_init",
                ),
                MacKind::Cmac(cipher) => check(
                    api,
                    api.omac_init.ok_or_else(|| missing("CMAC"))?(self.ctx.ptr(), cipher, key.as_ptr(), ulong(key.len())),
                    "omac_init",
                ),
                MacKind::Poly1305 => check(
                    api,
                    api.poly1305_init.ok_or_else(|| missing("Poly1305"))?(self.ctx.ptr(), key.as_ptr(), ulong(key.len())),
                    "poly1305_init",
                ),
            }
        }
    }
}

/// The tag of what `ctx` holds, which is then ended.
fn done(api: &Api, kind: MacKind, ctx: &mut CtxMem, out: &mut [u8]) -> Result<(), BackendError> {
    let mut n: c_ulong = ulong(out.len());
    // SAFETY: a keyed state of this kind; `out` holds `n` bytes.
    let (rc, call) = unsafe {
        match kind {
            MacKind::Hmac(_) => (
                api.hmac_done.ok_or_else(|| missing("HMAC"))?(ctx.ptr(), out.as_mut_ptr(), &mut n),
                "hmac_done",
            ),
            MacKind::Cmac(_) => (
                api.omac_done.ok_or_else(|| missing("CMAC"))?(ctx.ptr(), out.as_mut_ptr(), &mut n),
                "omac_done",
            ),
            MacKind::Poly1305 => (
                api.poly1305_done.ok_or_else(|| missing("Poly1305"))?(ctx.ptr(), out.as_mut_ptr(), &mut n),
                "poly1305_done",
            ),
        }
    };
    check(api, rc, call)?;
    if n as usize != out.len() {
        return Err(BackendError::Invalid(format!("{call} wrote {n} bytes, not {}", out.len())));
    }
    Ok(())
}

impl DigestSession for Mac<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        self.start()?;
        self.update(msg)?;
        done(self.api, self.kind, &mut self.ctx, out)
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        let api = self.api;
        let (ctx, n) = (self.ctx.ptr(), ulong(msg.len()));
        // SAFETY: a keyed state of this kind.
        let (rc, call) = unsafe {
            match self.kind {
                MacKind::Hmac(_) => (
                    api.hmac_process.ok_or_else(|| missing("HMAC"))?(ctx, msg.as_ptr(), n),
                    "hmac_process",
                ),
                MacKind::Cmac(_) => (
                    api.omac_process.ok_or_else(|| missing("CMAC"))?(ctx, msg.as_ptr(), n),
                    "omac_process",
                ),
                MacKind::Poly1305 => (
                    api.poly1305_process.ok_or_else(|| missing("Poly1305"))?(ctx, msg.as_ptr(), n),
                    "poly1305_process",
                ),
            }
        };
        check(api, rc, call)
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        if !self.kind.streams() {
            return Err(unsupported(
                "reading a running HMAC (LibTomCrypt's hmac_done frees the key its state points to)",
            ));
        }
        let mut copy = self.ctx.clone();
        let mut out = vec![0u8; self.len];
        done(self.api, self.kind, &mut copy, &mut out)?;
        Ok(out)
    }
    /// An HMAC message is keyed anew (see the module's notes): no keyed
    /// state can be kept, since `hmac_done` frees the key `hmac_init` made.
    fn extra_work(&self) -> Option<&'static str> {
        matches!(self.kind, MacKind::Hmac(_)).then_some(
            "LibTomCrypt's HMAC keys every message anew (hmac_init: the padded key hashed into the inner state; hmac_done: \
             into the outer one, two compressions more than restarting from kept keyed states), since hmac_done frees \
             the key copy hmac_init allocates, so no keyed hmac_state can be kept or copied (mac/hmac/hmac_init.c, hmac_done.c)",
        )
    }
    /// An HMAC message is keyed anew (see the module's notes): `hmac_init`
    /// allocates a block for the padded key and the copy of the key that
    /// `hmac_done` needs, `hmac_done` a block and the inner hash
    /// (mac/hmac/hmac_init.c, hmac_done.c); each frees what it does not
    /// hand on. CMAC and Poly1305 allocate nothing.
    fn allocates(&self, message: bool) -> Option<Allocation> {
        (message && matches!(self.kind, MacKind::Hmac(_))).then_some(Allocation::in_c(
            "LibTomCrypt's HMAC keys every message anew, and its calls allocate their buffers: hmac_init a block \
             for the padded key and the copy of the key that hmac_done needs, hmac_done a block and the inner \
             hash (XMALLOC, freed before they return): 4 allocations per message",
        ))
    }
}

/// The one-shot call of `kind` (`hmac_memory`, `omac_memory`, `poly1305_memory`).
pub fn mac_once(api: &Api, kind: MacKind, key: &[u8], msg: &[u8], len: usize) -> Result<Vec<u8>, BackendError> {
    let mut out = vec![0u8; len];
    let mut n: c_ulong = ulong(len);
    let (k, kn, m, mn) = (key.as_ptr(), ulong(key.len()), msg.as_ptr(), ulong(msg.len()));
    // SAFETY: `out` holds `n` bytes; key and message are read only.
    let (rc, call) = unsafe {
        match kind {
            MacKind::Hmac(hash) => (
                api.hmac_memory.ok_or_else(|| missing("HMAC"))?(hash, k, kn, m, mn, out.as_mut_ptr(), &mut n),
                "hmac_memory",
            ),
            MacKind::Cmac(cipher) => (
                api.omac_memory.ok_or_else(|| missing("CMAC"))?(cipher, k, kn, m, mn, out.as_mut_ptr(), &mut n),
                "omac_memory",
            ),
            MacKind::Poly1305 => (
                api.poly1305_memory.ok_or_else(|| missing("Poly1305"))?(k, kn, m, mn, out.as_mut_ptr(), &mut n),
                "poly1305_memory",
            ),
        }
    };
    check(api, rc, call)?;
    out.truncate(n as usize);
    Ok(out)
}

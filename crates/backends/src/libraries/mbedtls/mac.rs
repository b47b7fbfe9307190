//! Mbed TLS's MACs behind the shared timed loops (crate::timed): HMAC
//! through the generic digest layer (md.h: `mbedtls_md_hmac_*`), AES-CMAC
//! through the cipher layer (cmac.h: `mbedtls_cipher_cmac_*`) and Poly1305
//! (poly1305.h). A message restarts from the kept key
//! (`mbedtls_md_hmac_reset`, `mbedtls_cipher_cmac_reset`; Poly1305's key is
//! for one message, so `mbedtls_poly1305_starts` takes it again).
//!
//! Reading a stream's tag: `mbedtls_md_clone` copies the digest state but
//! not the HMAC pads (md.h: "clones the message-digest state, not the HMAC
//! state"), so the copy is keyed first and then given the running inner
//! state; a Poly1305 context is a plain structure (counters and a queue,
//! poly1305.h), copied byte for byte. A CMAC context holds pointers to
//! state Mbed TLS allocates, and Mbed TLS has no call to copy it: CMAC has
//! no `stream` here.

use std::ffi::c_void;

use super::api::*;
use super::sessions::check;
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::sessions::{unsupported, DigestSession};

/// The Mbed TLS calls of one catalog MAC.
#[derive(Clone, Copy)]
pub enum MacKind {
    Hmac(MdInfo),
    Cmac(*const c_void),
    Poly1305,
}

impl MacKind {
    /// Whether a stream's tag can be read without ending it (see the module doc).
    pub fn streams(self) -> bool {
        !matches!(self, MacKind::Cmac(_))
    }
}

pub struct Mac<'a> {
    api: &'a Api,
    kind: MacKind,
    ctx: CtxMem,
    key: Vec<u8>,
}

fn absent(what: &str) -> BackendError {
    unsupported(format!("{what} (not built into this Mbed TLS)"))
}

impl<'a> Mac<'a> {
    pub fn new(api: &'a Api, kind: MacKind, key: &[u8]) -> Result<Mac<'a>, BackendError> {
        let mut ctx = CtxMem::new(CTX_BYTES);
        // The session over the context, once its init call has run (Drop frees it).
        let initialised = |ctx| Mac {
            api,
            kind,
            ctx,
            key: key.to_vec(),
        };
        // SAFETY (every block below): each context is initialised before use and
        // freed by Drop with its own free call; keys and inputs are read only.
        match kind {
            MacKind::Hmac(info) => unsafe {
                (api.mbedtls_md_init)(ctx.ptr());
                let mut mac = initialised(ctx);
                check(api, (api.mbedtls_md_setup)(mac.ctx.ptr(), info, 1), "mbedtls_md_setup")?;
                check(
                    api,
                    (api.mbedtls_md_hmac_starts)(mac.ctx.ptr(), key.as_ptr(), key.len()),
                    "mbedtls_md_hmac_starts",
                )?;
                Ok(mac)
            },
            MacKind::Cmac(info) => {
                let (Some(init), Some(setup), Some(starts)) =
                    (api.mbedtls_cipher_init, api.mbedtls_cipher_setup, api.mbedtls_cipher_cmac_starts)
                else {
                    return Err(absent("aes-128-cmac"));
                };
                unsafe {
                    init(ctx.ptr());
                    let mut mac = initialised(ctx);
                    check(api, setup(mac.ctx.ptr(), info), "mbedtls_cipher_setup")?;
                    check(
                        api,
                        starts(mac.ctx.ptr(), key.as_ptr(), key.len() * 8),
                        "mbedtls_cipher_cmac_starts",
                    )?;
                    Ok(mac)
                }
            }
            MacKind::Poly1305 => {
                let (Some(init), Some(starts)) = (api.mbedtls_poly1305_init, api.mbedtls_poly1305_starts) else {
                    return Err(absent("poly1305"));
                };
                unsafe {
                    init(ctx.ptr());
                    let mut mac = initialised(ctx);
                    check(api, starts(mac.ctx.ptr(), key.as_ptr()), "mbedtls_poly1305_starts")?;
                    Ok(mac)
                }
            }
        }
    }

    /// The tag of everything updated so far; the context then starts a new message.
    fn finish(&mut self, out: &mut [u8]) -> Result<(), BackendError> {
        let api = self.api;
        let ctx = self.ctx.ptr();
        // SAFETY: a keyed context of this kind; `out` holds the tag (checked when the cell was prepared).
        unsafe {
            match self.kind {
                MacKind::Hmac(_) => {
                    check(api, (api.mbedtls_md_hmac_finish)(ctx, out.as_mut_ptr()), "mbedtls_md_hmac_finish")?;
                    check(api, (api.mbedtls_md_hmac_reset)(ctx), "mbedtls_md_hmac_reset")
                }
                MacKind::Cmac(_) => {
                    let (Some(finish), Some(reset)) = (api.mbedtls_cipher_cmac_finish, api.mbedtls_cipher_cmac_reset) else {
                        return Err(absent("aes-128-cmac"));
                    };
                    check(api, finish(ctx, out.as_mut_ptr()), "mbedtls_cipher_cmac_finish")?;
                    check(api, reset(ctx), "mbedtls_cipher_cmac_reset")
                }
                MacKind::Poly1305 => {
                    let (Some(finish), Some(starts)) = (api.mbedtls_poly1305_finish, api.mbedtls_poly1305_starts) else {
                        return Err(absent("poly1305"));
                    };
                    check(api, finish(ctx, out.as_mut_ptr()), "mbedtls_poly1305_finish")?;
                    check(api, starts(ctx, self.key.as_ptr()), "mbedtls_poly1305_starts")
                }
            }
        }
    }
}

impl Drop for Mac<'_> {
    fn drop(&mut self) {
        let api = self.api;
        // SAFETY: initialised in `new` by the matching init call, freed once.
        unsafe {
            match self.kind {
                MacKind::Hmac(_) => (api.mbedtls_md_free)(self.ctx.ptr()),
                MacKind::Cmac(_) => {
                    if let Some(free) = api.mbedtls_cipher_free {
                        free(self.ctx.ptr())
                    }
                }
                MacKind::Poly1305 => {
                    if let Some(free) = api.mbedtls_poly1305_free {
                        free(self.ctx.ptr())
                    }
                }
            }
        }
    }
}

impl DigestSession for Mac<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        self.update(msg)?;
        self.finish(out)
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        let api = self.api;
        let ctx = self.ctx.ptr();
        // SAFETY: a keyed context of this kind.
        unsafe {
            match self.kind {
                MacKind::Hmac(_) => check(
                    api,
                    (api.mbedtls_md_hmac_update)(ctx, msg.as_ptr(), msg.len()),
                    "mbedtls_md_hmac_update",
                ),
                MacKind::Cmac(_) => match api.mbedtls_cipher_cmac_update {
                    Some(f) => check(api, f(ctx, msg.as_ptr(), msg.len()), "mbedtls_cipher_cmac_update"),
                    None => Err(absent("aes-128-cmac")),
                },
                MacKind::Poly1305 => match api.mbedtls_poly1305_update {
                    Some(f) => check(api, f(ctx, msg.as_ptr(), msg.len()), "mbedtls_poly1305_update"),
                    None => Err(absent("poly1305")),
                },
            }
        }
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut out = vec![0u8; 64];
        let len = match self.kind {
            MacKind::Hmac(info) => {
                let mut copy = Mac::new(self.api, self.kind, &self.key)?;
                // SAFETY: both contexts set up for the same digest; the copy keeps its own pads.
                check(
                    self.api,
                    unsafe { (self.api.mbedtls_md_clone)(copy.ctx.ptr(), self.ctx.as_const()) },
                    "mbedtls_md_clone",
                )?;
                copy.finish(&mut out)?;
                // SAFETY: plain query.
                usize::from(unsafe { (self.api.mbedtls_md_get_size)(info) })
            }
            MacKind::Poly1305 => {
                let mut copy = Mac {
                    api: self.api,
                    kind: self.kind,
                    ctx: self.ctx.clone(),
                    key: self.key.clone(),
                };
                copy.finish(&mut out)?;
                16
            }
            MacKind::Cmac(_) => return Err(unsupported("reading a running CMAC (Mbed TLS cannot copy a CMAC context)")),
        };
        out.truncate(len);
        Ok(out)
    }
}

/// The MAC of `msg` through Mbed TLS's one-shot call (`mbedtls_md_hmac`,
/// `mbedtls_cipher_cmac`, `mbedtls_poly1305_mac`), apart from the timed context.
pub fn mac_once(api: &Api, kind: MacKind, key: &[u8], msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
    // SAFETY: `out` holds the tag (the caller sizes it by the catalog); keys and inputs are read only.
    unsafe {
        match kind {
            MacKind::Hmac(info) => check(
                api,
                (api.mbedtls_md_hmac)(info, key.as_ptr(), key.len(), msg.as_ptr(), msg.len(), out.as_mut_ptr()),
                "mbedtls_md_hmac",
            ),
            MacKind::Cmac(info) => match api.mbedtls_cipher_cmac {
                Some(f) => check(
                    api,
                    f(info, key.as_ptr(), key.len() * 8, msg.as_ptr(), msg.len(), out.as_mut_ptr()),
                    "mbedtls_cipher_cmac",
                ),
                None => Err(absent("aes-128-cmac")),
            },
            MacKind::Poly1305 => match api.mbedtls_poly1305_mac {
                Some(f) => check(
                    api,
                    f(key.as_ptr(), msg.as_ptr(), msg.len(), out.as_mut_ptr()),
                    "mbedtls_poly1305_mac",
                ),
                None => Err(absent("poly1305")),
            },
        }
    }
}

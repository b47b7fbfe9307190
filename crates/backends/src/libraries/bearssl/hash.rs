//! BearSSL's hashes and MACs behind the shared timed loops: a hash through
//! its class (`br_*_vtable`: init, update, out), HMAC through `br_hmac_*`
//! on a key context made once (`br_hmac_key_init`), GHASH through the
//! chosen `br_ghash` (impls.rs). `out` leaves the state as it was
//! (bearssl_hash.h:310, bearssl_hmac.h:190), so reading a running state
//! needs no copy.

use super::api::*;
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::sessions::DigestSession;

fn wrong_length(what: &str, n: usize) -> BackendError {
    BackendError::Invalid(format!("{what} writes {n}-byte outputs"))
}

/// A hash function: a scratch context per message, a kept one for streams.
pub struct Hash {
    class: *const HashClass,
    kept: CtxMem,
    scratch: CtxMem,
}

impl Hash {
    /// # Safety
    /// `class` must be one of BearSSL's hash vtables, alive while the session is.
    pub unsafe fn new(class: *const HashClass) -> Hash {
        let mut kept = CtxMem::new(CTX_BYTES);
        // SAFETY: the memory exceeds every hash context (api.rs); init writes the vtable first.
        unsafe { ((*class).init)(kept.ptr()) };
        Hash {
            class,
            kept,
            scratch: CtxMem::new(CTX_BYTES),
        }
    }

    fn len(&self) -> usize {
        // SAFETY: a live vtable (the contract of new).
        unsafe { (*self.class).output_len() }
    }
}

impl DigestSession for Hash {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        if out.len() != self.len() {
            return Err(wrong_length("this hash", self.len()));
        }
        let c = self.class;
        let ctx = self.scratch.ptr();
        // SAFETY: a context of this class; out has the output length.
        unsafe {
            ((*c).init)(ctx);
            ((*c).update)(ctx, msg.as_ptr().cast(), msg.len());
            ((*c).out)(ctx, out.as_mut_ptr().cast());
        }
        Ok(())
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: the kept context of this class.
        unsafe { ((*self.class).update)(self.kept.ptr(), msg.as_ptr().cast(), msg.len()) };
        Ok(())
    }

    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut out = vec![0u8; self.len()];
        // SAFETY: out has the output length; `out` does not change the state.
        unsafe { ((*self.class).out)(self.kept.as_const(), out.as_mut_ptr().cast()) };
        Ok(out)
    }
}

/// HMAC keyed once: `br_hmac_init` from the key context starts each message.
pub struct Hmac<'a> {
    api: &'a Api,
    key: CtxMem,
    kept: CtxMem,
    scratch: CtxMem,
    len: usize,
}

impl<'a> Hmac<'a> {
    /// # Safety
    /// `class` must be one of BearSSL's hash vtables, alive while the session is.
    pub unsafe fn new(api: &'a Api, class: *const HashClass, key: &[u8]) -> Hmac<'a> {
        let mut h = Hmac {
            api,
            key: CtxMem::new(CTX_BYTES),
            kept: CtxMem::new(CTX_BYTES),
            scratch: CtxMem::new(CTX_BYTES),
            // SAFETY: a live vtable.
            len: unsafe { (*class).output_len() },
        };
        // SAFETY: the memory exceeds br_hmac_key_context and br_hmac_context (api.rs); 0: the full output.
        unsafe {
            (api.br_hmac_key_init)(h.key.ptr(), class, key.as_ptr().cast(), key.len());
            (api.br_hmac_init)(h.kept.ptr(), h.key.as_const(), 0);
        }
        h
    }
}

impl DigestSession for Hmac<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        if out.len() != self.len {
            return Err(wrong_length("this HMAC", self.len));
        }
        let (api, ctx) = (self.api, self.scratch.ptr());
        // SAFETY: the key context is initialised; out has the output length.
        unsafe {
            (api.br_hmac_init)(ctx, self.key.as_const(), 0);
            (api.br_hmac_update)(ctx, msg.as_ptr().cast(), msg.len());
            (api.br_hmac_out)(ctx, out.as_mut_ptr().cast());
        }
        Ok(())
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: the kept, initialised context.
        unsafe { (self.api.br_hmac_update)(self.kept.ptr(), msg.as_ptr().cast(), msg.len()) };
        Ok(())
    }

    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut out = vec![0u8; self.len];
        // SAFETY: as digest; br_hmac_out leaves the context unchanged.
        unsafe { (self.api.br_hmac_out)(self.kept.as_const(), out.as_mut_ptr().cast()) };
        Ok(out)
    }
}

/// GHASH keyed by H: `y` starts at zero; `br_ghash` pads a partial last
/// block with zeros (bearssl_hash.h:1228).
pub struct GhashMac {
    ghash: Ghash,
    h: [u8; 16],
    y: [u8; 16],
}

impl GhashMac {
    pub fn new(ghash: Ghash, key: &[u8]) -> Result<GhashMac, BackendError> {
        Ok(GhashMac {
            ghash,
            h: key
                .try_into()
                .map_err(|_| BackendError::Invalid("GHASH takes a 16-byte key H".into()))?,
            y: [0; 16],
        })
    }
}

impl DigestSession for GhashMac {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        let out: &mut [u8; 16] = out.try_into().map_err(|_| wrong_length("GHASH", 16))?;
        *out = [0; 16];
        // SAFETY: y and h are 16 bytes; msg covers its length.
        unsafe { (self.ghash)(out.as_mut_ptr().cast(), self.h.as_ptr().cast(), msg.as_ptr().cast(), msg.len()) };
        Ok(())
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: as digest.
        unsafe { (self.ghash)(self.y.as_mut_ptr().cast(), self.h.as_ptr().cast(), msg.as_ptr().cast(), msg.len()) };
        Ok(())
    }

    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        Ok(self.y.to_vec())
    }
}

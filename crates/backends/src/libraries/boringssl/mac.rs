//! BoringSSL's MACs behind the shared timed loops (crate::timed): HMAC
//! (hmac.h), AES-128-CMAC (cmac.h) and Poly1305 (poly1305.h). A message
//! restarts from the kept key: `HMAC_Init_ex` with a NULL key (hmac.h:
//! "the previous key is reused"), `CMAC_Reset`; Poly1305's key is for one
//! message, so `CRYPTO_poly1305_init` takes it again. A stream's tag is read
//! from `HMAC_CTX_copy_ex`, `CMAC_CTX_copy` or a copy of the Poly1305 state
//! (a plain byte array, kept 64-byte aligned). The checks use the one-shot calls `HMAC` and
//! `AES_CMAC`.

use std::ffi::c_uint;

use boring_sys as ffi;

use super::sessions::check;
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::sessions::DigestSession;

#[derive(Clone, Copy)]
pub enum MacKind {
    Hmac(*const ffi::EVP_MD),
    Cmac,
    Poly1305,
}

enum State {
    Hmac(*mut ffi::HMAC_CTX),
    Cmac(*mut ffi::CMAC_CTX),
    /// `poly1305_state` is 512 bytes that BoringSSL aligns to 64 inside
    /// (poly1305.c, `poly1305_aligned_state`): the memory is 64-byte aligned
    /// itself, so that a byte copy keeps the state at the same offset.
    Poly1305(CtxMem),
}

pub struct Mac {
    state: State,
    key: Vec<u8>,
    len: usize,
}

fn null_check<T>(p: *mut T, call: &'static str) -> Result<*mut T, BackendError> {
    if p.is_null() {
        check(0, call)?;
    }
    Ok(p)
}

impl Mac {
    pub fn new(kind: MacKind, key: &[u8]) -> Result<Mac, BackendError> {
        // SAFETY (all calls): each context is created here and freed by Drop (also when
        // keying fails); the key is read only.
        unsafe {
            let (state, len) = match kind {
                MacKind::Hmac(md) => (State::Hmac(null_check(ffi::HMAC_CTX_new(), "HMAC_CTX_new")?), ffi::EVP_MD_size(md)),
                MacKind::Cmac => (State::Cmac(null_check(ffi::CMAC_CTX_new(), "CMAC_CTX_new")?), 16),
                MacKind::Poly1305 => (State::Poly1305(CtxMem::new(std::mem::size_of::<ffi::poly1305_state>())), 16),
            };
            let mut mac = Mac {
                state,
                key: key.to_vec(),
                len,
            };
            match (&mut mac.state, kind) {
                (State::Hmac(ctx), MacKind::Hmac(md)) => check(
                    ffi::HMAC_Init_ex(*ctx, key.as_ptr().cast(), key.len(), md, std::ptr::null_mut()),
                    "HMAC_Init_ex",
                )?,
                (State::Cmac(ctx), _) => check(
                    ffi::CMAC_Init(*ctx, key.as_ptr().cast(), key.len(), ffi::EVP_aes_128_cbc(), std::ptr::null_mut()),
                    "CMAC_Init",
                )?,
                (State::Poly1305(st), _) => ffi::CRYPTO_poly1305_init(st.ptr().cast(), key.as_ptr()),
                (State::Hmac(_), _) => unreachable!("an HMAC state is made for an HMAC only"),
            }
            Ok(mac)
        }
    }

    fn finish(&mut self, out: &mut [u8]) -> Result<(), BackendError> {
        if out.len() != self.len {
            return Err(BackendError::Invalid(format!("this MAC writes {}-byte tags", self.len)));
        }
        // SAFETY: live contexts; `out` holds the tag (checked above).
        unsafe {
            match &mut self.state {
                State::Hmac(ctx) => {
                    let mut n: c_uint = 0;
                    check(ffi::HMAC_Final(*ctx, out.as_mut_ptr(), &mut n), "HMAC_Final")
                }
                State::Cmac(ctx) => {
                    let mut n = 0usize;
                    check(ffi::CMAC_Final(*ctx, out.as_mut_ptr(), &mut n), "CMAC_Final")
                }
                State::Poly1305(st) => {
                    ffi::CRYPTO_poly1305_finish(st.ptr().cast(), out.as_mut_ptr());
                    Ok(())
                }
            }
        }
    }

    fn restart(&mut self) -> Result<(), BackendError> {
        // SAFETY: live contexts, keyed in `new`; the Poly1305 key is 32 bytes (checked by the backend).
        unsafe {
            match &mut self.state {
                State::Hmac(ctx) => check(
                    ffi::HMAC_Init_ex(*ctx, std::ptr::null(), 0, std::ptr::null(), std::ptr::null_mut()),
                    "HMAC_Init_ex",
                ),
                State::Cmac(ctx) => check(ffi::CMAC_Reset(*ctx), "CMAC_Reset"),
                State::Poly1305(st) => {
                    ffi::CRYPTO_poly1305_init(st.ptr().cast(), self.key.as_ptr());
                    Ok(())
                }
            }
        }
    }
}

impl Drop for Mac {
    fn drop(&mut self) {
        // SAFETY: created in `new`, freed once.
        unsafe {
            match &self.state {
                State::Hmac(ctx) => ffi::HMAC_CTX_free(*ctx),
                State::Cmac(ctx) => ffi::CMAC_CTX_free(*ctx),
                State::Poly1305(_) => {}
            }
        }
    }
}

impl DigestSession for Mac {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        self.restart()?;
        self.update(msg)?;
        self.finish(out)
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live contexts.
        unsafe {
            match &mut self.state {
                State::Hmac(ctx) => check(ffi::HMAC_Update(*ctx, msg.as_ptr(), msg.len()), "HMAC_Update"),
                State::Cmac(ctx) => check(ffi::CMAC_Update(*ctx, msg.as_ptr(), msg.len()), "CMAC_Update"),
                State::Poly1305(st) => {
                    ffi::CRYPTO_poly1305_update(st.ptr().cast(), msg.as_ptr(), msg.len());
                    Ok(())
                }
            }
        }
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        // SAFETY: the copies are created and freed here (Drop); the sources are live.
        let mut copy = unsafe {
            match &self.state {
                State::Hmac(ctx) => {
                    let dup = null_check(ffi::HMAC_CTX_new(), "HMAC_CTX_new")?;
                    let copy = Mac {
                        state: State::Hmac(dup),
                        key: Vec::new(),
                        len: self.len,
                    };
                    check(ffi::HMAC_CTX_copy_ex(dup, *ctx), "HMAC_CTX_copy_ex")?;
                    copy
                }
                State::Cmac(ctx) => {
                    let dup = null_check(ffi::CMAC_CTX_new(), "CMAC_CTX_new")?;
                    let copy = Mac {
                        state: State::Cmac(dup),
                        key: Vec::new(),
                        len: self.len,
                    };
                    check(ffi::CMAC_CTX_copy(dup, *ctx), "CMAC_CTX_copy")?;
                    copy
                }
                State::Poly1305(st) => Mac {
                    state: State::Poly1305(st.clone()),
                    key: Vec::new(),
                    len: self.len,
                },
            }
        };
        let mut out = vec![0u8; self.len];
        copy.finish(&mut out)?;
        Ok(out)
    }
}

/// The one-shot calls `HMAC` and `AES_CMAC` (Poly1305 has none: a fresh state).
pub fn mac_once(kind: MacKind, key: &[u8], msg: &[u8], len: usize) -> Result<Vec<u8>, BackendError> {
    let mut out = vec![0u8; len];
    // SAFETY: `out` holds the tag; key and message are read only.
    unsafe {
        match kind {
            MacKind::Hmac(md) => {
                if ffi::EVP_MD_size(md) != len {
                    return Err(BackendError::Invalid(format!(
                        "this HMAC writes {}-byte tags",
                        ffi::EVP_MD_size(md)
                    )));
                }
                let mut n: c_uint = 0;
                let p = ffi::HMAC(
                    md,
                    key.as_ptr().cast(),
                    key.len(),
                    msg.as_ptr(),
                    msg.len(),
                    out.as_mut_ptr(),
                    &mut n,
                );
                check(c_int_of(!p.is_null()), "HMAC")?;
            }
            MacKind::Cmac => check(
                ffi::AES_CMAC(out.as_mut_ptr(), key.as_ptr(), key.len(), msg.as_ptr(), msg.len()),
                "AES_CMAC",
            )?,
            MacKind::Poly1305 => Mac::new(kind, key)?.digest(msg, &mut out)?,
        }
    }
    Ok(out)
}

fn c_int_of(ok: bool) -> std::ffi::c_int {
    std::ffi::c_int::from(ok)
}

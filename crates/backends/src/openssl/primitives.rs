//! The timed operations over libcrypto's EVP API. Each mirrors what
//! `apps/speed.c` calls per iteration (docs/METHOD.md cites the functions),
//! so that figures line up with `openssl speed` where semantics match.

use std::ffi::{c_int, c_uint, c_void};

use super::aead::{before_data, Kind};
use super::api::{Api, EVP_CTRL_AEAD_GET_TAG, EVP_CTRL_AEAD_SET_TAG};
use super::handles::{call_failed, check, Cipher, CipherCtx, Md, MdCtx};
use crate::error::BackendError;
use crate::traits::Primitive;

type UpdateFn = unsafe extern "C" fn(*mut c_void, *mut u8, *mut c_int, *const u8, c_int) -> c_int;
type FinalFn = unsafe extern "C" fn(*mut c_void, *mut u8, *mut c_int) -> c_int;

fn update_fn(api: &Api, encrypt: bool) -> UpdateFn {
    if encrypt {
        api.EVP_EncryptUpdate
    } else {
        api.EVP_DecryptUpdate
    }
}

fn final_fn(api: &Api, encrypt: bool) -> FinalFn {
    if encrypt {
        api.EVP_EncryptFinal_ex
    } else {
        api.EVP_DecryptFinal_ex
    }
}

fn c_len(len: usize) -> Result<c_int, BackendError> {
    c_int::try_from(len).map_err(|_| BackendError::Invalid(format!("{len} bytes is more than OpenSSL takes in one call")))
}

/// `stream`: one context, one update per call, in place (apps/speed.c `EVP_Update_loop`).
pub struct CipherStream<'a> {
    pub api: &'a Api,
    pub _cipher: Cipher<'a>,
    pub ctx: CipherCtx<'a>,
    pub encrypt: bool,
    pub iv: Vec<u8>,
}

impl Primitive for CipherStream<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let update = update_fn(self.api, self.encrypt);
        let len = c_len(buf.len())?;
        let p = buf.as_mut_ptr();
        let mut outl: c_int = 0;
        for _ in 0..iterations {
            // SAFETY: in-place update over `len` bytes of `buf`, which OpenSSL permits.
            if unsafe { update(self.ctx.ptr, p, &mut outl, p, len) } != 1 {
                // As apps/speed.c does: a counter or length limit was reached; restart the IV.
                let iv = if self.iv.is_empty() { std::ptr::null() } else { self.iv.as_ptr() };
                unsafe { (self.api.EVP_CipherInit_ex)(self.ctx.ptr, std::ptr::null(), std::ptr::null_mut(), std::ptr::null(), iv, -1) };
                check(self.api, unsafe { update(self.ctx.ptr, p, &mut outl, p, len) }, "EVP_CipherUpdate")?;
            }
        }
        Ok(())
    }
}

/// `message`: every call is a whole message under the kept key (or a new key
/// setup with `rekey`): IV, [tag to verify], [CCM length], AAD, update, final, tag.
pub struct CipherMessage<'a> {
    pub api: &'a Api,
    pub _cipher: Cipher<'a>,
    pub ctx: CipherCtx<'a>,
    pub encrypt: bool,
    pub rekey: bool,
    pub kind: Kind,
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
    pub tag: Vec<u8>,
    /// What decrypting calls decrypt: the prepared message, encrypted once.
    pub ciphertext: Vec<u8>,
    /// GCM-SIV: the keyed context every message starts from a copy of (see `Kind::GcmSiv`).
    pub pristine: Option<CipherCtx<'a>>,
}

impl Primitive for CipherMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let api = self.api;
        let (update, finish) = (update_fn(api, self.encrypt), final_fn(api, self.encrypt));
        let len = c_len(buf.len())?;
        if !self.encrypt && self.ciphertext.len() != buf.len() {
            return Err(BackendError::Invalid("buffer and prepared ciphertext differ in length".into()));
        }
        let aead = self.kind != Kind::Plain;
        let src = if self.encrypt { buf.as_ptr() } else { self.ciphertext.as_ptr() };
        let out = buf.as_mut_ptr();
        let key = if self.rekey { self.key.as_ptr() } else { std::ptr::null() };
        let iv = if self.iv.is_empty() { std::ptr::null() } else { self.iv.as_ptr() };
        c_len(self.aad.len())?;
        let tag_len = self.tag.len() as c_int;
        let mut outl: c_int = 0;
        let mut finl: c_int = 0;
        for _ in 0..iterations {
            // SAFETY: the context holds a cipher; pointers cover the lengths passed.
            unsafe {
                if let Some(pristine) = &self.pristine {
                    let copy = api.EVP_CIPHER_CTX_copy.expect("checked in prepare");
                    check(api, copy(self.ctx.ptr, pristine.ptr), "EVP_CIPHER_CTX_copy")?;
                }
                check(
                    api,
                    (api.EVP_CipherInit_ex)(self.ctx.ptr, std::ptr::null(), std::ptr::null_mut(), key, iv, -1),
                    "EVP_CipherInit_ex",
                )?;
                if aead && !self.encrypt {
                    check(
                        api,
                        (api.EVP_CIPHER_CTX_ctrl)(self.ctx.ptr, EVP_CTRL_AEAD_SET_TAG, tag_len, self.tag.as_mut_ptr().cast()),
                        "EVP_CTRL_AEAD_SET_TAG",
                    )?;
                }
                before_data(api, self.ctx.ptr, update, self.kind, len, &self.aad, &[])?;
                if update(self.ctx.ptr, out, &mut outl, src, len) != 1 {
                    return Err(if aead && !self.encrypt {
                        BackendError::AuthenticationFailed
                    } else {
                        call_failed(api, "EVP_CipherUpdate")
                    });
                }
                if finish(self.ctx.ptr, out.add(outl as usize), &mut finl) != 1 {
                    return Err(if aead && !self.encrypt {
                        BackendError::AuthenticationFailed
                    } else {
                        call_failed(api, "EVP_CipherFinal_ex")
                    });
                }
                if aead && self.encrypt {
                    check(
                        api,
                        (api.EVP_CIPHER_CTX_ctrl)(self.ctx.ptr, EVP_CTRL_AEAD_GET_TAG, tag_len, self.tag.as_mut_ptr().cast()),
                        "EVP_CTRL_AEAD_GET_TAG",
                    )?;
                }
            }
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok((self.kind != Kind::Plain).then(|| self.tag.clone()))
    }
}

/// Digest `message` for an extendable-output function (SHAKE): init,
/// update and `EVP_DigestFinalXOF` on one context, as `openssl speed` 3.5+
/// times XOFs (apps/speed.c `EVP_Digest_loop`); `EVP_Digest` would read the
/// default length, which 3.x versions do not agree on.
pub struct XofMessage<'a> {
    pub api: &'a Api,
    pub md: Md<'a>,
    pub ctx: MdCtx<'a>,
    pub out: Vec<u8>,
}

impl Primitive for XofMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let api = self.api;
        for _ in 0..iterations {
            // SAFETY: live context and digest; `out` has the length passed.
            unsafe {
                check(
                    api,
                    (api.EVP_DigestInit_ex)(self.ctx.ptr, self.md.ptr, std::ptr::null_mut()),
                    "EVP_DigestInit_ex",
                )?;
                check(
                    api,
                    (api.EVP_DigestUpdate)(self.ctx.ptr, buf.as_ptr().cast(), buf.len()),
                    "EVP_DigestUpdate",
                )?;
                check(
                    api,
                    (api.EVP_DigestFinalXOF.expect("checked in md()"))(self.ctx.ptr, self.out.as_mut_ptr(), self.out.len()),
                    "EVP_DigestFinalXOF",
                )?;
            }
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out.clone()))
    }
}

/// Digest `message`: the one-shot `EVP_Digest` per call (apps/speed.c `EVP_Digest_loop`).
pub struct DigestMessage<'a> {
    pub api: &'a Api,
    pub md: Md<'a>,
    pub out: [u8; 64],
    pub out_len: c_uint,
}

impl Primitive for DigestMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: `out` holds 64 bytes, EVP_MAX_MD_SIZE.
            let rc = unsafe {
                (self.api.EVP_Digest)(
                    buf.as_ptr().cast(),
                    buf.len(),
                    self.out.as_mut_ptr(),
                    &mut self.out_len,
                    self.md.ptr,
                    std::ptr::null_mut(),
                )
            };
            check(self.api, rc, "EVP_Digest")?;
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out[..self.out_len as usize].to_vec()))
    }
}

/// Digest `stream`: updates on one context; the value is read from a copy.
pub struct DigestStream<'a> {
    pub api: &'a Api,
    pub _md: Md<'a>,
    pub ctx: MdCtx<'a>,
    /// SHAKE: the output length read with `EVP_DigestFinalXOF`.
    pub xof_len: Option<usize>,
}

impl Primitive for DigestStream<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: reads buf.len() bytes of buf.
            check(
                self.api,
                unsafe { (self.api.EVP_DigestUpdate)(self.ctx.ptr, buf.as_ptr().cast(), buf.len()) },
                "EVP_DigestUpdate",
            )?;
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        let copy = MdCtx::new(self.api)?;
        let mut out = [0u8; 64];
        let mut n: c_uint = 0;
        // SAFETY: both contexts are live; out holds EVP_MAX_MD_SIZE bytes.
        check(
            self.api,
            unsafe { (self.api.EVP_MD_CTX_copy_ex)(copy.ptr, self.ctx.ptr) },
            "EVP_MD_CTX_copy_ex",
        )?;
        if let Some(len) = self.xof_len {
            check(
                self.api,
                unsafe { (self.api.EVP_DigestFinalXOF.expect("checked in md()"))(copy.ptr, out.as_mut_ptr(), len) },
                "EVP_DigestFinalXOF",
            )?;
            return Ok(Some(out[..len].to_vec()));
        }
        check(
            self.api,
            unsafe { (self.api.EVP_DigestFinal_ex)(copy.ptr, out.as_mut_ptr(), &mut n) },
            "EVP_DigestFinal_ex",
        )?;
        Ok(Some(out[..n as usize].to_vec()))
    }
}

//! The timed operations over libcrypto's EVP API. Each mirrors what
//! `apps/speed.c` calls per iteration (docs/METHOD.md cites the functions),
//! so that figures line up with `openssl speed` where semantics match.

use std::ffi::{c_int, c_uint, c_void};

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

/// A cipher context with key and IV set and padding off.
pub fn keyed_context<'a>(api: &'a Api, cipher: &Cipher<'a>, key: &[u8], iv: &[u8], encrypt: bool) -> Result<CipherCtx<'a>, BackendError> {
    let ctx = CipherCtx::new(api)?;
    let iv_ptr = if iv.is_empty() { std::ptr::null() } else { iv.as_ptr() };
    // SAFETY: ctx and cipher are live; key and IV have the lengths the catalog gives for this cipher.
    check(
        api,
        unsafe {
            (api.EVP_CipherInit_ex)(
                ctx.ptr,
                cipher.ptr,
                std::ptr::null_mut(),
                key.as_ptr(),
                iv_ptr,
                c_int::from(encrypt),
            )
        },
        "EVP_CipherInit_ex",
    )?;
    check(
        api,
        unsafe { (api.EVP_CIPHER_CTX_set_padding)(ctx.ptr, 0) },
        "EVP_CIPHER_CTX_set_padding",
    )?;
    Ok(ctx)
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
/// setup with `rekey`): IV, AAD, update, final, tag.
pub struct CipherMessage<'a> {
    pub api: &'a Api,
    pub _cipher: Cipher<'a>,
    pub ctx: CipherCtx<'a>,
    pub encrypt: bool,
    pub rekey: bool,
    pub aead: bool,
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
    pub tag: Vec<u8>,
    /// What decrypting calls decrypt: the prepared message, encrypted once.
    pub ciphertext: Vec<u8>,
}

impl Primitive for CipherMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let api = self.api;
        let (update, finish) = (update_fn(api, self.encrypt), final_fn(api, self.encrypt));
        let len = c_len(buf.len())?;
        if !self.encrypt && self.ciphertext.len() != buf.len() {
            return Err(BackendError::Invalid("buffer and prepared ciphertext differ in length".into()));
        }
        let src = if self.encrypt { buf.as_ptr() } else { self.ciphertext.as_ptr() };
        let out = buf.as_mut_ptr();
        let key = if self.rekey { self.key.as_ptr() } else { std::ptr::null() };
        let iv = if self.iv.is_empty() { std::ptr::null() } else { self.iv.as_ptr() };
        let aad_len = c_len(self.aad.len())?;
        let tag_len = self.tag.len() as c_int;
        let mut outl: c_int = 0;
        let mut finl: c_int = 0;
        for _ in 0..iterations {
            // SAFETY: the context holds a cipher; pointers cover the lengths passed.
            unsafe {
                check(
                    api,
                    (api.EVP_CipherInit_ex)(self.ctx.ptr, std::ptr::null(), std::ptr::null_mut(), key, iv, -1),
                    "EVP_CipherInit_ex",
                )?;
                if self.aead && aad_len > 0 {
                    check(
                        api,
                        update(self.ctx.ptr, std::ptr::null_mut(), &mut outl, self.aad.as_ptr(), aad_len),
                        "EVP_CipherUpdate(AAD)",
                    )?;
                }
                if self.aead && !self.encrypt {
                    check(
                        api,
                        (api.EVP_CIPHER_CTX_ctrl)(self.ctx.ptr, EVP_CTRL_AEAD_SET_TAG, tag_len, self.tag.as_mut_ptr().cast()),
                        "EVP_CTRL_AEAD_SET_TAG",
                    )?;
                }
                check(api, update(self.ctx.ptr, out, &mut outl, src, len), "EVP_CipherUpdate")?;
                if finish(self.ctx.ptr, out.add(outl as usize), &mut finl) != 1 {
                    return Err(if self.aead && !self.encrypt {
                        BackendError::AuthenticationFailed
                    } else {
                        call_failed(api, "EVP_CipherFinal_ex")
                    });
                }
                if self.aead && self.encrypt {
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
        Ok(self.aead.then(|| self.tag.clone()))
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
        check(
            self.api,
            unsafe { (self.api.EVP_DigestFinal_ex)(copy.ptr, out.as_mut_ptr(), &mut n) },
            "EVP_DigestFinal_ex",
        )?;
        Ok(Some(out[..n as usize].to_vec()))
    }
}

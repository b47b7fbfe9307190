//! Owned libgcrypt handles, closed on drop, and error codes as text.

use std::ffi::c_int;

use super::api::{Api, GcryError, Hd, GPG_ERR_CHECKSUM};
use crate::error::BackendError;
use crate::native::text;

/// Turns a `gcry_error_t` into a Result, with libgcrypt's own message.
pub fn check(api: &Api, rc: GcryError, call: &'static str) -> Result<(), BackendError> {
    if rc == 0 {
        return Ok(());
    }
    // SAFETY: gcry_strerror returns a static string for any code.
    let detail = text(unsafe { (api.gcry_strerror)(rc) }).unwrap_or_else(|| format!("error {rc}"));
    Err(BackendError::Call { call, detail })
}

/// As [`check`], but a tag mismatch is an authentication failure.
pub fn check_tag(api: &Api, rc: GcryError) -> Result<(), BackendError> {
    if rc & 0xffff == GPG_ERR_CHECKSUM {
        return Err(BackendError::AuthenticationFailed);
    }
    check(api, rc, "gcry_cipher_checktag")
}

pub struct CipherHd<'a> {
    api: &'a Api,
    pub hd: Hd,
}

impl<'a> CipherHd<'a> {
    pub fn open(api: &'a Api, algo: c_int, mode: c_int) -> Result<CipherHd<'a>, BackendError> {
        let mut hd: Hd = std::ptr::null_mut();
        // SAFETY: documented call; `hd` receives the handle.
        check(api, unsafe { (api.gcry_cipher_open)(&mut hd, algo, mode, 0) }, "gcry_cipher_open")?;
        Ok(CipherHd { api, hd })
    }
}

impl Drop for CipherHd<'_> {
    fn drop(&mut self) {
        // SAFETY: opened by gcry_cipher_open, closed once.
        unsafe { (self.api.gcry_cipher_close)(self.hd) };
    }
}

pub struct MdHd<'a> {
    api: &'a Api,
    pub hd: Hd,
}

impl<'a> MdHd<'a> {
    pub fn open(api: &'a Api, algo: c_int) -> Result<MdHd<'a>, BackendError> {
        let mut hd: Hd = std::ptr::null_mut();
        // SAFETY: documented call; `hd` receives the handle.
        check(api, unsafe { (api.gcry_md_open)(&mut hd, algo, 0) }, "gcry_md_open")?;
        Ok(MdHd { api, hd })
    }

    pub fn copy(&self) -> Result<MdHd<'a>, BackendError> {
        let mut hd: Hd = std::ptr::null_mut();
        // SAFETY: self.hd is live; `hd` receives the copy.
        check(self.api, unsafe { (self.api.gcry_md_copy)(&mut hd, self.hd) }, "gcry_md_copy")?;
        Ok(MdHd { api: self.api, hd })
    }

    /// Finalises and reads the digest (`gcry_md_read` finalises implicitly).
    pub fn read(&self, algo: c_int, len: usize) -> Result<Vec<u8>, BackendError> {
        // SAFETY: the handle was opened for `algo`; the result points to `len` bytes owned by the handle.
        let p = unsafe { (self.api.gcry_md_read)(self.hd, algo) };
        if p.is_null() {
            return Err(BackendError::Call {
                call: "gcry_md_read",
                detail: "returned NULL".into(),
            });
        }
        Ok(unsafe { std::slice::from_raw_parts(p, len) }.to_vec())
    }
}

impl Drop for MdHd<'_> {
    fn drop(&mut self) {
        // SAFETY: opened by gcry_md_open or gcry_md_copy, closed once.
        unsafe { (self.api.gcry_md_close)(self.hd) };
    }
}

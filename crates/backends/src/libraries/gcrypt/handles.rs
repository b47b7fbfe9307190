//! Owned libgcrypt handles (cipher, digest, MAC), closed on drop, the IV
//! of a message, and error codes as text.

use std::ffi::c_int;

use super::api::*;
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

/// Sets the IV for a message: the counter block for CTR, nothing for ECB.
pub fn set_iv(api: &Api, hd: Hd, mode: c_int, iv: &[u8]) -> Result<(), BackendError> {
    // SAFETY: live handle; `iv` covers the length passed.
    unsafe {
        match mode {
            _ if iv.is_empty() => Ok(()),
            GCRY_CIPHER_MODE_ECB => Ok(()),
            GCRY_CIPHER_MODE_CTR => check(
                api,
                (api.gcry_cipher_setctr)(hd, iv.as_ptr().cast(), iv.len()),
                "gcry_cipher_setctr",
            ),
            _ => check(api, (api.gcry_cipher_setiv)(hd, iv.as_ptr().cast(), iv.len()), "gcry_cipher_setiv"),
        }
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

/// A `gcry_mac_*` handle (1.7+).
pub struct MacHd<'a> {
    api: &'a Api,
    hd: Hd,
}

impl<'a> MacHd<'a> {
    /// A MAC handle keyed with `key`.
    pub fn keyed(api: &'a Api, algo: c_int, key: &[u8]) -> Result<MacHd<'a>, BackendError> {
        let (Some(open), Some(setkey)) = (api.gcry_mac_open, api.gcry_mac_setkey) else {
            return Err(BackendError::Unsupported("MACs (this libgcrypt has no gcry_mac_*)".into()));
        };
        let mut hd: Hd = std::ptr::null_mut();
        // SAFETY: documented calls; `hd` receives the handle, closed on drop.
        check(api, unsafe { open(&mut hd, algo, 0, std::ptr::null_mut()) }, "gcry_mac_open")?;
        let mac = MacHd { api, hd };
        check(api, unsafe { setkey(mac.hd, key.as_ptr().cast(), key.len()) }, "gcry_mac_setkey")?;
        Ok(mac)
    }

    pub fn write(&mut self, data: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live handle; present when the handle was opened.
        check(
            self.api,
            unsafe { (self.api.gcry_mac_write.expect("opened"))(self.hd, data.as_ptr().cast(), data.len()) },
            "gcry_mac_write",
        )
    }

    /// Reads the tag into `out` (at most its length, which ends the MAC) and returns its length.
    pub fn read(&mut self, out: &mut [u8]) -> Result<usize, BackendError> {
        let mut n = out.len();
        // SAFETY: `out` covers `n` bytes.
        check(
            self.api,
            unsafe { (self.api.gcry_mac_read.expect("opened"))(self.hd, out.as_mut_ptr().cast(), &mut n) },
            "gcry_mac_read",
        )?;
        Ok(n)
    }

    /// Starts a new message under the kept key.
    pub fn reset(&mut self) -> Result<(), BackendError> {
        let ctl = self
            .api
            .gcry_mac_ctl
            .ok_or_else(|| BackendError::Unsupported("gcry_mac_ctl is missing".into()))?;
        // SAFETY: GCRYCTL_RESET takes no buffer (the gcry_mac_reset macro).
        check(
            self.api,
            unsafe { ctl(self.hd, GCRYCTL_RESET, std::ptr::null_mut(), 0) },
            "gcry_mac_reset",
        )
    }
}

impl Drop for MacHd<'_> {
    fn drop(&mut self) {
        if let Some(close) = self.api.gcry_mac_close {
            // SAFETY: opened by gcry_mac_open, closed once.
            unsafe { close(self.hd) };
        }
    }
}

//! libgcrypt's MACs (`gcry_mac_*`: HMAC, CMAC, Poly1305) and extendable
//! output (`gcry_md_extract` for SHAKE). A MAC `message` is
//! `gcry_mac_reset` (the key is kept), one `gcry_mac_write`, `gcry_mac_read`;
//! libgcrypt cannot copy a MAC handle, so a stream's tag cannot be read
//! without ending it: MAC `stream` cells are unsupported here.

use std::ffi::c_int;

use super::api::*;
use super::handles::{check, MdHd};
use crate::error::BackendError;
use crate::primitive::Primitive;

/// The libgcrypt MAC of a catalog id.
pub fn mac_of(id: &str) -> Option<c_int> {
    Some(match id {
        "hmac-md5" => GCRY_MAC_HMAC_MD5,
        "hmac-sha1" => GCRY_MAC_HMAC_SHA1,
        "hmac-sha256" => GCRY_MAC_HMAC_SHA256,
        "hmac-sha512" => GCRY_MAC_HMAC_SHA512,
        "aes-128-cmac" => GCRY_MAC_CMAC_AES,
        "poly1305" => GCRY_MAC_POLY1305,
        _ => return None,
    })
}

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

    /// Reads the tag into `out` (64 bytes hold any of these MACs) and returns its length.
    pub fn read(&mut self, out: &mut [u8; 64]) -> Result<usize, BackendError> {
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

/// MAC `message`: reset (key kept), write, read.
pub struct MacMessage<'a> {
    pub mac: MacHd<'a>,
    pub out: [u8; 64],
    pub len: usize,
}

impl Primitive for MacMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            self.mac.reset()?;
            self.mac.write(buf)?;
            self.len = self.mac.read(&mut self.out)?;
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out[..self.len].to_vec()))
    }
}

/// `len` bytes of SHAKE output from a handle that has been written to.
pub fn extract(api: &Api, hd: &MdHd<'_>, algo: c_int, out: &mut [u8]) -> Result<(), BackendError> {
    let f = api
        .gcry_md_extract
        .ok_or_else(|| BackendError::Unsupported("SHAKE (this libgcrypt has no gcry_md_extract)".into()))?;
    // SAFETY: live handle of `algo`; `out` covers its length.
    check(
        api,
        unsafe { f(hd.hd, algo, out.as_mut_ptr().cast(), out.len()) },
        "gcry_md_extract",
    )
}

/// SHAKE `message`: reset, write, extract on one handle.
pub struct XofMessage<'a> {
    pub api: &'a Api,
    pub hd: MdHd<'a>,
    pub algo: c_int,
    pub out: Vec<u8>,
}

impl Primitive for XofMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: live handle.
            unsafe {
                (self.api.gcry_md_reset)(self.hd.hd);
                (self.api.gcry_md_write)(self.hd.hd, buf.as_ptr().cast(), buf.len());
            }
            extract(self.api, &self.hd, self.algo, &mut self.out)?;
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out.clone()))
    }
}

/// SHAKE `stream`: writes on one handle; the output is extracted from a copy.
pub struct XofStream<'a> {
    pub api: &'a Api,
    pub hd: MdHd<'a>,
    pub algo: c_int,
    pub len: usize,
}

impl Primitive for XofStream<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: live handle; reads buf.len() bytes.
            unsafe { (self.api.gcry_md_write)(self.hd.hd, buf.as_ptr().cast(), buf.len()) };
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        let copy = self.hd.copy()?;
        let mut out = vec![0u8; self.len];
        extract(self.api, &copy, self.algo, &mut out)?;
        Ok(Some(out))
    }
}

//! Owned OpenSSL objects, freed on drop, and the error queue as text.

use std::ffi::{c_char, CString};

use super::api::{Api, EvpCipher, EvpCipherCtx, EvpMd, EvpMdCtx};
use crate::error::BackendError;

/// Drains OpenSSL's error queue into one line (empty when it is empty).
pub fn error_queue(api: &Api) -> String {
    let mut parts = Vec::new();
    loop {
        // SAFETY: plain calls into the loaded library; the buffer outlives the call.
        let code = unsafe { (api.ERR_get_error)() };
        if code == 0 || parts.len() >= 8 {
            break;
        }
        let mut buf = [0 as c_char; 256];
        unsafe { (api.ERR_error_string_n)(code, buf.as_mut_ptr(), buf.len()) };
        let text = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) };
        parts.push(text.to_string_lossy().into_owned());
    }
    parts.join("; ")
}

pub fn call_failed(api: &Api, call: &'static str) -> BackendError {
    BackendError::Call {
        call,
        detail: error_queue(api),
    }
}

/// Turns an OpenSSL return code into a Result.
pub fn check(api: &Api, rc: std::ffi::c_int, call: &'static str) -> Result<(), BackendError> {
    if rc == 1 {
        Ok(())
    } else {
        Err(call_failed(api, call))
    }
}

/// An EVP_CIPHER, fetched (3.x, must be freed) or looked up (1.1.1, static).
pub struct Cipher<'a> {
    api: &'a Api,
    pub ptr: *const EvpCipher,
    fetched: bool,
}

/// A property query for a fetch (`--provider`: "?provider=NAME"), or NULL for the defaults.
fn query(properties: Option<&CString>) -> *const std::ffi::c_char {
    properties.map_or(std::ptr::null(), |p| p.as_ptr())
}

impl<'a> Cipher<'a> {
    pub fn find(api: &'a Api, name: &str, properties: Option<&CString>) -> Option<Cipher<'a>> {
        let cname = CString::new(name).ok()?;
        // SAFETY: NUL-terminated name and query; a NULL library context means the default.
        let (ptr, fetched) = match api.EVP_CIPHER_fetch {
            Some(fetch) => (
                unsafe { fetch(std::ptr::null_mut(), cname.as_ptr(), query(properties)) } as *const EvpCipher,
                true,
            ),
            None => (unsafe { (api.EVP_get_cipherbyname)(cname.as_ptr()) }, false),
        };
        if ptr.is_null() {
            error_queue(api);
            None
        } else {
            Some(Cipher { api, ptr, fetched })
        }
    }
}

impl Drop for Cipher<'_> {
    fn drop(&mut self) {
        if let (true, Some(free)) = (self.fetched, self.api.EVP_CIPHER_free) {
            // SAFETY: fetched by EVP_CIPHER_fetch and freed once.
            unsafe { free(self.ptr as *mut EvpCipher) };
        }
    }
}

/// An EVP_MD, fetched or looked up, as [`Cipher`].
pub struct Md<'a> {
    api: &'a Api,
    pub ptr: *const EvpMd,
    fetched: bool,
}

impl<'a> Md<'a> {
    pub fn find(api: &'a Api, name: &str, properties: Option<&CString>) -> Option<Md<'a>> {
        let cname = CString::new(name).ok()?;
        // SAFETY: as for Cipher::find.
        let (ptr, fetched) = match api.EVP_MD_fetch {
            Some(fetch) => (
                unsafe { fetch(std::ptr::null_mut(), cname.as_ptr(), query(properties)) } as *const EvpMd,
                true,
            ),
            None => (unsafe { (api.EVP_get_digestbyname)(cname.as_ptr()) }, false),
        };
        if ptr.is_null() {
            error_queue(api);
            None
        } else {
            Some(Md { api, ptr, fetched })
        }
    }
}

impl Drop for Md<'_> {
    fn drop(&mut self) {
        if let (true, Some(free)) = (self.fetched, self.api.EVP_MD_free) {
            // SAFETY: fetched by EVP_MD_fetch and freed once.
            unsafe { free(self.ptr as *mut EvpMd) };
        }
    }
}

pub struct CipherCtx<'a> {
    api: &'a Api,
    pub ptr: *mut EvpCipherCtx,
}

impl<'a> CipherCtx<'a> {
    pub fn new(api: &'a Api) -> Result<CipherCtx<'a>, BackendError> {
        // SAFETY: allocation call without arguments.
        let ptr = unsafe { (api.EVP_CIPHER_CTX_new)() };
        if ptr.is_null() {
            return Err(call_failed(api, "EVP_CIPHER_CTX_new"));
        }
        Ok(CipherCtx { api, ptr })
    }
}

impl Drop for CipherCtx<'_> {
    fn drop(&mut self) {
        // SAFETY: allocated by EVP_CIPHER_CTX_new, freed once.
        unsafe { (self.api.EVP_CIPHER_CTX_free)(self.ptr) };
    }
}

pub struct MdCtx<'a> {
    api: &'a Api,
    pub ptr: *mut EvpMdCtx,
}

impl<'a> MdCtx<'a> {
    pub fn new(api: &'a Api) -> Result<MdCtx<'a>, BackendError> {
        // SAFETY: allocation call without arguments.
        let ptr = unsafe { (api.EVP_MD_CTX_new)() };
        if ptr.is_null() {
            return Err(call_failed(api, "EVP_MD_CTX_new"));
        }
        Ok(MdCtx { api, ptr })
    }
}

impl Drop for MdCtx<'_> {
    fn drop(&mut self) {
        // SAFETY: allocated by EVP_MD_CTX_new, freed once.
        unsafe { (self.api.EVP_MD_CTX_free)(self.ptr) };
    }
}

//! MACs through OpenSSL 3's EVP_MAC (HMAC with a digest, CMAC with a
//! cipher, Poly1305), the calls `openssl speed` 3.x times (apps/speed.c
//! `HMAC_loop`, `CMAC_loop`: `EVP_MAC_init` with the kept key, update, final
//! per buffer). OpenSSL 1.1.1 has no EVP_MAC: MACs are unsupported there.
//! GHASH is not exposed as a MAC of its own (only inside GCM and GMAC, keyed
//! by an AES key rather than by H), so it is unsupported too.

use std::ffi::{c_char, c_void, CStr};

use super::api::{Api, EvpMac, EvpMacCtx, OsslParam, OSSL_PARAM_UNMODIFIED, OSSL_PARAM_UTF8_STRING};
use super::handles::{call_failed, check};
use crate::error::BackendError;
use crate::named::Allocation;
use crate::sessions::DigestSession;

/// (EVP_MAC name, the parameter naming its digest or cipher) of a catalog MAC.
fn mac_of(id: &str) -> Option<(&'static CStr, Option<(&'static CStr, &'static CStr)>)> {
    Some(match id {
        "hmac-md5" => (c"HMAC", Some((c"digest", c"MD5"))),
        "hmac-sha1" => (c"HMAC", Some((c"digest", c"SHA1"))),
        "hmac-sha256" => (c"HMAC", Some((c"digest", c"SHA256"))),
        "hmac-sha512" => (c"HMAC", Some((c"digest", c"SHA512"))),
        "aes-128-cmac" => (c"CMAC", Some((c"cipher", c"AES-128-CBC"))),
        "poly1305" => (c"POLY1305", None),
        _ => return None,
    })
}

/// A fetched EVP_MAC with the parameters its contexts are initialised with.
pub struct Mac<'a> {
    api: &'a Api,
    pub ptr: *mut EvpMac,
    param: Option<(&'static CStr, &'static CStr)>,
    /// Poly1305 cannot be re-initialised without its (one-time) key.
    pub one_time_key: bool,
}

impl<'a> Mac<'a> {
    pub fn find(api: &'a Api, id: &str, version: &str, properties: Option<&std::ffi::CString>) -> Result<Mac<'a>, BackendError> {
        let Some((name, param)) = mac_of(id) else {
            return Err(BackendError::Unsupported(if id == "ghash" {
                "ghash (OpenSSL exposes GHASH only inside GCM and GMAC, keyed by an AES key, not by H)".into()
            } else {
                format!("{id} (not mapped to an OpenSSL MAC)")
            }));
        };
        let (Some(fetch), Some(_), Some(_), Some(_), Some(_), Some(_), Some(_), Some(_)) = (
            api.EVP_MAC_fetch,
            api.EVP_MAC_free,
            api.EVP_MAC_CTX_new,
            api.EVP_MAC_CTX_free,
            api.EVP_MAC_CTX_dup,
            api.EVP_MAC_init,
            api.EVP_MAC_update,
            api.EVP_MAC_final,
        ) else {
            return Err(BackendError::Unsupported(format!(
                "{id} ({version} has no EVP_MAC, which OpenSSL 3.0 introduced)"
            )));
        };
        let query = properties.map_or(std::ptr::null(), |p| p.as_ptr());
        // SAFETY: NUL-terminated name and query; a NULL library context means the default.
        let ptr = unsafe { fetch(std::ptr::null_mut(), name.as_ptr(), query) };
        if ptr.is_null() {
            super::handles::error_queue(api);
            return Err(BackendError::Unsupported(format!("{id} (not provided by {version})")));
        }
        Ok(Mac {
            api,
            ptr,
            param,
            one_time_key: id == "poly1305",
        })
    }

    /// Whether this is HMAC (keyed by a digest's name).
    pub fn is_hmac(&self) -> bool {
        self.param.is_some_and(|(key, _)| key == c"digest")
    }

    fn params(&self) -> [OsslParam; 2] {
        let end = || OsslParam {
            key: std::ptr::null::<c_char>(),
            data_type: 0,
            data: std::ptr::null_mut(),
            data_size: 0,
            return_size: 0,
        };
        match self.param {
            Some((key, value)) => [
                OsslParam {
                    key: key.as_ptr(),
                    data_type: OSSL_PARAM_UTF8_STRING,
                    data: value.as_ptr() as *mut c_void,
                    data_size: value.to_bytes().len(),
                    return_size: OSSL_PARAM_UNMODIFIED,
                },
                end(),
            ],
            None => [end(), end()],
        }
    }

    /// A context keyed with `key` (and the digest or cipher parameter).
    pub fn keyed(&self, key: &[u8]) -> Result<MacCtx<'a>, BackendError> {
        let api = self.api;
        // SAFETY: the MAC was fetched; checked present in `find`.
        let ptr = unsafe { (api.EVP_MAC_CTX_new.expect("checked"))(self.ptr) };
        if ptr.is_null() {
            return Err(call_failed(api, "EVP_MAC_CTX_new"));
        }
        let ctx = MacCtx { api, ptr };
        let params = self.params();
        // SAFETY: the parameters point to static strings and end with a NULL key; the key covers its length.
        check(
            api,
            unsafe { (api.EVP_MAC_init.expect("checked"))(ctx.ptr, key.as_ptr(), key.len(), params.as_ptr()) },
            "EVP_MAC_init",
        )?;
        Ok(ctx)
    }
}

impl Drop for Mac<'_> {
    fn drop(&mut self) {
        // SAFETY: fetched by EVP_MAC_fetch, freed once.
        unsafe { (self.api.EVP_MAC_free.expect("checked"))(self.ptr) };
    }
}

pub struct MacCtx<'a> {
    api: &'a Api,
    ptr: *mut EvpMacCtx,
}

impl MacCtx<'_> {
    pub fn update(&mut self, data: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live context; `data` covers its length.
        check(
            self.api,
            unsafe { (self.api.EVP_MAC_update.expect("checked"))(self.ptr, data.as_ptr(), data.len()) },
            "EVP_MAC_update",
        )
    }

    /// Writes the tag into `out` (at most its length) and returns the tag's length.
    pub fn finish(&mut self, out: &mut [u8]) -> Result<usize, BackendError> {
        let mut n = 0usize;
        // SAFETY: `out` has the size passed.
        check(
            self.api,
            unsafe { (self.api.EVP_MAC_final.expect("checked"))(self.ptr, out.as_mut_ptr(), &mut n, out.len()) },
            "EVP_MAC_final",
        )?;
        Ok(n)
    }

    /// Starts a new message: with the kept key (NULL), or with `key` again (Poly1305).
    pub fn restart(&mut self, key: Option<&[u8]>) -> Result<(), BackendError> {
        let (p, n) = key.map_or((std::ptr::null(), 0), |k| (k.as_ptr(), k.len()));
        // SAFETY: live context; NULL key keeps the key set before (EVP_MAC_init(3)).
        check(
            self.api,
            unsafe { (self.api.EVP_MAC_init.expect("checked"))(self.ptr, p, n, std::ptr::null()) },
            "EVP_MAC_init",
        )
    }

    pub fn dup(&self) -> Result<Self, BackendError> {
        // SAFETY: live context.
        let ptr = unsafe { (self.api.EVP_MAC_CTX_dup.expect("checked"))(self.ptr) };
        if ptr.is_null() {
            return Err(call_failed(self.api, "EVP_MAC_CTX_dup"));
        }
        Ok(MacCtx { api: self.api, ptr })
    }
}

impl Drop for MacCtx<'_> {
    fn drop(&mut self) {
        // SAFETY: created by EVP_MAC_CTX_new or _dup, freed once.
        unsafe { (self.api.EVP_MAC_CTX_free.expect("checked"))(self.ptr) };
    }
}

/// A keyed EVP_MAC context: `message` is `EVP_MAC_init` with the kept key
/// (Poly1305: its one-time key again), one `EVP_MAC_update`,
/// `EVP_MAC_final`, as `openssl speed` 3.x (apps/speed.c `HMAC_loop`,
/// `CMAC_loop`); `stream` is `EVP_MAC_update` per call, the tag read from a duplicate.
pub struct MacSession<'a> {
    pub _mac: Mac<'a>,
    pub ctx: MacCtx<'a>,
    /// Poly1305's key, given again for every message.
    pub key: Option<Vec<u8>>,
}

impl DigestSession for MacSession<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        self.ctx.restart(self.key.as_deref())?;
        self.ctx.update(msg)?;
        self.ctx.finish(out).map(drop)
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        self.ctx.update(msg)
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut out = [0u8; 64];
        let n = self.ctx.dup()?.finish(&mut out)?;
        Ok(out[..n].to_vec())
    }

    /// What OpenSSL allocates inside a timed `message` call (found by the
    /// allocation test, which counts C's `malloc`; tests/c_heap).
    fn allocates(&self, message: bool) -> Option<Allocation> {
        (message && self._mac.is_hmac()).then_some(Allocation::in_c(
            "OpenSSL 3's HMAC starts a message by copying its keyed inner digest context and ends it by \
             copying the outer one (EVP_MAC_init → HMAC_Init_ex, EVP_MAC_final → HMAC_Final: EVP_MD_CTX_copy_ex), \
             and each copy makes the provider's digest context anew (its dupctx): 2 allocations per message",
        ))
    }
}

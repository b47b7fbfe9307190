//! libgcrypt's public-key calls (`gcry_pk_*` over S-expressions, 1.8+;
//! `gcry_ecc_mul_point` 1.9+) and an owned S-expression.
//! API: <https://www.gnupg.org/documentation/manuals/gcrypt/Cryptographic-Functions.html>.

use std::ffi::{c_char, c_int, c_uint, c_void};
use std::ptr::null_mut;

use crate::error::BackendError;

pub type Sexp = *mut c_void;

crate::native::api_table! {
    required {
        gcry_sexp_new: fn(*mut Sexp, *const c_void, usize, c_int) -> c_uint;
        gcry_sexp_release: fn(Sexp) -> ();
        gcry_sexp_find_token: fn(Sexp, *const c_char, usize) -> Sexp;
        gcry_sexp_nth_data: fn(Sexp, c_int, *mut usize) -> *const c_char;
        gcry_pk_sign: fn(*mut Sexp, Sexp, Sexp) -> c_uint;
        gcry_pk_verify: fn(Sexp, Sexp, Sexp) -> c_uint;
        gcry_pk_encrypt: fn(*mut Sexp, Sexp, Sexp) -> c_uint;
        gcry_pk_decrypt: fn(*mut Sexp, Sexp, Sexp) -> c_uint;
        gcry_pk_genkey: fn(*mut Sexp, Sexp) -> c_uint;
        gcry_ecc_mul_point: fn(c_int, *mut u8, *const u8, *const u8) -> c_uint;
    }
    optional {}
}

/// The public-key table under a name of its own beside the symmetric `Api`.
pub type PkApi = Api;

/// `GCRY_ECC_CURVE25519`, `GCRY_ECC_CURVE448` (gcrypt.h, 1.9+).
pub const ECC_CURVE25519: c_int = 1;
pub const ECC_CURVE448: c_int = 2;

/// A `gcry_error_t` of a public-key call as a Result.
pub fn call(rc: c_uint, call: &'static str) -> Result<(), BackendError> {
    if rc == 0 {
        Ok(())
    } else {
        Err(BackendError::Call {
            call,
            detail: format!("gpg error {rc}"),
        })
    }
}

/// An owned S-expression, released when dropped.
pub struct S<'a> {
    pub api: &'a PkApi,
    pub ptr: Sexp,
}

impl<'a> S<'a> {
    pub fn parse(api: &'a PkApi, text: &str) -> Result<S<'a>, BackendError> {
        let mut ptr = null_mut();
        // SAFETY: the text outlives the call; autodetect=1 reads the advanced format.
        let rc = unsafe { (api.gcry_sexp_new)(&mut ptr, text.as_ptr().cast(), text.len(), 1) };
        if rc != 0 || ptr.is_null() {
            return Err(BackendError::Call {
                call: "gcry_sexp_new",
                detail: format!("error {rc}"),
            });
        }
        Ok(S { api, ptr })
    }

    /// Takes the S-expression a call returned (None for NULL).
    pub fn returned(api: &'a PkApi, ptr: Sexp) -> Option<S<'a>> {
        (!ptr.is_null()).then_some(S { api, ptr })
    }

    /// `read` of the bytes of the value after `token` (e.g. "s" in (sig-val
    /// (rsa (s #…#)))), or None where there is no such value.
    pub fn with_value<R>(&self, token: &str, read: impl FnOnce(&[u8]) -> R) -> Option<R> {
        // SAFETY: live list; the found sub-list is released below, after `read`.
        unsafe {
            let sub = (self.api.gcry_sexp_find_token)(self.ptr, token.as_ptr().cast(), token.len());
            if sub.is_null() {
                return None;
            }
            let mut len = 0usize;
            let data = (self.api.gcry_sexp_nth_data)(sub, 1, &mut len);
            let out = (!data.is_null()).then(|| read(std::slice::from_raw_parts(data.cast::<u8>(), len)));
            (self.api.gcry_sexp_release)(sub);
            out
        }
    }

    /// The value after `token`, copied.
    pub fn value(&self, token: &str) -> Option<Vec<u8>> {
        self.with_value(token, <[u8]>::to_vec)
    }
}

impl Drop for S<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, released once.
        unsafe { (self.api.gcry_sexp_release)(self.ptr) };
    }
}

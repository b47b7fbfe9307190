//! The libgcrypt functions and constants cryptobench uses, resolved with
//! `libloading`. Signatures and values from libgcrypt's `src/gcrypt.h.in`
//! (identical in 1.8 to 1.11): `gcry_error_t` is an `unsigned int`, 0 on
//! success; the error code is its low 16 bits (libgpg-error).

use std::ffi::{c_char, c_int, c_uint, c_void};

use crate::native::api_table;

pub type Hd = *mut c_void;
pub type GcryError = c_uint;

/// `enum gcry_ctl_cmds`.
pub const GCRYCTL_TEST_ALGO: c_int = 8;
pub const GCRYCTL_DISABLE_SECMEM: c_int = 37;
pub const GCRYCTL_INITIALIZATION_FINISHED: c_int = 38;
pub const GCRYCTL_PRINT_CONFIG: c_int = 53;
pub const GCRYCTL_DISABLE_HWF: c_int = 63;

/// `enum gcry_cipher_algos`.
pub const GCRY_CIPHER_3DES: c_int = 2;
pub const GCRY_CIPHER_AES128: c_int = 7;
pub const GCRY_CIPHER_AES192: c_int = 8;
pub const GCRY_CIPHER_AES256: c_int = 9;
pub const GCRY_CIPHER_CHACHA20: c_int = 316;

/// `enum gcry_cipher_modes`.
pub const GCRY_CIPHER_MODE_ECB: c_int = 1;
pub const GCRY_CIPHER_MODE_CFB: c_int = 2;
pub const GCRY_CIPHER_MODE_CBC: c_int = 3;
pub const GCRY_CIPHER_MODE_CTR: c_int = 6;
pub const GCRY_CIPHER_MODE_GCM: c_int = 9;
pub const GCRY_CIPHER_MODE_POLY1305: c_int = 10;
pub const GCRY_CIPHER_MODE_XTS: c_int = 13;

/// `enum gcry_md_algos`.
pub const GCRY_MD_MD5: c_int = 1;
pub const GCRY_MD_SHA1: c_int = 2;
pub const GCRY_MD_SHA256: c_int = 8;
pub const GCRY_MD_SHA384: c_int = 9;
pub const GCRY_MD_SHA512: c_int = 10;
pub const GCRY_MD_SHA224: c_int = 11;
pub const GCRY_MD_SHA3_256: c_int = 313;
pub const GCRY_MD_SHA3_512: c_int = 315;
pub const GCRY_MD_BLAKE2B_512: c_int = 318;
pub const GCRY_MD_BLAKE2S_256: c_int = 322;

/// libgpg-error's GPG_ERR_CHECKSUM: what `gcry_cipher_checktag` returns for a wrong tag.
pub const GPG_ERR_CHECKSUM: c_uint = 10;

/// `gcry_error_t gcry_control (enum gcry_ctl_cmds CMD, ...)`: variadic, so not in the table.
pub type ControlFn = unsafe extern "C" fn(c_int, ...) -> GcryError;

api_table! {
    required {
        gcry_check_version: fn(*const c_char) -> *const c_char;
        gcry_strerror: fn(GcryError) -> *const c_char;
        gcry_cipher_open: fn(*mut Hd, c_int, c_int, c_uint) -> GcryError;
        gcry_cipher_close: fn(Hd) -> ();
        gcry_cipher_setkey: fn(Hd, *const c_void, usize) -> GcryError;
        gcry_cipher_setiv: fn(Hd, *const c_void, usize) -> GcryError;
        gcry_cipher_setctr: fn(Hd, *const c_void, usize) -> GcryError;
        gcry_cipher_encrypt: fn(Hd, *mut c_void, usize, *const c_void, usize) -> GcryError;
        gcry_cipher_decrypt: fn(Hd, *mut c_void, usize, *const c_void, usize) -> GcryError;
        gcry_cipher_authenticate: fn(Hd, *const c_void, usize) -> GcryError;
        gcry_cipher_gettag: fn(Hd, *mut c_void, usize) -> GcryError;
        gcry_cipher_checktag: fn(Hd, *const c_void, usize) -> GcryError;
        gcry_cipher_algo_info: fn(c_int, c_int, *mut c_void, *mut usize) -> GcryError;
        gcry_md_open: fn(*mut Hd, c_int, c_uint) -> GcryError;
        gcry_md_close: fn(Hd) -> ();
        gcry_md_write: fn(Hd, *const c_void, usize) -> ();
        gcry_md_read: fn(Hd, c_int) -> *const u8;
        gcry_md_copy: fn(*mut Hd, Hd) -> GcryError;
        gcry_md_hash_buffer: fn(c_int, *mut c_void, *const c_void, usize) -> ();
        gcry_md_algo_info: fn(c_int, c_int, *mut c_void, *mut usize) -> GcryError;
        gcry_md_get_algo_dlen: fn(c_int) -> c_uint;
    }
    optional {}
}

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
/// Read on Linux only (through open_memstream, mod.rs).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub const GCRYCTL_PRINT_CONFIG: c_int = 53;
pub const GCRYCTL_DISABLE_HWF: c_int = 63;
pub const GCRYCTL_RESET: c_int = 4;
pub const GCRYCTL_FINALIZE: c_int = 5;
pub const GCRYCTL_SET_CCM_LENGTHS: c_int = 69;
pub const GCRYCTL_SET_DECRYPTION_TAG: c_int = 80;

/// `enum gcry_cipher_algos`.
pub const GCRY_CIPHER_3DES: c_int = 2;
pub const GCRY_CIPHER_AES128: c_int = 7;
pub const GCRY_CIPHER_AES192: c_int = 8;
pub const GCRY_CIPHER_AES256: c_int = 9;
pub const GCRY_CIPHER_CHACHA20: c_int = 316;
pub const GCRY_CIPHER_CAMELLIA128: c_int = 310;
pub const GCRY_CIPHER_CAMELLIA192: c_int = 311;
pub const GCRY_CIPHER_CAMELLIA256: c_int = 312;
pub const GCRY_CIPHER_SM4: c_int = 318;

/// `enum gcry_cipher_modes`.
pub const GCRY_CIPHER_MODE_ECB: c_int = 1;
pub const GCRY_CIPHER_MODE_CFB: c_int = 2;
pub const GCRY_CIPHER_MODE_CBC: c_int = 3;
pub const GCRY_CIPHER_MODE_CTR: c_int = 6;
pub const GCRY_CIPHER_MODE_GCM: c_int = 9;
pub const GCRY_CIPHER_MODE_POLY1305: c_int = 10;
pub const GCRY_CIPHER_MODE_XTS: c_int = 13;
pub const GCRY_CIPHER_MODE_STREAM: c_int = 4;
pub const GCRY_CIPHER_MODE_CCM: c_int = 8;
pub const GCRY_CIPHER_MODE_OCB: c_int = 11;
pub const GCRY_CIPHER_MODE_SIV: c_int = 15;
pub const GCRY_CIPHER_MODE_GCM_SIV: c_int = 16;

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
pub const GCRY_MD_SHA3_224: c_int = 312;
pub const GCRY_MD_SHA3_384: c_int = 314;
pub const GCRY_MD_SHAKE128: c_int = 316;
pub const GCRY_MD_SHAKE256: c_int = 317;
pub const GCRY_MD_SM3: c_int = 326;

/// `enum gcry_mac_algos`.
pub const GCRY_MAC_HMAC_SHA256: c_int = 101;
pub const GCRY_MAC_HMAC_SHA512: c_int = 103;
pub const GCRY_MAC_HMAC_SHA1: c_int = 105;
pub const GCRY_MAC_HMAC_MD5: c_int = 106;
pub const GCRY_MAC_CMAC_AES: c_int = 201;
pub const GCRY_MAC_POLY1305: c_int = 501;

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
        gcry_md_reset: fn(Hd) -> ();
        gcry_cipher_ctl: fn(Hd, c_int, *mut c_void, usize) -> GcryError;
    }
    optional {
        // 1.7+: MACs, and reading extendable output (SHAKE).
        gcry_mac_open: fn(*mut Hd, c_int, c_uint, *mut c_void) -> GcryError;
        gcry_mac_close: fn(Hd) -> ();
        gcry_mac_setkey: fn(Hd, *const c_void, usize) -> GcryError;
        gcry_mac_write: fn(Hd, *const c_void, usize) -> GcryError;
        gcry_mac_read: fn(Hd, *mut c_void, *mut usize) -> GcryError;
        gcry_mac_ctl: fn(Hd, c_int, *mut c_void, usize) -> GcryError;
        gcry_mac_algo_info: fn(c_int, c_int, *mut c_void, *mut usize) -> GcryError;
        gcry_md_extract: fn(Hd, c_int, *mut c_void, usize) -> GcryError;
    }
}

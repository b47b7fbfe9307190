//! The C functions of cryptobench's Crypto++ shim (crates/backends/src/libraries/cryptopp/shim.cpp),
//! resolved with `libloading` from the shim loaded by [`super::load`].

use std::ffi::{c_char, c_int, c_void};

use crate::native::api_table;

pub type Handle = *mut c_void;

/// Cipher kinds (`enum Kind` of shim.cpp).
pub const K_ECB: c_int = 0;
pub const K_CBC: c_int = 1;
pub const K_CFB: c_int = 2;
pub const K_CTR: c_int = 3;
pub const K_XTS: c_int = 4;
pub const K_GCM: c_int = 5;
pub const K_CHAPOLY: c_int = 6;
pub const K_DES3_CBC: c_int = 7;
pub const K_CAMELLIA_CBC: c_int = 8;
pub const K_ARIA_CBC: c_int = 9;
pub const K_SM4_CBC: c_int = 10;

/// MAC kinds (`cbcp_mac_new` of shim.cpp).
pub const M_HMAC_MD5: c_int = 0;
pub const M_HMAC_SHA1: c_int = 1;
pub const M_HMAC_SHA256: c_int = 2;
pub const M_HMAC_SHA512: c_int = 3;
pub const M_CMAC_AES: c_int = 4;
pub const M_POLY1305_TLS: c_int = 5;

/// What the shim returns for a tag that does not verify.
pub const BAD_TAG: c_int = -2;

api_table! {
    required {
        cbcp_last_error: fn() -> *const c_char;
        cbcp_library_version: fn() -> c_int;
        cbcp_anchor: fn() -> *const c_void;
        cbcp_cpu: fn() -> *const c_char;
        cbcp_cipher_new: fn(c_int, c_int, *const u8, usize, *const u8, usize) -> Handle;
        cbcp_cipher_rekey: fn(Handle, *const u8, usize) -> c_int;
        cbcp_cipher_update: fn(Handle, *mut u8, usize) -> c_int;
        cbcp_cipher_seal: fn(Handle, *const u8, usize, *const u8, usize, *mut u8, usize, *mut u8, usize) -> c_int;
        cbcp_cipher_open: fn(Handle, *const u8, usize, *const u8, usize, *const u8, *mut u8, usize, *const u8, usize) -> c_int;
        cbcp_cipher_provider: fn(Handle) -> *const c_char;
        cbcp_cipher_free: fn(Handle) -> ();
        cbcp_hash_new: fn(c_int) -> Handle;
        cbcp_hash_size: fn(Handle) -> usize;
        cbcp_hash_digest: fn(Handle, *const u8, usize, *mut u8) -> c_int;
        cbcp_hash_update: fn(Handle, *const u8, usize) -> c_int;
        cbcp_hash_peek: fn(Handle, *mut u8) -> c_int;
        cbcp_hash_provider: fn(Handle) -> *const c_char;
        cbcp_hash_free: fn(Handle) -> ();
    }
    optional {
        // A shim built before MACs were added (a stale build directory): MACs are then n/a.
        cbcp_mac_new: fn(c_int, *const u8, usize) -> Handle;
    }
}

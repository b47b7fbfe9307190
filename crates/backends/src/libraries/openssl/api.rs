//! The libcrypto functions cryptobench calls, resolved with `libloading`.
//! Signatures follow OpenSSL's headers (include/openssl/evp.h, crypto.h),
//! identical in 1.1.1, 3.x and 4.x for everything listed as required.

use std::ffi::{c_char, c_int, c_uint, c_ulong, c_void};

use crate::native::api_table;

/// Opaque OpenSSL types.
pub type EvpCipher = c_void;
pub type EvpCipherCtx = c_void;
pub type EvpMd = c_void;
pub type EvpMdCtx = c_void;
pub type EvpMac = c_void;
pub type EvpMacCtx = c_void;

/// `OSSL_PARAM` (include/openssl/core.h): one parameter of a fetched algorithm.
#[repr(C)]
pub struct OsslParam {
    pub key: *const c_char,
    pub data_type: c_uint,
    pub data: *mut c_void,
    pub data_size: usize,
    pub return_size: usize,
}

/// `OSSL_PARAM_UTF8_STRING` (core.h).
pub const OSSL_PARAM_UTF8_STRING: c_uint = 4;
/// `OSSL_PARAM_UNMODIFIED` (params.h): `return_size` before the callee writes.
pub const OSSL_PARAM_UNMODIFIED: usize = usize::MAX;

/// Control codes from include/openssl/evp.h (same in 1.1.1 and 3.x).
pub const EVP_CTRL_AEAD_GET_TAG: c_int = 0x10;
pub const EVP_CTRL_AEAD_SET_TAG: c_int = 0x11;
pub const EVP_CTRL_AEAD_SET_IVLEN: c_int = 0x9;

/// `OpenSSL_version()` selectors (include/openssl/crypto.h).
pub const OPENSSL_VERSION: c_int = 0;
pub const OPENSSL_CFLAGS: c_int = 1;
pub const OPENSSL_BUILT_ON: c_int = 2;
pub const OPENSSL_PLATFORM: c_int = 3;
/// `OPENSSL_info()` selector for the CPU capability string (3.0+, include/openssl/crypto.h).
pub const OPENSSL_INFO_CPU_SETTINGS: c_int = 1008;

api_table! {
    required {
        OpenSSL_version: fn(c_int) -> *const c_char;
        EVP_get_cipherbyname: fn(*const c_char) -> *const EvpCipher;
        EVP_CIPHER_CTX_new: fn() -> *mut EvpCipherCtx;
        EVP_CIPHER_CTX_free: fn(*mut EvpCipherCtx) -> ();
        EVP_CipherInit_ex: fn(*mut EvpCipherCtx, *const EvpCipher, *mut c_void, *const u8, *const u8, c_int) -> c_int;
        EVP_EncryptUpdate: fn(*mut EvpCipherCtx, *mut u8, *mut c_int, *const u8, c_int) -> c_int;
        EVP_DecryptUpdate: fn(*mut EvpCipherCtx, *mut u8, *mut c_int, *const u8, c_int) -> c_int;
        EVP_EncryptFinal_ex: fn(*mut EvpCipherCtx, *mut u8, *mut c_int) -> c_int;
        EVP_DecryptFinal_ex: fn(*mut EvpCipherCtx, *mut u8, *mut c_int) -> c_int;
        EVP_CIPHER_CTX_ctrl: fn(*mut EvpCipherCtx, c_int, c_int, *mut c_void) -> c_int;
        EVP_CIPHER_CTX_set_padding: fn(*mut EvpCipherCtx, c_int) -> c_int;
        EVP_get_digestbyname: fn(*const c_char) -> *const EvpMd;
        EVP_Digest: fn(*const c_void, usize, *mut u8, *mut c_uint, *const EvpMd, *mut c_void) -> c_int;
        EVP_MD_CTX_new: fn() -> *mut EvpMdCtx;
        EVP_MD_CTX_free: fn(*mut EvpMdCtx) -> ();
        EVP_DigestInit_ex: fn(*mut EvpMdCtx, *const EvpMd, *mut c_void) -> c_int;
        EVP_DigestUpdate: fn(*mut EvpMdCtx, *const c_void, usize) -> c_int;
        EVP_DigestFinal_ex: fn(*mut EvpMdCtx, *mut u8, *mut c_uint) -> c_int;
        EVP_MD_CTX_copy_ex: fn(*mut EvpMdCtx, *const EvpMdCtx) -> c_int;
        ERR_get_error: fn() -> c_ulong;
        ERR_error_string_n: fn(c_ulong, *mut c_char, usize) -> ();
    }
    optional {
        // A context duplicated whole (GCM-SIV starts every message from a copy).
        EVP_CIPHER_CTX_copy: fn(*mut EvpCipherCtx, *const EvpCipherCtx) -> c_int;
        // SHAKE's output of a chosen length (1.1.1+; optional so that a minimal build still loads).
        EVP_DigestFinalXOF: fn(*mut EvpMdCtx, *mut u8, usize) -> c_int;
        // 3.0+: explicit fetching, as `openssl speed` 3.x does; avoids the implicit fetch per init.
        EVP_CIPHER_fetch: fn(*mut c_void, *const c_char, *const c_char) -> *mut EvpCipher;
        EVP_CIPHER_free: fn(*mut EvpCipher) -> ();
        EVP_MD_fetch: fn(*mut c_void, *const c_char, *const c_char) -> *mut EvpMd;
        EVP_MD_free: fn(*mut EvpMd) -> ();
        // 3.0+: MACs (HMAC, CMAC, Poly1305) through EVP_MAC, as `openssl speed` 3.x times them.
        EVP_MAC_fetch: fn(*mut c_void, *const c_char, *const c_char) -> *mut EvpMac;
        EVP_MAC_free: fn(*mut EvpMac) -> ();
        EVP_MAC_CTX_new: fn(*mut EvpMac) -> *mut EvpMacCtx;
        EVP_MAC_CTX_free: fn(*mut EvpMacCtx) -> ();
        EVP_MAC_CTX_dup: fn(*const EvpMacCtx) -> *mut EvpMacCtx;
        EVP_MAC_init: fn(*mut EvpMacCtx, *const u8, usize, *const OsslParam) -> c_int;
        EVP_MAC_update: fn(*mut EvpMacCtx, *const u8, usize) -> c_int;
        EVP_MAC_final: fn(*mut EvpMacCtx, *mut u8, *mut usize, usize) -> c_int;
        // A digest's length: EVP_MD_get_size (3.0+; EVP_MD_size is a macro there) or EVP_MD_size (1.1.1).
        EVP_MD_get_size: fn(*const EvpMd) -> c_int;
        EVP_MD_size: fn(*const EvpMd) -> c_int;
        // 3.0+: the CPUINFO string of `openssl version -a`.
        OPENSSL_info: fn(c_int) -> *const c_char;
        // 3.0+: the provider that serves a fetched algorithm, and its name (reported per cell).
        EVP_CIPHER_get0_provider: fn(*const EvpCipher) -> *const c_void;
        EVP_MD_get0_provider: fn(*const EvpMd) -> *const c_void;
        EVP_MAC_get0_provider: fn(*const EvpMac) -> *const c_void;
        OSSL_PROVIDER_get0_name: fn(*const c_void) -> *const c_char;
        // 3.0+: a provider loaded by name (`--provider NAME[=PATH]`), from a search path.
        OSSL_PROVIDER_load: fn(*mut c_void, *const c_char) -> *mut c_void;
        OSSL_PROVIDER_set_default_search_path: fn(*mut c_void, *const c_char) -> c_int;
        // ENGINEs (`--engine`): loaded by id (from ENGINESDIR) or through "dynamic" with a
        // path, made the default for what they offer; which one serves a nid (per cell).
        ENGINE_by_id: fn(*const c_char) -> *mut c_void;
        ENGINE_ctrl_cmd_string: fn(*mut c_void, *const c_char, *const c_char, c_int) -> c_int;
        ENGINE_init: fn(*mut c_void) -> c_int;
        ENGINE_finish: fn(*mut c_void) -> c_int;
        ENGINE_set_default: fn(*mut c_void, std::ffi::c_uint) -> c_int;
        ENGINE_get_id: fn(*const c_void) -> *const c_char;
        ENGINE_get_cipher_engine: fn(c_int) -> *mut c_void;
        ENGINE_get_digest_engine: fn(c_int) -> *mut c_void;
        // A cipher's and a digest's nid: the 3.0 names, and the 1.1.1 ones.
        EVP_CIPHER_get_nid: fn(*const EvpCipher) -> c_int;
        EVP_CIPHER_nid: fn(*const EvpCipher) -> c_int;
        EVP_MD_get_type: fn(*const EvpMd) -> c_int;
        EVP_MD_type: fn(*const EvpMd) -> c_int;
        // 3.0+: every provider loaded in a library context (`openssl list -providers`).
        OSSL_PROVIDER_do_all: fn(*mut c_void, unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int, *mut c_void) -> c_int;
    }
}

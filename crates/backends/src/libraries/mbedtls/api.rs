//! The Mbed TLS 2.28 functions cryptobench calls, resolved with
//! `libloading` from libmbedcrypto. Signatures and values from Mbed TLS
//! 2.28's mbedtls/aes.h, gcm.h, chachapoly.h, des.h, camellia.h, md.h, aesni.h,
//! cipher.h, cmac.h, poly1305.h, error.h and version.h. Context structures are opaque here:
//! their sizes (x86-64, the Debian build's config.h: aes 288 bytes,
//! aes_xts 576, gcm 424, chachapoly 240, des3 384, md 24) are covered by
//! [`CTX_BYTES`].

use std::ffi::{c_char, c_int, c_uint, c_void};

use crate::native::api_table;

/// Memory for any context used here: above the largest (aes_xts, 576 bytes).
pub const CTX_BYTES: usize = 2048;

/// `MBEDTLS_AES_ENCRYPT`/`DECRYPT` (aes.h), `MBEDTLS_GCM_*` (gcm.h), `MBEDTLS_DES_*` (des.h).
pub const MBEDTLS_ENCRYPT: c_int = 1;
pub const MBEDTLS_DECRYPT: c_int = 0;
/// `mbedtls_chachapoly_mode_t` (chachapoly.h): encryption is 0.
pub const MBEDTLS_CHACHAPOLY_ENCRYPT: c_int = 0;
pub const MBEDTLS_CHACHAPOLY_DECRYPT: c_int = 1;
/// `MBEDTLS_CIPHER_ID_AES` (cipher.h, mbedtls_cipher_id_t).
pub const MBEDTLS_CIPHER_ID_AES: c_int = 2;
/// `mbedtls_md_type_t` (md.h).
pub const MBEDTLS_MD_MD5: c_int = 3;
pub const MBEDTLS_MD_SHA1: c_int = 4;
pub const MBEDTLS_MD_SHA224: c_int = 5;
pub const MBEDTLS_MD_SHA256: c_int = 6;
pub const MBEDTLS_MD_SHA384: c_int = 7;
pub const MBEDTLS_MD_SHA512: c_int = 8;
/// `MBEDTLS_CIPHER_AES_128_ECB` (cipher.h, mbedtls_cipher_type_t): the cipher CMAC runs on.
pub const MBEDTLS_CIPHER_AES_128_ECB: c_int = 2;
/// Tag mismatches: `MBEDTLS_ERR_GCM_AUTH_FAILED` (-0x0012), `MBEDTLS_ERR_CHACHAPOLY_AUTH_FAILED` (-0x0056).
pub const MBEDTLS_ERR_GCM_AUTH_FAILED: c_int = -0x0012;
pub const MBEDTLS_ERR_CHACHAPOLY_AUTH_FAILED: c_int = -0x0056;
/// `mbedtls_aesni_has_support` queries (aesni.h).
pub const MBEDTLS_AESNI_AES: c_uint = 0x0200_0000;
pub const MBEDTLS_AESNI_CLMUL: c_uint = 0x0000_0002;

pub type Ctx = *mut c_void;
pub type MdInfo = *const c_void;

api_table! {
    required {
        mbedtls_version_get_string: fn(*mut c_char) -> ();
        mbedtls_aes_init: fn(Ctx) -> ();
        mbedtls_aes_free: fn(Ctx) -> ();
        mbedtls_aes_setkey_enc: fn(Ctx, *const u8, c_uint) -> c_int;
        mbedtls_aes_setkey_dec: fn(Ctx, *const u8, c_uint) -> c_int;
        mbedtls_aes_crypt_ecb: fn(Ctx, c_int, *const u8, *mut u8) -> c_int;
        mbedtls_aes_crypt_cbc: fn(Ctx, c_int, usize, *mut u8, *const u8, *mut u8) -> c_int;
        mbedtls_aes_crypt_cfb128: fn(Ctx, c_int, usize, *mut usize, *mut u8, *const u8, *mut u8) -> c_int;
        mbedtls_aes_crypt_ctr: fn(Ctx, usize, *mut usize, *mut u8, *mut u8, *const u8, *mut u8) -> c_int;
        mbedtls_gcm_init: fn(Ctx) -> ();
        mbedtls_gcm_free: fn(Ctx) -> ();
        mbedtls_gcm_setkey: fn(Ctx, c_int, *const u8, c_uint) -> c_int;
        mbedtls_gcm_crypt_and_tag: fn(Ctx, c_int, usize, *const u8, usize, *const u8, usize, *const u8, *mut u8, usize, *mut u8) -> c_int;
        mbedtls_gcm_auth_decrypt: fn(Ctx, usize, *const u8, usize, *const u8, usize, *const u8, usize, *const u8, *mut u8) -> c_int;
        mbedtls_gcm_starts: fn(Ctx, c_int, *const u8, usize, *const u8, usize) -> c_int;
        mbedtls_gcm_update: fn(Ctx, usize, *const u8, *mut u8) -> c_int;
        mbedtls_md_info_from_type: fn(c_int) -> MdInfo;
        mbedtls_md_get_size: fn(MdInfo) -> u8;
        mbedtls_md: fn(MdInfo, *const u8, usize, *mut u8) -> c_int;
        mbedtls_md_init: fn(Ctx) -> ();
        mbedtls_md_free: fn(Ctx) -> ();
        mbedtls_md_setup: fn(Ctx, MdInfo, c_int) -> c_int;
        mbedtls_md_starts: fn(Ctx) -> c_int;
        mbedtls_md_update: fn(Ctx, *const u8, usize) -> c_int;
        mbedtls_md_finish: fn(Ctx, *mut u8) -> c_int;
        mbedtls_md_clone: fn(Ctx, *const c_void) -> c_int;
        mbedtls_md_hmac_starts: fn(Ctx, *const u8, usize) -> c_int;
        mbedtls_md_hmac_update: fn(Ctx, *const u8, usize) -> c_int;
        mbedtls_md_hmac_finish: fn(Ctx, *mut u8) -> c_int;
        mbedtls_md_hmac_reset: fn(Ctx) -> c_int;
        mbedtls_md_hmac: fn(MdInfo, *const u8, usize, *const u8, usize, *mut u8) -> c_int;
    }
    optional {
        // MBEDTLS_CIPHER_MODE_XTS
        mbedtls_aes_xts_init: fn(Ctx) -> ();
        mbedtls_aes_xts_free: fn(Ctx) -> ();
        mbedtls_aes_xts_setkey_enc: fn(Ctx, *const u8, c_uint) -> c_int;
        mbedtls_aes_xts_setkey_dec: fn(Ctx, *const u8, c_uint) -> c_int;
        mbedtls_aes_crypt_xts: fn(Ctx, c_int, usize, *const u8, *const u8, *mut u8) -> c_int;
        // MBEDTLS_CHACHAPOLY_C (2.12+)
        mbedtls_chachapoly_init: fn(Ctx) -> ();
        mbedtls_chachapoly_free: fn(Ctx) -> ();
        mbedtls_chachapoly_setkey: fn(Ctx, *const u8) -> c_int;
        mbedtls_chachapoly_starts: fn(Ctx, *const u8, c_int) -> c_int;
        mbedtls_chachapoly_update: fn(Ctx, usize, *const u8, *mut u8) -> c_int;
        mbedtls_chachapoly_encrypt_and_tag: fn(Ctx, usize, *const u8, *const u8, usize, *const u8, *mut u8, *mut u8) -> c_int;
        mbedtls_chachapoly_auth_decrypt: fn(Ctx, usize, *const u8, *const u8, usize, *const u8, *const u8, *mut u8) -> c_int;
        // MBEDTLS_CAMELLIA_C
        mbedtls_camellia_init: fn(Ctx) -> ();
        mbedtls_camellia_free: fn(Ctx) -> ();
        mbedtls_camellia_setkey_enc: fn(Ctx, *const u8, c_uint) -> c_int;
        mbedtls_camellia_setkey_dec: fn(Ctx, *const u8, c_uint) -> c_int;
        mbedtls_camellia_crypt_cbc: fn(Ctx, c_int, usize, *mut u8, *const u8, *mut u8) -> c_int;
        // MBEDTLS_DES_C
        mbedtls_des3_init: fn(Ctx) -> ();
        mbedtls_des3_free: fn(Ctx) -> ();
        mbedtls_des3_set3key_enc: fn(Ctx, *const u8) -> c_int;
        mbedtls_des3_set3key_dec: fn(Ctx, *const u8) -> c_int;
        mbedtls_des3_crypt_cbc: fn(Ctx, c_int, usize, *mut u8, *const u8, *mut u8) -> c_int;
        // MBEDTLS_CIPHER_C and MBEDTLS_CMAC_C
        mbedtls_cipher_info_from_type: fn(c_int) -> *const c_void;
        mbedtls_cipher_init: fn(Ctx) -> ();
        mbedtls_cipher_free: fn(Ctx) -> ();
        mbedtls_cipher_setup: fn(Ctx, *const c_void) -> c_int;
        mbedtls_cipher_cmac_starts: fn(Ctx, *const u8, usize) -> c_int;
        mbedtls_cipher_cmac_update: fn(Ctx, *const u8, usize) -> c_int;
        mbedtls_cipher_cmac_finish: fn(Ctx, *mut u8) -> c_int;
        mbedtls_cipher_cmac_reset: fn(Ctx) -> c_int;
        mbedtls_cipher_cmac: fn(*const c_void, *const u8, usize, *const u8, usize, *mut u8) -> c_int;
        // MBEDTLS_POLY1305_C (2.12+)
        mbedtls_poly1305_init: fn(Ctx) -> ();
        mbedtls_poly1305_free: fn(Ctx) -> ();
        mbedtls_poly1305_starts: fn(Ctx, *const u8) -> c_int;
        mbedtls_poly1305_update: fn(Ctx, *const u8, usize) -> c_int;
        mbedtls_poly1305_finish: fn(Ctx, *mut u8) -> c_int;
        mbedtls_poly1305_mac: fn(*const u8, *const u8, usize, *mut u8) -> c_int;
        // MBEDTLS_AESNI_C
        mbedtls_aesni_has_support: fn(c_uint) -> c_int;
        // MBEDTLS_ERROR_C
        mbedtls_strerror: fn(c_int, *mut c_char, usize) -> ();
    }
}

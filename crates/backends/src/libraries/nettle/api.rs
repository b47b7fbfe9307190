//! The Nettle functions cryptobench calls, resolved with `libloading`. Every
//! public Nettle symbol carries the `nettle_` prefix that the headers' macros
//! add (e.g. `aes128_encrypt` is `nettle_aes128_encrypt`). Signatures from
//! Nettle 3.8's aes.h, cbc.h, ctr.h, cfb.h, gcm.h, chacha-poly1305.h, xts.h,
//! des.h, nettle-meta.h, memops.h and version.h.

use std::ffi::{c_char, c_int, c_uint, c_void};

use crate::native::api_table;

/// `nettle_cipher_func`: `void f(const void *ctx, size_t length, uint8_t *dst, const uint8_t *src)`.
pub type CipherFn = unsafe extern "C" fn(*const c_void, usize, *mut u8, *const u8);
/// `nettle_set_key_func`: `void f(void *ctx, const uint8_t *key)`.
pub type SetKeyFn = unsafe extern "C" fn(*mut c_void, *const u8);
/// `nettle_crypt_func` over a mutable context (GCM, ChaCha-Poly1305).
pub type CryptFn = unsafe extern "C" fn(*mut c_void, usize, *mut u8, *const u8);
/// `void f(void *ctx, size_t length, const uint8_t *data)` (AAD, set_iv).
pub type DataFn = unsafe extern "C" fn(*mut c_void, usize, *const u8);
/// `void f(void *ctx, size_t length, uint8_t *digest)`.
pub type DigestFn = unsafe extern "C" fn(*mut c_void, usize, *mut u8);
/// `void xts_aes*_{en,de}crypt_message(const struct xts_aes*_key *, const uint8_t *tweak, size_t length, uint8_t *dst, const uint8_t *src)`.
pub type XtsFn = unsafe extern "C" fn(*const c_void, *const u8, usize, *mut u8, *const u8);

/// `struct nettle_hash` (nettle-meta.h): a digest described as data.
#[repr(C)]
pub struct NettleHash {
    pub name: *const c_char,
    pub context_size: c_uint,
    pub digest_size: c_uint,
    pub block_size: c_uint,
    pub init: unsafe extern "C" fn(*mut c_void),
    pub update: unsafe extern "C" fn(*mut c_void, usize, *const u8),
    pub digest: unsafe extern "C" fn(*mut c_void, usize, *mut u8),
}

api_table! {
    required {
        nettle_version_major: fn() -> c_int;
        nettle_version_minor: fn() -> c_int;
        nettle_aes128_set_encrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_aes128_set_decrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_aes128_encrypt: fn(*const c_void, usize, *mut u8, *const u8) -> ();
        nettle_aes128_decrypt: fn(*const c_void, usize, *mut u8, *const u8) -> ();
        nettle_aes192_set_encrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_aes192_set_decrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_aes192_encrypt: fn(*const c_void, usize, *mut u8, *const u8) -> ();
        nettle_aes192_decrypt: fn(*const c_void, usize, *mut u8, *const u8) -> ();
        nettle_aes256_set_encrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_aes256_set_decrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_aes256_encrypt: fn(*const c_void, usize, *mut u8, *const u8) -> ();
        nettle_aes256_decrypt: fn(*const c_void, usize, *mut u8, *const u8) -> ();
        nettle_cbc_encrypt: fn(*const c_void, CipherFn, usize, *mut u8, usize, *mut u8, *const u8) -> ();
        nettle_cbc_decrypt: fn(*const c_void, CipherFn, usize, *mut u8, usize, *mut u8, *const u8) -> ();
        nettle_ctr_crypt: fn(*const c_void, CipherFn, usize, *mut u8, usize, *mut u8, *const u8) -> ();
    }
    optional {
        // 3.4+
        nettle_cfb_encrypt: fn(*const c_void, CipherFn, usize, *mut u8, usize, *mut u8, *const u8) -> ();
        nettle_cfb_decrypt: fn(*const c_void, CipherFn, usize, *mut u8, usize, *mut u8, *const u8) -> ();
        // 3.0+
        nettle_gcm_aes128_set_key: fn(*mut c_void, *const u8) -> ();
        nettle_gcm_aes128_set_iv: fn(*mut c_void, usize, *const u8) -> ();
        nettle_gcm_aes128_update: fn(*mut c_void, usize, *const u8) -> ();
        nettle_gcm_aes128_encrypt: fn(*mut c_void, usize, *mut u8, *const u8) -> ();
        nettle_gcm_aes128_decrypt: fn(*mut c_void, usize, *mut u8, *const u8) -> ();
        nettle_gcm_aes128_digest: fn(*mut c_void, usize, *mut u8) -> ();
        nettle_gcm_aes192_set_key: fn(*mut c_void, *const u8) -> ();
        nettle_gcm_aes192_set_iv: fn(*mut c_void, usize, *const u8) -> ();
        nettle_gcm_aes192_update: fn(*mut c_void, usize, *const u8) -> ();
        nettle_gcm_aes192_encrypt: fn(*mut c_void, usize, *mut u8, *const u8) -> ();
        nettle_gcm_aes192_decrypt: fn(*mut c_void, usize, *mut u8, *const u8) -> ();
        nettle_gcm_aes192_digest: fn(*mut c_void, usize, *mut u8) -> ();
        nettle_gcm_aes256_set_key: fn(*mut c_void, *const u8) -> ();
        nettle_gcm_aes256_set_iv: fn(*mut c_void, usize, *const u8) -> ();
        nettle_gcm_aes256_update: fn(*mut c_void, usize, *const u8) -> ();
        nettle_gcm_aes256_encrypt: fn(*mut c_void, usize, *mut u8, *const u8) -> ();
        nettle_gcm_aes256_decrypt: fn(*mut c_void, usize, *mut u8, *const u8) -> ();
        nettle_gcm_aes256_digest: fn(*mut c_void, usize, *mut u8) -> ();
        nettle_chacha_poly1305_set_key: fn(*mut c_void, *const u8) -> ();
        nettle_chacha_poly1305_set_nonce: fn(*mut c_void, *const u8) -> ();
        nettle_chacha_poly1305_update: fn(*mut c_void, usize, *const u8) -> ();
        nettle_chacha_poly1305_encrypt: fn(*mut c_void, usize, *mut u8, *const u8) -> ();
        nettle_chacha_poly1305_decrypt: fn(*mut c_void, usize, *mut u8, *const u8) -> ();
        nettle_chacha_poly1305_digest: fn(*mut c_void, usize, *mut u8) -> ();
        // 3.5+
        nettle_xts_aes128_set_encrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_xts_aes128_set_decrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_xts_aes128_encrypt_message: fn(*const c_void, *const u8, usize, *mut u8, *const u8) -> ();
        nettle_xts_aes128_decrypt_message: fn(*const c_void, *const u8, usize, *mut u8, *const u8) -> ();
        nettle_xts_aes256_set_encrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_xts_aes256_set_decrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_xts_aes256_encrypt_message: fn(*const c_void, *const u8, usize, *mut u8, *const u8) -> ();
        nettle_xts_aes256_decrypt_message: fn(*const c_void, *const u8, usize, *mut u8, *const u8) -> ();
        // des3_set_key returns 1 for a good key, 0 for a weak one (parity bits are ignored).
        nettle_des3_set_key: fn(*mut c_void, *const u8) -> c_int;
        nettle_des3_encrypt: fn(*const c_void, usize, *mut u8, *const u8) -> ();
        nettle_des3_decrypt: fn(*const c_void, usize, *mut u8, *const u8) -> ();
        // 3.3+: constant-time comparison for tags.
        nettle_memeql_sec: fn(*const c_void, *const c_void, usize) -> c_int;
        // Camellia (camellia.h): one crypt function for both directions.
        nettle_camellia128_set_encrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_camellia_set_decrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_camellia128_crypt: fn(*const c_void, usize, *mut u8, *const u8) -> ();
        nettle_camellia192_set_encrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_camellia192_set_decrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_camellia256_set_encrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_camellia256_set_decrypt_key: fn(*mut c_void, *const u8) -> ();
        nettle_camellia256_crypt: fn(*const c_void, usize, *mut u8, *const u8) -> ();
        // HMAC (hmac.h): set_key(ctx, key_length, key); digest resets to the keyed state.
        nettle_hmac_md5_set_key: fn(*mut c_void, usize, *const u8) -> ();
        nettle_hmac_md5_update: fn(*mut c_void, usize, *const u8) -> ();
        nettle_hmac_md5_digest: fn(*mut c_void, usize, *mut u8) -> ();
        nettle_hmac_sha1_set_key: fn(*mut c_void, usize, *const u8) -> ();
        nettle_hmac_sha1_update: fn(*mut c_void, usize, *const u8) -> ();
        nettle_hmac_sha1_digest: fn(*mut c_void, usize, *mut u8) -> ();
        nettle_hmac_sha256_set_key: fn(*mut c_void, usize, *const u8) -> ();
        nettle_hmac_sha256_update: fn(*mut c_void, usize, *const u8) -> ();
        nettle_hmac_sha256_digest: fn(*mut c_void, usize, *mut u8) -> ();
        nettle_hmac_sha512_set_key: fn(*mut c_void, usize, *const u8) -> ();
        nettle_hmac_sha512_update: fn(*mut c_void, usize, *const u8) -> ();
        nettle_hmac_sha512_digest: fn(*mut c_void, usize, *mut u8) -> ();
        // CMAC (cmac.h, 3.5+): digest resets to the keyed state too.
        nettle_cmac_aes128_set_key: fn(*mut c_void, *const u8) -> ();
        nettle_cmac_aes128_update: fn(*mut c_void, usize, *const u8) -> ();
        nettle_cmac_aes128_digest: fn(*mut c_void, usize, *mut u8) -> ();
    }
}

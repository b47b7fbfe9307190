//! The libsodium functions cryptobench calls, resolved with `libloading`.
//! Signatures from libsodium 1.0.18's headers (sodium/core.h, version.h,
//! crypto_aead_aes256gcm.h, crypto_aead_chacha20poly1305.h,
//! crypto_hash_sha256.h, crypto_hash_sha512.h, crypto_generichash_blake2b.h,
//! runtime.h); `unsigned long long` lengths are `u64`.

use std::ffi::{c_int, c_void};

use crate::native::api_table;

api_table! {
    required {
        sodium_init: fn() -> c_int;
        crypto_aead_chacha20poly1305_ietf_encrypt_detached: fn(*mut u8, *mut u8, *mut u64, *const u8, u64, *const u8, u64, *const u8, *const u8, *const u8) -> c_int;
        crypto_aead_chacha20poly1305_ietf_decrypt_detached: fn(*mut u8, *mut u8, *const u8, u64, *const u8, *const u8, u64, *const u8, *const u8) -> c_int;
        crypto_hash_sha256: fn(*mut u8, *const u8, u64) -> c_int;
        crypto_hash_sha256_statebytes: fn() -> usize;
        crypto_hash_sha256_init: fn(*mut c_void) -> c_int;
        crypto_hash_sha256_update: fn(*mut c_void, *const u8, u64) -> c_int;
        crypto_hash_sha256_final: fn(*mut c_void, *mut u8) -> c_int;
        crypto_hash_sha512: fn(*mut u8, *const u8, u64) -> c_int;
        crypto_hash_sha512_statebytes: fn() -> usize;
        crypto_hash_sha512_init: fn(*mut c_void) -> c_int;
        crypto_hash_sha512_update: fn(*mut c_void, *const u8, u64) -> c_int;
        crypto_hash_sha512_final: fn(*mut c_void, *mut u8) -> c_int;
        crypto_generichash_blake2b: fn(*mut u8, usize, *const u8, u64, *const u8, usize) -> c_int;
        crypto_generichash_blake2b_statebytes: fn() -> usize;
        crypto_generichash_blake2b_init: fn(*mut c_void, *const u8, usize, usize) -> c_int;
        crypto_generichash_blake2b_update: fn(*mut c_void, *const u8, u64) -> c_int;
        crypto_generichash_blake2b_final: fn(*mut c_void, *mut u8, usize) -> c_int;
    }
    optional {
        // AES-256-GCM: only on x86-64 with AES-NI and PCLMUL (crypto_aead_aes256gcm_is_available).
        crypto_aead_aes256gcm_is_available: fn() -> c_int;
        crypto_aead_aes256gcm_statebytes: fn() -> usize;
        crypto_aead_aes256gcm_beforenm: fn(*mut c_void, *const u8) -> c_int;
        crypto_aead_aes256gcm_encrypt_detached: fn(*mut u8, *mut u8, *mut u64, *const u8, u64, *const u8, u64, *const u8, *const u8, *const u8) -> c_int;
        crypto_aead_aes256gcm_decrypt_detached: fn(*mut u8, *mut u8, *const u8, u64, *const u8, *const u8, u64, *const u8, *const u8) -> c_int;
        crypto_aead_aes256gcm_encrypt_detached_afternm: fn(*mut u8, *mut u8, *mut u64, *const u8, u64, *const u8, u64, *const u8, *const u8, *const c_void) -> c_int;
        crypto_aead_aes256gcm_decrypt_detached_afternm: fn(*mut u8, *mut u8, *const u8, u64, *const u8, *const u8, u64, *const u8, *const c_void) -> c_int;
        sodium_runtime_has_aesni: fn() -> c_int;
        sodium_runtime_has_pclmul: fn() -> c_int;
        sodium_runtime_has_avx2: fn() -> c_int;
        sodium_runtime_has_ssse3: fn() -> c_int;
        sodium_runtime_has_sse41: fn() -> c_int;
        // XChaCha20-Poly1305 (1.0.12+), ChaCha20 alone, Poly1305 and HMAC-SHA-2.
        crypto_aead_xchacha20poly1305_ietf_encrypt_detached: fn(*mut u8, *mut u8, *mut u64, *const u8, u64, *const u8, u64, *const u8, *const u8, *const u8) -> c_int;
        crypto_aead_xchacha20poly1305_ietf_decrypt_detached: fn(*mut u8, *mut u8, *const u8, u64, *const u8, *const u8, u64, *const u8, *const u8) -> c_int;
        crypto_stream_chacha20_ietf_xor_ic: fn(*mut u8, *const u8, u64, *const u8, u32, *const u8) -> c_int;
        crypto_onetimeauth_poly1305: fn(*mut u8, *const u8, u64, *const u8) -> c_int;
        crypto_onetimeauth_poly1305_statebytes: fn() -> usize;
        crypto_onetimeauth_poly1305_init: fn(*mut c_void, *const u8) -> c_int;
        crypto_onetimeauth_poly1305_update: fn(*mut c_void, *const u8, u64) -> c_int;
        crypto_onetimeauth_poly1305_final: fn(*mut c_void, *mut u8) -> c_int;
        crypto_auth_hmacsha256_statebytes: fn() -> usize;
        crypto_auth_hmacsha256_init: fn(*mut c_void, *const u8, usize) -> c_int;
        crypto_auth_hmacsha256_update: fn(*mut c_void, *const u8, u64) -> c_int;
        crypto_auth_hmacsha256_final: fn(*mut c_void, *mut u8) -> c_int;
        crypto_auth_hmacsha512_statebytes: fn() -> usize;
        crypto_auth_hmacsha512_init: fn(*mut c_void, *const u8, usize) -> c_int;
        crypto_auth_hmacsha512_update: fn(*mut c_void, *const u8, u64) -> c_int;
        crypto_auth_hmacsha512_final: fn(*mut c_void, *mut u8) -> c_int;
    }
}

/// A libsodium call's result: 0 is success.
pub fn check(rc: c_int, call: &'static str) -> Result<(), crate::error::BackendError> {
    if rc == 0 {
        Ok(())
    } else {
        Err(crate::error::BackendError::Call {
            call,
            detail: format!("returned {rc}"),
        })
    }
}

//! The LibTomCrypt functions cryptobench calls, resolved with `libloading`.
//! Signatures and values from LibTomCrypt 1.18's tomcrypt_cipher.h,
//! tomcrypt_mac.h, tomcrypt_hash.h and tomcrypt_misc.h (`unsigned long`
//! lengths are `c_ulong`). Structure sizes come from the library itself
//! (`crypt_get_size`, misc/crypt/crypt_sizes.c); the cipher and hash
//! descriptors are data symbols, resolved in `mod.rs`.

use std::ffi::{c_char, c_int, c_uint, c_ulong, c_void};

use crate::native::api_table;

pub type State = *mut c_void;
/// `int init(hash_state *)`, `int process(hash_state *, in, inlen)`, `int done(hash_state *, out)` of one hash.
pub type HashInit = unsafe extern "C" fn(State) -> c_int;
pub type HashProcess = unsafe extern "C" fn(State, *const u8, c_ulong) -> c_int;
pub type HashDone = unsafe extern "C" fn(State, *mut u8) -> c_int;

pub const CRYPT_OK: c_int = 0;
/// `GCM_ENCRYPT`/`GCM_DECRYPT` (tomcrypt_mac.h).
pub const GCM_ENCRYPT: c_int = 0;
pub const GCM_DECRYPT: c_int = 1;
/// `CTR_COUNTER_BIG_ENDIAN` with counter length 0 = the whole block (tomcrypt_cipher.h).
pub const CTR_COUNTER_BIG_ENDIAN: c_int = 0x1000;

api_table! {
    required {
        error_to_string: fn(c_int) -> *const c_char;
        crypt_get_size: fn(*const c_char, *mut c_uint) -> c_int;
        register_cipher: fn(*const c_void) -> c_int;
        register_hash: fn(*const c_void) -> c_int;
        mem_neq: fn(*const c_void, *const c_void, usize) -> c_int;
        ecb_start: fn(c_int, *const u8, c_int, c_int, State) -> c_int;
        ecb_encrypt: fn(*const u8, *mut u8, c_ulong, State) -> c_int;
        ecb_decrypt: fn(*const u8, *mut u8, c_ulong, State) -> c_int;
        ecb_done: fn(State) -> c_int;
        cbc_start: fn(c_int, *const u8, *const u8, c_int, c_int, State) -> c_int;
        cbc_encrypt: fn(*const u8, *mut u8, c_ulong, State) -> c_int;
        cbc_decrypt: fn(*const u8, *mut u8, c_ulong, State) -> c_int;
        cbc_setiv: fn(*const u8, c_ulong, State) -> c_int;
        cbc_done: fn(State) -> c_int;
        cfb_start: fn(c_int, *const u8, *const u8, c_int, c_int, State) -> c_int;
        cfb_encrypt: fn(*const u8, *mut u8, c_ulong, State) -> c_int;
        cfb_decrypt: fn(*const u8, *mut u8, c_ulong, State) -> c_int;
        cfb_setiv: fn(*const u8, c_ulong, State) -> c_int;
        cfb_done: fn(State) -> c_int;
        ctr_start: fn(c_int, *const u8, *const u8, c_int, c_int, c_int, State) -> c_int;
        ctr_encrypt: fn(*const u8, *mut u8, c_ulong, State) -> c_int;
        ctr_decrypt: fn(*const u8, *mut u8, c_ulong, State) -> c_int;
        ctr_setiv: fn(*const u8, c_ulong, State) -> c_int;
        ctr_done: fn(State) -> c_int;
        hash_memory: fn(c_int, *const u8, c_ulong, *mut u8, *mut c_ulong) -> c_int;
    }
    optional {
        // LTC_XTS_MODE
        xts_start: fn(c_int, *const u8, *const u8, c_ulong, c_int, State) -> c_int;
        xts_encrypt: fn(*const u8, c_ulong, *mut u8, *mut u8, State) -> c_int;
        xts_decrypt: fn(*const u8, c_ulong, *mut u8, *mut u8, State) -> c_int;
        xts_done: fn(State) -> ();
        // LTC_GCM_MODE
        gcm_init: fn(State, c_int, *const u8, c_int) -> c_int;
        gcm_reset: fn(State) -> c_int;
        gcm_add_iv: fn(State, *const u8, c_ulong) -> c_int;
        gcm_add_aad: fn(State, *const u8, c_ulong) -> c_int;
        gcm_process: fn(State, *mut u8, c_ulong, *mut u8, c_int) -> c_int;
        gcm_done: fn(State, *mut u8, *mut c_ulong) -> c_int;
        // LTC_CHACHA20POLY1305_MODE (1.18+)
        chacha20poly1305_init: fn(State, *const u8, c_ulong) -> c_int;
        chacha20poly1305_setiv: fn(State, *const u8, c_ulong) -> c_int;
        chacha20poly1305_add_aad: fn(State, *const u8, c_ulong) -> c_int;
        chacha20poly1305_encrypt: fn(State, *const u8, c_ulong, *mut u8) -> c_int;
        chacha20poly1305_decrypt: fn(State, *const u8, c_ulong, *mut u8) -> c_int;
        chacha20poly1305_done: fn(State, *mut u8, *mut c_ulong) -> c_int;
        chacha20poly1305_memory: fn(*const u8, c_ulong, *const u8, c_ulong, *const u8, c_ulong, *const u8, c_ulong, *mut u8, *mut u8, *mut c_ulong, c_int) -> c_int;
        // Hashes: init/process/done of each (tomcrypt_hash.h); SHA-224 and
        // SHA-384 share the process call of SHA-256 and SHA-512, SHA3 and
        // BLAKE2 theirs.
        md5_init: fn(State) -> c_int;
        md5_process: fn(State, *const u8, c_ulong) -> c_int;
        md5_done: fn(State, *mut u8) -> c_int;
        sha1_init: fn(State) -> c_int;
        sha1_process: fn(State, *const u8, c_ulong) -> c_int;
        sha1_done: fn(State, *mut u8) -> c_int;
        sha224_init: fn(State) -> c_int;
        sha224_done: fn(State, *mut u8) -> c_int;
        sha256_init: fn(State) -> c_int;
        sha256_process: fn(State, *const u8, c_ulong) -> c_int;
        sha256_done: fn(State, *mut u8) -> c_int;
        sha384_init: fn(State) -> c_int;
        sha384_done: fn(State, *mut u8) -> c_int;
        sha512_init: fn(State) -> c_int;
        sha512_process: fn(State, *const u8, c_ulong) -> c_int;
        sha512_done: fn(State, *mut u8) -> c_int;
        sha3_224_init: fn(State) -> c_int;
        sha3_256_init: fn(State) -> c_int;
        sha3_384_init: fn(State) -> c_int;
        sha3_512_init: fn(State) -> c_int;
        sha3_process: fn(State, *const u8, c_ulong) -> c_int;
        sha3_done: fn(State, *mut u8) -> c_int;
        blake2b_512_init: fn(State) -> c_int;
        blake2b_process: fn(State, *const u8, c_ulong) -> c_int;
        blake2b_done: fn(State, *mut u8) -> c_int;
        blake2s_256_init: fn(State) -> c_int;
        blake2s_process: fn(State, *const u8, c_ulong) -> c_int;
        blake2s_done: fn(State, *mut u8) -> c_int;
        // LTC_HMAC, LTC_OMAC (CMAC), LTC_POLY1305 (tomcrypt_mac.h)
        hmac_init: fn(State, c_int, *const u8, c_ulong) -> c_int;
        hmac_process: fn(State, *const u8, c_ulong) -> c_int;
        hmac_done: fn(State, *mut u8, *mut c_ulong) -> c_int;
        hmac_memory: fn(c_int, *const u8, c_ulong, *const u8, c_ulong, *mut u8, *mut c_ulong) -> c_int;
        omac_init: fn(State, c_int, *const u8, c_ulong) -> c_int;
        omac_process: fn(State, *const u8, c_ulong) -> c_int;
        omac_done: fn(State, *mut u8, *mut c_ulong) -> c_int;
        omac_memory: fn(c_int, *const u8, c_ulong, *const u8, c_ulong, *mut u8, *mut c_ulong) -> c_int;
        poly1305_init: fn(State, *const u8, c_ulong) -> c_int;
        poly1305_process: fn(State, *const u8, c_ulong) -> c_int;
        poly1305_done: fn(State, *mut u8, *mut c_ulong) -> c_int;
        poly1305_memory: fn(*const u8, c_ulong, *const u8, c_ulong, *mut u8, *mut c_ulong) -> c_int;
    }
}

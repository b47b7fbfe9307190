//! The GnuTLS functions and constants cryptobench uses, resolved with
//! `libloading`. Signatures and values from GnuTLS 3.7's gnutls/gnutls.h
//! (gnutls_cipher_algorithm_t, gnutls_digest_algorithm_t, error codes,
//! global init and logging) and gnutls/crypto.h (the cipher, AEAD and hash
//! APIs, and the MAC API `gnutls_hmac_*`, which serves CMAC too). `giovec_t` is `struct iovec` (gnutls.h includes sys/uio.h).

use std::ffi::{c_char, c_int, c_uint, c_void};

use crate::native::api_table;

/// `gnutls_datum_t`.
#[repr(C)]
pub struct Datum {
    pub data: *const u8,
    pub size: c_uint,
}

/// `giovec_t` = `struct iovec`.
#[repr(C)]
pub struct Iovec {
    pub base: *const c_void,
    pub len: usize,
}

pub type CipherHd = *mut c_void;
pub type AeadHd = *mut c_void;
pub type HashHd = *mut c_void;
pub type HmacHd = *mut c_void;
/// `typedef void (*gnutls_log_func) (int, const char *)`.
pub type LogFn = unsafe extern "C" fn(c_int, *const c_char);

/// `gnutls_cipher_algorithm_t` (gnutls.h).
pub const GNUTLS_CIPHER_3DES_CBC: c_int = 3;
pub const GNUTLS_CIPHER_AES_128_CBC: c_int = 4;
pub const GNUTLS_CIPHER_AES_256_CBC: c_int = 5;
pub const GNUTLS_CIPHER_CAMELLIA_128_CBC: c_int = 7;
pub const GNUTLS_CIPHER_CAMELLIA_256_CBC: c_int = 8;
pub const GNUTLS_CIPHER_AES_192_CBC: c_int = 9;
pub const GNUTLS_CIPHER_AES_128_GCM: c_int = 10;
pub const GNUTLS_CIPHER_AES_256_GCM: c_int = 11;
pub const GNUTLS_CIPHER_CAMELLIA_192_CBC: c_int = 12;
pub const GNUTLS_CIPHER_CHACHA20_POLY1305: c_int = 23;
pub const GNUTLS_CIPHER_AES_128_XTS: c_int = 32;
pub const GNUTLS_CIPHER_AES_256_XTS: c_int = 33;
/// ChaCha20 with a 32-bit counter and a 96-bit nonce (3.7.7+): a 16-byte IV,
/// counter first (lib/nettle/cipher.c, as OpenSSL's "chacha20").
pub const GNUTLS_CIPHER_CHACHA20_32: c_int = 36;
pub const GNUTLS_CIPHER_AES_192_GCM: c_int = 39;

/// `gnutls_digest_algorithm_t` (= the `gnutls_mac_algorithm_t` values, gnutls.h).
pub const GNUTLS_DIG_MD5: c_int = 2;
pub const GNUTLS_DIG_SHA1: c_int = 3;
pub const GNUTLS_DIG_SHA256: c_int = 6;
pub const GNUTLS_DIG_SHA384: c_int = 7;
pub const GNUTLS_DIG_SHA512: c_int = 8;
pub const GNUTLS_DIG_SHA224: c_int = 9;
pub const GNUTLS_DIG_SHA3_224: c_int = 10;
pub const GNUTLS_DIG_SHA3_256: c_int = 11;
pub const GNUTLS_DIG_SHA3_384: c_int = 12;
pub const GNUTLS_DIG_SHA3_512: c_int = 13;

/// `gnutls_mac_algorithm_t` values beyond the digests' (gnutls.h).
pub const GNUTLS_MAC_AES_CMAC_128: c_int = 203;

/// The error a failed tag check returns (gnutls.h).
pub const GNUTLS_E_DECRYPTION_FAILED: c_int = -24;

api_table! {
    required {
        gnutls_strerror: fn(c_int) -> *const c_char;
        gnutls_global_init: fn() -> c_int;
        gnutls_global_deinit: fn() -> ();
        gnutls_global_set_log_function: fn(LogFn) -> ();
        gnutls_global_set_log_level: fn(c_int) -> ();
        gnutls_cipher_init: fn(*mut CipherHd, c_int, *const Datum, *const Datum) -> c_int;
        gnutls_cipher_encrypt: fn(CipherHd, *mut c_void, usize) -> c_int;
        gnutls_cipher_decrypt: fn(CipherHd, *mut c_void, usize) -> c_int;
        gnutls_cipher_decrypt2: fn(CipherHd, *const c_void, usize, *mut c_void, usize) -> c_int;
        gnutls_cipher_set_iv: fn(CipherHd, *mut c_void, usize) -> ();
        gnutls_cipher_deinit: fn(CipherHd) -> ();
        gnutls_aead_cipher_init: fn(*mut AeadHd, c_int, *const Datum) -> c_int;
        gnutls_aead_cipher_decrypt: fn(AeadHd, *const c_void, usize, *const c_void, usize, usize, *const c_void, usize, *mut c_void, *mut usize) -> c_int;
        gnutls_aead_cipher_deinit: fn(AeadHd) -> ();
        gnutls_hash_init: fn(*mut HashHd, c_int) -> c_int;
        gnutls_hash: fn(HashHd, *const c_void, usize) -> c_int;
        gnutls_hash_deinit: fn(HashHd, *mut c_void) -> ();
        gnutls_hash_fast: fn(c_int, *const c_void, usize, *mut c_void) -> c_int;
        gnutls_hash_get_len: fn(c_int) -> c_uint;
        gnutls_hmac_init: fn(*mut HmacHd, c_int, *const c_void, usize) -> c_int;
        gnutls_hmac: fn(HmacHd, *const c_void, usize) -> c_int;
        gnutls_hmac_output: fn(HmacHd, *mut c_void) -> ();
        gnutls_hmac_deinit: fn(HmacHd, *mut c_void) -> ();
        gnutls_hmac_fast: fn(c_int, *const c_void, usize, *const c_void, usize, *mut c_void) -> c_int;
        gnutls_hmac_get_len: fn(c_int) -> c_uint;
    }
    optional {
        // 3.6.10+: encryption in place (iovecs) with the tag apart.
        gnutls_aead_cipher_encryptv2: fn(AeadHd, *const c_void, usize, *const Iovec, c_int, *const Iovec, c_int, *mut c_void, *mut usize) -> c_int;
        // 3.6.9+: a copy of a hash state.
        gnutls_hash_copy: fn(HashHd) -> HashHd;
        // 3.6.9+: a copy of a MAC state.
        gnutls_hmac_copy: fn(HmacHd) -> HmacHd;
    }
}

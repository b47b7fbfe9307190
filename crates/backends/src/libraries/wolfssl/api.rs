//! The wolfCrypt functions cryptobench calls, resolved with `libloading`
//! from libwolfssl. Signatures and values from wolfSSL 5.5's
//! wolfssl/wolfcrypt/aes.h, chacha20_poly1305.h, des3.h, camellia.h, hash.h, blake2.h, hmac.h, cmac.h, poly1305.h,
//! error-crypt.h, wc_port.h and wolfssl/ssl.h; `word32` is `u32`. Context
//! structures are opaque here; their sizes depend on the build's
//! options.h (Debian's 5.5.4 on x86-64: Aes 1104 bytes, 16-byte aligned;
//! XtsAes 2208; ChaChaPoly_Aead 184; Des3 448; wc_HashAlg 432; Blake2b
//! 368), all below [`CTX_BYTES`].

use std::ffi::{c_char, c_int, c_void};

use crate::native::api_table;

/// Memory for any context used here (CtxMem aligns to 64 bytes).
pub const CTX_BYTES: usize = 8192;

/// `INVALID_DEVID` (wolfcrypt/types.h): no crypto callback device.
pub const INVALID_DEVID: c_int = -2;
/// Key directions (aes.h `AES_ENCRYPTION`/`AES_DECRYPTION`, des3.h `DES_ENCRYPTION`/`DES_DECRYPTION`).
pub const ENCRYPTION: c_int = 0;
pub const DECRYPTION: c_int = 1;
/// Tag mismatches (error-crypt.h): AES-GCM and ChaCha20-Poly1305.
pub const AES_GCM_AUTH_E: c_int = -180;
pub const MAC_CMP_FAILED_E: c_int = -213;
/// `enum wc_HashType` (hash.h).
pub const WC_HASH_TYPE_MD5: c_int = 3;
pub const WC_HASH_TYPE_SHA: c_int = 4;
pub const WC_HASH_TYPE_SHA224: c_int = 5;
pub const WC_HASH_TYPE_SHA256: c_int = 6;
pub const WC_HASH_TYPE_SHA384: c_int = 7;
pub const WC_HASH_TYPE_SHA512: c_int = 8;
pub const WC_HASH_TYPE_SHA3_224: c_int = 10;
pub const WC_HASH_TYPE_SHA3_256: c_int = 11;
pub const WC_HASH_TYPE_SHA3_384: c_int = 12;
pub const WC_HASH_TYPE_SHA3_512: c_int = 13;

/// `WC_CMAC_AES` (cmac.h, CmacType).
pub const WC_CMAC_AES: c_int = 1;

pub type Ctx = *mut c_void;
/// `int wc_*Copy(src, dst)` of one hash type.
pub type CopyFn = unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int;

api_table! {
    required {
        wolfCrypt_Init: fn() -> c_int;
        wc_GetErrorString: fn(c_int) -> *const c_char;
        wc_AesInit: fn(Ctx, *mut c_void, c_int) -> c_int;
        wc_AesFree: fn(Ctx) -> ();
        wc_AesSetKey: fn(Ctx, *const u8, u32, *const u8, c_int) -> c_int;
        wc_AesSetIV: fn(Ctx, *const u8) -> c_int;
        wc_AesCbcEncrypt: fn(Ctx, *mut u8, *const u8, u32) -> c_int;
        wc_AesCbcDecrypt: fn(Ctx, *mut u8, *const u8, u32) -> c_int;
        wc_AesGcmSetKey: fn(Ctx, *const u8, u32) -> c_int;
        wc_AesGcmEncrypt: fn(Ctx, *mut u8, *const u8, u32, *const u8, u32, *mut u8, u32, *const u8, u32) -> c_int;
        wc_AesGcmDecrypt: fn(Ctx, *mut u8, *const u8, u32, *const u8, u32, *const u8, u32, *const u8, u32) -> c_int;
        wc_Hash: fn(c_int, *const u8, u32, *mut u8, u32) -> c_int;
        wc_HashGetDigestSize: fn(c_int) -> c_int;
        wc_HashInit: fn(Ctx, c_int) -> c_int;
        wc_HashUpdate: fn(Ctx, c_int, *const u8, u32) -> c_int;
        wc_HashFinal: fn(Ctx, c_int, *mut u8) -> c_int;
        wc_HashFree: fn(Ctx, c_int) -> c_int;
    }
    optional {
        wc_AesEcbEncrypt: fn(Ctx, *mut u8, *const u8, u32) -> c_int;
        wc_AesEcbDecrypt: fn(Ctx, *mut u8, *const u8, u32) -> c_int;
        wc_AesCfbEncrypt: fn(Ctx, *mut u8, *const u8, u32) -> c_int;
        wc_AesCfbDecrypt: fn(Ctx, *mut u8, *const u8, u32) -> c_int;
        wc_AesCtrEncrypt: fn(Ctx, *mut u8, *const u8, u32) -> c_int;
        // WOLFSSL_AESGCM_STREAM
        wc_AesGcmInit: fn(Ctx, *const u8, u32, *const u8, u32) -> c_int;
        wc_AesGcmEncryptUpdate: fn(Ctx, *mut u8, *const u8, u32, *const u8, u32) -> c_int;
        wc_AesGcmDecryptUpdate: fn(Ctx, *mut u8, *const u8, u32, *const u8, u32) -> c_int;
        // WOLFSSL_AES_XTS
        wc_AesXtsSetKey: fn(Ctx, *const u8, u32, c_int, *mut c_void, c_int) -> c_int;
        wc_AesXtsEncrypt: fn(Ctx, *mut u8, *const u8, u32, *const u8, u32) -> c_int;
        wc_AesXtsDecrypt: fn(Ctx, *mut u8, *const u8, u32, *const u8, u32) -> c_int;
        wc_AesXtsFree: fn(Ctx) -> c_int;
        // HAVE_CHACHA && HAVE_POLY1305
        wc_ChaCha20Poly1305_Encrypt: fn(*const u8, *const u8, *const u8, u32, *const u8, u32, *mut u8, *mut u8) -> c_int;
        wc_ChaCha20Poly1305_Decrypt: fn(*const u8, *const u8, *const u8, u32, *const u8, u32, *const u8, *mut u8) -> c_int;
        wc_ChaCha20Poly1305_Init: fn(Ctx, *const u8, *const u8, c_int) -> c_int;
        wc_ChaCha20Poly1305_UpdateData: fn(Ctx, *const u8, *mut u8, u32) -> c_int;
        // !NO_DES3
        wc_Des3Init: fn(Ctx, *mut c_void, c_int) -> c_int;
        wc_Des3Free: fn(Ctx) -> ();
        wc_Des3_SetKey: fn(Ctx, *const u8, *const u8, c_int) -> c_int;
        wc_Des3_SetIV: fn(Ctx, *const u8) -> c_int;
        wc_Des3_CbcEncrypt: fn(Ctx, *mut u8, *const u8, u32) -> c_int;
        wc_Des3_CbcDecrypt: fn(Ctx, *mut u8, *const u8, u32) -> c_int;
        // HAVE_CAMELLIA (camellia.h): no init or free; the IV is kept in the object.
        wc_CamelliaSetKey: fn(Ctx, *const u8, u32, *const u8) -> c_int;
        wc_CamelliaSetIV: fn(Ctx, *const u8) -> c_int;
        wc_CamelliaCbcEncrypt: fn(Ctx, *mut u8, *const u8, u32) -> c_int;
        wc_CamelliaCbcDecrypt: fn(Ctx, *mut u8, *const u8, u32) -> c_int;
        // HAVE_BLAKE2B / HAVE_BLAKE2S: not reachable through wc_Hash (hash.c answers BAD_FUNC_ARG)
        wc_InitBlake2b: fn(Ctx, u32) -> c_int;
        wc_Blake2bUpdate: fn(Ctx, *const u8, u32) -> c_int;
        wc_Blake2bFinal: fn(Ctx, *mut u8, u32) -> c_int;
        wc_InitBlake2s: fn(Ctx, u32) -> c_int;
        wc_Blake2sUpdate: fn(Ctx, *const u8, u32) -> c_int;
        wc_Blake2sFinal: fn(Ctx, *mut u8, u32) -> c_int;
        // Copies of a running hash, one per type (the union wc_HashAlg has each state at offset 0).
        wc_Md5Copy: fn(*mut c_void, *mut c_void) -> c_int;
        wc_ShaCopy: fn(*mut c_void, *mut c_void) -> c_int;
        wc_Sha224Copy: fn(*mut c_void, *mut c_void) -> c_int;
        wc_Sha256Copy: fn(*mut c_void, *mut c_void) -> c_int;
        wc_Sha384Copy: fn(*mut c_void, *mut c_void) -> c_int;
        wc_Sha512Copy: fn(*mut c_void, *mut c_void) -> c_int;
        wc_Sha3_256_Copy: fn(*mut c_void, *mut c_void) -> c_int;
        wc_Sha3_512_Copy: fn(*mut c_void, *mut c_void) -> c_int;
        wc_Sha3_224_Copy: fn(*mut c_void, *mut c_void) -> c_int;
        wc_Sha3_384_Copy: fn(*mut c_void, *mut c_void) -> c_int;
        // !NO_HMAC (hmac.h)
        wc_HmacInit: fn(Ctx, *mut c_void, c_int) -> c_int;
        wc_HmacSetKey: fn(Ctx, c_int, *const u8, u32) -> c_int;
        wc_HmacUpdate: fn(Ctx, *const u8, u32) -> c_int;
        wc_HmacFinal: fn(Ctx, *mut u8) -> c_int;
        wc_HmacFree: fn(Ctx) -> ();
        // WOLFSSL_CMAC (cmac.h)
        wc_InitCmac: fn(Ctx, *const u8, u32, c_int, *mut c_void) -> c_int;
        wc_CmacUpdate: fn(Ctx, *const u8, u32) -> c_int;
        wc_CmacFinal: fn(Ctx, *mut u8, *mut u32) -> c_int;
        wc_AesCmacGenerate: fn(*mut u8, *mut u32, *const u8, u32, *const u8, u32) -> c_int;
        // HAVE_POLY1305 (poly1305.h)
        wc_Poly1305SetKey: fn(Ctx, *const u8, u32) -> c_int;
        wc_Poly1305Update: fn(Ctx, *const u8, u32) -> c_int;
        wc_Poly1305Final: fn(Ctx, *mut u8) -> c_int;
    }
}

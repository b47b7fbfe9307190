//! The CommonCrypto functions cryptobench calls, resolved with `libloading`
//! from libSystem (macOS). Signatures and constants from Apple's
//! CommonCrypto headers (CommonCryptor.h, CommonDigest.h, CommonHMAC.h),
//! documented in the CCCrypt(3cc), CCCryptor(3cc), CC_SHA(3cc) and
//! CCHmac(3cc) manual pages. `CC_LONG` is `uint32_t`, `CCCryptorStatus` and
//! the enums are `int32_t`/`uint32_t`.

#![cfg_attr(not(target_os = "macos"), allow(dead_code))]

use std::ffi::{c_int, c_void};

use crate::native::api_table;

/// `CCOperation` (CommonCryptor.h).
pub const K_CC_ENCRYPT: u32 = 0;
pub const K_CC_DECRYPT: u32 = 1;
/// `CCAlgorithm`: kCCAlgorithmAES (kCCAlgorithmAES128 is the same value).
pub const K_CC_ALGORITHM_AES: u32 = 0;
/// `CCMode`: kCCModeECB, kCCModeCBC.
pub const K_CC_MODE_ECB: u32 = 1;
pub const K_CC_MODE_CBC: u32 = 2;
/// `CCPadding`: ccNoPadding.
pub const CC_NO_PADDING: u32 = 0;
/// `CCCryptorStatus`: kCCSuccess.
pub const K_CC_SUCCESS: i32 = 0;
/// `CCHmacAlgorithm` (CommonHMAC.h).
pub const K_CC_HMAC_ALG_SHA1: u32 = 0;
pub const K_CC_HMAC_ALG_MD5: u32 = 1;
pub const K_CC_HMAC_ALG_SHA256: u32 = 2;
pub const K_CC_HMAC_ALG_SHA384: u32 = 3;
pub const K_CC_HMAC_ALG_SHA512: u32 = 4;
pub const K_CC_HMAC_ALG_SHA224: u32 = 5;
/// `sizeof(CCHmacContext)`: `uint32_t ctx[CC_HMAC_CONTEXT_SIZE]`, CC_HMAC_CONTEXT_SIZE 96.
pub const CC_HMAC_CONTEXT_BYTES: usize = 96 * 4;
/// The largest digest context (CC_SHA512_CTX: three arrays of 2, 8 and 16
/// `CC_LONG64`, 208 bytes); every context is given this much.
pub const CC_DIGEST_CONTEXT_BYTES: usize = 208;

api_table! {
    required {
        CCCryptorCreateWithMode: fn(u32, u32, u32, u32, *const c_void, *const c_void, usize, *const c_void, usize, c_int, u32, *mut *mut c_void) -> i32;
        CCCryptorUpdate: fn(*mut c_void, *const c_void, usize, *mut c_void, usize, *mut usize) -> i32;
        CCCryptorReset: fn(*mut c_void, *const c_void) -> i32;
        CCCryptorRelease: fn(*mut c_void) -> i32;
        CC_MD5: fn(*const c_void, u32, *mut u8) -> *mut u8;
        CC_MD5_Init: fn(*mut c_void) -> c_int;
        CC_MD5_Update: fn(*mut c_void, *const c_void, u32) -> c_int;
        CC_MD5_Final: fn(*mut u8, *mut c_void) -> c_int;
        CC_SHA1: fn(*const c_void, u32, *mut u8) -> *mut u8;
        CC_SHA1_Init: fn(*mut c_void) -> c_int;
        CC_SHA1_Update: fn(*mut c_void, *const c_void, u32) -> c_int;
        CC_SHA1_Final: fn(*mut u8, *mut c_void) -> c_int;
        CC_SHA224: fn(*const c_void, u32, *mut u8) -> *mut u8;
        CC_SHA224_Init: fn(*mut c_void) -> c_int;
        CC_SHA224_Update: fn(*mut c_void, *const c_void, u32) -> c_int;
        CC_SHA224_Final: fn(*mut u8, *mut c_void) -> c_int;
        CC_SHA256: fn(*const c_void, u32, *mut u8) -> *mut u8;
        CC_SHA256_Init: fn(*mut c_void) -> c_int;
        CC_SHA256_Update: fn(*mut c_void, *const c_void, u32) -> c_int;
        CC_SHA256_Final: fn(*mut u8, *mut c_void) -> c_int;
        CC_SHA384: fn(*const c_void, u32, *mut u8) -> *mut u8;
        CC_SHA384_Init: fn(*mut c_void) -> c_int;
        CC_SHA384_Update: fn(*mut c_void, *const c_void, u32) -> c_int;
        CC_SHA384_Final: fn(*mut u8, *mut c_void) -> c_int;
        CC_SHA512: fn(*const c_void, u32, *mut u8) -> *mut u8;
        CC_SHA512_Init: fn(*mut c_void) -> c_int;
        CC_SHA512_Update: fn(*mut c_void, *const c_void, u32) -> c_int;
        CC_SHA512_Final: fn(*mut u8, *mut c_void) -> c_int;
        CCHmac: fn(u32, *const c_void, usize, *const c_void, usize, *mut c_void) -> ();
        CCHmacInit: fn(*mut c_void, u32, *const c_void, usize) -> ();
        CCHmacUpdate: fn(*mut c_void, *const c_void, usize) -> ();
        CCHmacFinal: fn(*mut c_void, *mut c_void) -> ();
    }
    optional {}
}

/// A `CCCryptorStatus` as a result.
pub fn check(status: i32, call: &'static str) -> Result<(), crate::error::BackendError> {
    if status == K_CC_SUCCESS {
        Ok(())
    } else {
        Err(crate::error::BackendError::Call {
            call,
            detail: format!("CCCryptorStatus {status}"),
        })
    }
}

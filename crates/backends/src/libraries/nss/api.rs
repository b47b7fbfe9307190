//! The NSS functions and constants cryptobench uses, resolved with
//! `libloading` from libnss3 (whose dependencies, libnssutil3 and libnspr4,
//! the dynamic loader brings in and `dlsym` searches too). Signatures from
//! NSS 3.87's headers: nss.h (`NSS_NoDB_Init`, `NSS_GetVersion`),
//! pk11pub.h (slots, symmetric keys, contexts, `PK11_AEADOp` of 3.52+),
//! secitem.h, secport.h (`PORT_GetError`) and NSPR's prerror.h
//! (`PR_ErrorToName`). Mechanism and attribute values are PKCS#11's
//! (cryptoki-sys) or NSS's own (pkcs11n.h, below).

use std::ffi::{c_char, c_int, c_uint, c_ulong, c_void};

use crate::native::api_table;

/// `SECStatus` (seccomon.h): `SECSuccess` is 0.
pub type SecStatus = c_int;
pub const SEC_SUCCESS: SecStatus = 0;
/// `PRBool`.
pub type PrBool = c_int;
pub const PR_FALSE: PrBool = 0;
pub const PR_TRUE: PrBool = 1;

/// `SECItem` (seccomon.h): a type tag, a pointer and a length.
#[repr(C)]
pub struct SecItem {
    pub kind: c_int,
    pub data: *mut u8,
    pub len: c_uint,
}

impl SecItem {
    /// An item over `bytes` (`siBuffer`); NSS only reads it where the call takes a const item.
    pub fn of(bytes: &[u8]) -> SecItem {
        SecItem {
            kind: 0,
            data: bytes.as_ptr().cast_mut(),
            len: bytes.len() as c_uint,
        }
    }

    /// An item over a parameter structure.
    pub fn param<T>(value: &mut T) -> SecItem {
        SecItem {
            kind: 0,
            data: (value as *mut T).cast(),
            len: std::mem::size_of::<T>() as c_uint,
        }
    }
}

pub type Slot = *mut c_void;
pub type SymKey = *mut c_void;
pub type Context = *mut c_void;

/// `PK11_OriginUnwrap` (secmodt.h, `PK11Origin`): a key given by the caller.
pub const PK11_ORIGIN_UNWRAP: c_int = 4;
/// `CKA_NSS_MESSAGE` (pkcs11n.h): or'ed into the operation of a context
/// for PKCS#11 v3's message interface (`PK11_AEADOp`).
pub const CKA_NSS_MESSAGE: c_ulong = 0x8200_0000;
/// `CKM_NSS + 33`, `CKM_NSS_CHACHA20_CTR` (pkcs11n.h; CKM_NSS = 0xCE534350):
/// ChaCha20 whose 16-byte parameter is the 32-bit block counter
/// (little-endian) then the 96-bit nonce, OpenSSL's "chacha20" IV.
pub const CKM_NSS_CHACHA20_CTR: c_ulong = 0xCE53_4350 + 33;
/// `SEC_ERROR_BAD_DATA` (secerr.h: SEC_ERROR_BASE -8192, + 2): what a tag
/// that does not verify sets.
pub const SEC_ERROR_BAD_DATA: c_int = -8190;
/// `SEC_ERROR_INPUT_LEN` (secerr.h: SEC_ERROR_BASE + 4).
pub const SEC_ERROR_INPUT_LEN: c_int = -8188;

/// `SECOidTag` values of the hashes (secoidt.h of 3.87).
pub const SEC_OID_MD5: c_int = 3;
pub const SEC_OID_SHA1: c_int = 4;
pub const SEC_OID_SHA256: c_int = 191;
pub const SEC_OID_SHA384: c_int = 192;
pub const SEC_OID_SHA512: c_int = 193;
pub const SEC_OID_SHA224: c_int = 309;

api_table! {
    required {
        NSS_NoDB_Init: fn(*const c_char) -> SecStatus;
        NSS_IsInitialized: fn() -> PrBool;
        PORT_GetError: fn() -> c_int;
        PR_ErrorToName: fn(c_int) -> *const c_char;
        SECITEM_FreeItem: fn(*mut SecItem, PrBool) -> ();
        PK11_GetInternalSlot: fn() -> Slot;
        PK11_FreeSlot: fn(Slot) -> ();
        PK11_ImportSymKey: fn(Slot, c_ulong, c_int, c_ulong, *mut SecItem, *mut c_void) -> SymKey;
        PK11_FreeSymKey: fn(SymKey) -> ();
        PK11_CreateContextBySymKey: fn(c_ulong, c_ulong, SymKey, *const SecItem) -> Context;
        PK11_CipherOp: fn(Context, *mut u8, *mut c_int, c_int, *const u8, c_int) -> SecStatus;
        PK11_Encrypt: fn(SymKey, c_ulong, *mut SecItem, *mut u8, *mut c_uint, c_uint, *const u8, c_uint) -> SecStatus;
        PK11_Decrypt: fn(SymKey, c_ulong, *mut SecItem, *mut u8, *mut c_uint, c_uint, *const u8, c_uint) -> SecStatus;
        PK11_DestroyContext: fn(Context, PrBool) -> ();
        PK11_CreateDigestContext: fn(c_int) -> Context;
        PK11_DigestBegin: fn(Context) -> SecStatus;
        PK11_DigestOp: fn(Context, *const u8, c_uint) -> SecStatus;
        PK11_DigestFinal: fn(Context, *mut u8, *mut c_uint, c_uint) -> SecStatus;
        PK11_CloneContext: fn(Context) -> Context;
    }
    optional {
        // 3.52+: PKCS#11 v3's message interface (one AEAD message on a kept key).
        PK11_AEADOp: fn(Context, c_ulong, c_int, *mut u8, c_int, *const u8, c_int, *mut u8, *mut c_int, c_int, *mut u8, c_int, *const u8, c_int) -> SecStatus;
    }
}

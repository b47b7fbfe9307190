//! The public-key functions of NSS (pk11pub.h and keyhi.h of 3.87),
//! resolved apart from the symmetric table so that an NSS lacking one
//! still loads for its symmetric cells.

use std::ffi::{c_int, c_uint, c_ulong, c_void};

use super::api::{PrBool, SecItem, SecStatus, Slot, SymKey};

pub type PrivKey = *mut c_void;
pub type PubKey = *mut c_void;
/// `CERTSubjectPublicKeyInfo *`.
pub type Spki = *mut c_void;

/// `PK11RSAGenParams` (secmodt.h).
#[repr(C)]
pub struct RsaGenParams {
    pub key_size_in_bits: c_int,
    pub pe: c_ulong,
}

crate::native::api_table! {
    required {
        PK11_ImportDERPrivateKeyInfoAndReturnKey: fn(Slot, *mut SecItem, *mut SecItem, *mut SecItem, PrBool, PrBool, c_uint, *mut PrivKey, *mut c_void) -> SecStatus;
        SECKEY_DecodeDERSubjectPublicKeyInfo: fn(*const SecItem) -> Spki;
        SECKEY_DestroySubjectPublicKeyInfo: fn(Spki) -> ();
        SECKEY_ExtractPublicKey: fn(Spki) -> PubKey;
        SECKEY_EncodeDERSubjectPublicKeyInfo: fn(PubKey) -> *mut SecItem;
        SECKEY_DestroyPublicKey: fn(PubKey) -> ();
        SECKEY_DestroyPrivateKey: fn(PrivKey) -> ();
        PK11_Sign: fn(PrivKey, *mut SecItem, *const SecItem) -> SecStatus;
        PK11_Verify: fn(PubKey, *const SecItem, *const SecItem, *mut c_void) -> SecStatus;
        PK11_SignWithMechanism: fn(PrivKey, c_ulong, *const SecItem, *mut SecItem, *const SecItem) -> SecStatus;
        PK11_VerifyWithMechanism: fn(PubKey, c_ulong, *const SecItem, *const SecItem, *const SecItem, *mut c_void) -> SecStatus;
        PK11_PubEncrypt: fn(PubKey, c_ulong, *mut SecItem, *mut u8, *mut c_uint, c_uint, *const u8, c_uint, *mut c_void) -> SecStatus;
        PK11_PrivDecrypt: fn(PrivKey, c_ulong, *mut SecItem, *mut u8, *mut c_uint, c_uint, *const u8, c_uint) -> SecStatus;
        PK11_PubDeriveWithKDF: fn(PrivKey, PubKey, PrBool, *mut SecItem, *mut SecItem, c_ulong, c_ulong, c_ulong, c_int, c_ulong, *mut SecItem, *mut c_void) -> SymKey;
        PK11_ExtractKeyValue: fn(SymKey) -> SecStatus;
        PK11_GetKeyData: fn(SymKey) -> *mut SecItem;
        PK11_GenerateKeyPair: fn(Slot, c_ulong, *mut c_void, *mut PubKey, PrBool, PrBool, *mut c_void) -> PrivKey;
    }
    optional {}
}

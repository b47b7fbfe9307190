//! The public-key functions of cryptobench's Crypto++ shim (shim_pk.cpp),
//! resolved apart from the symmetric table; return codes as there (0, -1
//! with `cbcp_last_error`, -2 a signature or ciphertext rejected).

use std::ffi::c_int;

use super::api::Handle;

/// Scheme kinds (`enum PkKind` of shim_pk.cpp).
pub const PK_RSA_PKCS1: c_int = 0;
pub const PK_RSA_OAEP: c_int = 1;
pub const PK_ECDSA_P256: c_int = 2;
pub const PK_ECDSA_P384: c_int = 3;
pub const PK_ECDSA_P521: c_int = 4;
pub const PK_ED25519: c_int = 5;
pub const PK_X25519: c_int = 6;
pub const PK_ECDH_P256: c_int = 7;
pub const PK_ECDH_P384: c_int = 8;
pub const PK_RSA_PSS: c_int = 9;

crate::native::api_table! {
    required {
        cbcp_pk_new: fn(c_int, *const u8, usize, *const u8, usize, *const u8, usize) -> Handle;
        cbcp_pk_free: fn(Handle) -> ();
        cbcp_pk_sign: fn(Handle, *const u8, usize, *mut u8, usize, *mut usize) -> c_int;
        cbcp_pk_verify: fn(Handle, *const u8, usize, *const u8, usize) -> c_int;
        cbcp_pk_encrypt: fn(Handle, *const u8, usize, *mut u8, usize, *mut usize) -> c_int;
        cbcp_pk_decrypt: fn(Handle, *const u8, usize, *mut u8, usize, *mut usize) -> c_int;
        cbcp_pk_derive: fn(Handle, *mut u8, usize, *mut usize) -> c_int;
        cbcp_pk_public: fn(Handle, *mut u8, usize, *mut usize) -> c_int;
        cbcp_pk_keygen_new: fn(c_int, u32) -> Handle;
        cbcp_pk_keygen: fn(Handle) -> c_int;
    }
    optional {}
}

pub type PkApi = Api;

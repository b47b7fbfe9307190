//! The libcrypto functions of public key (EVP_PKEY), resolved with
//! `libloading` from the same library as the symmetric table (api.rs).
//! Signatures follow include/openssl/evp.h, x509.h and core.h; the
//! required ones exist in 1.1.1, 3.x and 4.x, the optional ones from 3.0
//! (providers, KEMs) or 3.5 (message signing).

use std::ffi::{c_char, c_int, c_long, c_uchar, c_uint, c_void};

pub use super::api::{EvpMdCtx, OsslParam, OSSL_PARAM_UNMODIFIED};

pub type EvpPkey = c_void;
pub type EvpPkeyCtx = c_void;
pub type EvpSignature = c_void;

/// `OSSL_PARAM_OCTET_STRING` (include/openssl/core.h).
pub const OSSL_PARAM_OCTET_STRING: c_uint = 5;

/// EVP_PKEY type ids (include/openssl/obj_mac.h NIDs): stable since 1.1.1.
pub const EVP_PKEY_RSA: c_int = 6;
pub const EVP_PKEY_EC: c_int = 408;
pub const EVP_PKEY_X25519: c_int = 1034;
pub const EVP_PKEY_X448: c_int = 1035;
pub const EVP_PKEY_ED25519: c_int = 1087;
pub const EVP_PKEY_ED448: c_int = 1088;

crate::native::api_table! {
    required {
        OpenSSL_version_num: fn() -> std::ffi::c_ulong;
        EVP_PKEY_free: fn(*mut EvpPkey) -> ();
        EVP_PKEY_CTX_new: fn(*mut EvpPkey, *mut c_void) -> *mut EvpPkeyCtx;
        EVP_PKEY_CTX_new_id: fn(c_int, *mut c_void) -> *mut EvpPkeyCtx;
        EVP_PKEY_CTX_free: fn(*mut EvpPkeyCtx) -> ();
        EVP_PKEY_CTX_ctrl_str: fn(*mut EvpPkeyCtx, *const c_char, *const c_char) -> c_int;
        EVP_PKEY_sign_init: fn(*mut EvpPkeyCtx) -> c_int;
        EVP_PKEY_sign: fn(*mut EvpPkeyCtx, *mut c_uchar, *mut usize, *const c_uchar, usize) -> c_int;
        EVP_PKEY_verify_init: fn(*mut EvpPkeyCtx) -> c_int;
        EVP_PKEY_verify: fn(*mut EvpPkeyCtx, *const c_uchar, usize, *const c_uchar, usize) -> c_int;
        EVP_PKEY_encrypt_init: fn(*mut EvpPkeyCtx) -> c_int;
        EVP_PKEY_encrypt: fn(*mut EvpPkeyCtx, *mut c_uchar, *mut usize, *const c_uchar, usize) -> c_int;
        EVP_PKEY_decrypt_init: fn(*mut EvpPkeyCtx) -> c_int;
        EVP_PKEY_decrypt: fn(*mut EvpPkeyCtx, *mut c_uchar, *mut usize, *const c_uchar, usize) -> c_int;
        EVP_PKEY_derive_init: fn(*mut EvpPkeyCtx) -> c_int;
        EVP_PKEY_derive_set_peer: fn(*mut EvpPkeyCtx, *mut EvpPkey) -> c_int;
        EVP_PKEY_derive: fn(*mut EvpPkeyCtx, *mut c_uchar, *mut usize) -> c_int;
        EVP_PKEY_keygen_init: fn(*mut EvpPkeyCtx) -> c_int;
        EVP_PKEY_keygen: fn(*mut EvpPkeyCtx, *mut *mut EvpPkey) -> c_int;
        d2i_PrivateKey: fn(c_int, *mut *mut EvpPkey, *mut *const c_uchar, c_long) -> *mut EvpPkey;
        d2i_PUBKEY: fn(*mut *mut EvpPkey, *mut *const c_uchar, c_long) -> *mut EvpPkey;
        i2d_PublicKey: fn(*mut EvpPkey, *mut *mut c_uchar) -> c_int;
        EVP_PKEY_new_raw_private_key: fn(c_int, *mut c_void, *const c_uchar, usize) -> *mut EvpPkey;
        EVP_PKEY_new_raw_public_key: fn(c_int, *mut c_void, *const c_uchar, usize) -> *mut EvpPkey;
        EVP_PKEY_get_raw_public_key: fn(*const EvpPkey, *mut c_uchar, *mut usize) -> c_int;
        EVP_MD_CTX_new: fn() -> *mut EvpMdCtx;
        EVP_MD_CTX_free: fn(*mut EvpMdCtx) -> ();
        EVP_DigestSignInit: fn(*mut EvpMdCtx, *mut *mut EvpPkeyCtx, *const c_void, *mut c_void, *mut EvpPkey) -> c_int;
        EVP_DigestSign: fn(*mut EvpMdCtx, *mut c_uchar, *mut usize, *const c_uchar, usize) -> c_int;
        EVP_DigestVerifyInit: fn(*mut EvpMdCtx, *mut *mut EvpPkeyCtx, *const c_void, *mut c_void, *mut EvpPkey) -> c_int;
        EVP_DigestVerify: fn(*mut EvpMdCtx, *const c_uchar, usize, *const c_uchar, usize) -> c_int;
        CRYPTO_free: fn(*mut c_void, *const c_char, c_int) -> ();
    }
    optional {
        EVP_PKEY_CTX_get0_provider: fn(*const EvpPkeyCtx) -> *const c_void;
        EVP_PKEY_get0_provider: fn(*const EvpPkey) -> *const c_void;
        EVP_PKEY_CTX_new_from_name: fn(*mut c_void, *const c_char, *const c_char) -> *mut EvpPkeyCtx;
        EVP_PKEY_CTX_set_params: fn(*mut EvpPkeyCtx, *const OsslParam) -> c_int;
        EVP_PKEY_encapsulate_init: fn(*mut EvpPkeyCtx, *const OsslParam) -> c_int;
        EVP_PKEY_encapsulate: fn(*mut EvpPkeyCtx, *mut c_uchar, *mut usize, *mut c_uchar, *mut usize) -> c_int;
        EVP_PKEY_decapsulate_init: fn(*mut EvpPkeyCtx, *const OsslParam) -> c_int;
        EVP_PKEY_decapsulate: fn(*mut EvpPkeyCtx, *mut c_uchar, *mut usize, *const c_uchar, usize) -> c_int;
        EVP_SIGNATURE_fetch: fn(*mut c_void, *const c_char, *const c_char) -> *mut EvpSignature;
        EVP_SIGNATURE_free: fn(*mut EvpSignature) -> ();
        EVP_PKEY_sign_message_init: fn(*mut EvpPkeyCtx, *mut EvpSignature, *const OsslParam) -> c_int;
        EVP_PKEY_verify_message_init: fn(*mut EvpPkeyCtx, *mut EvpSignature, *const OsslParam) -> c_int;
        EVP_PKEY_new_raw_public_key_ex: fn(*mut c_void, *const c_char, *const c_char, *const c_uchar, usize) -> *mut EvpPkey;
    }
}

/// The public-key table under a name of its own beside the symmetric `Api` of api.rs.
pub type PkApi = Api;

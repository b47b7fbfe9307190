//! The public-key functions of Mbed TLS 2.28 (mbedtls/pk.h, rsa.h, ecp.h,
//! ecdh.h, ctr_drbg.h, entropy.h) and the values they take, resolved apart
//! from the symmetric table so that a build lacking one still loads.
//! Context structures are opaque here; their sizes in Debian 12's 2.28.3
//! (x86-64, `sizeof` against its headers): pk 16 bytes (`pk_info`, then
//! `pk_ctx` at offset 8: what the inline `mbedtls_pk_rsa()`/`mbedtls_pk_ec()`
//! return), rsa 384, ecp_keypair 344, ecdh 616 (the legacy context:
//! `MBEDTLS_ECDH_LEGACY_CONTEXT` is set), ctr_drbg 392, entropy 37,960;
//! [`PK_CTX_BYTES`] and [`ENTROPY_BYTES`] cover them with room to spare.

use std::ffi::{c_int, c_uint, c_void};

pub type Ctx = *mut c_void;
/// `int (*f_rng)(void *, unsigned char *, size_t)`.
pub type RngFn = unsafe extern "C" fn(*mut c_void, *mut u8, usize) -> c_int;

/// Memory for a pk, rsa, ecp_keypair, ecdh or ctr_drbg context.
pub const PK_CTX_BYTES: usize = 4096;
/// Memory for an entropy context (37,960 bytes in 2.28.3).
pub const ENTROPY_BYTES: usize = 64 * 1024;

/// `MBEDTLS_RSA_PKCS_V15`/`_V21` (rsa.h) and the deprecated `mode` of 2.x's RSA calls.
pub const MBEDTLS_RSA_PKCS_V15: c_int = 0;
pub const MBEDTLS_RSA_PKCS_V21: c_int = 1;
pub const MBEDTLS_RSA_PUBLIC: c_int = 0;
pub const MBEDTLS_RSA_PRIVATE: c_int = 1;
/// `mbedtls_pk_type_t` (pk.h).
pub const MBEDTLS_PK_ECKEY: c_int = 2;
/// `mbedtls_ecp_group_id` (ecp.h).
pub const MBEDTLS_ECP_DP_SECP256R1: c_int = 3;
pub const MBEDTLS_ECP_DP_SECP384R1: c_int = 4;
pub const MBEDTLS_ECP_DP_SECP521R1: c_int = 5;
pub const MBEDTLS_ECP_DP_CURVE25519: c_int = 9;
pub const MBEDTLS_ECP_DP_CURVE448: c_int = 13;
/// `MBEDTLS_ECDH_OURS` of `mbedtls_ecdh_side` (ecdh.h); the peer's key goes in by `mbedtls_ecdh_read_public`.
pub const MBEDTLS_ECDH_OURS: c_int = 0;

crate::native::api_table! {
    required {
        mbedtls_entropy_init: fn(Ctx) -> ();
        mbedtls_entropy_free: fn(Ctx) -> ();
        mbedtls_entropy_func: fn(*mut c_void, *mut u8, usize) -> c_int;
        mbedtls_ctr_drbg_init: fn(Ctx) -> ();
        mbedtls_ctr_drbg_free: fn(Ctx) -> ();
        mbedtls_ctr_drbg_seed: fn(Ctx, RngFn, *mut c_void, *const u8, usize) -> c_int;
        mbedtls_ctr_drbg_random: fn(*mut c_void, *mut u8, usize) -> c_int;
        mbedtls_pk_init: fn(Ctx) -> ();
        mbedtls_pk_free: fn(Ctx) -> ();
        mbedtls_pk_info_from_type: fn(c_int) -> *const c_void;
        mbedtls_pk_setup: fn(Ctx, *const c_void) -> c_int;
        mbedtls_pk_parse_key: fn(Ctx, *const u8, usize, *const u8, usize) -> c_int;
        mbedtls_pk_parse_public_key: fn(Ctx, *const u8, usize) -> c_int;
        mbedtls_pk_write_pubkey_der: fn(Ctx, *mut u8, usize) -> c_int;
        mbedtls_pk_sign: fn(Ctx, c_int, *const u8, usize, *mut u8, *mut usize, RngFn, *mut c_void) -> c_int;
        mbedtls_pk_verify: fn(Ctx, c_int, *const u8, usize, *const u8, usize) -> c_int;
        mbedtls_rsa_init: fn(Ctx, c_int, c_int) -> ();
        mbedtls_rsa_free: fn(Ctx) -> ();
        mbedtls_rsa_set_padding: fn(Ctx, c_int, c_int) -> ();
        mbedtls_rsa_gen_key: fn(Ctx, RngFn, *mut c_void, c_uint, c_int) -> c_int;
        mbedtls_rsa_export_raw: fn(Ctx, *mut u8, usize, *mut u8, usize, *mut u8, usize, *mut u8, usize, *mut u8, usize) -> c_int;
        mbedtls_rsa_get_len: fn(Ctx) -> usize;
        mbedtls_rsa_rsassa_pss_sign_ext: fn(Ctx, RngFn, *mut c_void, c_int, c_uint, *const u8, c_int, *mut u8) -> c_int;
        mbedtls_rsa_rsassa_pss_verify_ext: fn(Ctx, Option<RngFn>, *mut c_void, c_int, c_int, c_uint, *const u8, c_int, c_int, *const u8) -> c_int;
        mbedtls_rsa_rsaes_oaep_encrypt: fn(Ctx, RngFn, *mut c_void, c_int, *const u8, usize, usize, *const u8, *mut u8) -> c_int;
        mbedtls_rsa_rsaes_oaep_decrypt: fn(Ctx, RngFn, *mut c_void, c_int, *const u8, usize, *mut usize, *const u8, *mut u8, usize) -> c_int;
        mbedtls_ecp_curve_info_from_grp_id: fn(c_int) -> *const c_void;
        mbedtls_ecp_keypair_init: fn(Ctx) -> ();
        mbedtls_ecp_keypair_free: fn(Ctx) -> ();
        mbedtls_ecp_read_key: fn(c_int, Ctx, *const u8, usize) -> c_int;
        mbedtls_ecp_gen_key: fn(c_int, Ctx, RngFn, *mut c_void) -> c_int;
        mbedtls_ecdh_init: fn(Ctx) -> ();
        mbedtls_ecdh_free: fn(Ctx) -> ();
        mbedtls_ecdh_get_params: fn(Ctx, Ctx, c_int) -> c_int;
        mbedtls_ecdh_read_public: fn(Ctx, *const u8, usize) -> c_int;
        mbedtls_ecdh_calc_secret: fn(Ctx, *mut usize, *mut u8, usize, RngFn, *mut c_void) -> c_int;
    }
    optional {}
}

pub type PkApi = Api;

//! The public-key functions of wolfCrypt cryptobench calls, resolved apart
//! from the symmetric table (api.rs), every one optional: a build without
//! one leaves the cells that need it `n/a`, naming it. Signatures and
//! values from Debian 12's wolfSSL 5.5.4 headers (wolfssl/wolfcrypt/rsa.h,
//! ecc.h, ed25519.h, ed448.h, curve25519.h, curve448.h, random.h, asn_public.h,
//! error-crypt.h); `word32` is `u32`, enums are `int`.

use std::ffi::{c_int, c_long, c_void};

/// `RsaKey*`, `ecc_key*`, `ed25519_key*`, `ed448_key*`, `curve25519_key*`,
/// `curve448_key*` and `WC_RNG*`: opaque here.
pub type Key = *mut c_void;
pub type Rng = *mut c_void;

/// Memory for a key structure wolfCrypt has no allocating constructor for
/// (RsaKey, the Edwards and Montgomery keys). Debian's 5.5.4 on x86-64
/// (sizeof, compiled against its options.h, SP_INT_BITS 4096): RsaKey 8696
/// bytes, ed25519_key 368, ed448_key 616, curve25519_key 96, curve448_key
/// 113, all 8-byte aligned; a build with SP_INT_BITS 8192 about doubles
/// RsaKey. [`crate::native::CtxMem`] aligns to 64 bytes.
pub const KEY_BYTES: usize = 65536;

/// `WC_HASH_TYPE_SHA256` (hash.h `enum wc_HashType`).
pub const WC_HASH_TYPE_SHA256: c_int = 6;
/// `WC_MGF1SHA256` (rsa.h).
pub const WC_MGF1SHA256: c_int = 1;
/// `WC_RSA_OAEPPAD` (rsa.h).
pub const WC_RSA_OAEPPAD: c_int = 1;
/// `EC25519_LITTLE_ENDIAN` (curve25519.h) and `EC448_LITTLE_ENDIAN`
/// (curve448.h): keys and secrets as RFC 7748 writes them.
pub const LITTLE_ENDIAN: c_int = 0;
/// `ecc_curve_id` (ecc.h): `ECC_SECP256R1`, `ECC_SECP384R1`, `ECC_SECP521R1`.
pub const ECC_SECP256R1: c_int = 7;
pub const ECC_SECP384R1: c_int = 15;
pub const ECC_SECP521R1: c_int = 16;

crate::native::api_table! {
    required {}
    optional {
        // random.h
        wc_rng_new: fn(*mut u8, u32, *mut c_void) -> Rng;
        wc_rng_free: fn(Rng) -> ();
        // rsa.h (!NO_RSA, WC_RSA_PSS, WC_RSA_BLINDING)
        wc_InitRsaKey: fn(Key, *mut c_void) -> c_int;
        wc_FreeRsaKey: fn(Key) -> c_int;
        wc_RsaPrivateKeyDecode: fn(*const u8, *mut u32, Key, u32) -> c_int;
        wc_RsaPublicKeyDecode: fn(*const u8, *mut u32, Key, u32) -> c_int;
        wc_RsaPublicKeyDecodeRaw: fn(*const u8, u32, *const u8, u32, Key) -> c_int;
        wc_RsaSetRNG: fn(Key, Rng) -> c_int;
        wc_RsaEncryptSize: fn(Key) -> c_int;
        wc_RsaFlattenPublicKey: fn(Key, *mut u8, *mut u32, *mut u8, *mut u32) -> c_int;
        wc_RsaSSL_Sign: fn(*const u8, u32, *mut u8, u32, Key, Rng) -> c_int;
        wc_RsaSSL_Verify: fn(*const u8, u32, *mut u8, u32, Key) -> c_int;
        wc_RsaPSS_Sign_ex: fn(*const u8, u32, *mut u8, u32, c_int, c_int, c_int, Key, Rng) -> c_int;
        wc_RsaPSS_Verify_ex: fn(*mut u8, u32, *mut u8, u32, c_int, c_int, c_int, Key) -> c_int;
        wc_RsaPSS_CheckPadding_ex: fn(*const u8, u32, *mut u8, u32, c_int, c_int, c_int) -> c_int;
        wc_RsaPublicEncrypt_ex: fn(*const u8, u32, *mut u8, u32, Key, Rng, c_int, c_int, c_int, *mut u8, u32) -> c_int;
        wc_RsaPrivateDecrypt_ex: fn(*const u8, u32, *mut u8, u32, Key, c_int, c_int, c_int, *mut u8, u32) -> c_int;
        // WOLFSSL_KEY_GEN
        wc_MakeRsaKey: fn(Key, c_int, c_long, Rng) -> c_int;
        // ecc.h (HAVE_ECC, ECC_TIMING_RESISTANT: an RNG on the key for ECDH)
        wc_ecc_key_new: fn(*mut c_void) -> Key;
        wc_ecc_key_free: fn(Key) -> ();
        wc_ecc_init: fn(Key) -> c_int;
        wc_ecc_free: fn(Key) -> c_int;
        wc_ecc_make_key_ex: fn(Rng, c_int, Key, c_int) -> c_int;
        wc_ecc_import_private_key_ex: fn(*const u8, u32, *const u8, u32, Key, c_int) -> c_int;
        wc_ecc_import_x963_ex: fn(*const u8, u32, Key, c_int) -> c_int;
        wc_EccPublicKeyDecode: fn(*const u8, *mut u32, Key, u32) -> c_int;
        wc_ecc_set_rng: fn(Key, Rng) -> c_int;
        wc_ecc_make_pub: fn(Key, *mut c_void) -> c_int;
        wc_ecc_export_x963: fn(Key, *mut u8, *mut u32) -> c_int;
        wc_ecc_size: fn(Key) -> c_int;
        wc_ecc_sig_size: fn(Key) -> c_int;
        wc_ecc_sign_hash: fn(*const u8, u32, *mut u8, *mut u32, Rng, Key) -> c_int;
        wc_ecc_verify_hash: fn(*const u8, u32, *const u8, u32, *mut c_int, Key) -> c_int;
        wc_ecc_shared_secret: fn(Key, Key, *mut u8, *mut u32) -> c_int;
        // ed25519.h (HAVE_ED25519)
        wc_ed25519_init: fn(Key) -> c_int;
        wc_ed25519_free: fn(Key) -> ();
        wc_ed25519_make_public: fn(Key, *mut u8, u32) -> c_int;
        wc_ed25519_make_key: fn(Rng, c_int, Key) -> c_int;
        wc_ed25519_export_public: fn(Key, *mut u8, *mut u32) -> c_int;
        wc_ed25519_import_private_only: fn(*const u8, u32, Key) -> c_int;
        wc_ed25519_import_private_key: fn(*const u8, u32, *const u8, u32, Key) -> c_int;
        wc_ed25519_import_public: fn(*const u8, u32, Key) -> c_int;
        wc_ed25519_sign_msg: fn(*const u8, u32, *mut u8, *mut u32, Key) -> c_int;
        wc_ed25519_verify_msg: fn(*const u8, u32, *const u8, u32, *mut c_int, Key) -> c_int;
        // ed448.h (HAVE_ED448): pure Ed448 is the call with an empty context
        wc_ed448_init: fn(Key) -> c_int;
        wc_ed448_free: fn(Key) -> ();
        wc_ed448_make_public: fn(Key, *mut u8, u32) -> c_int;
        wc_ed448_make_key: fn(Rng, c_int, Key) -> c_int;
        wc_ed448_export_public: fn(Key, *mut u8, *mut u32) -> c_int;
        wc_ed448_import_private_only: fn(*const u8, u32, Key) -> c_int;
        wc_ed448_import_private_key: fn(*const u8, u32, *const u8, u32, Key) -> c_int;
        wc_ed448_import_public: fn(*const u8, u32, Key) -> c_int;
        wc_ed448_sign_msg: fn(*const u8, u32, *mut u8, *mut u32, Key, *const u8, u8) -> c_int;
        wc_ed448_verify_msg: fn(*const u8, u32, *const u8, u32, *mut c_int, Key, *const u8, u8) -> c_int;
        // curve25519.h (HAVE_CURVE25519)
        wc_curve25519_init: fn(Key) -> c_int;
        wc_curve25519_free: fn(Key) -> ();
        wc_curve25519_make_pub: fn(c_int, *mut u8, c_int, *const u8) -> c_int;
        wc_curve25519_import_private_ex: fn(*const u8, u32, Key, c_int) -> c_int;
        wc_curve25519_import_public_ex: fn(*const u8, u32, Key, c_int) -> c_int;
        wc_curve25519_shared_secret_ex: fn(Key, Key, *mut u8, *mut u32, c_int) -> c_int;
        // curve448.h (HAVE_CURVE448)
        wc_curve448_init: fn(Key) -> c_int;
        wc_curve448_free: fn(Key) -> ();
        wc_curve448_make_pub: fn(c_int, *mut u8, c_int, *const u8) -> c_int;
        wc_curve448_import_private_ex: fn(*const u8, u32, Key, c_int) -> c_int;
        wc_curve448_import_public_ex: fn(*const u8, u32, Key, c_int) -> c_int;
        wc_curve448_shared_secret_ex: fn(Key, Key, *mut u8, *mut u32, c_int) -> c_int;
    }
}

pub type PkApi = Api;

/// The function `$name` of the table, or an `Unsupported` error naming it.
macro_rules! need {
    ($pk:expr, $name:ident) => {
        $pk.$name
            .ok_or_else(|| crate::error::BackendError::Unsupported(concat!("this wolfSSL build lacks ", stringify!($name)).to_string()))?
    };
}
pub(super) use need;

//! libsodium's public-key functions (sodium/crypto_sign_ed25519.h,
//! crypto_scalarmult_curve25519.h, 1.0.18): Ed25519 signatures and X25519.

use std::ffi::c_int;

crate::native::api_table! {
    required {
        crypto_sign_ed25519_seed_keypair: fn(*mut u8, *mut u8, *const u8) -> c_int;
        crypto_sign_ed25519_keypair: fn(*mut u8, *mut u8) -> c_int;
        crypto_sign_ed25519_detached: fn(*mut u8, *mut u64, *const u8, u64, *const u8) -> c_int;
        crypto_sign_ed25519_verify_detached: fn(*const u8, *const u8, u64, *const u8) -> c_int;
        crypto_scalarmult_curve25519: fn(*mut u8, *const u8, *const u8) -> c_int;
        crypto_scalarmult_curve25519_base: fn(*mut u8, *const u8) -> c_int;
    }
    optional {}
}

/// The public-key table under a name of its own beside the symmetric `Api`.
pub type PkApi = Api;

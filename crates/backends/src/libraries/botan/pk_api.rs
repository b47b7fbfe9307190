//! The public-key functions of Botan's C API (botan/ffi.h of Botan 2.19:
//! keys `botan_privkey_load_*`/`botan_pubkey_load*`, multi-precision
//! integers `botan_mp_*`, operations `botan_pk_op_*`), resolved apart from
//! the symmetric table (api.rs) so that a Botan lacking one still loads.

use std::ffi::{c_char, c_int, c_void};

pub type Rng = *mut c_void;
pub type Mp = *mut c_void;
pub type PrivKey = *mut c_void;
pub type PubKey = *mut c_void;
pub type SignOp = *mut c_void;
pub type VerifyOp = *mut c_void;
pub type AgreeOp = *mut c_void;

/// `BOTAN_PUBKEY_DER_FORMAT_SIGNATURE` (ffi.h): ECDSA signatures as DER, the
/// form the other libraries exchange, rather than r ‖ s.
pub const BOTAN_PUBKEY_DER_FORMAT_SIGNATURE: u32 = 1;
/// `BOTAN_FFI_INVALID_VERIFIER` (ffi.h): the signature does not verify.
pub const BOTAN_FFI_INVALID_VERIFIER: c_int = 1;

crate::native::api_table! {
    required {
        botan_rng_init: fn(*mut Rng, *const c_char) -> c_int;
        botan_rng_destroy: fn(Rng) -> c_int;
        botan_mp_init: fn(*mut Mp) -> c_int;
        botan_mp_destroy: fn(Mp) -> c_int;
        botan_mp_from_bin: fn(Mp, *const u8, usize) -> c_int;
        botan_privkey_destroy: fn(PrivKey) -> c_int;
        botan_pubkey_destroy: fn(PubKey) -> c_int;
        botan_privkey_load_rsa_pkcs1: fn(*mut PrivKey, *const u8, usize) -> c_int;
        botan_pubkey_load: fn(*mut PubKey, *const u8, usize) -> c_int;
        botan_pubkey_load_rsa: fn(*mut PubKey, Mp, Mp) -> c_int;
        botan_privkey_load_ecdsa: fn(*mut PrivKey, Mp, *const c_char) -> c_int;
        botan_pubkey_load_ecdsa: fn(*mut PubKey, Mp, Mp, *const c_char) -> c_int;
        botan_privkey_load_ecdh: fn(*mut PrivKey, Mp, *const c_char) -> c_int;
        botan_privkey_load_ed25519: fn(*mut PrivKey, *const u8) -> c_int;
        botan_pubkey_load_ed25519: fn(*mut PubKey, *const u8) -> c_int;
        botan_privkey_load_x25519: fn(*mut PrivKey, *const u8) -> c_int;
        botan_pk_op_sign_create: fn(*mut SignOp, PrivKey, *const c_char, u32) -> c_int;
        botan_pk_op_sign_destroy: fn(SignOp) -> c_int;
        botan_pk_op_sign_output_length: fn(SignOp, *mut usize) -> c_int;
        botan_pk_op_sign_update: fn(SignOp, *const u8, usize) -> c_int;
        botan_pk_op_sign_finish: fn(SignOp, Rng, *mut u8, *mut usize) -> c_int;
        botan_pk_op_verify_create: fn(*mut VerifyOp, PubKey, *const c_char, u32) -> c_int;
        botan_pk_op_verify_destroy: fn(VerifyOp) -> c_int;
        botan_pk_op_verify_update: fn(VerifyOp, *const u8, usize) -> c_int;
        botan_pk_op_verify_finish: fn(VerifyOp, *const u8, usize) -> c_int;
        botan_pk_op_key_agreement_create: fn(*mut AgreeOp, PrivKey, *const c_char, u32) -> c_int;
        botan_pk_op_key_agreement_destroy: fn(AgreeOp) -> c_int;
        botan_pk_op_key_agreement_size: fn(AgreeOp, *mut usize) -> c_int;
        botan_pk_op_key_agreement: fn(AgreeOp, *mut u8, *mut usize, *const u8, usize, *const u8, usize) -> c_int;
    }
    optional {}
}

pub type PkApi = Api;

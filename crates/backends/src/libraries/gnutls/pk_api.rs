//! The public-key functions of GnuTLS's abstract key API (gnutls/abstract.h
//! of 3.7: `gnutls_privkey_*`, `gnutls_pubkey_*`) and the constants they
//! take (gnutls/gnutls.h: `gnutls_sign_algorithm_t`, `gnutls_ecc_curve_t`,
//! `gnutls_x509_crt_fmt_t`), resolved apart from the symmetric table so that
//! a GnuTLS lacking one still loads.

use std::ffi::{c_char, c_int, c_uint, c_void};

use super::api::Datum;

pub type PrivKey = *mut c_void;
pub type PubKey = *mut c_void;

/// `GNUTLS_X509_FMT_DER`.
pub const GNUTLS_X509_FMT_DER: c_int = 0;
/// `gnutls_sign_algorithm_t` values (gnutls.h, 3.7).
pub const GNUTLS_SIGN_RSA_SHA256: c_int = 6;
pub const GNUTLS_SIGN_ECDSA_SHA256: c_int = 14;
pub const GNUTLS_SIGN_ECDSA_SHA384: c_int = 15;
pub const GNUTLS_SIGN_ECDSA_SHA512: c_int = 16;
pub const GNUTLS_SIGN_RSA_PSS_RSAE_SHA256: c_int = 40;
pub const GNUTLS_SIGN_EDDSA_ED25519: c_int = 35;
pub const GNUTLS_SIGN_EDDSA_ED448: c_int = 46;
/// `gnutls_ecc_curve_t` values (gnutls.h, 3.7: the enum's order).
pub const GNUTLS_ECC_CURVE_ED25519: c_int = 7;
pub const GNUTLS_ECC_CURVE_ED448: c_int = 21;
/// `GNUTLS_KEY_DIGITAL_SIGNATURE` (x509.h): the usage of a public key made from a private one.
pub const GNUTLS_KEY_DIGITAL_SIGNATURE: c_uint = 128;
/// `GNUTLS_E_PK_SIG_VERIFY_FAILED` (gnutls.h): the signature does not verify.
pub const GNUTLS_E_PK_SIG_VERIFY_FAILED: c_int = -89;

crate::native::api_table! {
    required {
        gnutls_privkey_init: fn(*mut PrivKey) -> c_int;
        gnutls_privkey_deinit: fn(PrivKey) -> ();
        gnutls_pubkey_init: fn(*mut PubKey) -> c_int;
        gnutls_pubkey_deinit: fn(PubKey) -> ();
        gnutls_privkey_import_x509_raw: fn(PrivKey, *const Datum, c_int, *const c_char, c_uint) -> c_int;
        gnutls_pubkey_import: fn(PubKey, *const Datum, c_int) -> c_int;
        gnutls_pubkey_import_ecc_raw: fn(PubKey, c_int, *const Datum, *const Datum) -> c_int;
        gnutls_pubkey_import_privkey: fn(PubKey, PrivKey, c_uint, c_uint) -> c_int;
        gnutls_privkey_sign_hash2: fn(PrivKey, c_int, c_uint, *const Datum, *mut Datum) -> c_int;
        gnutls_privkey_sign_data2: fn(PrivKey, c_int, c_uint, *const Datum, *mut Datum) -> c_int;
        gnutls_pubkey_verify_hash2: fn(PubKey, c_int, c_uint, *const Datum, *const Datum) -> c_int;
        gnutls_pubkey_verify_data2: fn(PubKey, c_int, c_uint, *const Datum, *const Datum) -> c_int;
    }
    optional {}
}

pub type PkApi = Api;

/// `gnutls_free`, a variable of gnutls.h (`extern gnutls_free_function
/// gnutls_free`), not a function: read from its address.
pub type FreeFn = unsafe extern "C" fn(*mut c_void);

/// The function `gnutls_free` holds.
///
/// # Safety
/// `lib` must be GnuTLS.
pub unsafe fn free_function(lib: &libloading::Library) -> Result<FreeFn, &'static str> {
    // SAFETY: the symbol is the address of a variable holding a function pointer.
    let var = unsafe { lib.get::<*const FreeFn>(b"gnutls_free\0") }.map_err(|_| "gnutls_free")?;
    // SAFETY: GnuTLS initialises the variable statically.
    Ok(unsafe { **var })
}

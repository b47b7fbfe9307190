//! Nettle's libhogweed (its public key), loaded beside libnettle: the
//! EdDSA and X25519/X448 calls on raw keys (eddsa.h, curve25519.h,
//! curve448.h of Nettle 3.x), and the tables of GMP (gmp.rs), the NIST
//! curves (ecc.rs) and RSA (rsa.rs), each `Err` with the first symbol this
//! build lacks.

/// Hogweed's libraries, tried after the one beside the loaded libnettle.
#[cfg(target_os = "macos")]
pub const HOGWEED_LIBRARIES: &[&str] = &["libhogweed.6.dylib", "libhogweed.dylib"];
#[cfg(not(target_os = "macos"))]
pub const HOGWEED_LIBRARIES: &[&str] = &["libhogweed.so.6", "libhogweed.so"];

crate::native::api_table! {
    required {
        nettle_ed25519_sha512_public_key: fn(*mut u8, *const u8) -> ();
        nettle_ed25519_sha512_sign: fn(*const u8, *const u8, usize, *const u8, *mut u8) -> ();
        nettle_ed25519_sha512_verify: fn(*const u8, usize, *const u8, *const u8) -> std::ffi::c_int;
        nettle_ed448_shake256_public_key: fn(*mut u8, *const u8) -> ();
        nettle_ed448_shake256_sign: fn(*const u8, *const u8, usize, *const u8, *mut u8) -> ();
        nettle_ed448_shake256_verify: fn(*const u8, usize, *const u8, *const u8) -> std::ffi::c_int;
        nettle_curve25519_mul: fn(*mut u8, *const u8, *const u8) -> ();
        nettle_curve25519_mul_g: fn(*mut u8, *const u8) -> ();
        nettle_curve448_mul: fn(*mut u8, *const u8, *const u8) -> ();
        nettle_curve448_mul_g: fn(*mut u8, *const u8) -> ();
    }
    optional {}
}

/// Hogweed's table and the library it came from (kept alive beside it).
pub struct Hogweed {
    pub api: Api,
    /// GMP's integer calls (RSA, ECDSA, ECDH take `mpz_t`), or the first symbol missing.
    pub gmp: Result<super::gmp::Api, String>,
    /// ECDSA/ECDH on the NIST curves, or the first symbol missing.
    pub ecc: Result<super::ecc::Api, String>,
    /// RSA signatures and key generation, or the first symbol missing.
    pub rsa: Result<super::rsa::Api, String>,
    pub path: String,
    _library: libloading::Library,
}

/// Loads libhogweed: the file beside `nettle_path` first, then the usual names.
pub fn load_hogweed(nettle_path: &str) -> Result<Hogweed, String> {
    let beside = std::path::Path::new(nettle_path)
        .parent()
        .map(|d| {
            HOGWEED_LIBRARIES
                .iter()
                .map(|n| d.join(n).display().to_string())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let names: Vec<&str> = beside.iter().map(String::as_str).chain(HOGWEED_LIBRARIES.iter().copied()).collect();
    let loaded = crate::native::load(None, &names, "Nettle's libhogweed", "nettle").map_err(|e| e.to_string())?;
    // SAFETY: libhogweed exports these with the signatures of Nettle 3.x's headers; kept alive beside the table.
    let api = unsafe { Api::load(&loaded.library) }.map_err(|s| format!("{} lacks {s}", loaded.tried))?;
    // SAFETY: as above: gmp.h's signatures, resolved through libhogweed (which links libgmp),
    // and Nettle 3.5+'s ecc.h/ecdsa.h ones.
    let gmp = unsafe { super::gmp::Api::load(&loaded.library) }.map_err(|s| format!("{} lacks {s}", loaded.tried));
    // SAFETY: as above.
    let ecc = unsafe { super::ecc::Api::load(&loaded.library) }.map_err(|s| format!("{} lacks {s}", loaded.tried));
    // SAFETY: as above: rsa.h of Nettle 3.4+.
    let rsa = unsafe { super::rsa::Api::load(&loaded.library) }.map_err(|s| format!("{} lacks {s}", loaded.tried));
    Ok(Hogweed {
        api,
        gmp,
        ecc,
        rsa,
        path: loaded.tried,
        _library: loaded.library,
    })
}

//! Windows' own crypto: CNG (Cryptography API: Next Generation) through
//! bcrypt.dll, the OS interface aesbench calls "BCrypt". AES in the
//! chaining modes ECB, CBC, GCM and CCM (`BCryptEncrypt`/`BCryptDecrypt` on
//! a key of `BCryptGenerateSymmetricKey`, the mode a property of the
//! algorithm handle), MD5, SHA-1 and SHA-2 (`BCryptHash` one-shot,
//! `BCryptCreateHash`/`BCryptHashData` for streams) and their HMACs (a
//! provider opened with `BCRYPT_ALG_HANDLE_HMAC_FLAG`). API:
//! <https://learn.microsoft.com/en-us/windows/win32/api/bcrypt/>, through
//! the `windows-sys` bindings.
//!
//! Built on Windows only; elsewhere the library is unavailable with that
//! reason. Under Wine, bcrypt.dll is Wine's own implementation (over
//! GnuTLS), so the library's version says so and its figures show the code
//! path, not Windows' speed.

#[cfg(windows)]
mod calls;
#[cfg(windows)]
mod cipher;
#[cfg(windows)]
mod hash;
#[cfg(windows)]
mod library;

use crate::backend::Backend;
use crate::error::OpenError;
use crate::registry::{Entry, Kind};

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry {
    id: "cng",
    name: "Windows CNG (bcrypt.dll)",
    kind: Kind::OsApi,
    open,
    install: Some("Windows, whose bcrypt.dll it calls (on Linux: the Windows build under Wine, scripts/wine-env)"),
    feature: None,
    view: None,
    mask: None,
    known_defects: &[],
    named: None,
};

#[cfg(windows)]
fn open(path: Option<&str>) -> Result<Box<dyn Backend>, OpenError> {
    let _ = path; // an OS interface loads no file (the registry refuses a path first)
    Ok(Box::new(library::Cng::open()?))
}

#[cfg(not(windows))]
fn open(path: Option<&str>) -> Result<Box<dyn Backend>, OpenError> {
    let _ = path;
    // "the operating system refuses": the words crates/testkit reads as a
    // fact of the platform (REFUSED_BY_THE_OS), not a missing install.
    Err(OpenError::Refused(
        "the operating system refuses CNG: bcrypt.dll is Windows' own crypto API, so the cng backend is Windows only \
         (on Linux, the Windows build runs it under Wine: README, \"Builds and operating systems\")"
            .into(),
    ))
}

/// An AES chaining mode of CNG (the `BCRYPT_CHAIN_MODE_*` property values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Chaining {
    Ecb,
    Cbc,
    Gcm,
    Ccm,
}

impl Chaining {
    /// Every mode the backend maps, in the order its providers are opened.
    #[cfg_attr(not(windows), allow(dead_code))]
    pub(crate) const ALL: [Chaining; 4] = [Chaining::Ecb, Chaining::Cbc, Chaining::Gcm, Chaining::Ccm];

    /// Whether the mode is an AEAD (its tag in BCRYPT_AUTHENTICATED_CIPHER_MODE_INFO).
    #[cfg_attr(not(windows), allow(dead_code))]
    pub(crate) fn authenticated(self) -> bool {
        matches!(self, Chaining::Gcm | Chaining::Ccm)
    }
}

/// A hash of CNG (the `BCRYPT_*_ALGORITHM` names), plain or as HMAC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HashAlg {
    Md5,
    Sha1,
    Sha256,
    Sha384,
    Sha512,
}

impl HashAlg {
    #[cfg_attr(not(windows), allow(dead_code))]
    pub(crate) const ALL: [HashAlg; 5] = [HashAlg::Md5, HashAlg::Sha1, HashAlg::Sha256, HashAlg::Sha384, HashAlg::Sha512];
}

/// The AES chaining mode of a catalog cipher or AEAD id.
#[cfg_attr(not(any(windows, test)), allow(dead_code))]
pub(crate) fn chaining_of(id: &str) -> Option<Chaining> {
    Some(match id {
        "aes-128-ecb" | "aes-192-ecb" | "aes-256-ecb" => Chaining::Ecb,
        "aes-128-cbc" | "aes-192-cbc" | "aes-256-cbc" => Chaining::Cbc,
        "aes-128-gcm" | "aes-192-gcm" | "aes-256-gcm" => Chaining::Gcm,
        "aes-128-ccm" | "aes-192-ccm" | "aes-256-ccm" => Chaining::Ccm,
        _ => return None,
    })
}

/// The hash of a catalog digest id, or of an HMAC id (`hmac` true).
#[cfg_attr(not(any(windows, test)), allow(dead_code))]
pub(crate) fn hash_of(id: &str) -> Option<(HashAlg, bool)> {
    let (name, hmac) = match id.strip_prefix("hmac-") {
        Some(rest) => (rest, true),
        None => (id, false),
    };
    let hash = match name {
        "md5" => HashAlg::Md5,
        "sha1" => HashAlg::Sha1,
        "sha256" => HashAlg::Sha256,
        "sha384" => HashAlg::Sha384,
        "sha512" => HashAlg::Sha512,
        _ => return None,
    };
    Some((hash, hmac))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_catalog_ids_to_cng() {
        assert_eq!(chaining_of("aes-256-gcm"), Some(Chaining::Gcm));
        assert_eq!(chaining_of("aes-128-ccm"), Some(Chaining::Ccm));
        assert_eq!(chaining_of("aes-128-ctr"), None);
        assert_eq!(hash_of("sha384"), Some((HashAlg::Sha384, false)));
        assert_eq!(hash_of("hmac-sha256"), Some((HashAlg::Sha256, true)));
        assert_eq!(hash_of("sha3-256"), None);
        // Every id mapped is in the catalog.
        for id in [
            "aes-128-ecb",
            "aes-256-cbc",
            "aes-192-gcm",
            "aes-256-ccm",
            "md5",
            "sha512",
            "hmac-sha1",
            "hmac-sha512",
        ] {
            assert!(cryptobench_core::catalog::find(id).is_some(), "{id} is not in the catalog");
        }
    }

    #[cfg(not(windows))]
    #[test]
    fn elsewhere_the_os_refuses_it() {
        let err = open(None).err().expect("cng opens on Windows only");
        assert!(err.to_string().contains("the operating system refuses"), "{err}");
        assert!(err.to_string().contains("Windows only"), "{err}");
    }
}

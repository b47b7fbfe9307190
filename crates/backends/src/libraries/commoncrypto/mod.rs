//! Apple's own crypto: CommonCrypto in libSystem (macOS), the OS library
//! aesbench compares OpenSSL with on Apple silicon. AES-ECB and AES-CBC
//! (`CCCryptorCreateWithMode`, `CCCryptorUpdate`, `CCCryptorReset`), MD5,
//! SHA-1 and SHA-2 (`CC_SHA256` & co.) and their HMACs (`CCHmac`), written
//! against Apple's documented API (the CCCryptor(3cc), CC_SHA(3cc) and
//! CCHmac(3cc) manual pages; CommonCryptor.h, CommonDigest.h,
//! CommonHMAC.h). The functions are resolved at run time from libSystem, so
//! this code compiles, and is linted, on every system; it is opened on
//! macOS only, and is unavailable elsewhere with that reason.

mod api;
mod sessions;

use std::collections::BTreeMap;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec};

use self::api::Api;
use self::sessions::{hmac_of, AesSession, Digest, DigestSessionCc, HmacSession};
use crate::backend::Backend;
use crate::error::{BackendError, OpenError};
use crate::library::{CipherTask, DigestTask, Library};
use crate::registry::{Entry, Kind};
use crate::sessions::unsupported;

/// Where CommonCrypto lives: its own dylib in /usr/lib/system, re-exported
/// by libSystem (both in the dyld shared cache from macOS 11, where dlopen
/// still finds them by these paths).
#[cfg_attr(not(target_os = "macos"), allow(dead_code))]
const LIBRARIES: &[&str] = &["/usr/lib/system/libcommonCrypto.dylib", "/usr/lib/libSystem.B.dylib"];

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry {
    id: "commoncrypto",
    name: "Apple CommonCrypto",
    kind: Kind::OsApi,
    open,
    install: Some("macOS, whose libSystem has it"),
    feature: None,
    view: None,
    mask: None,
    known_defects: &[],
    named: None,
};

#[cfg(target_os = "macos")]
fn open(path: Option<&str>) -> Result<Box<dyn Backend>, OpenError> {
    let _ = path; // an OS interface loads no file (the registry refuses a path first)
    Ok(Box::new(CommonCrypto::open()?))
}

#[cfg(not(target_os = "macos"))]
fn open(path: Option<&str>) -> Result<Box<dyn Backend>, OpenError> {
    let _ = path;
    // "the operating system refuses": crates/testkit's words for a fact of the platform.
    Err(OpenError::Refused(
        "the operating system refuses CommonCrypto: it is Apple's, in macOS's libSystem, so the commoncrypto backend is macOS only".into(),
    ))
}

#[cfg_attr(not(target_os = "macos"), allow(dead_code))]
pub struct CommonCrypto {
    api: Api,
    path: String,
    _library: libloading::Library,
}

#[cfg_attr(not(target_os = "macos"), allow(dead_code))]
impl CommonCrypto {
    fn open() -> Result<CommonCrypto, OpenError> {
        let loaded = crate::native::load(None, LIBRARIES, "CommonCrypto", "commoncrypto")?;
        // SAFETY: libSystem's CommonCrypto, whose documented signatures api.rs declares; kept alive beside the table.
        let api = unsafe { Api::load(&loaded.library) }.map_err(|symbol| OpenError::MissingSymbol {
            path: loaded.tried.clone(),
            symbol,
            library: "CommonCrypto",
            version: String::new(),
        })?;
        let path = crate::native::file_of(api.CC_SHA256 as *const std::ffi::c_void, &loaded.tried);
        Ok(CommonCrypto {
            api,
            path,
            _library: loaded.library,
        })
    }
}

/// The CommonCrypto mode of a catalog cipher id.
fn mode_of(id: &str) -> Option<u32> {
    match id {
        "aes-128-ecb" | "aes-192-ecb" | "aes-256-ecb" => Some(api::K_CC_MODE_ECB),
        "aes-128-cbc" | "aes-192-cbc" | "aes-256-cbc" => Some(api::K_CC_MODE_CBC),
        _ => None,
    }
}

impl Library for CommonCrypto {
    fn info(&self) -> BackendInfo {
        // CommonCrypto has no version call of its own: it is the OS's (the path says which).
        ENTRY.info("CommonCrypto (libSystem)".into(), Some(self.path.clone()), None, BTreeMap::new())
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        match (alg.class, mode_of(alg.id)) {
            (AlgorithmClass::Cipher, Some(mode)) => task.with(|encrypt| AesSession::new(&self.api, mode, key, iv, encrypt)),
            _ => Err(unsupported(format!("{} (not mapped to CommonCrypto)", alg.id))),
        }
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        let d = Digest::of(&self.api, alg.id).ok_or_else(|| unsupported(format!("{} (not in CommonDigest)", alg.id)))?;
        task.with(DigestSessionCc::new(d))
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        let h = hmac_of(alg.id).ok_or_else(|| unsupported(format!("{} (not in CommonHMAC)", alg.id)))?;
        task.with(HmacSession::new(&self.api, h, key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_catalog_ids() {
        for id in ["aes-128-ecb", "aes-256-cbc", "hmac-sha256", "sha512"] {
            assert!(cryptobench_core::catalog::find(id).is_some(), "{id} is not in the catalog");
        }
        assert_eq!(mode_of("aes-192-cbc"), Some(api::K_CC_MODE_CBC));
        assert_eq!(mode_of("aes-128-gcm"), None);
        assert_eq!(hmac_of("hmac-sha512"), Some((api::K_CC_HMAC_ALG_SHA512, 64)));
    }

    #[cfg(not(target_os = "macos"))]
    #[test]
    fn elsewhere_the_os_refuses_it() {
        let err = open(None).err().expect("commoncrypto opens on macOS only");
        assert!(err.to_string().contains("the operating system refuses"), "{err}");
        assert!(err.to_string().contains("macOS only"), "{err}");
    }
}

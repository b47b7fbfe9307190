//! BoringSSL, linked in through boring-sys (the FFI crate of Cloudflare's
//! `boring`; its safe `boring::symm::Crypter` cannot update in place, so
//! the EVP calls are made directly): AES ECB/CBC/CTR and 3DES-CBC as
//! `EVP_CIPHER`s, AES-GCM (128/192/256) and ChaCha20-Poly1305 as
//! `EVP_AEAD`s (GCM streams also as an `EVP_CIPHER`), AES-GCM-SIV and
//! XChaCha20-Poly1305 (`EVP_AEAD`s, messages only), MD5, SHA-1 and SHA-2,
//! HMAC, AES-128-CMAC and Poly1305 ([`mac`]; its GHASH is internal to GCM).
//! BoringSSL has AES-CFB and AES-XTS only in its "decrepit" library, which
//! boring-sys does not link, no SHA-3 and only BLAKE2b-256. Built only with
//! the cargo feature `boringssl` (BoringSSL's CMake build needs cmake and
//! bindgen's libclang). The CPU view is its capability vector ([`cpu`]),
//! which honours `OPENSSL_ia32cap` as OpenSSL does. Public key: RSA,
//! ECDSA, ECDH, Ed25519 and X25519 through EVP_PKEY ([`pk`]).

#[cfg(feature = "boringssl")]
mod cpu;
#[cfg(feature = "boringssl")]
mod evp;
#[cfg(feature = "boringssl")]
mod mac;
#[cfg(feature = "boringssl")]
mod pk;
#[cfg(feature = "boringssl")]
mod sessions;

use crate::backend::Backend;
use crate::error::OpenError;
use crate::libraries::openssl::capabilities;
use crate::registry::{Entry, Kind};
#[cfg(feature = "boringssl")]
use {
    self::mac::{Mac, MacKind},
    self::sessions::{Cipher, Hash, Scheme},
    crate::error::BackendError,
    crate::library::{CipherTask, DigestTask, Library},
    crate::sessions::unsupported,
    boring_sys as ffi,
    cryptobench_core::result::BackendInfo,
    cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode},
    std::collections::BTreeMap,
};

/// The registry's entry (crates/backends/src/libraries/mod.rs). BoringSSL
/// reads `OPENSSL_ia32cap` as OpenSSL does and reports its vector alike.
pub static ENTRY: Entry = Entry {
    id: "boring",
    name: "BoringSSL",
    kind: Kind::LinkedIn,
    open,
    install: Some("rebuild cryptobench with `--features boringssl` (BoringSSL's build needs cmake, perl and libclang-dev)"),
    feature: Some("boringssl"),
    view: Some(capabilities::view),
    mask: Some(capabilities::mask),
    known_defects: &[],
    named: None,
};

/// Opens the backend, or says how to build it in.
fn open(_path: Option<&str>) -> Result<Box<dyn Backend>, OpenError> {
    #[cfg(feature = "boringssl")]
    return Ok(Box::new(BoringBackend::open()));
    #[cfg(not(feature = "boringssl"))]
    Err(OpenError::LeftOut {
        library: "BoringSSL",
        feature: "boringssl",
        needs: "its CMake build needs cmake, perl and libclang-dev",
    })
}

#[cfg(feature = "boringssl")]
pub struct BoringBackend {
    capabilities: Option<String>,
}

#[cfg(feature = "boringssl")]
fn scheme_of(alg: &AlgorithmSpec) -> Result<Scheme, BackendError> {
    // SAFETY: the EVP_* getters return static descriptors.
    unsafe {
        Ok(match alg.id {
            "aes-128-ecb" => Scheme::Plain(ffi::EVP_aes_128_ecb()),
            "aes-192-ecb" => Scheme::Plain(ffi::EVP_aes_192_ecb()),
            "aes-256-ecb" => Scheme::Plain(ffi::EVP_aes_256_ecb()),
            "aes-128-cbc" => Scheme::Plain(ffi::EVP_aes_128_cbc()),
            "aes-192-cbc" => Scheme::Plain(ffi::EVP_aes_192_cbc()),
            "aes-256-cbc" => Scheme::Plain(ffi::EVP_aes_256_cbc()),
            "aes-128-ctr" => Scheme::Plain(ffi::EVP_aes_128_ctr()),
            "aes-192-ctr" => Scheme::Plain(ffi::EVP_aes_192_ctr()),
            "aes-256-ctr" => Scheme::Plain(ffi::EVP_aes_256_ctr()),
            "des-ede3-cbc" => Scheme::Plain(ffi::EVP_des_ede3_cbc()),
            "aes-128-gcm" => Scheme::Aead(ffi::EVP_aead_aes_128_gcm(), Some(ffi::EVP_aes_128_gcm())),
            "aes-192-gcm" => Scheme::Aead(ffi::EVP_aead_aes_192_gcm(), Some(ffi::EVP_aes_192_gcm())),
            "aes-256-gcm" => Scheme::Aead(ffi::EVP_aead_aes_256_gcm(), Some(ffi::EVP_aes_256_gcm())),
            "chacha20-poly1305" => Scheme::Aead(ffi::EVP_aead_chacha20_poly1305(), None),
            "xchacha20-poly1305" => Scheme::Aead(ffi::EVP_aead_xchacha20_poly1305(), None),
            "aes-128-gcm-siv" => Scheme::Aead(ffi::EVP_aead_aes_128_gcm_siv(), None),
            "aes-256-gcm-siv" => Scheme::Aead(ffi::EVP_aead_aes_256_gcm_siv(), None),
            id if id.ends_with("-cfb128") || id.ends_with("-xts") => {
                return Err(unsupported(format!(
                    "{id} (in BoringSSL only in its decrepit library, which boring-sys does not link)"
                )))
            }
            id => return Err(unsupported(format!("{id} (not in BoringSSL)"))),
        })
    }
}

#[cfg(feature = "boringssl")]
fn md_of(alg: &AlgorithmSpec) -> Result<*const ffi::EVP_MD, BackendError> {
    // SAFETY: the EVP_* getters return static descriptors.
    unsafe {
        Ok(match alg.id {
            "md5" => ffi::EVP_md5(),
            "sha1" => ffi::EVP_sha1(),
            "sha224" => ffi::EVP_sha224(),
            "sha256" => ffi::EVP_sha256(),
            "sha384" => ffi::EVP_sha384(),
            "sha512" => ffi::EVP_sha512(),
            "blake2b512" => return Err(unsupported("blake2b512 (BoringSSL has BLAKE2b-256 only)")),
            id => return Err(unsupported(format!("{id} (not in BoringSSL)"))),
        })
    }
}

/// The calls of a catalog MAC, with the key length checked where the MAC has one.
#[cfg(feature = "boringssl")]
fn mac_of(alg: &AlgorithmSpec, key: &[u8]) -> Result<MacKind, BackendError> {
    // SAFETY: the EVP_* getters return static descriptors.
    let kind = unsafe {
        match alg.id {
            "hmac-md5" => return Ok(MacKind::Hmac(ffi::EVP_md5())),
            "hmac-sha1" => return Ok(MacKind::Hmac(ffi::EVP_sha1())),
            "hmac-sha256" => return Ok(MacKind::Hmac(ffi::EVP_sha256())),
            "hmac-sha512" => return Ok(MacKind::Hmac(ffi::EVP_sha512())),
            "aes-128-cmac" => MacKind::Cmac,
            "poly1305" => MacKind::Poly1305,
            id => return Err(unsupported(format!("{id} (not in BoringSSL: its GHASH is internal to GCM)"))),
        }
    };
    crate::sessions::check_mac_key(alg, key)?;
    Ok(kind)
}

#[cfg(feature = "boringssl")]
impl BoringBackend {
    pub fn open() -> BoringBackend {
        BoringBackend {
            capabilities: cpu::capability_vector(),
        }
    }
}

#[cfg(feature = "boringssl")]
impl Library for BoringBackend {
    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }

    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert("BORINGSSL_API_VERSION".to_string(), ffi::BORINGSSL_API_VERSION.to_string());
        if let Ok(v) = std::env::var("OPENSSL_ia32cap") {
            details.insert("OPENSSL_ia32cap".to_string(), v);
        }
        // SAFETY: OPENSSL_VERSION (0) names a static string ("BoringSSL").
        let name = crate::native::text(unsafe { ffi::OpenSSL_version(0) }).unwrap_or_else(|| "BoringSSL".into());
        BackendInfo {
            name: "BoringSSL (boring)".into(),
            ..ENTRY.info(
                format!(
                    "{name} (API version {}, boring-sys {})",
                    ffi::BORINGSSL_API_VERSION,
                    env!("CRYPTOBENCH_BORING_SYS_VERSION")
                ),
                std::env::current_exe().ok().map(|p| p.display().to_string()),
                self.capabilities.clone(),
                details,
            )
        }
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let scheme = scheme_of(alg)?;
        task.with(|encrypt| Cipher::new(scheme, key, iv, encrypt, alg.tag_len))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(Hash::new(md_of(alg)?)?)
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(Mac::new(mac_of(alg, key)?, key)?)
    }

    /// The one-shot calls `HMAC` and `AES_CMAC` (Poly1305: a fresh state).
    fn one_shot_mac(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        mac::mac_once(mac_of(alg, key)?, key, message, alg.digest_len)
    }

    /// AEAD streams where BoringSSL has the AEAD only as an `EVP_AEAD`.
    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        let aead_only = alg.class == AlgorithmClass::Aead && matches!(scheme_of(alg), Ok(Scheme::Aead(_, None)));
        (aead_only && cell.mode == Mode::Stream).then(|| {
            format!(
                "{} in stream mode (BoringSSL offers it only as an EVP_AEAD, which seals whole messages; use --mode message)",
                alg.id
            )
        })
    }
}

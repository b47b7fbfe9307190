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
//! which honours `OPENSSL_ia32cap` as OpenSSL does.

#[cfg(feature = "boringssl")]
mod cpu;
#[cfg(feature = "boringssl")]
mod mac;
#[cfg(feature = "boringssl")]
mod sessions;

#[cfg(feature = "boringssl")]
mod backend;
#[cfg(feature = "boringssl")]
pub use backend::BoringBackend;

use crate::error::OpenError;

/// Opens the backend, or says how to build it in.
pub fn open() -> Result<Box<dyn crate::Backend>, OpenError> {
    #[cfg(feature = "boringssl")]
    return Ok(Box::new(BoringBackend::open()));
    #[cfg(not(feature = "boringssl"))]
    Err(OpenError::LeftOut {
        library: "BoringSSL",
        feature: "boringssl",
        needs: "its CMake build needs cmake, perl and libclang-dev",
    })
}

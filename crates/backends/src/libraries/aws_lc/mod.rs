//! aws-lc-rs (AWS-LC through its Rust API), one of rustls's two crypto
//! providers, linked in: AES-GCM (128/192/256) and ChaCha20-Poly1305 via
//! `aead::LessSafeKey`; AES ECB/CBC/CFB128/CTR via `cipher::EncryptingKey`
//! (message encryption only: its decryption works in place only and its
//! streaming API writes into a separate buffer); SHA-1, SHA-2 and SHA3
//! via `digest`; HMAC over SHA-1, SHA-256 and SHA-512 via `hmac` (its only
//! MAC). The version comes from AWS-LC itself (`awslc_version`),
//! and its CPU view is its capability vector ([`cpu`]), which honours
//! `OPENSSL_ia32cap` — the audit masks it as it masks OpenSSL.
//!
//! Built only with the cargo feature `aws-lc`: aws-lc-sys compiles AWS-LC's
//! C sources, the slowest part of a cryptobench build after BoringSSL, and
//! for every target built (README, "Backends"; CI builds it natively only).

#[cfg(feature = "aws-lc")]
mod backend;
#[cfg(feature = "aws-lc")]
mod cpu;
#[cfg(feature = "aws-lc")]
mod sessions;

#[cfg(feature = "aws-lc")]
pub use backend::AwsLcBackend;

use crate::error::OpenError;

/// Opens the backend, or says how to build it in.
pub fn open() -> Result<Box<dyn crate::Backend>, OpenError> {
    #[cfg(feature = "aws-lc")]
    return Ok(Box::new(AwsLcBackend::open()));
    #[cfg(not(feature = "aws-lc"))]
    Err(OpenError::LeftOut {
        library: "AWS-LC (aws-lc-rs)",
        feature: "aws-lc",
        needs: "aws-lc-sys compiles AWS-LC's C sources with cc and cmake",
    })
}

//! Backends: one module per crypto library behind small traits
//! ([`Backend`] for what a library offers, [`Primitive`] for one prepared,
//! timeable operation), the published [`known_answers`] and the
//! [`verify`] checks every backend passes before anything is timed.
//!
//! Native libraries are loaded at run time with `libloading`: a missing
//! library or symbol makes a backend *unavailable* with a reason, never a
//! build failure or a crash.

pub mod agreement;
pub mod aws_lc;
pub mod boringssl;
pub mod botan;
pub mod cavp;
pub mod cryptopp;
pub mod error;
pub mod gcrypt;
pub mod gnutls;
mod install;
#[cfg(target_os = "linux")]
pub mod kernel;
pub mod known_answers;
mod library_path;
pub mod mbedtls;
mod native;
pub mod nettle;
pub mod ocb_iterated;
pub mod openssl;
pub mod pk_agreement;
mod pk_encoding;
pub mod pk_keys;
pub mod pk_known_answers;
pub mod pk_traits;
pub mod pk_vectors;
pub mod pk_verify;
mod provider_hmac;
pub mod ring;
pub mod runtime;
pub mod rustcrypto;
mod session;
pub mod sodium;
pub mod tomcrypt;
mod traits;
pub mod vectors;
pub mod verify;
pub mod wolfssl;

pub use error::{BackendError, OpenError};
pub use install::install_hint;
pub use traits::{catalog_lengths_only, check_mode, Backend, CellInputs, Primitive, Sealed, Support};

use cryptobench_core::result::ConfigurationSpec;

/// Every backend id `--backend` accepts: the C libraries, the linked-in
/// Rust crates, the kernel, then the language runtimes ([`runtime`]).
pub const BACKEND_IDS: &[&str] = &[
    "openssl",
    "gcrypt",
    "nettle",
    "rustcrypto",
    "sodium",
    "kernel",
    "ring",
    "aws-lc-rs",
    "gnutls",
    "mbedtls",
    "wolfssl",
    "tomcrypt",
    "botan",
    "cryptopp",
    "boring",
    "python:hashlib",
    "python:cryptography",
    "node",
    "go",
    "java",
];

/// Opens the backend a configuration names. Call it in the worker process
/// only: loading a library may run its initialisers and fix its CPU view.
pub fn open(spec: &ConfigurationSpec) -> Result<Box<dyn Backend>, OpenError> {
    match spec.backend.as_str() {
        "openssl" => Ok(Box::new(openssl::OpensslBackend::open(spec.library.as_deref())?)),
        "rustcrypto" => match &spec.library {
            None => Ok(Box::new(rustcrypto::RustcryptoBackend::open())),
            Some(path) => Err(OpenError::NoLibraryFile {
                id: "rustcrypto",
                path: path.clone(),
            }),
        },
        "gcrypt" => Ok(Box::new(gcrypt::GcryptBackend::open(spec.library.as_deref())?)),
        "nettle" => Ok(Box::new(nettle::NettleBackend::open(spec.library.as_deref())?)),
        "sodium" => Ok(Box::new(sodium::SodiumBackend::open(spec.library.as_deref())?)),
        #[cfg(target_os = "linux")]
        "kernel" => match &spec.library {
            None => Ok(Box::new(kernel::KernelBackend::open()?)),
            Some(path) => Err(OpenError::NoLibraryFile {
                id: "kernel",
                path: path.clone(),
            }),
        },
        "gnutls" => Ok(Box::new(gnutls::GnutlsBackend::open(spec.library.as_deref())?)),
        "mbedtls" => Ok(Box::new(mbedtls::MbedtlsBackend::open(spec.library.as_deref())?)),
        "wolfssl" => Ok(Box::new(wolfssl::WolfsslBackend::open(spec.library.as_deref())?)),
        "tomcrypt" => Ok(Box::new(tomcrypt::TomcryptBackend::open(spec.library.as_deref())?)),
        "botan" => Ok(Box::new(botan::BotanBackend::open(spec.library.as_deref())?)),
        "cryptopp" => Ok(Box::new(cryptopp::CryptoppBackend::open(spec.library.as_deref())?)),
        "boring" => linked_in("boring", spec).and_then(|()| boringssl::open()),
        "ring" => linked_in("ring", spec).map(|()| Box::new(ring::RingBackend::open()) as Box<dyn Backend>),
        "aws-lc-rs" => linked_in("aws-lc-rs", spec).and_then(|()| aws_lc::open()),
        #[cfg(not(target_os = "linux"))]
        "kernel" => Err(OpenError::Refused(
            "the kernel crypto API is reached through AF_ALG sockets, which only Linux has".into(),
        )),
        other => match runtime::Runtime::from_id(other) {
            // For a runtime, the "library" is its executable (`--backend go=/usr/lib/go-1.19/bin/go`).
            Some(rt) => Ok(Box::new(runtime::RuntimeBackend::open(rt, spec.library.as_deref())?)),
            None => Err(OpenError::UnknownBackend(other.to_string())),
        },
    }
}

/// A backend linked into cryptobench loads no file: a path given for it is refused.
fn linked_in(id: &'static str, spec: &ConfigurationSpec) -> Result<(), OpenError> {
    match &spec.library {
        None => Ok(()),
        Some(path) => Err(OpenError::NoLibraryFile { id, path: path.clone() }),
    }
}

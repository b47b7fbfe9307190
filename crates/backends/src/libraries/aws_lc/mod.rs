//! aws-lc-rs (AWS-LC through its Rust API), one of rustls's two crypto
//! providers, linked in: AES-GCM (128/192/256) and ChaCha20-Poly1305 via
//! `aead::LessSafeKey`; AES ECB/CBC/CFB128/CTR via `cipher::EncryptingKey`
//! (message encryption only: its decryption works in place only and its
//! streaming API writes into a separate buffer); SHA-1, SHA-2 and SHA3
//! via `digest`; HMAC over SHA-1, SHA-256 and SHA-512 via `hmac` (its only
//! MAC). Its AEAD, digest and HMAC sessions are ring's, one definition for
//! both ([`sessions`]); `--rekey` sets a key up anew, which allocates in
//! aws-lc-rs (named by the sessions). The version comes from AWS-LC itself
//! (`awslc_version`), and its CPU view is its capability vector ([`cpu`]),
//! which honours `OPENSSL_ia32cap` — the audit masks it as it masks OpenSSL.
//! Public key (RSA, ECDSA, ECDH, Ed25519, X25519, ML-KEM, ML-DSA) goes
//! through AWS-LC's C API, EVP_PKEY ([`pk`]).
//!
//! Built only with the cargo feature `aws-lc`: aws-lc-sys compiles AWS-LC's
//! C sources, the slowest part of a cryptobench build after BoringSSL, and
//! for every target built (README, "Backends"; CI builds it natively only).

#[cfg(feature = "aws-lc")]
mod cpu;
#[cfg(feature = "aws-lc")]
mod evp;
#[cfg(feature = "aws-lc")]
mod pk;
#[cfg(feature = "aws-lc")]
mod sessions;

use crate::backend::Backend;
use crate::error::OpenError;
use crate::libraries::openssl::capabilities;
use crate::registry::{Entry, Kind};
#[cfg(feature = "aws-lc")]
use {
    self::sessions::{hmac_of, whole_messages_only, Aead, Block, Hash, Hmac},
    crate::error::BackendError,
    crate::library::{CipherTask, DigestTask, Library},
    crate::sessions::unsupported,
    aws_lc_rs::{aead, cipher, cipher::OperatingMode, digest},
    cryptobench_core::result::BackendInfo,
    cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation},
    std::collections::BTreeMap,
};

/// The registry's entry (crates/backends/src/libraries/mod.rs). AWS-LC reads
/// `OPENSSL_ia32cap` as OpenSSL does and reports its vector alike.
pub static ENTRY: Entry = Entry {
    id: "aws-lc-rs",
    name: "AWS-LC (aws-lc-rs)",
    kind: Kind::LinkedIn,
    open,
    install: Some("rebuild cryptobench with `--features aws-lc` (aws-lc-sys compiles AWS-LC with cc and cmake)"),
    feature: Some("aws-lc"),
    view: Some(capabilities::view),
    mask: Some(capabilities::mask),
    known_defects: &[],
    named: None,
};

/// Opens the backend, or says how to build it in.
fn open(_path: Option<&str>) -> Result<Box<dyn Backend>, OpenError> {
    #[cfg(feature = "aws-lc")]
    return Ok(Box::new(AwsLcBackend::open()));
    #[cfg(not(feature = "aws-lc"))]
    Err(OpenError::LeftOut {
        library: "AWS-LC (aws-lc-rs)",
        feature: "aws-lc",
        needs: "aws-lc-sys compiles AWS-LC's C sources with cc and cmake",
    })
}

#[cfg(feature = "aws-lc")]
pub struct AwsLcBackend {
    capabilities: Option<String>,
}

#[cfg(feature = "aws-lc")]
enum Scheme {
    Aead(&'static aead::Algorithm),
    Block(&'static cipher::Algorithm, OperatingMode),
}

#[cfg(feature = "aws-lc")]
fn scheme_of(alg: &AlgorithmSpec) -> Result<Scheme, BackendError> {
    let aead = |a| Ok(Scheme::Aead(a));
    match alg.id {
        "aes-128-gcm" => return aead(&aead::AES_128_GCM),
        "aes-192-gcm" => return aead(&aead::AES_192_GCM),
        "aes-256-gcm" => return aead(&aead::AES_256_GCM),
        "chacha20-poly1305" => return aead(&aead::CHACHA20_POLY1305),
        "des-ede3-cbc" => {
            return Err(unsupported(
                "des-ede3-cbc (aws-lc-rs offers 3DES only behind its legacy-des feature, which is not built here)",
            ))
        }
        _ => {}
    }
    let Some((bits, mode)) = alg.id.strip_prefix("aes-").and_then(|r| r.split_once('-')) else {
        return Err(unsupported(format!("{} (not in aws-lc-rs)", alg.id)));
    };
    let algorithm: &'static cipher::Algorithm = match bits {
        "128" => &cipher::AES_128,
        "192" => &cipher::AES_192,
        "256" => &cipher::AES_256,
        _ => return Err(unsupported(format!("{} (not in aws-lc-rs)", alg.id))),
    };
    let mode = match mode {
        "ecb" => OperatingMode::ECB,
        "cbc" => OperatingMode::CBC,
        "cfb128" => OperatingMode::CFB128,
        "ctr" => OperatingMode::CTR,
        _ => return Err(unsupported(format!("{} (aws-lc-rs's cipher module has no such mode)", alg.id))),
    };
    Ok(Scheme::Block(algorithm, mode))
}

#[cfg(feature = "aws-lc")]
fn digest_of(alg: &AlgorithmSpec) -> Result<&'static digest::Algorithm, BackendError> {
    match alg.id {
        "sha1" => Ok(&digest::SHA1_FOR_LEGACY_USE_ONLY),
        "sha224" => Ok(&digest::SHA224),
        "sha256" => Ok(&digest::SHA256),
        "sha384" => Ok(&digest::SHA384),
        "sha512" => Ok(&digest::SHA512),
        "sha3-256" => Ok(&digest::SHA3_256),
        "sha3-384" => Ok(&digest::SHA3_384),
        "sha3-512" => Ok(&digest::SHA3_512),
        _ => Err(unsupported(format!("{} (not in aws-lc-rs)", alg.id))),
    }
}

#[cfg(feature = "aws-lc")]
impl AwsLcBackend {
    pub fn open() -> AwsLcBackend {
        // AWS-LC is built without its static initializer (.cargo/config.toml):
        // it detects the CPU, honouring OPENSSL_ia32cap/OPENSSL_armcap, here.
        aws_lc_rs::init();
        AwsLcBackend {
            capabilities: cpu::capability_vector(),
        }
    }
}

#[cfg(feature = "aws-lc")]
impl Library for AwsLcBackend {
    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }

    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert("aws-lc-rs".to_string(), env!("CRYPTOBENCH_AWS_LC_RS_VERSION").to_string());
        if let Ok(v) = std::env::var("OPENSSL_ia32cap") {
            details.insert("OPENSSL_ia32cap".to_string(), v);
        }
        ENTRY.info(
            format!(
                "AWS-LC {} (aws-lc-rs {})",
                aws_lc_rs::awslc_version(),
                env!("CRYPTOBENCH_AWS_LC_RS_VERSION")
            ),
            std::env::current_exe().ok().map(|p| p.display().to_string()),
            self.capabilities.clone(),
            details,
        )
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], _iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        match scheme_of(alg)? {
            Scheme::Aead(a) => task.with(|_| Aead::new(a, key)),
            Scheme::Block(a, mode) => task.with(|_| Block::new(a, mode, key)),
        }
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(Hash::new(digest_of(alg)?))
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(Hmac::new(hmac_of(alg)?, key))
    }

    /// Streams (AEADs seal whole messages; the plain modes' streaming calls
    /// write apart) and plain-mode decryption (in place only).
    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        if !matches!(alg.class, AlgorithmClass::Cipher | AlgorithmClass::Aead) {
            return None;
        }
        match (scheme_of(alg).ok()?, cell.mode, cell.operation) {
            (Scheme::Aead(_), Mode::Stream, _) => Some(whole_messages_only(alg.id)),
            (Scheme::Block(..), Mode::Stream, _) => Some(format!(
                "{} in stream mode (aws-lc-rs's StreamingEncryptingKey::update writes into a separate output buffer, never in place)",
                alg.id
            )),
            (Scheme::Block(..), Mode::Message, Operation::Decrypt) => Some(format!(
                "{} message decryption (aws-lc-rs's DecryptingKey::decrypt works in place only: every timed call would first copy the ciphertext into the buffer)",
                alg.id
            )),
            _ => None,
        }
    }
}

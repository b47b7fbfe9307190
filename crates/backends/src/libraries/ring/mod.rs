//! `ring` (briansmith/ring), one of rustls's two crypto providers, linked
//! in: AES-128-GCM, AES-256-GCM and ChaCha20-Poly1305 through
//! `aead::LessSafeKey`, SHA-1/256/384/512 through `digest`, HMAC over
//! SHA-1/256/512 through `hmac` ([`sessions`], one definition with
//! aws-lc-rs's). ring offers no unauthenticated cipher modes, no AES-192,
//! MD5, SHA-224, SHA-3 or BLAKE2, and no MAC but HMAC. It picks its code
//! path from the CPU at run time and keeps that view private (`ring::cpu`
//! is not public), so none is reported. Public key: Ed25519 ([`pk`],
//! which says why ring's RSA, ECDSA and key agreement are n/a).

mod pk;
mod sessions;

use std::collections::BTreeMap;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};
use ring_crate::{aead, digest};

use self::sessions::{hmac_of, whole_messages_only, Aead, Hash, Hmac};
use crate::error::BackendError;
use crate::library::{CipherTask, DigestTask, Library};
use crate::registry::{Entry, Kind};
use crate::sessions::unsupported;

pub struct RingBackend;

fn aead_of(alg: &AlgorithmSpec) -> Result<&'static aead::Algorithm, BackendError> {
    match alg.id {
        "aes-128-gcm" => Ok(&aead::AES_128_GCM),
        "aes-256-gcm" => Ok(&aead::AES_256_GCM),
        "chacha20-poly1305" => Ok(&aead::CHACHA20_POLY1305),
        "aes-192-gcm" => Err(unsupported("aes-192-gcm (ring has no AES-192)")),
        _ if alg.class == AlgorithmClass::Cipher => Err(unsupported(format!("{} (ring offers no unauthenticated cipher modes)", alg.id))),
        _ => Err(unsupported(format!("{} (not in ring)", alg.id))),
    }
}

fn digest_of(alg: &AlgorithmSpec) -> Result<&'static digest::Algorithm, BackendError> {
    match alg.id {
        "sha1" => Ok(&digest::SHA1_FOR_LEGACY_USE_ONLY),
        "sha256" => Ok(&digest::SHA256),
        "sha384" => Ok(&digest::SHA384),
        "sha512" => Ok(&digest::SHA512),
        _ => Err(unsupported(format!("{} (not in ring)", alg.id))),
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::new("ring", "ring", Kind::LinkedIn, |_| Ok(Box::new(RingBackend)));

impl Library for RingBackend {
    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }

    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert(
            "cpu".to_string(),
            "ring detects the CPU itself at run time and exposes no view of it".to_string(),
        );
        ENTRY.info(
            format!("ring {}", env!("CRYPTOBENCH_RING_VERSION")),
            std::env::current_exe().ok().map(|p| p.display().to_string()),
            None,
            details,
        )
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], _iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let algorithm = aead_of(alg)?;
        task.with(|_| Aead::new(algorithm, key))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(Hash::new(digest_of(alg)?))
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(Hmac::new(hmac_of(alg)?, key))
    }

    /// AEAD streams (whole messages only) and decryption (ring opens only in place).
    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        if alg.class != AlgorithmClass::Aead || aead_of(alg).is_err() {
            return None;
        }
        if cell.mode == Mode::Stream {
            return Some(whole_messages_only(alg.id));
        }
        (cell.operation == Operation::Decrypt).then(|| {
            format!(
                "{} decryption (ring opens only in place, LessSafeKey::open_in_place*: every timed call would first have to copy the ciphertext into the buffer)",
                alg.id
            )
        })
    }
}

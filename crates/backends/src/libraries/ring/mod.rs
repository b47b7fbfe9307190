//! `ring` (briansmith/ring), one of rustls's two crypto providers, linked
//! in: AES-128-GCM, AES-256-GCM and ChaCha20-Poly1305 through
//! `aead::LessSafeKey`, SHA-1/256/384/512 through `digest`, HMAC over
//! SHA-1/256/512 through `hmac`. ring offers no unauthenticated cipher
//! modes, no AES-192, MD5, SHA-224, SHA-3 or BLAKE2, and no MAC but HMAC.
//! It picks its code path from the CPU at run time and keeps that view
//! private (`ring::cpu` is not public), so none is reported.

mod sessions;

use std::collections::BTreeMap;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};
use ring_crate::{aead, digest};

use self::sessions::{hmac_of, Aead, Hash, Hmac};
use crate::error::BackendError;
use crate::sessions::{digest_once, open_once, prepare_cipher, prepare_digest, seal_once, unsupported};
use crate::backend::{check_key_and_iv, Backend, CellInputs, Primitive, Sealed, Support};

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

impl RingBackend {
    pub fn open() -> RingBackend {
        RingBackend
    }
}

impl Backend for RingBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert(
            "cpu".to_string(),
            "ring detects the CPU itself at run time and exposes no view of it".to_string(),
        );
        BackendInfo {
            id: "ring".into(),
            name: "ring".into(),
            version: format!("ring {}", env!("CRYPTOBENCH_RING_VERSION")),
            library_path: std::env::current_exe().ok().map(|p| p.display().to_string()),
            cpu_capabilities: None,
            details,
        }
    }

    fn support(&self, alg: &AlgorithmSpec) -> Support {
        Support::from(match alg.class {
            AlgorithmClass::Digest => digest_of(alg).map(drop),
            AlgorithmClass::Mac => hmac_of(alg).map(drop),
            _ => aead_of(alg).map(drop),
        })
    }

    fn encrypt_once(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Sealed, BackendError> {
        check_key_and_iv(alg, key, iv)?;
        seal_once(Aead::new(aead_of(alg)?, key)?, alg, iv, aad, plaintext)
    }

    fn decrypt_once(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
    ) -> Result<Vec<u8>, BackendError> {
        check_key_and_iv(alg, key, iv)?;
        open_once(Aead::new(aead_of(alg)?, key)?, alg, iv, aad, ciphertext, tag)
    }

    fn digest_once(&self, alg: &AlgorithmSpec, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        digest_once(Hash::new(digest_of(alg)?), message)
    }

    fn mac_once(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        digest_once(Hmac::new(hmac_of(alg)?, key), message)
    }

    fn prepare(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        crate::backend::check_mode(alg, cell)?;
        if alg.is_digest() {
            return Ok(prepare_digest(cell, alg, Hash::new(digest_of(alg)?), None));
        }
        if alg.is_mac() {
            return Ok(prepare_digest(cell, alg, Hmac::new(hmac_of(alg)?, &inputs.key), None));
        }
        let algorithm = aead_of(alg)?;
        check_key_and_iv(alg, &inputs.key, &inputs.iv)?;
        if cell.mode == Mode::Stream {
            return Err(unsupported(format!(
                "{} in stream mode (ring's AEAD API seals whole messages only; use --mode message)",
                alg.id
            )));
        }
        if cell.operation == Operation::Decrypt {
            return Err(unsupported(format!(
                "{} decryption (ring opens only in place, LessSafeKey::open_in_place*: every timed call would first have to copy the ciphertext into the buffer)",
                alg.id
            )));
        }
        prepare_cipher(cell, alg, inputs, message, |_| Aead::new(algorithm, &inputs.key), None)
    }
}

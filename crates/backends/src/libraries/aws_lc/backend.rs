//! The aws-lc-rs backend proper (see the module docs).

use std::collections::BTreeMap;

use aws_lc_rs::cipher::OperatingMode;
use aws_lc_rs::{aead, cipher, digest};
use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmSpec, CellSpec, Mode, Operation};

use super::cpu;
use super::sessions::{hmac_of, Aead, Block, Hash, Hmac};
use crate::error::BackendError;
use crate::sessions::{digest_once, open_once, prepare_cipher, prepare_digest, seal_once, unsupported};
use crate::backend::{check_key_and_iv, Backend, CellInputs, Primitive, Sealed, Support};

pub struct AwsLcBackend {
    capabilities: Option<String>,
}

enum Scheme {
    Aead(&'static aead::Algorithm),
    Block(&'static cipher::Algorithm, OperatingMode),
}

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

impl Backend for AwsLcBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert("aws-lc-rs".to_string(), env!("CRYPTOBENCH_AWS_LC_RS_VERSION").to_string());
        if let Ok(v) = std::env::var("OPENSSL_ia32cap") {
            details.insert("OPENSSL_ia32cap".to_string(), v);
        }
        BackendInfo {
            id: "aws-lc-rs".into(),
            name: "AWS-LC (aws-lc-rs)".into(),
            version: format!(
                "AWS-LC {} (aws-lc-rs {})",
                aws_lc_rs::awslc_version(),
                env!("CRYPTOBENCH_AWS_LC_RS_VERSION")
            ),
            library_path: std::env::current_exe().ok().map(|p| p.display().to_string()),
            cpu_capabilities: self.capabilities.clone(),
            details,
        }
    }

    fn support(&self, alg: &AlgorithmSpec) -> Support {
        Support::from(if alg.is_digest() {
            digest_of(alg).map(drop)
        } else if alg.is_mac() {
            hmac_of(alg).map(drop)
        } else {
            scheme_of(alg).map(drop)
        })
    }

    fn encrypt_once(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Sealed, BackendError> {
        check_key_and_iv(alg, key, iv)?;
        if let Some(problem) = alg.size_problem(plaintext.len()) {
            return Err(BackendError::Invalid(problem));
        }
        match scheme_of(alg)? {
            Scheme::Aead(a) => seal_once(Aead::new(a, key)?, alg, iv, aad, plaintext),
            Scheme::Block(a, mode) => seal_once(Block::new(a, mode, key)?, alg, iv, aad, plaintext),
        }
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
        match scheme_of(alg)? {
            Scheme::Aead(a) => open_once(Aead::new(a, key)?, alg, iv, aad, ciphertext, tag),
            Scheme::Block(a, mode) => open_once(Block::new(a, mode, key)?, alg, iv, aad, ciphertext, tag),
        }
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
        let scheme = scheme_of(alg)?;
        check_key_and_iv(alg, &inputs.key, &inputs.iv)?;
        match (&scheme, cell.mode, cell.operation) {
            (Scheme::Aead(_), Mode::Stream, _) => Err(unsupported(format!(
                "{} in stream mode (aws-lc-rs's AEAD API seals whole messages only; use --mode message)",
                alg.id
            ))),
            (Scheme::Block(..), Mode::Stream, _) => Err(unsupported(format!(
                "{} in stream mode (aws-lc-rs's StreamingEncryptingKey::update writes into a separate output buffer, never in place)",
                alg.id
            ))),
            (Scheme::Block(..), Mode::Message, _) if cell.rekey => Err(unsupported(format!(
                "{} with --rekey (aws-lc-rs's key setup allocates on the heap: UnboundCipherKey::new copies the key into a Vec, src/cipher.rs)",
                alg.id
            ))),
            (Scheme::Block(..), Mode::Message, Operation::Decrypt) => Err(unsupported(format!(
                "{} message decryption (aws-lc-rs's DecryptingKey::decrypt works in place only: every timed call would first copy the ciphertext into the buffer)",
                alg.id
            ))),
            (Scheme::Aead(a), ..) => prepare_cipher(cell, alg, inputs, message, |_| Aead::new(a, &inputs.key), None),
            (Scheme::Block(a, mode), ..) => prepare_cipher(cell, alg, inputs, message, |_| Block::new(a, *mode, &inputs.key), None),
        }
    }
}

//! aws-lc-rs's calls behind the shared timed loops (crate::session): AEADs
//! as `aead::LessSafeKey` (`seal_in_place_separate_tag`,
//! `open_separate_gather`), plain AES modes as `cipher::EncryptingKey`
//! (`less_safe_encrypt` in place with the IV as `EncryptionContext`), and
//! `digest::digest` / `digest::Context`, and HMAC (crate::libraries::provider_hmac).

use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
use aws_lc_rs::cipher::{DecryptingKey, DecryptionContext, EncryptingKey, EncryptionContext, OperatingMode, UnboundCipherKey};
use aws_lc_rs::digest;
use aws_lc_rs::iv::FixedLength;

use crate::error::BackendError;
use crate::sessions::{CipherSession, DigestSession};

fn failed(call: &'static str) -> BackendError {
    BackendError::Call {
        call,
        detail: "aws-lc-rs returned Unspecified".into(),
    }
}

pub struct Aead {
    algorithm: &'static aws_lc_rs::aead::Algorithm,
    key: LessSafeKey,
}

impl Aead {
    pub fn new(algorithm: &'static aws_lc_rs::aead::Algorithm, key: &[u8]) -> Result<Aead, BackendError> {
        let unbound = UnboundKey::new(algorithm, key).map_err(|_| failed("UnboundKey::new"))?;
        Ok(Aead {
            algorithm,
            key: LessSafeKey::new(unbound),
        })
    }
}

fn nonce(iv: &[u8]) -> Result<Nonce, BackendError> {
    Nonce::try_assume_unique_for_key(iv).map_err(|_| BackendError::Invalid("aws-lc-rs takes 96-bit nonces only".into()))
}

impl CipherSession for Aead {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        let unbound = UnboundKey::new(self.algorithm, key).map_err(|_| failed("UnboundKey::new"))?;
        self.key = LessSafeKey::new(unbound);
        Ok(())
    }

    fn update(&mut self, _buf: &mut [u8]) -> Result<(), BackendError> {
        Err(BackendError::Unsupported(
            "streaming AEAD updates (aws-lc-rs seals whole messages only)".into(),
        ))
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let t = self
            .key
            .seal_in_place_separate_tag(nonce(iv)?, Aad::from(aad), buf)
            .map_err(|_| failed("LessSafeKey::seal_in_place_separate_tag"))?;
        if tag.len() != t.as_ref().len() {
            return Err(BackendError::Invalid(format!("aws-lc-rs's tags are {} bytes", t.as_ref().len())));
        }
        tag.copy_from_slice(t.as_ref());
        Ok(())
    }

    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        self.key
            .open_separate_gather(nonce(iv)?, Aad::from(aad), input, tag, out)
            .map_err(|_| BackendError::AuthenticationFailed)
    }
}

/// A plain AES mode; `EncryptingKey` keeps the expanded key. The raw key is
/// kept for `open`, which serves verification only.
pub struct Block {
    algorithm: &'static aws_lc_rs::cipher::Algorithm,
    mode: OperatingMode,
    key: EncryptingKey,
    raw: Vec<u8>,
}

fn unbound(algorithm: &'static aws_lc_rs::cipher::Algorithm, key: &[u8]) -> Result<UnboundCipherKey, BackendError> {
    UnboundCipherKey::new(algorithm, key).map_err(|_| failed("UnboundCipherKey::new"))
}

fn encrypting(algorithm: &'static aws_lc_rs::cipher::Algorithm, mode: OperatingMode, key: &[u8]) -> Result<EncryptingKey, BackendError> {
    let key = unbound(algorithm, key)?;
    match mode {
        OperatingMode::ECB => EncryptingKey::ecb(key),
        OperatingMode::CBC => EncryptingKey::cbc(key),
        OperatingMode::CTR => EncryptingKey::ctr(key),
        _ => EncryptingKey::cfb128(key),
    }
    .map_err(|_| failed("EncryptingKey::new"))
}

fn iv128(iv: &[u8]) -> Result<FixedLength<16>, BackendError> {
    FixedLength::<16>::try_from(iv).map_err(|_| BackendError::Invalid("AES modes take a 16-byte IV".into()))
}

impl Block {
    pub fn new(algorithm: &'static aws_lc_rs::cipher::Algorithm, mode: OperatingMode, key: &[u8]) -> Result<Block, BackendError> {
        Ok(Block {
            algorithm,
            mode,
            key: encrypting(algorithm, mode, key)?,
            raw: key.to_vec(),
        })
    }
}

impl CipherSession for Block {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.key = encrypting(self.algorithm, self.mode, key)?;
        Ok(())
    }

    fn update(&mut self, _buf: &mut [u8]) -> Result<(), BackendError> {
        Err(BackendError::Unsupported(
            "in-place stream updates (aws-lc-rs's StreamingEncryptingKey::update writes into a separate output buffer)".into(),
        ))
    }

    fn seal(&mut self, iv: &[u8], _aad: &[u8], buf: &mut [u8], _tag: &mut [u8]) -> Result<(), BackendError> {
        let context = if self.mode == OperatingMode::ECB {
            EncryptionContext::None
        } else {
            EncryptionContext::Iv128(iv128(iv)?)
        };
        self.key
            .less_safe_encrypt(buf, context)
            .map(drop)
            .map_err(|_| failed("EncryptingKey::less_safe_encrypt"))
    }

    /// Verification only (the timed loop refuses aws-lc-rs cipher decryption):
    /// `DecryptingKey::decrypt` works in place, so the input is copied into `out` first.
    fn open(&mut self, iv: &[u8], _aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        let key = unbound(self.algorithm, &self.raw)?;
        let key = match self.mode {
            OperatingMode::ECB => DecryptingKey::ecb(key),
            OperatingMode::CBC => DecryptingKey::cbc(key),
            OperatingMode::CTR => DecryptingKey::ctr(key),
            _ => DecryptingKey::cfb128(key),
        }
        .map_err(|_| failed("DecryptingKey::new"))?;
        let context = if self.mode == OperatingMode::ECB {
            DecryptionContext::None
        } else {
            DecryptionContext::Iv128(iv128(iv)?)
        };
        out.copy_from_slice(input);
        key.decrypt(out, context).map(drop).map_err(|_| failed("DecryptingKey::decrypt"))
    }
}

pub struct Hash {
    algorithm: &'static digest::Algorithm,
    context: digest::Context,
}

impl Hash {
    pub fn new(algorithm: &'static digest::Algorithm) -> Hash {
        Hash {
            algorithm,
            context: digest::Context::new(algorithm),
        }
    }
}

impl DigestSession for Hash {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        out.copy_from_slice(digest::digest(self.algorithm, msg).as_ref());
        Ok(())
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        self.context.update(msg);
        Ok(())
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        Ok(self.context.clone().finish().as_ref().to_vec())
    }
}

crate::libraries::provider_hmac::provider_hmac!(aws_lc_rs, "aws-lc-rs");

//! ring's calls behind the shared timed loops (crate::session): an AEAD
//! key kept as `LessSafeKey` (`seal_in_place_separate_tag` per message,
//! `UnboundKey::new` for `--rekey`), `digest::digest` / `digest::Context`
//! and HMAC (crate::libraries::provider_hmac).

use ring_crate::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
use ring_crate::digest;

use crate::error::BackendError;
use crate::sessions::{CipherSession, DigestSession};

fn failed(call: &'static str) -> BackendError {
    BackendError::Call {
        call,
        detail: "ring returned Unspecified".into(),
    }
}

pub struct Aead {
    algorithm: &'static ring_crate::aead::Algorithm,
    key: LessSafeKey,
}

impl Aead {
    pub fn new(algorithm: &'static ring_crate::aead::Algorithm, key: &[u8]) -> Result<Aead, BackendError> {
        let unbound = UnboundKey::new(algorithm, key).map_err(|_| failed("UnboundKey::new"))?;
        Ok(Aead {
            algorithm,
            key: LessSafeKey::new(unbound),
        })
    }
}

fn nonce(iv: &[u8]) -> Result<Nonce, BackendError> {
    Nonce::try_assume_unique_for_key(iv).map_err(|_| BackendError::Invalid("ring takes 96-bit nonces only".into()))
}

impl CipherSession for Aead {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        let unbound = UnboundKey::new(self.algorithm, key).map_err(|_| failed("UnboundKey::new"))?;
        self.key = LessSafeKey::new(unbound);
        Ok(())
    }

    fn update(&mut self, _buf: &mut [u8]) -> Result<(), BackendError> {
        Err(BackendError::Unsupported(
            "streaming AEAD updates (ring seals whole messages only)".into(),
        ))
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let t = self
            .key
            .seal_in_place_separate_tag(nonce(iv)?, Aad::from(aad), buf)
            .map_err(|_| failed("LessSafeKey::seal_in_place_separate_tag"))?;
        if tag.len() != t.as_ref().len() {
            return Err(BackendError::Invalid(format!("ring's tags are {} bytes", t.as_ref().len())));
        }
        tag.copy_from_slice(t.as_ref());
        Ok(())
    }

    /// Verification only (the timed loop refuses ring decryption): ring opens
    /// in place, so the ciphertext is copied into `out` first.
    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        out.copy_from_slice(input);
        let tag = ring_crate::aead::Tag::try_from(tag).map_err(|_| BackendError::AuthenticationFailed)?;
        self.key
            .open_in_place_separate_tag(nonce(iv)?, Aad::from(aad), tag, out, 0..)
            .map(drop)
            .map_err(|_| BackendError::AuthenticationFailed)
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

crate::libraries::provider_hmac::provider_hmac!(ring_crate, "ring");

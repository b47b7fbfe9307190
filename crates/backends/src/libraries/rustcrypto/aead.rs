//! AEADs through RustCrypto's `aead` 0.6 API (`AeadInOut`): one call seals
//! or opens a whole message with a detached tag, on the kept cipher
//! (`--rekey`: `KeyInit::new` first). The API has no streaming updates, so
//! AEAD `stream` cells are refused (crates/backends/src/libraries/rustcrypto/mod.rs).
//! Deterministic AES-SIV (aes-siv, RFC 5297) has an API of its own.

use aead::array::Array;
use aead::inout::InOutBuf;
use aead::{AeadInOut, KeyInit};

use crate::error::BackendError;
use crate::sessions::{unsupported, CipherSession};

fn whole_messages() -> BackendError {
    unsupported("stream updates (RustCrypto's AEAD API seals whole messages only)")
}

fn key_init<A: KeyInit>(key: &[u8]) -> Result<A, BackendError> {
    A::new_from_slice(key).map_err(|_| BackendError::Invalid("wrong key length for this AEAD".into()))
}

/// One AEAD keyed once; sealing and opening are the same session.
pub struct Aead<A> {
    aead: A,
}

impl<A: KeyInit> Aead<A> {
    pub fn new(key: &[u8]) -> Result<Self, BackendError> {
        Ok(Aead { aead: key_init(key)? })
    }
}

impl<A: AeadInOut + KeyInit> CipherSession for Aead<A> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.aead = key_init(key)?;
        Ok(())
    }
    fn update(&mut self, _buf: &mut [u8]) -> Result<(), BackendError> {
        Err(whole_messages())
    }
    /// `encrypt_inout_detached` in place; the tag into `tag`.
    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let nonce = Array::try_from(iv).map_err(|_| BackendError::Invalid("wrong nonce length for this AEAD".into()))?;
        let t = self
            .aead
            .encrypt_inout_detached(&nonce, aad, InOutBuf::from(buf))
            .map_err(|_| BackendError::Call {
                call: "AeadInOut::encrypt_inout_detached",
                detail: "message or AAD too long".into(),
            })?;
        if tag.len() != t.len() {
            return Err(BackendError::Invalid(format!("tags are {} bytes here", t.len())));
        }
        tag.copy_from_slice(&t);
        Ok(())
    }
    /// `decrypt_inout_detached` from `input` into `out`, verifying `tag`.
    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        let nonce = Array::try_from(iv).map_err(|_| BackendError::Invalid("wrong nonce length for this AEAD".into()))?;
        let tag = Array::try_from(tag).map_err(|_| BackendError::Invalid("wrong tag length for this AEAD".into()))?;
        let buf = InOutBuf::new(input, out).map_err(|_| BackendError::Invalid("output and input differ in length".into()))?;
        self.aead
            .decrypt_inout_detached(&nonce, aad, buf, &tag)
            .map_err(|_| BackendError::AuthenticationFailed)
    }
}

/// Deterministic AES-SIV (RFC 5297) on the kept key: the headers are the
/// AAD and, where there is one (a test vector's), the nonce as the last
/// component; the tag is the synthetic IV.
pub struct Siv {
    siv: aes_siv::siv::Aes128Siv,
}

fn siv_key(key: &[u8]) -> Result<aes_siv::siv::Aes128Siv, BackendError> {
    <aes_siv::siv::Aes128Siv as digest::KeyInit>::new_from_slice(key)
        .map_err(|_| BackendError::Invalid("aes-128-siv takes a 32-byte key".into()))
}

/// How many headers a message has: the AAD, then the nonce where there is
/// one (RFC 5297 §3).
fn headers(nonce: &[u8]) -> usize {
    if nonce.is_empty() {
        1
    } else {
        2
    }
}

impl Siv {
    pub fn new(key: &[u8]) -> Result<Self, BackendError> {
        Ok(Siv { siv: siv_key(key)? })
    }
}

impl CipherSession for Siv {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.siv = siv_key(key)?;
        Ok(())
    }
    fn update(&mut self, _buf: &mut [u8]) -> Result<(), BackendError> {
        Err(whole_messages())
    }
    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let t = self
            .siv
            .encrypt_inout_detached(&[aad, iv][..headers(iv)], buf.into())
            .map_err(|_| BackendError::Invalid("too many AES-SIV headers".into()))?;
        if tag.len() != t.len() {
            return Err(BackendError::Invalid("SIV tags are 16 bytes".into()));
        }
        tag.copy_from_slice(&t);
        Ok(())
    }
    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        let tag: [u8; 16] = tag.try_into().map_err(|_| BackendError::AuthenticationFailed)?;
        let buf = InOutBuf::new(input, out).map_err(|_| BackendError::Invalid("input and output differ in length".into()))?;
        self.siv
            .decrypt_inout_detached(&[aad, iv][..headers(iv)], buf, &tag.into())
            .map_err(|_| BackendError::AuthenticationFailed)
    }
}

//! The timed operations, generic over the concrete RustCrypto types so that
//! the loop body is a direct call (see docs/METHOD.md for the modes). The
//! compiler sees through these calls, so every input and output passes
//! through `black_box` on every call: nothing loop-invariant may be hoisted
//! (decrypting the same ciphertext, hashing an unchanged buffer) or dropped.

use std::hint::black_box;

use aead::{AeadInOut, KeyInit};
use digest::Digest;

use super::aead::{open, seal};
use super::modes::Crypt;
use crate::error::BackendError;
use crate::primitive::Primitive;

/// `stream`: one keyed state, one update per call, in place.
pub struct CipherStream<M> {
    pub state: M,
    pub implementation: Option<String>,
}

impl<M: Crypt> Primitive for CipherStream<M> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            self.state.update(black_box(&mut *buf))?;
        }
        Ok(())
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

/// `message` for plain ciphers: IV set on the kept key schedule (or a new
/// key schedule with `rekey`), one update over the message. Encryption
/// works in place; decryption reads the prepared ciphertext and writes the
/// buffer, with no copy, as the C libraries' decrypting calls do.
pub struct CipherMessage<M> {
    pub state: M,
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub encrypt: bool,
    pub rekey: bool,
    pub ciphertext: Vec<u8>,
    pub implementation: Option<String>,
}

impl<M: Crypt> Primitive for CipherMessage<M> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        if !self.encrypt && self.ciphertext.len() != buf.len() {
            return Err(BackendError::Invalid("buffer and prepared ciphertext differ in length".into()));
        }
        for _ in 0..iterations {
            if self.rekey {
                self.state = M::new(black_box(&self.key), &self.iv, self.encrypt)?;
            }
            if self.encrypt {
                self.state.set_iv(black_box(&self.iv))?;
                self.state.update(black_box(&mut *buf))?;
            } else {
                self.state
                    .message_into(black_box(&self.iv), black_box(&self.ciphertext), black_box(&mut *buf))?;
            }
        }
        Ok(())
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

/// AEAD `message`: nonce, AAD, whole message, tag (encrypt reads it,
/// decrypt verifies the genuine one); `rekey` builds the key schedule per message.
pub struct AeadMessage<A> {
    pub aead: A,
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
    pub encrypt: bool,
    pub rekey: bool,
    pub tag: Vec<u8>,
    pub ciphertext: Vec<u8>,
    pub implementation: Option<String>,
}

impl<A: AeadInOut + KeyInit> Primitive for AeadMessage<A> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        if !self.encrypt && self.ciphertext.len() != buf.len() {
            return Err(BackendError::Invalid("buffer and prepared ciphertext differ in length".into()));
        }
        for _ in 0..iterations {
            if self.rekey {
                self.aead = super::aead::new(black_box(&self.key))?;
            }
            if self.encrypt {
                seal(
                    &self.aead,
                    black_box(&self.iv),
                    black_box(&self.aad),
                    black_box(&mut *buf),
                    &mut self.tag,
                )?;
                black_box(&mut self.tag);
            } else {
                open(
                    &self.aead,
                    black_box(&self.iv),
                    black_box(&self.aad),
                    black_box(&self.ciphertext),
                    black_box(&mut *buf),
                    black_box(&self.tag),
                )?;
            }
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.tag.clone()))
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

/// Digest `message`: the crate's one-shot `Digest::digest`.
pub struct DigestMessage<D: Digest> {
    pub out: digest::Output<D>,
    pub implementation: Option<String>,
}

impl<D: Digest> Primitive for DigestMessage<D> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            self.out = black_box(D::digest(black_box(&*buf)));
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out.to_vec()))
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

/// Digest `stream`: updates on one hasher; the value is read from a clone.
pub struct DigestStream<D: Digest + Clone> {
    pub hasher: D,
    pub implementation: Option<String>,
}

impl<D: Digest + Clone> Primitive for DigestStream<D> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            self.hasher.update(black_box(&*buf));
        }
        black_box(&mut self.hasher);
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.hasher.clone().finalize().to_vec()))
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

//! Digests as sessions (crates/backends/src/sessions.rs): the hashers of
//! `digest::Digest` (md-5, sha1, sha2, sha3, blake2, sm3), extendable-output
//! SHAKE (sha3) and BLAKE3 (the blake3 crate). `message` is the crate's
//! one-shot call, `stream` an update on one state, whose value is read from
//! a copy.

use digest::{Digest, ExtendableOutput, Update};

use crate::error::BackendError;
use crate::sessions::DigestSession;

fn short_buffer() -> BackendError {
    BackendError::Invalid("the digest buffer is shorter than the digest".into())
}

/// A hasher of `digest::Digest`: `message` is `Digest::digest`, `stream` `Digest::update`.
pub struct Hash<D> {
    hasher: D,
}

impl<D: Digest> Hash<D> {
    pub fn new() -> Self {
        Hash { hasher: D::new() }
    }
}

impl<D: Digest + Clone> DigestSession for Hash<D> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        let value = D::digest(msg);
        out.get_mut(..value.len()).ok_or_else(short_buffer)?.copy_from_slice(&value);
        Ok(())
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        Digest::update(&mut self.hasher, msg);
        Ok(())
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        Ok(self.hasher.clone().finalize().to_vec())
    }
}

/// An extendable-output function read to `len` bytes: `message` hashes
/// the message on a fresh state, `stream` updates one state.
pub struct Xof<X> {
    state: X,
    len: usize,
}

impl<X: Default> Xof<X> {
    pub fn new(len: usize) -> Self {
        Xof { state: X::default(), len }
    }
}

impl<X: ExtendableOutput + Update + Default + Clone> DigestSession for Xof<X> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        let mut x = X::default();
        Update::update(&mut x, msg);
        x.finalize_xof_into(out.get_mut(..self.len).ok_or_else(short_buffer)?);
        Ok(())
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        Update::update(&mut self.state, msg);
        Ok(())
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut out = vec![0u8; self.len];
        self.state.clone().finalize_xof_into(&mut out);
        Ok(out)
    }
}

/// BLAKE3 (the blake3 crate): `message` is `blake3::hash`, `stream` `Hasher::update`.
pub struct Blake3 {
    hasher: blake3::Hasher,
}

impl Blake3 {
    pub fn new() -> Self {
        Blake3 {
            hasher: blake3::Hasher::new(),
        }
    }

    /// The code path blake3 picks at run time: AVX-512, AVX2, SSE4.1 or SSE2 (src/platform.rs).
    pub fn implementation() -> String {
        format!("{:?}", blake3::platform::Platform::detect()).to_lowercase()
    }
}

impl DigestSession for Blake3 {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        out.get_mut(..32)
            .ok_or_else(short_buffer)?
            .copy_from_slice(blake3::hash(msg).as_bytes());
        Ok(())
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        self.hasher.update(msg);
        Ok(())
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        Ok(self.hasher.finalize().as_bytes().to_vec())
    }
}

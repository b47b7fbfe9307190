//! MACs as keyed digest sessions (crates/backends/src/sessions.rs): the
//! `digest::Mac` kind (hmac, cmac), Poly1305 (poly1305) and GHASH (ghash).
//! A `message` starts from the keyed state without setting the key up again
//! (a copy of it), except Poly1305, whose one-time key is its whole state.

use std::hint::black_box;

use digest::Mac;
use universal_hash::UniversalHash;

use crate::error::BackendError;
use crate::sessions::{unsupported, DigestSession};

fn short_buffer() -> BackendError {
    BackendError::Invalid("the tag buffer is shorter than the tag".into())
}

/// A MAC of the `digest::Mac` kind (HMAC, CMAC) keyed once.
pub fn keyed<M: Mac + digest::KeyInit>(key: &[u8]) -> Result<M, BackendError> {
    <M as digest::KeyInit>::new_from_slice(key).map_err(|_| BackendError::Invalid("wrong key length for this MAC".into()))
}

/// HMAC or CMAC: `message` is a copy of the keyed state (the key schedule
/// is not redone), one update, the tag; `stream` updates one keyed state.
pub struct Keyed<M> {
    keyed: M,
    state: M,
}

impl<M: Mac + digest::KeyInit + Clone> Keyed<M> {
    pub fn new(key: &[u8]) -> Result<Self, BackendError> {
        let keyed: M = keyed(key)?;
        Ok(Keyed {
            state: keyed.clone(),
            keyed,
        })
    }
}

impl<M: Mac + Clone> DigestSession for Keyed<M> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        let mut m = black_box(&self.keyed).clone();
        Mac::update(&mut m, msg);
        let tag = m.finalize().into_bytes();
        out.get_mut(..tag.len()).ok_or_else(short_buffer)?.copy_from_slice(&tag);
        Ok(())
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        Mac::update(&mut self.state, msg);
        Ok(())
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        Ok(self.state.clone().finalize().into_bytes().to_vec())
    }
}

/// Poly1305 (RFC 8439 §2.5) of a whole message: the one-time key is the
/// MAC's whole state, so every message starts from it (as OpenSSL's EVP_MAC
/// must: it refuses to re-initialise Poly1305 without a key).
pub fn poly1305(key: &[u8], message: &[u8]) -> Result<[u8; 16], BackendError> {
    let p = <poly1305::Poly1305 as digest::KeyInit>::new_from_slice(key)
        .map_err(|_| BackendError::Invalid("poly1305 takes a 32-byte key".into()))?;
    Ok(p.compute_unpadded(message).into())
}

/// Poly1305: `message` is `compute_unpadded` from the key; no `stream`
/// (the crate takes whole 16-byte blocks per update and pads the last).
pub struct Poly1305 {
    key: [u8; 32],
}

impl Poly1305 {
    pub fn new(key: &[u8]) -> Result<Self, BackendError> {
        Ok(Poly1305 {
            key: key
                .try_into()
                .map_err(|_| BackendError::Invalid("poly1305 takes a 32-byte key".into()))?,
        })
    }
}

impl DigestSession for Poly1305 {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        let tag = poly1305(black_box(&self.key), msg)?;
        out.get_mut(..16).ok_or_else(short_buffer)?.copy_from_slice(&tag);
        Ok(())
    }
    fn update(&mut self, _msg: &[u8]) -> Result<(), BackendError> {
        Err(unsupported(
            "poly1305 updates (the poly1305 crate takes whole 16-byte blocks per update and pads the last)",
        ))
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        Err(unsupported("poly1305 updates"))
    }
}

/// GHASH keyed by H over whole 16-byte blocks (the catalog's granularity).
pub fn ghash_key(h: &[u8]) -> Result<ghash::GHash, BackendError> {
    <ghash::GHash as digest::KeyInit>::new_from_slice(h).map_err(|_| BackendError::Invalid("ghash takes a 16-byte H".into()))
}

fn whole_blocks(message: &[u8]) -> Result<(), BackendError> {
    if !message.len().is_multiple_of(16) {
        return Err(BackendError::Invalid("GHASH takes whole 16-byte blocks".into()));
    }
    Ok(())
}

/// The GHASH of `message` from a copy of the keyed state.
pub fn ghash(keyed: &ghash::GHash, message: &[u8]) -> Result<[u8; 16], BackendError> {
    whole_blocks(message)?;
    let mut g = keyed.clone();
    g.update_padded(message);
    Ok(g.finalize().into())
}

/// GHASH: `message` is a copy of the keyed state, the blocks, the value;
/// `stream` the blocks on one state.
pub struct Ghash {
    keyed: ghash::GHash,
    state: ghash::GHash,
}

impl Ghash {
    pub fn new(h: &[u8]) -> Result<Self, BackendError> {
        let keyed = ghash_key(h)?;
        Ok(Ghash {
            state: keyed.clone(),
            keyed,
        })
    }
}

impl DigestSession for Ghash {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        let value = ghash(black_box(&self.keyed), msg)?;
        out.get_mut(..16).ok_or_else(short_buffer)?.copy_from_slice(&value);
        Ok(())
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        whole_blocks(msg)?;
        self.state.update_padded(msg);
        Ok(())
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        Ok(self.state.clone().finalize().to_vec())
    }
}

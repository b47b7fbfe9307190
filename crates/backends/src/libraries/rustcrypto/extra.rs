//! The RustCrypto types added with the catalog's breadth: ChaCha20 alone
//! (chacha20), MACs (hmac, cmac, poly1305, ghash), extendable-output SHAKE
//! (sha3), BLAKE3 (the blake3 crate) and deterministic AES-SIV (aes-siv).
//! As everywhere in this backend, every timed call passes its inputs and
//! outputs through `black_box` and allocates nothing.

use std::hint::black_box;

use aes::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
use digest::{ExtendableOutput, Mac, Update};
use universal_hash::UniversalHash;

use super::modes::Crypt;
use crate::error::BackendError;
use crate::primitive::Primitive;

/// ChaCha20 (RFC 8439 §2.4) with OpenSSL's 16-byte IV: the 32-bit
/// little-endian block counter, then the 96-bit nonce.
pub struct ChaCha {
    key: [u8; 32],
    state: chacha20::ChaCha20,
}

fn chacha_at(key: &[u8; 32], iv: &[u8]) -> Result<chacha20::ChaCha20, BackendError> {
    let (counter, nonce) = iv
        .split_first_chunk::<4>()
        .filter(|(_, n)| n.len() == 12)
        .ok_or_else(|| BackendError::Invalid("chacha20 takes a 16-byte IV (counter and nonce)".into()))?;
    let nonce: [u8; 12] = nonce.try_into().expect("checked above");
    let mut c = chacha20::ChaCha20::new(key.into(), &nonce.into());
    c.seek(u64::from(u32::from_le_bytes(*counter)) * 64);
    Ok(c)
}

impl Crypt for ChaCha {
    fn new(key: &[u8], iv: &[u8], _encrypt: bool) -> Result<Self, BackendError> {
        let key: [u8; 32] = key
            .try_into()
            .map_err(|_| BackendError::Invalid("chacha20 takes a 32-byte key".into()))?;
        Ok(ChaCha {
            state: chacha_at(&key, iv)?,
            key,
        })
    }
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), BackendError> {
        self.state = chacha_at(&self.key, iv)?;
        Ok(())
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        self.state
            .try_apply_keystream(buf)
            .map_err(|_| BackendError::Invalid("the ChaCha20 keystream is exhausted".into()))
    }
    fn message_into(&mut self, iv: &[u8], input: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        self.set_iv(iv)?;
        self.state
            .try_apply_keystream_b2b(input, out)
            .map_err(|_| BackendError::Invalid("input and output differ in length, or the keystream is exhausted".into()))
    }
}

/// A MAC of the `digest::Mac` kind (HMAC, CMAC) keyed once.
pub fn keyed<M: Mac + digest::KeyInit>(key: &[u8]) -> Result<M, BackendError> {
    <M as digest::KeyInit>::new_from_slice(key).map_err(|_| BackendError::Invalid("wrong key length for this MAC".into()))
}

/// MAC `message`: a copy of the keyed state (the key schedule is not redone), one update, the tag.
pub struct MacMessage<M: Mac + Clone> {
    pub keyed: M,
    pub out: digest::Output<M>,
    pub implementation: Option<String>,
}

impl<M: Mac + Clone> Primitive for MacMessage<M> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            let mut m = black_box(&self.keyed).clone();
            Mac::update(&mut m, black_box(&*buf));
            self.out = black_box(m.finalize().into_bytes());
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

/// MAC `stream`: updates on one keyed state; the tag is read from a copy.
pub struct MacStream<M: Mac + Clone> {
    pub state: M,
    pub implementation: Option<String>,
}

impl<M: Mac + Clone> Primitive for MacStream<M> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            Mac::update(&mut self.state, black_box(&*buf));
        }
        black_box(&mut self.state);
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.state.clone().finalize().into_bytes().to_vec()))
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
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

pub struct Poly1305Message {
    pub key: Vec<u8>,
    pub out: [u8; 16],
}

impl Primitive for Poly1305Message {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            self.out = black_box(poly1305(black_box(&self.key), black_box(&*buf))?);
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out.to_vec()))
    }
}

/// GHASH keyed by H over whole 16-byte blocks (the catalog's granularity).
pub fn ghash_key(h: &[u8]) -> Result<ghash::GHash, BackendError> {
    <ghash::GHash as digest::KeyInit>::new_from_slice(h).map_err(|_| BackendError::Invalid("ghash takes a 16-byte H".into()))
}

pub fn ghash(keyed: &ghash::GHash, message: &[u8]) -> Result<[u8; 16], BackendError> {
    if !message.len().is_multiple_of(16) {
        return Err(BackendError::Invalid("GHASH takes whole 16-byte blocks".into()));
    }
    let mut g = keyed.clone();
    g.update_padded(message);
    Ok(g.finalize().into())
}

/// GHASH `message` (copy of the keyed state, blocks, value) or `stream` (blocks on one state).
pub struct Ghash {
    pub state: ghash::GHash,
    pub stream: bool,
    pub out: [u8; 16],
    pub implementation: Option<String>,
}

impl Primitive for Ghash {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        if !buf.len().is_multiple_of(16) {
            return Err(BackendError::Invalid("GHASH takes whole 16-byte blocks".into()));
        }
        for _ in 0..iterations {
            if self.stream {
                self.state.update_padded(black_box(&*buf));
            } else {
                self.out = black_box(ghash(black_box(&self.state), black_box(&*buf))?);
            }
        }
        black_box(&mut self.state);
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        if self.stream {
            return Ok(Some(self.state.clone().finalize().to_vec()));
        }
        Ok(Some(self.out.to_vec()))
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

/// An extendable-output function read to `out.len()` bytes: `message` hashes
/// the buffer on a fresh state, `stream` updates one state and reads a copy.
pub struct Xof<X: ExtendableOutput + Update + Default + Clone> {
    pub state: X,
    pub stream: bool,
    pub out: Vec<u8>,
}

impl<X: ExtendableOutput + Update + Default + Clone> Primitive for Xof<X> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            if self.stream {
                Update::update(&mut self.state, black_box(&*buf));
            } else {
                let mut x = X::default();
                Update::update(&mut x, black_box(&*buf));
                x.finalize_xof_into(black_box(&mut self.out));
            }
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        if self.stream {
            let mut out = vec![0u8; self.out.len()];
            self.state.clone().finalize_xof_into(&mut out);
            return Ok(Some(out));
        }
        Ok(Some(self.out.clone()))
    }
}

/// `len` bytes of an extendable-output function of `message`.
pub fn xof<X: ExtendableOutput + Update + Default>(message: &[u8], len: usize) -> Vec<u8> {
    let mut x = X::default();
    Update::update(&mut x, message);
    let mut out = vec![0u8; len];
    x.finalize_xof_into(&mut out);
    out
}

/// BLAKE3 (the blake3 crate): `message` is `blake3::hash`, `stream` `Hasher::update`.
pub struct Blake3 {
    pub hasher: blake3::Hasher,
    pub stream: bool,
    pub out: [u8; 32],
}

impl Primitive for Blake3 {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            if self.stream {
                self.hasher.update(black_box(&*buf));
            } else {
                self.out = black_box(*blake3::hash(black_box(&*buf)).as_bytes());
            }
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        if self.stream {
            return Ok(Some(self.hasher.finalize().as_bytes().to_vec()));
        }
        Ok(Some(self.out.to_vec()))
    }
    fn implementation(&self) -> Option<String> {
        // blake3 picks AVX-512, AVX2, SSE4.1 or SSE2 at run time (src/platform.rs).
        Some(format!("{:?}", blake3::platform::Platform::detect()).to_lowercase())
    }
}

/// Deterministic AES-SIV (RFC 5297): headers are the AAD and, where a vector has one, the
/// nonce as the last component; the tag is the synthetic IV.
pub fn siv_seal(key: &[u8], headers: &[&[u8]], buf: &mut [u8]) -> Result<[u8; 16], BackendError> {
    let mut s = siv_key(key)?;
    let tag = s
        .encrypt_inout_detached(headers, buf.into())
        .map_err(|_| BackendError::Invalid("too many AES-SIV headers".into()))?;
    Ok(tag.into())
}

pub fn siv_key(key: &[u8]) -> Result<aes_siv::siv::Aes128Siv, BackendError> {
    <aes_siv::siv::Aes128Siv as digest::KeyInit>::new_from_slice(key)
        .map_err(|_| BackendError::Invalid("aes-128-siv takes a 32-byte key".into()))
}

pub fn siv_open(s: &mut aes_siv::siv::Aes128Siv, headers: &[&[u8]], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
    let tag: [u8; 16] = tag.try_into().map_err(|_| BackendError::AuthenticationFailed)?;
    let buf = aead::inout::InOutBuf::new(input, out).map_err(|_| BackendError::Invalid("input and output differ in length".into()))?;
    s.decrypt_inout_detached(headers, buf, &tag.into())
        .map_err(|_| BackendError::AuthenticationFailed)
}

/// AES-SIV `message`: the kept key (rekey: a new key schedule per message), AAD, message, tag.
pub struct SivMessage {
    pub siv: aes_siv::siv::Aes128Siv,
    pub key: Vec<u8>,
    pub aad: Vec<u8>,
    pub encrypt: bool,
    pub rekey: bool,
    pub tag: [u8; 16],
    pub ciphertext: Vec<u8>,
}

impl Primitive for SivMessage {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        if !self.encrypt && self.ciphertext.len() != buf.len() {
            return Err(BackendError::Invalid("buffer and prepared ciphertext differ in length".into()));
        }
        for _ in 0..iterations {
            if self.rekey {
                self.siv = siv_key(black_box(&self.key))?;
            }
            let headers = [black_box(&self.aad[..])];
            if self.encrypt {
                let tag = self
                    .siv
                    .encrypt_inout_detached(headers, black_box(&mut *buf).into())
                    .map_err(|_| BackendError::Invalid("too many AES-SIV headers".into()))?;
                self.tag = black_box(tag.into());
            } else {
                siv_open(
                    &mut self.siv,
                    &headers,
                    black_box(&self.ciphertext),
                    black_box(&mut *buf),
                    &self.tag,
                )?;
            }
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.tag.to_vec()))
    }
}

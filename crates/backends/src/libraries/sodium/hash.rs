//! libsodium's digests: SHA-256, SHA-512 (`crypto_hash_sha*`) and
//! BLAKE2b-512 (`crypto_generichash_blake2b`), each with a one-shot call
//! and init/update/final on a state.
//! <https://doc.libsodium.org/advanced/sha-2_hash_function>,
//! <https://doc.libsodium.org/hashing/generic_hashing>.

use super::api::{check, Api};
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::sessions::DigestSession;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hash {
    Sha256,
    Sha512,
    Blake2b512,
}

impl Hash {
    pub fn of(id: &str) -> Option<Hash> {
        Some(match id {
            "sha256" => Hash::Sha256,
            "sha512" => Hash::Sha512,
            "blake2b512" => Hash::Blake2b512,
            _ => return None,
        })
    }

    fn len(self) -> usize {
        if self == Hash::Sha256 {
            32
        } else {
            64
        }
    }
}

/// One-shot digest into `out[..len]`.
fn hash_once(api: &Api, hash: Hash, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
    if out.len() < hash.len() {
        return Err(BackendError::Invalid("the digest buffer is shorter than the digest".into()));
    }
    let (o, p, n) = (out.as_mut_ptr(), msg.as_ptr(), msg.len() as u64);
    // SAFETY: `out` holds the digest (checked above).
    unsafe {
        match hash {
            Hash::Sha256 => check((api.crypto_hash_sha256)(o, p, n), "crypto_hash_sha256"),
            Hash::Sha512 => check((api.crypto_hash_sha512)(o, p, n), "crypto_hash_sha512"),
            Hash::Blake2b512 => check(
                (api.crypto_generichash_blake2b)(o, 64, p, n, std::ptr::null(), 0),
                "crypto_generichash_blake2b",
            ),
        }
    }
}

/// A fresh streaming state (`*_init`), in memory of the size libsodium reports.
fn hash_init(api: &Api, hash: Hash) -> Result<CtxMem, BackendError> {
    // SAFETY: the memory has the size the library's *_statebytes() gives, 64-byte aligned.
    unsafe {
        match hash {
            Hash::Sha256 => {
                let mut s = CtxMem::new((api.crypto_hash_sha256_statebytes)());
                check((api.crypto_hash_sha256_init)(s.ptr()), "crypto_hash_sha256_init")?;
                Ok(s)
            }
            Hash::Sha512 => {
                let mut s = CtxMem::new((api.crypto_hash_sha512_statebytes)());
                check((api.crypto_hash_sha512_init)(s.ptr()), "crypto_hash_sha512_init")?;
                Ok(s)
            }
            Hash::Blake2b512 => {
                let mut s = CtxMem::new((api.crypto_generichash_blake2b_statebytes)());
                check(
                    (api.crypto_generichash_blake2b_init)(s.ptr(), std::ptr::null(), 0, 64),
                    "crypto_generichash_blake2b_init",
                )?;
                Ok(s)
            }
        }
    }
}

fn hash_update(api: &Api, hash: Hash, state: &mut CtxMem, msg: &[u8]) -> Result<(), BackendError> {
    let (p, n) = (msg.as_ptr(), msg.len() as u64);
    // SAFETY: the state was initialised by hash_init for the same hash.
    unsafe {
        match hash {
            Hash::Sha256 => check((api.crypto_hash_sha256_update)(state.ptr(), p, n), "crypto_hash_sha256_update"),
            Hash::Sha512 => check((api.crypto_hash_sha512_update)(state.ptr(), p, n), "crypto_hash_sha512_update"),
            Hash::Blake2b512 => check(
                (api.crypto_generichash_blake2b_update)(state.ptr(), p, n),
                "crypto_generichash_blake2b_update",
            ),
        }
    }
}

fn hash_final(api: &Api, hash: Hash, state: &mut CtxMem) -> Result<Vec<u8>, BackendError> {
    let mut out = vec![0u8; hash.len()];
    // SAFETY: as hash_update; `out` has the digest length.
    unsafe {
        match hash {
            Hash::Sha256 => check(
                (api.crypto_hash_sha256_final)(state.ptr(), out.as_mut_ptr()),
                "crypto_hash_sha256_final",
            )?,
            Hash::Sha512 => check(
                (api.crypto_hash_sha512_final)(state.ptr(), out.as_mut_ptr()),
                "crypto_hash_sha512_final",
            )?,
            Hash::Blake2b512 => check(
                (api.crypto_generichash_blake2b_final)(state.ptr(), out.as_mut_ptr(), 64),
                "crypto_generichash_blake2b_final",
            )?,
        }
    }
    Ok(out)
}

/// A digest: `message` is the one-shot `crypto_hash_sha256`/`crypto_hash_sha512`/
/// `crypto_generichash_blake2b`, `stream` `*_update` on one state, whose
/// value is read from a byte copy of it.
pub struct HashSession<'a> {
    api: &'a Api,
    hash: Hash,
    state: CtxMem,
}

impl<'a> HashSession<'a> {
    pub fn new(api: &'a Api, hash: Hash) -> Result<Self, BackendError> {
        Ok(HashSession {
            api,
            hash,
            state: hash_init(api, hash)?,
        })
    }
}

impl DigestSession for HashSession<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        hash_once(self.api, self.hash, msg, out)
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        hash_update(self.api, self.hash, &mut self.state, msg)
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut copy = self.state.clone();
        hash_final(self.api, self.hash, &mut copy)
    }
}

//! The pure-Rust baseline and the registry's reference library: the
//! RustCrypto crates linked into cryptobench (aes with cbc/ctr/cfb-mode/
//! xts-mode, aes-gcm, chacha20poly1305, des, md-5, sha1, sha2, sha3, blake2
//! and the others build.rs lists). Nothing is loaded at run time; the
//! crates choose their code path (AES-NI or the portable one) at run time,
//! which [`detect`] reports.
//!
//! The crates are generic: each algorithm is its own Rust type, and each
//! type's session is handed to the task in a `match` arm of its own (the
//! macros below), so that every type gets a timed loop compiled for it
//! (crates/backends/src/library.rs).

mod aead;
mod detect;
mod digests;
mod macs;
mod modes;
mod pk;
mod pk_generic;
mod pk_keys;
mod pk_sessions;

use std::collections::BTreeMap;

use aes::{Aes128, Aes192, Aes256};
use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode};

use self::aead::{Aead, Siv};
use self::digests::{Blake3, Hash, Xof};
use self::macs::{Ghash, Keyed as KeyedMac, Poly1305};
use self::modes::{Cbc, Cfb, ChaCha, Ctr, Ecb, Keyed, Xts};
use crate::backend::AeadCall;
use crate::error::BackendError;
use crate::library::{CipherTask, DigestTask, Library};
use crate::registry::{Entry, Kind};
use crate::sessions::message_once;

/// Runs `$body` with `$M` bound to the mode type of a plain cipher id.
macro_rules! with_mode {
    ($id:expr, $M:ident => $body:expr, else $other:expr) => {
        match $id {
            "aes-128-ecb" => {
                type $M = Ecb<Aes128>;
                $body
            }
            "aes-192-ecb" => {
                type $M = Ecb<Aes192>;
                $body
            }
            "aes-256-ecb" => {
                type $M = Ecb<Aes256>;
                $body
            }
            "aes-128-cbc" => {
                type $M = Cbc<Aes128>;
                $body
            }
            "aes-192-cbc" => {
                type $M = Cbc<Aes192>;
                $body
            }
            "aes-256-cbc" => {
                type $M = Cbc<Aes256>;
                $body
            }
            "aes-128-cfb128" => {
                type $M = Cfb<Aes128>;
                $body
            }
            "aes-192-cfb128" => {
                type $M = Cfb<Aes192>;
                $body
            }
            "aes-256-cfb128" => {
                type $M = Cfb<Aes256>;
                $body
            }
            "aes-128-ctr" => {
                type $M = Ctr<Aes128>;
                $body
            }
            "aes-192-ctr" => {
                type $M = Ctr<Aes192>;
                $body
            }
            "aes-256-ctr" => {
                type $M = Ctr<Aes256>;
                $body
            }
            "aes-128-xts" => {
                type $M = Xts<Aes128>;
                $body
            }
            "aes-256-xts" => {
                type $M = Xts<Aes256>;
                $body
            }
            "des-ede3-cbc" => {
                type $M = Cbc<des::TdesEde3>;
                $body
            }
            "chacha20" => {
                type $M = ChaCha;
                $body
            }
            "camellia-128-cbc" => {
                type $M = Cbc<camellia::Camellia128>;
                $body
            }
            "camellia-192-cbc" => {
                type $M = Cbc<camellia::Camellia192>;
                $body
            }
            "camellia-256-cbc" => {
                type $M = Cbc<camellia::Camellia256>;
                $body
            }
            "aria-128-cbc" => {
                type $M = Cbc<aria::Aria128>;
                $body
            }
            "sm4-cbc" => {
                type $M = Cbc<sm4::Sm4>;
                $body
            }
            _ => $other,
        }
    };
}

/// Runs `$body` with `$A` bound to the AEAD type of an id.
macro_rules! with_aead {
    ($id:expr, $A:ident => $body:expr, else $other:expr) => {
        match $id {
            "aes-128-gcm" => {
                type $A = aes_gcm::Aes128Gcm;
                $body
            }
            "aes-192-gcm" => {
                type $A = aes_gcm::AesGcm<Aes192, aes_gcm::aead::consts::U12>;
                $body
            }
            "aes-256-gcm" => {
                type $A = aes_gcm::Aes256Gcm;
                $body
            }
            "chacha20-poly1305" => {
                type $A = chacha20poly1305::ChaCha20Poly1305;
                $body
            }
            "xchacha20-poly1305" => {
                type $A = chacha20poly1305::XChaCha20Poly1305;
                $body
            }
            "aes-128-ccm" => {
                type $A = ccm::Ccm<Aes128, aes_gcm::aead::consts::U16, aes_gcm::aead::consts::U12>;
                $body
            }
            "aes-256-ccm" => {
                type $A = ccm::Ccm<Aes256, aes_gcm::aead::consts::U16, aes_gcm::aead::consts::U12>;
                $body
            }
            "aes-128-ocb" => {
                type $A = ocb3::Ocb3<Aes128, aes_gcm::aead::consts::U12, aes_gcm::aead::consts::U16>;
                $body
            }
            "aes-256-ocb" => {
                type $A = ocb3::Ocb3<Aes256, aes_gcm::aead::consts::U12, aes_gcm::aead::consts::U16>;
                $body
            }
            "aes-128-gcm-siv" => {
                type $A = aes_gcm_siv::Aes128GcmSiv;
                $body
            }
            "aes-256-gcm-siv" => {
                type $A = aes_gcm_siv::Aes256GcmSiv;
                $body
            }
            _ => $other,
        }
    };
}

/// Runs `$body` with `$D` bound to the hasher type of a digest id.
macro_rules! with_digest {
    ($id:expr, $D:ident => $body:expr, else $other:expr) => {
        match $id {
            "md5" => {
                type $D = md5::Md5;
                $body
            }
            "sha1" => {
                type $D = sha1::Sha1;
                $body
            }
            "sha224" => {
                type $D = sha2::Sha224;
                $body
            }
            "sha256" => {
                type $D = sha2::Sha256;
                $body
            }
            "sha384" => {
                type $D = sha2::Sha384;
                $body
            }
            "sha512" => {
                type $D = sha2::Sha512;
                $body
            }
            "sha3-256" => {
                type $D = sha3::Sha3_256;
                $body
            }
            "sha3-512" => {
                type $D = sha3::Sha3_512;
                $body
            }
            "blake2b512" => {
                type $D = blake2::Blake2b512;
                $body
            }
            "blake2s256" => {
                type $D = blake2::Blake2s256;
                $body
            }
            "sha3-224" => {
                type $D = sha3::Sha3_224;
                $body
            }
            "sha3-384" => {
                type $D = sha3::Sha3_384;
                $body
            }
            "sm3" => {
                type $D = sm3::Sm3;
                $body
            }
            _ => $other,
        }
    };
}

/// Runs `$body` with `$M` bound to the `digest::Mac` type of a MAC id (HMAC, CMAC).
macro_rules! with_mac {
    ($id:expr, $M:ident => $body:expr, else $other:expr) => {
        match $id {
            "hmac-md5" => {
                type $M = hmac::Hmac<md5::Md5>;
                $body
            }
            "hmac-sha1" => {
                type $M = hmac::Hmac<sha1::Sha1>;
                $body
            }
            "hmac-sha256" => {
                type $M = hmac::Hmac<sha2::Sha256>;
                $body
            }
            "hmac-sha512" => {
                type $M = hmac::Hmac<sha2::Sha512>;
                $body
            }
            "aes-128-cmac" => {
                type $M = cmac::Cmac<Aes128>;
                $body
            }
            _ => $other,
        }
    };
}

pub struct RustcryptoBackend;

fn not_here(alg: &AlgorithmSpec) -> BackendError {
    BackendError::Unsupported(format!("{} (no RustCrypto crate for it is linked in)", alg.id))
}

fn fixed_sizes(alg: &AlgorithmSpec) -> BackendError {
    BackendError::Unsupported(format!(
        "{} with nonce or tag sizes other than the catalog's {} and {} bytes (RustCrypto fixes both in the type; cryptobench instantiates the catalog's)",
        alg.id, alg.iv_len, alg.tag_len
    ))
}

impl RustcryptoBackend {
    pub fn open() -> RustcryptoBackend {
        RustcryptoBackend
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::new("rustcrypto", "RustCrypto", Kind::LinkedIn, |_| {
    Ok(Box::new(RustcryptoBackend::open()))
});

impl Library for RustcryptoBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert("crates".to_string(), env!("CRYPTOBENCH_RUSTCRYPTO_CRATES").to_string());
        ENTRY.info(
            format!("RustCrypto ({})", env!("CRYPTOBENCH_RUSTCRYPTO_CRATES")),
            std::env::current_exe().ok().map(|p| p.display().to_string()),
            Some(detect::summary()),
            details,
        )
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        if alg.id == "aes-128-siv" {
            return task.with(|_| Siv::new(key));
        }
        if alg.class == AlgorithmClass::Aead {
            return with_aead!(alg.id, A => task.with(|_| Aead::<A>::new(key)), else Err(not_here(alg)));
        }
        with_mode!(alg.id, M => task.with(|encrypt| M::new(key, iv, encrypt)), else Err(not_here(alg)))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        match alg.id {
            "shake128" => task.with(Xof::<shake::Shake128>::new(alg.digest_len)),
            "shake256" => task.with(Xof::<shake::Shake256>::new(alg.digest_len)),
            "blake3" => task.with(Blake3::new()),
            _ => with_digest!(alg.id, D => task.with(Hash::<D>::new()), else Err(not_here(alg))),
        }
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        match alg.id {
            "poly1305" => task.with(Poly1305::new(key)?),
            "ghash" => task.with(Ghash::new(key)?),
            _ => with_mac!(alg.id, M => task.with(KeyedMac::<M>::new(key)?), else Err(not_here(alg))),
        }
    }

    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        if cell.mode != Mode::Stream {
            return None;
        }
        match alg.class {
            AlgorithmClass::Aead => Some(format!(
                "{} in stream mode (RustCrypto's AEAD API seals whole messages only; use --mode message)",
                alg.id
            )),
            _ if alg.id == "poly1305" => {
                Some("poly1305 in stream mode (the poly1305 crate takes whole 16-byte blocks per update and pads the last)".into())
            }
            _ => None,
        }
    }

    fn implementation(&self, alg: &AlgorithmSpec) -> Option<String> {
        match alg.id {
            "blake3" => Some(Blake3::implementation()),
            "aes-128-siv" => None,
            id => detect::implementation(id),
        }
    }

    /// The crates' own calls, independent of the timed ones: a MAC keyed,
    /// updated and finalised (Poly1305: `compute_unpadded`; GHASH: a copy of
    /// the keyed state).
    fn one_shot_mac(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        match alg.id {
            "poly1305" => return Ok(macs::poly1305(key, message)?.to_vec()),
            "ghash" => return Ok(macs::ghash(&macs::ghash_key(key)?, message)?.to_vec()),
            _ => {}
        }
        with_mac!(alg.id, M => {
            let mut m: M = macs::keyed(key)?;
            digest::Mac::update(&mut m, message);
            Ok(digest::Mac::finalize(m).into_bytes().to_vec())
        }, else Err(not_here(alg)))
    }

    /// AES-SIV only: a vector's nonce becomes the last header (RFC 5297 §3); the other
    /// AEAD types fix nonce and tag sizes at compile time, the catalog's here.
    fn vector_message(&self, alg: &AlgorithmSpec, encrypt: bool, call: AeadCall, tag: &mut [u8]) -> Result<Vec<u8>, BackendError> {
        match alg.id {
            "aes-128-siv" if tag.len() == alg.tag_len => message_once(Siv::new(call.key)?, alg, encrypt, call, tag),
            _ => Err(fixed_sizes(alg)),
        }
    }

    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }
}

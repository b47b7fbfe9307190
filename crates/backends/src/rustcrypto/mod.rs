//! The pure-Rust baseline: the RustCrypto crates linked into cryptobench
//! (aes with cbc/ctr/cfb-mode/xts-mode, aes-gcm, chacha20poly1305, des,
//! md-5, sha1, sha2, sha3, blake2). Nothing is loaded at run time; the
//! crates choose their code path (AES-NI or the portable one) at run time,
//! which [`detect`] reports.

mod aead;
mod detect;
mod modes;
mod pk;
mod primitives;

use std::collections::BTreeMap;

use aes::{Aes128, Aes192, Aes256};
use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};
use digest::Digest;

use self::modes::{Cbc, Cfb, Crypt, Ctr, Ecb, Xts};
use self::primitives::{AeadMessage, CipherMessage, CipherStream, DigestMessage, DigestStream};
use crate::error::BackendError;
use crate::traits::{check_key_and_iv, Backend, CellInputs, Primitive, Sealed, Support};

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
            _ => $other,
        }
    };
}

pub struct RustcryptoBackend;

fn not_here(alg: &AlgorithmSpec) -> BackendError {
    BackendError::Unsupported(format!("{} (no RustCrypto crate for it is linked in)", alg.id))
}

fn crypt_once<M: Crypt>(key: &[u8], iv: &[u8], encrypt: bool, input: &[u8]) -> Result<Vec<u8>, BackendError> {
    let mut out = input.to_vec();
    M::new(key, iv, encrypt)?.update(&mut out)?;
    Ok(out)
}

impl RustcryptoBackend {
    pub fn open() -> RustcryptoBackend {
        RustcryptoBackend
    }
}

impl Backend for RustcryptoBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert("crates".to_string(), env!("CRYPTOBENCH_RUSTCRYPTO_CRATES").to_string());
        BackendInfo {
            id: "rustcrypto".into(),
            name: "RustCrypto".into(),
            version: format!("RustCrypto ({})", env!("CRYPTOBENCH_RUSTCRYPTO_CRATES")),
            library_path: std::env::current_exe().ok().map(|p| p.display().to_string()),
            cpu_capabilities: Some(detect::summary()),
            details,
        }
    }

    fn support(&self, alg: &AlgorithmSpec) -> Support {
        let known = match alg.class {
            AlgorithmClass::Cipher => with_mode!(alg.id, M => { let _ = std::marker::PhantomData::<M>; true }, else false),
            AlgorithmClass::Aead => with_aead!(alg.id, A => { let _ = std::marker::PhantomData::<A>; true }, else false),
            AlgorithmClass::Digest => with_digest!(alg.id, D => { let _ = std::marker::PhantomData::<D>; true }, else false),
        };
        if known {
            Support::Supported
        } else {
            Support::Unsupported(not_here(alg).to_string())
        }
    }

    fn encrypt_once(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Sealed, BackendError> {
        check_key_and_iv(alg, key, iv)?;
        if alg.class == AlgorithmClass::Aead {
            return with_aead!(alg.id, A => {
                let a: A = aead::new(key)?;
                let mut ciphertext = plaintext.to_vec();
                let mut tag = vec![0u8; alg.tag_len];
                aead::seal(&a, iv, aad, &mut ciphertext, &mut tag)?;
                Ok(Sealed { ciphertext, tag })
            }, else Err(not_here(alg)));
        }
        with_mode!(alg.id, M => Ok(Sealed { ciphertext: crypt_once::<M>(key, iv, true, plaintext)?, tag: Vec::new() }), else Err(not_here(alg)))
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
        if alg.class == AlgorithmClass::Aead {
            return with_aead!(alg.id, A => {
                let a: A = aead::new(key)?;
                let mut out = vec![0u8; ciphertext.len()];
                aead::open(&a, iv, aad, ciphertext, &mut out, tag)?;
                Ok(out)
            }, else Err(not_here(alg)));
        }
        with_mode!(alg.id, M => crypt_once::<M>(key, iv, false, ciphertext), else Err(not_here(alg)))
    }

    fn digest_once(&self, alg: &AlgorithmSpec, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        // new/update/finalize: a path independent of the timed one-shot `Digest::digest`.
        with_digest!(alg.id, D => {
            let mut h = D::new();
            h.update(message);
            Ok(h.finalize().to_vec())
        }, else Err(not_here(alg)))
    }

    fn prepare(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        let implementation = detect::implementation(alg.id);
        if alg.is_digest() {
            return with_digest!(alg.id, D => Ok(match cell.mode {
                Mode::Message => Box::new(DigestMessage::<D> { out: Default::default(), implementation }) as Box<dyn Primitive>,
                Mode::Stream => Box::new(DigestStream { hasher: D::new(), implementation }),
            }), else Err(not_here(alg)));
        }
        check_key_and_iv(alg, &inputs.key, &inputs.iv)?;
        let encrypt = cell.operation == Operation::Encrypt;
        if alg.class == AlgorithmClass::Aead {
            if cell.mode == Mode::Stream {
                return Err(BackendError::Unsupported(format!(
                    "{} in stream mode (RustCrypto's AEAD API seals whole messages only; use --mode message)",
                    alg.id
                )));
            }
            let sealed = if encrypt {
                Sealed {
                    ciphertext: Vec::new(),
                    tag: vec![0; alg.tag_len],
                }
            } else {
                self.encrypt_once(alg, &inputs.key, &inputs.iv, &inputs.aad, message)?
            };
            return with_aead!(alg.id, A => Ok(Box::new(AeadMessage::<A> {
                aead: aead::new(&inputs.key)?,
                key: inputs.key.clone(),
                iv: inputs.iv.clone(),
                aad: inputs.aad.clone(),
                encrypt,
                rekey: cell.rekey,
                tag: sealed.tag,
                ciphertext: sealed.ciphertext,
                implementation,
            })), else Err(not_here(alg)));
        }
        with_mode!(alg.id, M => {
            let state = M::new(&inputs.key, &inputs.iv, encrypt)?;
            Ok(match cell.mode {
                Mode::Stream => Box::new(CipherStream { state, implementation }) as Box<dyn Primitive>,
                Mode::Message => {
                    let ciphertext = if encrypt { Vec::new() } else { crypt_once::<M>(&inputs.key, &inputs.iv, true, message)? };
                    Box::new(CipherMessage { state, key: inputs.key.clone(), iv: inputs.iv.clone(), encrypt, rekey: cell.rekey, ciphertext, implementation })
                }
            })
        }, else Err(not_here(alg)))
    }

    fn pk(&self) -> Option<&dyn crate::pk_traits::PkBackend> {
        Some(self)
    }
}

//! The pure-Rust baseline: the RustCrypto crates linked into cryptobench
//! (aes with cbc/ctr/cfb-mode/xts-mode, aes-gcm, chacha20poly1305, des,
//! md-5, sha1, sha2, sha3, blake2). Nothing is loaded at run time; the
//! crates choose their code path (AES-NI or the portable one) at run time,
//! which [`detect`] reports.

mod aead;
mod detect;
mod extra;
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
use crate::backend::{check_key_and_iv, Backend, CellInputs, Primitive, Sealed, Support};

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
                type $M = extra::ChaCha;
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

/// Digests outside `digest::Digest`: SHAKE (extendable output) and BLAKE3.
const OTHER_DIGESTS: &[&str] = &["shake128", "shake256", "blake3"];
/// MACs outside `digest::Mac`: universal hashes.
const UNIVERSAL_HASHES: &[&str] = &["poly1305", "ghash"];

pub struct RustcryptoBackend;

fn not_here(alg: &AlgorithmSpec) -> BackendError {
    BackendError::Unsupported(format!("{} (no RustCrypto crate for it is linked in)", alg.id))
}

fn crypt_once<M: Crypt>(key: &[u8], iv: &[u8], encrypt: bool, input: &[u8]) -> Result<Vec<u8>, BackendError> {
    let mut out = input.to_vec();
    M::new(key, iv, encrypt)?.update(&mut out)?;
    Ok(out)
}

fn fixed_sizes(alg: &AlgorithmSpec, iv_len: usize, tag_len: usize) -> BackendError {
    let _ = (iv_len, tag_len);
    BackendError::Unsupported(format!(
        "{} with nonce or tag sizes other than the catalog's {} and {} bytes (RustCrypto fixes both in the type; cryptobench instantiates the catalog's)",
        alg.id, alg.iv_len, alg.tag_len
    ))
}

/// AES-SIV headers: the AAD, then the nonce where there is one (RFC 5297 §3).
fn siv_headers<'a>(aad: &'a [u8], nonce: &'a [u8]) -> Vec<&'a [u8]> {
    if nonce.is_empty() {
        vec![aad]
    } else {
        vec![aad, nonce]
    }
}

fn siv_seal_once(key: &[u8], nonce: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Sealed, BackendError> {
    let mut ciphertext = plaintext.to_vec();
    let tag = extra::siv_seal(key, &siv_headers(aad, nonce), &mut ciphertext)?;
    Ok(Sealed {
        ciphertext,
        tag: tag.to_vec(),
    })
}

fn siv_open_once(key: &[u8], nonce: &[u8], aad: &[u8], ciphertext: &[u8], tag: &[u8]) -> Result<Vec<u8>, BackendError> {
    let mut out = vec![0u8; ciphertext.len()];
    extra::siv_open(&mut extra::siv_key(key)?, &siv_headers(aad, nonce), ciphertext, &mut out, tag)?;
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
            AlgorithmClass::Aead => with_aead!(alg.id, A => { let _ = std::marker::PhantomData::<A>; true }, else alg.id == "aes-128-siv"),
            AlgorithmClass::Digest => {
                with_digest!(alg.id, D => { let _ = std::marker::PhantomData::<D>; true }, else OTHER_DIGESTS.contains(&alg.id))
            }
            AlgorithmClass::Mac => {
                with_mac!(alg.id, M => { let _ = std::marker::PhantomData::<M>; true }, else UNIVERSAL_HASHES.contains(&alg.id))
            }
        };
        if known {
            Support::Supported
        } else {
            Support::Unsupported(not_here(alg).to_string())
        }
    }

    fn encrypt_once(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Sealed, BackendError> {
        check_key_and_iv(alg, key, iv)?;
        if alg.id == "aes-128-siv" {
            return siv_seal_once(key, iv, aad, plaintext);
        }
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
        if alg.id == "aes-128-siv" {
            return siv_open_once(key, iv, aad, ciphertext, tag);
        }
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
        match alg.id {
            "shake128" => return Ok(extra::xof::<shake::Shake128>(message, alg.digest_len)),
            "shake256" => return Ok(extra::xof::<shake::Shake256>(message, alg.digest_len)),
            "blake3" => return Ok(blake3::Hasher::new().update(message).finalize().as_bytes().to_vec()),
            _ => {}
        }
        with_digest!(alg.id, D => {
            let mut h = D::new();
            h.update(message);
            Ok(h.finalize().to_vec())
        }, else Err(not_here(alg)))
    }

    fn mac_once(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        match alg.id {
            "poly1305" => return Ok(extra::poly1305(key, message)?.to_vec()),
            "ghash" => return Ok(extra::ghash(&extra::ghash_key(key)?, message)?.to_vec()),
            _ => {}
        }
        with_mac!(alg.id, M => {
            let mut m: M = extra::keyed(key)?;
            digest::Mac::update(&mut m, message);
            Ok(digest::Mac::finalize(m).into_bytes().to_vec())
        }, else Err(not_here(alg)))
    }

    /// AES-SIV only: a vector's nonce becomes the last header (RFC 5297 §3); the other
    /// AEAD types fix nonce and tag sizes at compile time, the catalog's here.
    fn seal_with(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        tag_len: usize,
    ) -> Result<Sealed, BackendError> {
        match alg.id {
            "aes-128-siv" if tag_len == 16 => siv_seal_once(key, iv, aad, plaintext),
            _ if iv.len() == alg.iv_len && tag_len == alg.tag_len => self.encrypt_once(alg, key, iv, aad, plaintext),
            _ => Err(fixed_sizes(alg, iv.len(), tag_len)),
        }
    }

    fn open_with(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
    ) -> Result<Vec<u8>, BackendError> {
        match alg.id {
            "aes-128-siv" if tag.len() == 16 => siv_open_once(key, iv, aad, ciphertext, tag),
            _ if iv.len() == alg.iv_len && tag.len() == alg.tag_len => self.decrypt_once(alg, key, iv, aad, ciphertext, tag),
            _ => Err(fixed_sizes(alg, iv.len(), tag.len())),
        }
    }

    fn prepare(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        let implementation = detect::implementation(alg.id);
        crate::backend::check_mode(alg, cell)?;
        let stream = cell.mode == Mode::Stream;
        if alg.is_mac() {
            return match alg.id {
                "poly1305" if stream => Err(BackendError::Unsupported(
                    "poly1305 in stream mode (the poly1305 crate takes whole 16-byte blocks per update and pads the last)".into(),
                )),
                "poly1305" => Ok(Box::new(extra::Poly1305Message {
                    key: inputs.key.clone(),
                    out: [0; 16],
                })),
                "ghash" => Ok(Box::new(extra::Ghash {
                    state: extra::ghash_key(&inputs.key)?,
                    stream,
                    out: [0; 16],
                    implementation,
                })),
                _ => with_mac!(alg.id, M => {
                    let keyed: M = extra::keyed(&inputs.key)?;
                    Ok(if stream {
                        Box::new(extra::MacStream { state: keyed, implementation }) as Box<dyn Primitive>
                    } else {
                        Box::new(extra::MacMessage { keyed, out: Default::default(), implementation })
                    })
                }, else Err(not_here(alg))),
            };
        }
        match alg.id {
            "shake128" => {
                return Ok(Box::new(extra::Xof {
                    state: shake::Shake128::default(),
                    stream,
                    out: vec![0; alg.digest_len],
                }))
            }
            "shake256" => {
                return Ok(Box::new(extra::Xof {
                    state: shake::Shake256::default(),
                    stream,
                    out: vec![0; alg.digest_len],
                }))
            }
            "blake3" => {
                return Ok(Box::new(extra::Blake3 {
                    hasher: blake3::Hasher::new(),
                    stream,
                    out: [0; 32],
                }))
            }
            _ => {}
        }
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
            if alg.id == "aes-128-siv" {
                return Ok(Box::new(extra::SivMessage {
                    siv: extra::siv_key(&inputs.key)?,
                    key: inputs.key.clone(),
                    aad: inputs.aad.clone(),
                    encrypt,
                    rekey: cell.rekey,
                    tag: sealed
                        .tag
                        .as_slice()
                        .try_into()
                        .map_err(|_| BackendError::Invalid("SIV tags are 16 bytes".into()))?,
                    ciphertext: sealed.ciphertext,
                }));
            }
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

    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }
}

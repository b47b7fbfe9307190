//! AWS-LC's public key through EVP_PKEY: the classic schemes of
//! [`super::evp`] (RSA PKCS#1 v1.5, PSS and OAEP, ECDSA and ECDH on
//! P-256/384/521, Ed25519, X25519) and AWS-LC's own post-quantum types:
//! ML-KEM (`EVP_PKEY_KEM`; a key from its 64-byte seed d‖z by
//! `EVP_PKEY_keygen_deterministic`, include/openssl/experimental/
//! kem_deterministic_api.h; `EVP_PKEY_encapsulate`/`EVP_PKEY_decapsulate`
//! on one context) and ML-DSA (`EVP_PKEY_PQDSA`; a key from its 32-byte
//! seed ξ by `EVP_PKEY_pqdsa_new_raw_private_key`; pure ML-DSA with an
//! empty context through one-shot `EVP_DigestSign`/`EVP_DigestVerify`).
//! AWS-LC has no Curve448 and no SLH-DSA: n/a, saying so.
//!
//! aws-lc-rs, the crate the symmetric cells go through, is not used here:
//! its RSA and ECDSA sign only messages they hash themselves, where
//! cryptobench signs a precomputed digest as `openssl speed` does.

use std::ffi::c_int;
use std::ptr::null_mut;

use aws_lc_sys as ffi;
use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::evp::{check, classic_session, classic_support, load, one_shot, public_of, Ctx, Keygen, Pkey};
use super::AwsLcBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{fill, PkLibrary, PkSession};
use crate::support::Support;

/// The NID of an ML-KEM or ML-DSA parameter set (include/openssl/nid.h).
fn pqc_nid(alg: &PkAlgorithmSpec) -> Option<c_int> {
    Some(match alg.openssl_name {
        "ML-KEM-512" => ffi::NID_MLKEM512,
        "ML-KEM-768" => ffi::NID_MLKEM768,
        "ML-KEM-1024" => ffi::NID_MLKEM1024,
        "ML-DSA-44" => ffi::NID_MLDSA44,
        "ML-DSA-65" => ffi::NID_MLDSA65,
        "ML-DSA-87" => ffi::NID_MLDSA87,
        _ => return None,
    } as c_int)
}

fn support(alg: &PkAlgorithmSpec) -> Result<c_int, BackendError> {
    match alg.kind {
        PkKind::MlKem | PkKind::MlDsa => pqc_nid(alg).ok_or_else(|| BackendError::Unsupported(format!("{}: not in AWS-LC", alg.id))),
        PkKind::SlhDsa => Err(BackendError::Unsupported(format!("{}: AWS-LC has no SLH-DSA", alg.id))),
        _ => classic_support(alg, "AWS-LC").map(|()| 0),
    }
}

/// A keygen context of AWS-LC's KEM or PQDSA type, its parameter set chosen.
fn pqc_keygen_ctx(alg: &PkAlgorithmSpec, nid: c_int) -> Result<Ctx, BackendError> {
    let kem = alg.kind == PkKind::MlKem;
    let id = if kem { ffi::EVP_PKEY_KEM } else { ffi::EVP_PKEY_PQDSA } as c_int;
    // SAFETY: a new context, parameterised, then initialised.
    unsafe {
        let ctx = Ctx::new(ffi::EVP_PKEY_CTX_new_id(id, null_mut()), "EVP_PKEY_CTX_new_id")?;
        if kem {
            check(ffi::EVP_PKEY_CTX_kem_set_params(ctx.0, nid), "EVP_PKEY_CTX_kem_set_params")?;
        } else {
            check(ffi::EVP_PKEY_CTX_pqdsa_set_params(ctx.0, nid), "EVP_PKEY_CTX_pqdsa_set_params")?;
        }
        check(ffi::EVP_PKEY_keygen_init(ctx.0), "EVP_PKEY_keygen_init")?;
        Ok(ctx)
    }
}

/// The ML-KEM or ML-DSA key of `keys`: from its seed, or its public key alone (test vectors).
fn pqc_load(alg: &PkAlgorithmSpec, nid: c_int, keys: &PkKeys) -> Result<Pkey, BackendError> {
    let kem = alg.kind == PkKind::MlKem;
    // SAFETY: the bytes outlive the calls, which copy them.
    unsafe {
        if keys.seed.is_empty() {
            return if kem {
                Pkey::new(
                    ffi::EVP_PKEY_kem_new_raw_public_key(nid, keys.public.as_ptr(), keys.public.len()),
                    "EVP_PKEY_kem_new_raw_public_key",
                )
            } else {
                Pkey::new(
                    ffi::EVP_PKEY_pqdsa_new_raw_public_key(nid, keys.public.as_ptr(), keys.public.len()),
                    "EVP_PKEY_pqdsa_new_raw_public_key",
                )
            };
        }
        if !kem {
            return Pkey::new(
                ffi::EVP_PKEY_pqdsa_new_raw_private_key(nid, keys.seed.as_ptr(), keys.seed.len()),
                "EVP_PKEY_pqdsa_new_raw_private_key",
            );
        }
        let ctx = pqc_keygen_ctx(alg, nid)?;
        let (mut key, mut len) = (null_mut(), keys.seed.len());
        check(
            ffi::EVP_PKEY_keygen_deterministic(ctx.0, &mut key, keys.seed.as_ptr(), &mut len),
            "EVP_PKEY_keygen_deterministic",
        )?;
        Pkey::new(key, "EVP_PKEY_keygen_deterministic")
    }
}

impl PkLibrary for AwsLcBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        Support::from(support(alg).map(drop))
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        match support(alg)? {
            0 => public_of(alg, &load(alg, keys)?),
            nid => public_of(alg, &pqc_load(alg, nid, keys)?),
        }
    }

    /// AWS-LC keeps BoringSSL's ECDSA: k drawn at random with the private
    /// key and the digest mixed into the generator's input.
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Random)
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        let nid = support(alg)?;
        if nid == 0 {
            return classic_session(alg, keys, op);
        }
        Ok(match op {
            Operation::Keygen => Box::new(Keygen {
                ctx: pqc_keygen_ctx(alg, nid)?,
                last: None,
                alg: cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?,
            }),
            Operation::Sign | Operation::Verify if alg.kind == PkKind::MlDsa => {
                Box::new(one_shot(pqc_load(alg, nid, keys)?, op == Operation::Sign)?)
            }
            Operation::Encaps | Operation::Decaps if alg.kind == PkKind::MlKem => {
                let key = pqc_load(alg, nid, keys)?;
                Box::new(Kem {
                    ctx: Ctx::for_key(&key)?,
                    _key: key,
                })
            }
            _ => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
        })
    }
}

/// Room for any ML-KEM ciphertext (ML-KEM-1024: 1,568 bytes) and secret (32).
const MAX_KEM_CIPHERTEXT: usize = 1568;
const KEM_SECRET: usize = 32;

/// `EVP_PKEY_encapsulate` / `EVP_PKEY_decapsulate` on one context (AWS-LC
/// needs no initialisation call for either).
struct Kem {
    ctx: Ctx,
    _key: Pkey,
}

impl PkSession for Kem {
    fn encapsulate(&mut self, ciphertext: &mut Vec<u8>, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let ctx = self.ctx.0;
        fill(ciphertext, MAX_KEM_CIPHERTEXT, |ct| {
            let mut cl = MAX_KEM_CIPHERTEXT;
            fill(secret, KEM_SECRET, |ss| {
                let mut sl = KEM_SECRET;
                // SAFETY: buffers of the largest sizes; the call writes the lengths it used.
                check(
                    unsafe { ffi::EVP_PKEY_encapsulate(ctx, ct, &mut cl, ss, &mut sl) },
                    "EVP_PKEY_encapsulate",
                )?;
                Ok(sl)
            })?;
            Ok(cl)
        })
    }

    fn decapsulate(&mut self, ciphertext: &[u8], secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let ctx = self.ctx.0;
        fill(secret, KEM_SECRET, |ss| {
            let mut sl = KEM_SECRET;
            // SAFETY: ss has room for the secret; the ciphertext outlives the call.
            check(
                unsafe { ffi::EVP_PKEY_decapsulate(ctx, ss, &mut sl, ciphertext.as_ptr(), ciphertext.len()) },
                "EVP_PKEY_decapsulate",
            )?;
            Ok(sl)
        })
    }
}

//! liboqs's `OQS_KEM` and `OQS_SIG` objects, one per session or check,
//! and their key pairs from a key's seed: what the public-key sessions
//! ([`super::pk`]) and the KAT check ([`super::kat`]) both call.

use std::ffi::CString;
use std::ptr::NonNull;

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use oqs_sys::common::OQS_STATUS;
use oqs_sys::{kem, sig};

use super::{kat_rng, seeded};
use crate::error::BackendError;

pub fn check(status: OQS_STATUS, call: &'static str) -> Result<(), BackendError> {
    match status {
        OQS_STATUS::OQS_SUCCESS => Ok(()),
        other => Err(BackendError::Call {
            call,
            detail: format!("{other:?}"),
        }),
    }
}

/// The algorithm's name in liboqs (its `OQS_KEM_alg_*` / `OQS_SIG_alg_*`
/// strings are FIPS 203/204's names, as OpenSSL's).
fn oqs_name(alg: &PkAlgorithmSpec) -> Result<CString, BackendError> {
    match alg.kind {
        PkKind::MlKem | PkKind::MlDsa | PkKind::Falcon | PkKind::Hqc => {
            Ok(CString::new(alg.openssl_name).expect("no NUL in a catalog name"))
        }
        PkKind::SlhDsa => Err(BackendError::Unsupported(format!(
            "{}: liboqs 0.13's SPHINCS+ is the round-3 submission, not FIPS 205 SLH-DSA",
            alg.id
        ))),
        _ => Err(BackendError::Unsupported(format!(
            "{}: liboqs has post-quantum schemes only",
            alg.id
        ))),
    }
}

/// Runs `keypair` with liboqs drawing from the KAT generator of `alg`
/// seeded with `seed` (Falcon, HQC: schemes whose keys have no seed of their own).
fn drawn_keypair(alg: &PkAlgorithmSpec, seed: &[u8], keypair: impl FnOnce() -> Result<(), BackendError>) -> Result<(), BackendError> {
    let seed: &[u8; 48] = seed
        .try_into()
        .map_err(|_| BackendError::Invalid(format!("a {} key seed of {} bytes (48 expected)", alg.id, seed.len())))?;
    seeded::with_stream(kat_rng::kat_stream(alg, seed), keypair)
}

/// An `OQS_KEM` object, freed with the session.
pub struct Kem(pub NonNull<kem::OQS_KEM>);

impl Kem {
    pub fn new(alg: &PkAlgorithmSpec) -> Result<Kem, BackendError> {
        let name = oqs_name(alg)?;
        // SAFETY: a NUL-terminated name; NULL for one not built in.
        NonNull::new(unsafe { kem::OQS_KEM_new(name.as_ptr()) })
            .map(Kem)
            .ok_or_else(|| BackendError::Unsupported(format!("{}: not enabled in this liboqs build", alg.id)))
    }

    pub fn get(&self) -> &kem::OQS_KEM {
        // SAFETY: a live object from OQS_KEM_new.
        unsafe { self.0.as_ref() }
    }

    /// (encapsulation key, decapsulation key) from the key's seed: ML-KEM's
    /// 64-byte d‖z, HQC's 48-byte generator seed.
    pub fn keypair_from_seed(&self, alg: &PkAlgorithmSpec, seed: &[u8]) -> Result<(Vec<u8>, Vec<u8>), BackendError> {
        let k = self.get();
        if alg.kind == PkKind::Hqc {
            let (mut pk, mut sk) = (vec![0; k.length_public_key], vec![0; k.length_secret_key]);
            drawn_keypair(alg, seed, || {
                // SAFETY: buffers of the object's lengths.
                check(
                    unsafe { kem::OQS_KEM_keypair(self.0.as_ptr(), pk.as_mut_ptr(), sk.as_mut_ptr()) },
                    "OQS_KEM_keypair",
                )
            })?;
            return Ok((pk, sk));
        }
        if seed.len() != k.length_keypair_seed {
            return Err(BackendError::Invalid(format!(
                "an ML-KEM seed of {} bytes (d‖z: {})",
                seed.len(),
                k.length_keypair_seed
            )));
        }
        let (mut pk, mut sk) = (vec![0; k.length_public_key], vec![0; k.length_secret_key]);
        // SAFETY: buffers of the object's lengths; the seed is as long as it reads.
        check(
            unsafe { kem::OQS_KEM_keypair_derand(self.0.as_ptr(), pk.as_mut_ptr(), sk.as_mut_ptr(), seed.as_ptr()) },
            "OQS_KEM_keypair_derand",
        )?;
        Ok((pk, sk))
    }
}

impl Drop for Kem {
    fn drop(&mut self) {
        // SAFETY: freed once, by its owner.
        unsafe { kem::OQS_KEM_free(self.0.as_ptr()) }
    }
}

/// An `OQS_SIG` object, freed with the session.
pub struct Sig(pub NonNull<sig::OQS_SIG>);

impl Sig {
    pub fn new(alg: &PkAlgorithmSpec) -> Result<Sig, BackendError> {
        let name = oqs_name(alg)?;
        // SAFETY: a NUL-terminated name; NULL for one not built in.
        NonNull::new(unsafe { sig::OQS_SIG_new(name.as_ptr()) })
            .map(Sig)
            .ok_or_else(|| BackendError::Unsupported(format!("{}: not enabled in this liboqs build", alg.id)))
    }

    pub fn get(&self) -> &sig::OQS_SIG {
        // SAFETY: a live object from OQS_SIG_new.
        unsafe { self.0.as_ref() }
    }

    /// (public key, secret key) from the key's seed: ML-DSA's ξ (32
    /// bytes), Falcon's 48-byte generator seed.
    pub fn keypair_from_seed(&self, alg: &PkAlgorithmSpec, seed: &[u8]) -> Result<(Vec<u8>, Vec<u8>), BackendError> {
        let s = self.get();
        let (mut pk, mut sk) = (vec![0; s.length_public_key], vec![0; s.length_secret_key]);
        let keypair = || {
            // SAFETY: buffers of the object's lengths.
            check(
                unsafe { sig::OQS_SIG_keypair(self.0.as_ptr(), pk.as_mut_ptr(), sk.as_mut_ptr()) },
                "OQS_SIG_keypair",
            )
        };
        if alg.kind == PkKind::Falcon {
            drawn_keypair(alg, seed, keypair)?;
        } else if seed.len() != 32 {
            return Err(BackendError::Invalid(format!("an ML-DSA seed of {} bytes (ξ: 32)", seed.len())));
        } else {
            seeded::with_seed(seed, keypair)?;
        }
        Ok((pk, sk))
    }
}

impl Drop for Sig {
    fn drop(&mut self) {
        // SAFETY: freed once, by its owner.
        unsafe { sig::OQS_SIG_free(self.0.as_ptr()) }
    }
}

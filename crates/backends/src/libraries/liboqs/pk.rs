//! liboqs's public key: ML-KEM, HQC, ML-DSA and Falcon through its generic
//! objects, one `OQS_KEM` / `OQS_SIG` made per session
//! (`OQS_KEM_new("ML-KEM-768")`), outside the timed calls, as
//! `speed_kem`/`speed_sig` make theirs.
//!
//! - ML-KEM: the key pair from the FIPS 203 seed d‖z by
//!   `OQS_KEM_keypair_derand`; `OQS_KEM_encaps` / `OQS_KEM_decaps`.
//! - ML-DSA: the key pair from ξ by `OQS_SIG_keypair` drawing ξ
//!   ([`super::seeded`]); `OQS_SIG_sign` / `OQS_SIG_verify`, which in
//!   liboqs 0.13 are pure ML-DSA with an empty context (sig_ml_dsa_65.c
//!   passes `NULL, 0` as the context) and hedged (`DILITHIUM_RANDOMIZED_SIGNING`
//!   in config.h): FIPS 204's defaults, as the other libraries sign.
//! - Falcon and HQC: the key pair `OQS_SIG_keypair` / `OQS_KEM_keypair`
//!   draws from the NIST KAT generator seeded with the key's 48-byte seed
//!   ([`super::kat_rng`]), so a known-answer file's seed gives its key.
//!   Falcon signs with a random 40-byte nonce (hedged, as the submission).
//! - keygen: `OQS_KEM_keypair` / `OQS_SIG_keypair` into kept buffers.
//!
//! liboqs takes no lengths for keys and ciphertexts: they are checked here
//! against the object's before a call reads them. Its SPHINCS+ (0.13) is
//! the round-3 submission, not FIPS 205 SLH-DSA, so SLH-DSA is `n/a`.

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;
use oqs_sys::common::OQS_STATUS;
use oqs_sys::{kem, sig};

use super::objects::{check, Kem, Sig};
use super::LiboqsBackend;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::pk::keys::PkKeys;
use crate::pk::{fill, PkLibrary, PkSession};
use crate::support::Support;

/// Why every liboqs call allocates, though nothing is allocated here.
const HEAP_SHA3: Allocation = Allocation::in_c(
    "liboqs keeps its SHA-3/SHAKE states on the C heap: every *_inc_init allocates one \
     (src/common/sha3/xkcp_sha3.c, OQS_MEM_aligned_alloc), its one-shot SHA3-256/512 and SHAKE too",
);

/// The public key of `keys` checked against the scheme's length (liboqs reads it without one).
fn given_public(keys: &PkKeys, len: usize, alg: &PkAlgorithmSpec) -> Result<Vec<u8>, BackendError> {
    if keys.public.len() != len {
        return Err(BackendError::Invalid(format!(
            "{}: a public key of {} bytes ({len} expected)",
            alg.id,
            keys.public.len()
        )));
    }
    Ok(keys.public.clone())
}

impl PkLibrary for LiboqsBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        let made = match alg.kind {
            PkKind::MlKem | PkKind::Hqc => Kem::new(alg).map(drop),
            _ => Sig::new(alg).map(drop),
        };
        Support::from(made)
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        match alg.kind {
            PkKind::MlKem | PkKind::Hqc => Kem::new(alg)?.keypair_from_seed(alg, &keys.seed).map(|(pk, _)| pk),
            _ => Sig::new(alg)?.keypair_from_seed(alg, &keys.seed).map(|(pk, _)| pk),
        }
    }

    /// liboqs has no ECDSA.
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        None
    }

    /// The first entry of the scheme's NIST KAT file against liboqs's record of it.
    fn own_known_answers(&self, alg: &PkAlgorithmSpec) -> Result<usize, String> {
        super::kat::first_entry_matches(alg).map(|()| 1)
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        match (alg.kind, op) {
            (PkKind::MlKem | PkKind::Hqc, Operation::Encaps | Operation::Decaps | Operation::Keygen) => {
                let kem = Kem::new(alg)?;
                let (public, secret) = match op {
                    Operation::Keygen => {
                        let k = kem.get();
                        (vec![0; k.length_public_key], vec![0; k.length_secret_key])
                    }
                    Operation::Encaps if keys.seed.is_empty() => (given_public(keys, kem.get().length_public_key, alg)?, Vec::new()),
                    _ => kem.keypair_from_seed(alg, &keys.seed)?,
                };
                Ok(Box::new(KemSession {
                    kem,
                    public,
                    secret,
                    generated: false,
                }))
            }
            (PkKind::MlDsa | PkKind::Falcon, Operation::Sign | Operation::Verify | Operation::Keygen) => {
                let sig = Sig::new(alg)?;
                let (public, secret) = match op {
                    Operation::Keygen => {
                        let s = sig.get();
                        (vec![0; s.length_public_key], vec![0; s.length_secret_key])
                    }
                    Operation::Verify if keys.seed.is_empty() => (given_public(keys, sig.get().length_public_key, alg)?, Vec::new()),
                    _ => sig.keypair_from_seed(alg, &keys.seed)?,
                };
                Ok(Box::new(SigSession {
                    sig,
                    public,
                    secret,
                    generated: false,
                }))
            }
            _ => Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
        }
    }
}

/// One ML-KEM or HQC key (or a buffer pair that key generation refills).
struct KemSession {
    kem: Kem,
    public: Vec<u8>,
    /// Empty for an encapsulation key given alone.
    secret: Vec<u8>,
    generated: bool,
}

impl PkSession for KemSession {
    fn encapsulate(&mut self, ciphertext: &mut Vec<u8>, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let (k, kem, public) = (self.kem.get(), self.kem.0.as_ptr(), self.public.as_ptr());
        let (ct_len, ss_len) = (k.length_ciphertext, k.length_shared_secret);
        fill(ciphertext, ct_len, |ct| {
            fill(secret, ss_len, |ss| {
                // SAFETY: buffers of the object's lengths; the public key was checked to be of its length.
                check(unsafe { kem::OQS_KEM_encaps(kem, ct, ss, public) }, "OQS_KEM_encaps")?;
                Ok(ss_len)
            })?;
            Ok(ct_len)
        })
    }

    fn decapsulate(&mut self, ciphertext: &[u8], secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let k = self.kem.get();
        if self.secret.is_empty() {
            return Err(BackendError::Invalid("decapsulation with an encapsulation key alone".into()));
        }
        if ciphertext.len() != k.length_ciphertext {
            return Err(BackendError::Invalid(format!(
                "a ciphertext of {} bytes ({} expected)",
                ciphertext.len(),
                k.length_ciphertext
            )));
        }
        let (kem, sk, ss_len) = (self.kem.0.as_ptr(), self.secret.as_ptr(), k.length_shared_secret);
        fill(secret, ss_len, |ss| {
            // SAFETY: the ciphertext and key are of the object's lengths; ss has room for the secret.
            check(unsafe { kem::OQS_KEM_decaps(kem, ss, ciphertext.as_ptr(), sk) }, "OQS_KEM_decaps")?;
            Ok(ss_len)
        })
    }

    fn keygen(&mut self) -> Result<(), BackendError> {
        // SAFETY: buffers of the object's lengths, made for key generation.
        check(
            unsafe { kem::OQS_KEM_keypair(self.kem.0.as_ptr(), self.public.as_mut_ptr(), self.secret.as_mut_ptr()) },
            "OQS_KEM_keypair",
        )?;
        self.generated = true;
        Ok(())
    }

    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        Ok(if self.generated { self.public.clone() } else { Vec::new() })
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(HEAP_SHA3)
    }
}

/// One ML-DSA or Falcon key (or a buffer pair that key generation refills).
struct SigSession {
    sig: Sig,
    public: Vec<u8>,
    /// Empty for a public key given alone.
    secret: Vec<u8>,
    generated: bool,
}

impl PkSession for SigSession {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        if self.secret.is_empty() {
            return Err(BackendError::Invalid("signing with a public key alone".into()));
        }
        let (sig, sk, max) = (self.sig.0.as_ptr(), self.secret.as_ptr(), self.sig.get().length_signature);
        fill(signature, max, |out| {
            let mut len = max;
            // SAFETY: out has room for the longest signature; the call writes its length.
            check(
                unsafe { sig::OQS_SIG_sign(sig, out, &mut len, message.as_ptr(), message.len(), sk) },
                "OQS_SIG_sign",
            )?;
            Ok(len)
        })
    }

    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        // SAFETY: the public key is of the object's length; message and signature carry theirs.
        let status = unsafe {
            sig::OQS_SIG_verify(
                self.sig.0.as_ptr(),
                message.as_ptr(),
                message.len(),
                signature.as_ptr(),
                signature.len(),
                self.public.as_ptr(),
            )
        };
        Ok(status == OQS_STATUS::OQS_SUCCESS)
    }

    fn keygen(&mut self) -> Result<(), BackendError> {
        // SAFETY: buffers of the object's lengths, made for key generation.
        check(
            unsafe { sig::OQS_SIG_keypair(self.sig.0.as_ptr(), self.public.as_mut_ptr(), self.secret.as_mut_ptr()) },
            "OQS_SIG_keypair",
        )?;
        self.generated = true;
        Ok(())
    }

    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        Ok(if self.generated { self.public.clone() } else { Vec::new() })
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(HEAP_SHA3)
    }
}

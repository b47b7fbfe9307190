//! libgcrypt's public key (`gcry_pk_*` over S-expressions, libgcrypt 1.8+;
//! `gcry_ecc_mul_point` 1.9+): RSA PKCS#1 v1.5, PSS and OAEP, ECDSA on
//! P-256/P-384/P-521, Ed25519, X25519 and X448, on the run's keys written
//! as S-expressions (pk_sexp.rs), through the sessions of pk_sessions.rs.
//! API: <https://www.gnupg.org/documentation/manuals/gcrypt/Cryptographic-Functions.html>.

use std::ptr::null;

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::pk_api::{call, PkApi, ECC_CURVE25519, ECC_CURVE448, S};
use super::pk_sessions::{Keygen, Mul, Oaep, Signing};
use super::pk_sexp::{genkey_parameters, key_texts};
use super::GcryptBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::support::Support;

impl GcryptBackend {
    fn pk_api(&self) -> Result<&PkApi, BackendError> {
        self.pk_api
            .as_ref()
            .map_err(|s| BackendError::Unsupported(format!("public key (this libgcrypt lacks {s})")))
    }

    /// X25519 or X448: `scalar` × `point` (None: the base point), once.
    fn mul(&self, alg: &PkAlgorithmSpec, scalar: &[u8], point: Option<&[u8]>) -> Result<Vec<u8>, BackendError> {
        let api = self.pk_api()?;
        let (curve, n) = curve_of(alg);
        if scalar.len() != n || point.is_some_and(|p| p.len() != n) {
            return Err(BackendError::Invalid(format!("{} keys are {n} bytes", alg.id)));
        }
        let mut out = vec![0u8; n];
        // SAFETY: n-byte buffers; a NULL point means the base point.
        call(
            unsafe { (api.gcry_ecc_mul_point)(curve, out.as_mut_ptr(), scalar.as_ptr(), point.map_or(null(), <[u8]>::as_ptr)) },
            "gcry_ecc_mul_point",
        )?;
        Ok(out)
    }
}

/// libgcrypt's curve number of X25519 or X448, and its key length.
fn curve_of(alg: &PkAlgorithmSpec) -> (std::ffi::c_int, usize) {
    if alg.openssl_name == "X448" {
        (ECC_CURVE448, 56)
    } else {
        (ECC_CURVE25519, 32)
    }
}

fn no_cells<T>(alg: &PkAlgorithmSpec, op: Operation) -> Result<T, BackendError> {
    Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short())))
}

impl PkLibrary for GcryptBackend {
    /// The data S-expressions kept (`KeptInput`, pk_sessions.rs): a
    /// program passing bytes builds them in every call.
    fn extra_work(&self, alg: &PkAlgorithmSpec, op: Operation) -> Option<&'static str> {
        if alg.kind == PkKind::Ecdh {
            return None;
        }
        match op {
            Operation::Sign => Some(
                "the digest (Ed25519: the message) is parsed into libgcrypt's data S-expression once, outside the timing \
                 (KeptInput), where a program passing bytes builds it in every call",
            ),
            Operation::Verify => Some(
                "the digest (Ed25519: the message) and the signature (ECDSA: decoded from DER) are parsed into \
                 libgcrypt's S-expressions once, outside the timing (KeptInput), where a program passing bytes builds \
                 them in every call",
            ),
            Operation::Encrypt => Some(
                "the message is parsed into libgcrypt's data S-expression once, outside the timing (KeptInput), where a \
                 program passing bytes builds it in every call",
            ),
            Operation::Decrypt => Some(
                "the ciphertext is parsed into libgcrypt's S-expression once, outside the timing (KeptInput), where a \
                 program passing bytes builds it in every call",
            ),
            _ => None,
        }
    }
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        if let Err(e) = self.pk_api() {
            return Support::Unsupported(e.to_string());
        }
        match (alg.kind, alg.openssl_name) {
            (PkKind::RsaPkcs1 | PkKind::RsaPss | PkKind::RsaOaep | PkKind::Ecdsa, _)
            | (PkKind::EdDsa, "ED25519")
            | (PkKind::Ecdh, "X25519" | "X448") => Support::Supported,
            _ => Support::Unsupported(format!("{}: not driven through libgcrypt in cryptobench", alg.id)),
        }
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        match alg.kind {
            PkKind::Ecdh if !alg.openssl_name.starts_with("P-") => self.mul(alg, &keys.seed, None),
            _ => {
                // What the S-expression carries: gcrypt computes nothing here for RSA, EC or EdDSA keys.
                Err(BackendError::Unsupported(format!("{} public key from the private key", alg.id)))
            }
        }
    }

    /// libgcrypt draws k at random (`_gcry_dsa_gen_k`) for data with
    /// `(flags raw)`, as cryptobench passes it; only `(flags rfc6979)` would
    /// make it deterministic (libgcrypt manual, "Cryptographic Functions").
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Random)
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        let api = self.pk_api()?;
        // The catalog's own entry, which lives as long as the session.
        let alg: &'static PkAlgorithmSpec = cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?;
        if alg.kind == PkKind::Ecdh {
            if alg.openssl_name.starts_with("P-") && op == Operation::Derive {
                return Err(BackendError::Unsupported(format!(
                    "{}: ECDH on NIST curves through libgcrypt",
                    alg.id
                )));
            }
            if op != Operation::Derive || alg.openssl_name.starts_with("P-") {
                return no_cells(alg, op);
            }
            let peer = keys
                .peer
                .as_deref()
                .ok_or_else(|| BackendError::Invalid("key agreement needs a peer".into()))?;
            let point = if peer.public.is_empty() {
                self.mul(alg, &peer.seed, None)?
            } else {
                peer.public.clone()
            };
            let (curve, n) = curve_of(alg);
            if keys.seed.len() != n || point.len() != n {
                return Err(BackendError::Invalid(format!("{} keys are {n} bytes", alg.id)));
            }
            return Ok(Box::new(Mul {
                api,
                curve,
                scalar: keys.seed.clone(),
                point,
            }));
        }
        if op == Operation::Keygen {
            return Ok(Box::new(Keygen {
                api,
                alg,
                parameters: S::parse(api, &genkey_parameters(alg))?,
                result: None,
            }));
        }
        let (private, public) = key_texts(alg, keys)?;
        Ok(match op {
            Operation::Sign | Operation::Verify => {
                let text = if op == Operation::Sign { private } else { public };
                let key = match S::parse(api, &text) {
                    Ok(key) => key,
                    // A public key libgcrypt refuses to read verifies nothing (test vectors).
                    Err(_) if op == Operation::Verify => return Ok(Box::new(crate::pk::Rejecting)),
                    Err(e) => return Err(e),
                };
                Box::new(Signing {
                    api,
                    alg,
                    key,
                    data: Default::default(),
                    sig: Default::default(),
                })
            }
            Operation::Encrypt | Operation::Decrypt => Box::new(Oaep {
                api,
                alg,
                key: S::parse(api, if op == Operation::Encrypt { &public } else { &private })?,
                data: Default::default(),
            }),
            other => return no_cells(alg, other),
        })
    }
}

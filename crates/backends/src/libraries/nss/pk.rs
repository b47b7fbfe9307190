//! Public key through NSS's PK11 API (pk_sessions.rs; keys in pk_keys.rs):
//! RSA PKCS#1 v1.5, PSS and OAEP, ECDSA on P-256/384/521 over the digest,
//! ECDH on P-256/384 and X25519, and key generation for RSA and ECDSA.
//! NSS 3.87 has no Ed25519 or Ed448 (EdDSA arrived in NSS 3.99), no X448
//! and no ML-KEM, ML-DSA or SLH-DSA: n/a.

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::pk_keys::{curve_oid, private, public};
use super::pk_sessions::*;
use super::NssBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::support::Support;

impl NssBackend {
    fn pk_api(&self) -> Result<&super::pk_api::Api, BackendError> {
        self.pk
            .as_ref()
            .map_err(|missing| BackendError::Unsupported(format!("public key (this NSS lacks {missing})")))
    }

    fn pk_check(&self, alg: &PkAlgorithmSpec) -> Result<(), BackendError> {
        self.pk_api()?;
        match (alg.kind, alg.openssl_name) {
            (PkKind::RsaPkcs1 | PkKind::RsaPss | PkKind::RsaOaep, _) => Ok(()),
            (PkKind::Ecdsa, _) => Ok(()),
            (PkKind::Ecdh, "P-256" | "P-384" | "X25519") => Ok(()),
            (PkKind::EdDsa, _) => Err(BackendError::Unsupported(format!(
                "{} (NSS {} has no {}: EdDSA arrived in NSS 3.99)",
                alg.id,
                self.version,
                if alg.openssl_name == "ED448" { "Ed448" } else { "Ed25519" }
            ))),
            _ => Err(BackendError::Unsupported(format!("{} (not in NSS {})", alg.id, self.version))),
        }
    }
}

impl PkLibrary for NssBackend {
    /// ECDSA verify: the DER signature decoded once (`KeptInput`), the library taking r ‖ s.
    fn extra_work(&self, alg: &PkAlgorithmSpec, op: Operation) -> Option<&'static str> {
        (alg.kind == PkKind::Ecdsa && op == Operation::Verify).then_some(crate::pk::ECDSA_DER_KEPT)
    }
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        match self.pk_check(alg) {
            Ok(()) => Support::Supported,
            Err(BackendError::Unsupported(why)) => Support::Unsupported(why),
            Err(e) => Support::Unsupported(e.to_string()),
        }
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        self.pk_check(alg)?;
        let (api, pk) = (&self.api, self.pk_api()?);
        let alg: &'static PkAlgorithmSpec = cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?;
        let signature_len = if alg.is_rsa() {
            alg.rsa_bytes()
        } else {
            2 * alg.bits.div_ceil(8) as usize
        };
        Ok(match (alg.kind, op) {
            (PkKind::RsaPkcs1 | PkKind::RsaPss | PkKind::Ecdsa, Operation::Sign) => {
                let key = private(api, pk, alg, keys)?;
                Box::new(Signature::new(api, pk, alg, Some(key), None, signature_len))
            }
            (PkKind::RsaPkcs1 | PkKind::RsaPss | PkKind::Ecdsa, Operation::Verify) => {
                let key = public(api, pk, alg, keys)?;
                Box::new(Signature::new(api, pk, alg, None, Some(key), signature_len))
            }
            (PkKind::RsaOaep, Operation::Encrypt | Operation::Decrypt) => {
                let (private, public) = if op == Operation::Encrypt {
                    (None, Some(public(api, pk, alg, keys)?))
                } else {
                    (Some(private(api, pk, alg, keys)?), None)
                };
                Box::new(Oaep {
                    api,
                    pk,
                    private,
                    public,
                    max: alg.rsa_bytes(),
                    params: oaep_params(),
                })
            }
            (PkKind::Ecdh, Operation::Derive) => {
                let peer = keys
                    .peer
                    .as_deref()
                    .ok_or_else(|| BackendError::Invalid(format!("{}: no peer key", alg.id)))?;
                Box::new(Agreement {
                    api,
                    pk,
                    private: private(api, pk, alg, keys)?,
                    peer: public(api, pk, alg, peer)?,
                    len: alg.bits.div_ceil(8) as usize,
                })
            }
            (PkKind::RsaPkcs1 | PkKind::Ecdsa, Operation::Keygen) => Box::new(KeyGen {
                api,
                pk,
                alg,
                curve: if alg.is_rsa() { Vec::new() } else { curve_oid(alg)? },
                last: None,
            }),
            _ => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
        })
    }

    /// NSS's ECDSA draws k at random: freebl's ec.c (`ECDSA_SignDigest`)
    /// fills `kBytes` from its DRBG (`RNG_GenerateGlobalRandomBytes`) and
    /// signs with `ECDSA_SignDigestWithSeed`; NSS has no RFC 6979 mode.
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Random)
    }
}

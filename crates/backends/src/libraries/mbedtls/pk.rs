//! Public key through Mbed TLS 2.28 (pk_api.rs): RSA PKCS#1 v1.5, PSS and
//! OAEP, ECDSA on P-256/384/521, key agreement on P-256/384 and X25519
//! (`mbedtls_ecdh_*`; X448 is n/a: 2.28 imports no Curve448 private key),
//! key generation for RSA and ECDSA; the calls are
//! in pk_sessions.rs. Mbed TLS has no EdDSA and no post-quantum scheme
//! (n/a, saying so). Its ECDSA is deterministic (RFC 6979): Debian's build
//! sets `MBEDTLS_ECDSA_DETERMINISTIC`, under which `mbedtls_pk_sign` signs
//! with `mbedtls_ecdsa_write_signature`'s deterministic path, the DRBG only
//! blinding the computation (ecdsa.c, 2.28).

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::api::MBEDTLS_MD_SHA256;
use super::pk_api::*;
use super::pk_contexts::{group_of, has_curve, Ecdh, Keypair, Pk, Rng};
use super::pk_sessions::{md_for_digest, Keygen, Oaep, PkSigning, Pss, Secret};
use super::MbedtlsBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::support::Support;

impl MbedtlsBackend {
    fn pk_api(&self) -> Result<&PkApi, BackendError> {
        self.pk
            .as_ref()
            .map_err(|missing| BackendError::Unsupported(format!("public key (this Mbed TLS lacks {missing})")))
    }

    fn pk_check(&self, alg: &PkAlgorithmSpec) -> Result<&PkApi, BackendError> {
        let api = self.pk_api()?;
        let why = match alg.kind {
            PkKind::RsaPkcs1 | PkKind::RsaPss | PkKind::RsaOaep => return Ok(api),
            // ecp.c of 2.28 reads Montgomery private keys of Curve25519 only
            // (mbedtls_ecp_read_key: MBEDTLS_ERR_ECP_FEATURE_UNAVAILABLE for Curve448).
            PkKind::Ecdh if alg.openssl_name == "X448" => {
                "Mbed TLS 2.28 cannot import an X448 private key (mbedtls_ecp_read_key takes Curve25519 only)".to_string()
            }
            PkKind::Ecdsa | PkKind::Ecdh => match group_of(alg) {
                Some(g) if has_curve(api, g) => return Ok(api),
                _ => format!("this Mbed TLS {} is built without the curve", self.version),
            },
            PkKind::EdDsa => "Mbed TLS has no EdDSA".to_string(),
            _ => "Mbed TLS 2.28 has no post-quantum scheme".to_string(),
        };
        Err(BackendError::Unsupported(format!("{}: {why}", alg.id)))
    }
}

/// Our private key for an agreement: the EC scalar (big-endian) or the
/// X25519/X448 secret (little-endian, RFC 7748).
fn agreement_key<'a>(api: &'a PkApi, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Keypair<'a>, BackendError> {
    let group = group_of(alg).expect("checked by pk_check");
    let scalar = if keys.seed.is_empty() { &keys.ec_private } else { &keys.seed };
    Keypair::read(api, group, scalar)
}

impl PkLibrary for MbedtlsBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        Support::from(self.pk_check(alg).map(drop))
    }

    /// The uncompressed point of an EC key; X25519/X448 public keys are
    /// not computed alone here (Mbed TLS 2.28's calls that would need the
    /// keypair's inner fields).
    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let api = self.pk_check(alg)?;
        if alg.is_rsa() || !alg.openssl_name.starts_with("P-") {
            return Err(BackendError::Unsupported(format!("{} public key", alg.id)));
        }
        let key = Pk::load(api, alg, keys)?;
        Ok(crate::pk::encoding::point_of_spki(alg, &key.public_der()?))
    }

    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Rfc6979)
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        let api = self.pk_check(alg)?;
        let rng = Rng::new(api)?;
        if op == Operation::Keygen {
            return Ok(Box::new(Keygen {
                api,
                rng,
                rsa_bits: if alg.is_rsa() { alg.bits } else { 0 },
                group: group_of(alg).unwrap_or(0),
                rsa: None,
                ec: None,
                alg: cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?,
            }));
        }
        if op == Operation::Derive {
            let peer = keys
                .peer
                .as_deref()
                .ok_or_else(|| BackendError::Invalid("key agreement needs a peer".into()))?;
            let ours = agreement_key(api, alg, keys)?;
            let peer_public = if peer.public.is_empty() {
                return Err(BackendError::Invalid(format!("{}: the peer's public key is not given", alg.id)));
            } else {
                &peer.public
            };
            return Ok(Box::new(Secret {
                ecdh: Ecdh::new(api, &ours, peer_public)?,
                rng,
                api,
            }));
        }
        let key = match Pk::load(api, alg, keys) {
            Ok(k) => k,
            // A public key the library refuses to load verifies nothing (test vectors).
            Err(BackendError::Call { .. }) if keys.is_public_only() && op == Operation::Verify => {
                return Ok(Box::new(crate::pk::Rejecting))
            }
            Err(e) => return Err(e),
        };
        if matches!(alg.kind, PkKind::RsaPss | PkKind::RsaOaep) {
            // SAFETY: an RSA key's own context (pk_ctx).
            unsafe { (api.mbedtls_rsa_set_padding)(key.inner(), MBEDTLS_RSA_PKCS_V21, MBEDTLS_MD_SHA256) };
        }
        Ok(match (alg.kind, op) {
            (PkKind::RsaPss, Operation::Sign | Operation::Verify) => Box::new(Pss { key, rng }),
            (PkKind::RsaOaep, Operation::Encrypt | Operation::Decrypt) => Box::new(Oaep { key, rng }),
            (PkKind::RsaPkcs1, Operation::Sign | Operation::Verify) => Box::new(PkSigning {
                key,
                rng,
                md: MBEDTLS_MD_SHA256,
            }),
            (PkKind::Ecdsa, Operation::Sign | Operation::Verify) => Box::new(PkSigning {
                key,
                rng,
                md: md_for_digest(alg.message_len),
            }),
            _ => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
        })
    }
}

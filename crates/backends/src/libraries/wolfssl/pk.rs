//! Public key through wolfCrypt's native API (wolfSSL manual, "wolfCrypt
//! API Reference"): RSA PKCS#1 v1.5 and PSS sign the digest the cell signs
//! (`wc_RsaSSL_Sign` of its DigestInfo; `wc_RsaPSS_Sign_ex` with SHA-256,
//! MGF1-SHA-256 and a 32-byte salt), RSA-OAEP (`wc_RsaPublicEncrypt_ex`/
//! `wc_RsaPrivateDecrypt_ex`), ECDSA on the NIST curves
//! (`wc_ecc_sign_hash`/`wc_ecc_verify_hash`, DER signatures), ECDH
//! (`wc_ecc_shared_secret`), Ed25519 and Ed448 on the message, X25519 and
//! X448, and key generation for RSA, ECDSA and EdDSA (`wc_MakeRsaKey`,
//! `wc_ecc_make_key_ex`, `wc_ed*_make_key`) (pk_sessions.rs; keys in
//! pk_keys.rs). Every call is looked up
//! (pk_api.rs): a build without one leaves its cells n/a, naming it.
//! wolfSSL 5.5 has no ML-KEM, ML-DSA or SLH-DSA in its default builds
//! (its Kyber needs liboqs or the experimental build): n/a.

use std::ffi::c_int;

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::pk_api::PkApi;
use super::pk_keys::{computed_public, curve_id, private, public, raw_public, Kind, Random, WcKey};
use super::pk_sessions::*;
use super::WolfsslBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::support::Support;

/// The first of `names` the table lacks.
macro_rules! first_missing {
    ($pk:expr; $($name:ident),+) => {
        [$(($pk.$name.is_some(), stringify!($name))),+].iter().find(|(present, _)| !present).map(|(_, name)| *name)
    };
}

/// The first call `alg` needs that this build lacks.
fn lacks(pk: &PkApi, kind: Kind, alg: &PkAlgorithmSpec) -> Option<&'static str> {
    let base = first_missing!(pk; wc_rng_new, wc_rng_free);
    let own = match (kind, alg.kind) {
        (Kind::Rsa, PkKind::RsaPkcs1) => {
            first_missing!(pk; wc_InitRsaKey, wc_FreeRsaKey, wc_RsaPrivateKeyDecode, wc_RsaPublicKeyDecode, wc_RsaSetRNG, wc_RsaEncryptSize, wc_RsaSSL_Sign, wc_RsaSSL_Verify)
        }
        (Kind::Rsa, PkKind::RsaPss) => {
            first_missing!(pk; wc_InitRsaKey, wc_FreeRsaKey, wc_RsaPrivateKeyDecode, wc_RsaPublicKeyDecode, wc_RsaSetRNG, wc_RsaEncryptSize, wc_RsaPSS_Sign_ex, wc_RsaPSS_Verify_ex, wc_RsaPSS_CheckPadding_ex)
        }
        (Kind::Rsa, _) => {
            first_missing!(pk; wc_InitRsaKey, wc_FreeRsaKey, wc_RsaPrivateKeyDecode, wc_RsaPublicKeyDecode, wc_RsaSetRNG, wc_RsaEncryptSize, wc_RsaPublicEncrypt_ex, wc_RsaPrivateDecrypt_ex)
        }
        (Kind::Ecc, PkKind::Ecdsa) => {
            first_missing!(pk; wc_ecc_key_new, wc_ecc_key_free, wc_ecc_import_private_key_ex, wc_ecc_import_x963_ex, wc_ecc_set_rng, wc_ecc_sig_size, wc_ecc_sign_hash, wc_ecc_verify_hash)
        }
        (Kind::Ecc, _) => {
            first_missing!(pk; wc_ecc_key_new, wc_ecc_key_free, wc_ecc_import_private_key_ex, wc_ecc_import_x963_ex, wc_ecc_set_rng, wc_ecc_size, wc_ecc_shared_secret)
        }
        (Kind::Ed25519, _) => {
            first_missing!(pk; wc_ed25519_init, wc_ed25519_free, wc_ed25519_import_private_only, wc_ed25519_make_public, wc_ed25519_import_private_key, wc_ed25519_import_public, wc_ed25519_sign_msg, wc_ed25519_verify_msg)
        }
        (Kind::Ed448, _) => {
            first_missing!(pk; wc_ed448_init, wc_ed448_free, wc_ed448_import_private_only, wc_ed448_make_public, wc_ed448_import_private_key, wc_ed448_import_public, wc_ed448_sign_msg, wc_ed448_verify_msg)
        }
        (Kind::X25519, _) => {
            first_missing!(pk; wc_curve25519_init, wc_curve25519_free, wc_curve25519_make_pub, wc_curve25519_import_private_ex, wc_curve25519_import_public_ex, wc_curve25519_shared_secret_ex)
        }
        (Kind::X448, _) => {
            first_missing!(pk; wc_curve448_init, wc_curve448_free, wc_curve448_make_pub, wc_curve448_import_private_ex, wc_curve448_import_public_ex, wc_curve448_shared_secret_ex)
        }
    };
    base.or(own)
}

impl WolfsslBackend {
    fn pk_kind(&self, alg: &PkAlgorithmSpec) -> Result<Kind, BackendError> {
        let kind = Kind::of(alg).ok_or_else(|| {
            BackendError::Unsupported(format!(
                "{} (not in wolfSSL {}: no ML-KEM, ML-DSA or SLH-DSA in its default builds)",
                alg.id, self.version
            ))
        })?;
        match lacks(&self.pk, kind, alg) {
            Some(call) => Err(BackendError::Unsupported(format!("{} (this wolfSSL build lacks {call})", alg.id))),
            None => Ok(kind),
        }
    }

    /// The byte length of an RSA key's modulus or the output bound of an EC key.
    fn size(
        &self,
        call: Option<unsafe extern "C" fn(super::pk_api::Key) -> c_int>,
        key: &super::pk_keys::WcKey<'_>,
        what: &'static str,
    ) -> Result<usize, BackendError> {
        let call = call.ok_or_else(|| BackendError::Unsupported(format!("this wolfSSL build lacks {what}")))?;
        // SAFETY: a live key of the call's type.
        let n = unsafe { call(key.ptr) };
        if n <= 0 {
            return Err(BackendError::Call {
                call: what,
                detail: format!("returned {n}"),
            });
        }
        Ok(n as usize)
    }
}

impl PkLibrary for WolfsslBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        match self.pk_kind(alg) {
            Ok(_) => Support::Supported,
            Err(e) => Support::Unsupported(match e {
                BackendError::Unsupported(why) => why,
                other => other.to_string(),
            }),
        }
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let kind = self.pk_kind(alg)?;
        computed_public(&self.api, &self.pk, alg, kind, keys)
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        let kind = self.pk_kind(alg)?;
        let (api, pk) = (&self.api, &self.pk);
        let rng = Random::new(pk)?;
        let pss = alg.kind == PkKind::RsaPss;
        Ok(match (kind, alg.kind, op) {
            (Kind::Rsa, PkKind::RsaPkcs1 | PkKind::RsaPss, Operation::Sign) => {
                let key = private(api, pk, alg, keys, rng.rng)?;
                let max = self.size(pk.wc_RsaEncryptSize, &key, "wc_RsaEncryptSize")?;
                Box::new(RsaSigner {
                    api,
                    pk,
                    key,
                    rng,
                    pss,
                    max,
                    encoded: Vec::with_capacity(SHA256_DIGEST_INFO.len() + 64),
                })
            }
            (Kind::Rsa, PkKind::RsaPkcs1 | PkKind::RsaPss, Operation::Verify) => {
                let key = public(api, pk, alg, keys, rng.rng)?;
                let max = self.size(pk.wc_RsaEncryptSize, &key, "wc_RsaEncryptSize")?;
                Box::new(RsaVerifier {
                    pk,
                    key,
                    pss,
                    bits: (max * 8) as c_int,
                    max,
                    recovered: vec![0; max],
                    signature: Vec::with_capacity(max),
                    expected: Vec::with_capacity(SHA256_DIGEST_INFO.len() + 64),
                })
            }
            (Kind::Rsa, PkKind::RsaOaep, Operation::Encrypt | Operation::Decrypt) => {
                let key = if op == Operation::Encrypt {
                    public(api, pk, alg, keys, rng.rng)?
                } else {
                    private(api, pk, alg, keys, rng.rng)?
                };
                let max = self.size(pk.wc_RsaEncryptSize, &key, "wc_RsaEncryptSize")?;
                Box::new(RsaOaep { api, pk, key, rng, max })
            }
            (Kind::Ecc, PkKind::Ecdsa, Operation::Sign | Operation::Verify) => {
                let key = if op == Operation::Sign {
                    private(api, pk, alg, keys, rng.rng)?
                } else {
                    public(api, pk, alg, keys, rng.rng)?
                };
                let max = self.size(pk.wc_ecc_sig_size, &key, "wc_ecc_sig_size")?;
                Box::new(Ecdsa { api, pk, key, rng, max })
            }
            (Kind::Ed25519 | Kind::Ed448, _, Operation::Sign | Operation::Verify) => {
                let key = if op == Operation::Sign {
                    private(api, pk, alg, keys, rng.rng)?
                } else {
                    public(api, pk, alg, keys, rng.rng)?
                };
                Box::new(EdDsa {
                    api,
                    pk,
                    key,
                    ed448: kind == Kind::Ed448,
                })
            }
            (Kind::Ecc | Kind::X25519 | Kind::X448, PkKind::Ecdh, Operation::Derive) => {
                let peer_keys = keys
                    .peer
                    .as_deref()
                    .ok_or_else(|| BackendError::Invalid(format!("{}: no peer key", alg.id)))?;
                let key = private(api, pk, alg, keys, rng.rng)?;
                let peer = if kind == Kind::Ecc {
                    public(api, pk, alg, peer_keys, rng.rng)?
                } else {
                    let raw = raw_public(api, pk, alg, peer_keys)?;
                    public(
                        api,
                        pk,
                        alg,
                        &PkKeys {
                            public: raw,
                            ..PkKeys::default()
                        },
                        rng.rng,
                    )?
                };
                let max = match kind {
                    Kind::Ecc => self.size(pk.wc_ecc_size, &key, "wc_ecc_size")?,
                    _ => kind.raw_len(),
                };
                Box::new(Agreement {
                    api,
                    pk,
                    key,
                    peer,
                    _rng: rng,
                    max,
                })
            }
            (Kind::Rsa, PkKind::RsaPkcs1, Operation::Keygen)
            | (Kind::Ecc, PkKind::Ecdsa, Operation::Keygen)
            | (Kind::Ed25519 | Kind::Ed448, _, Operation::Keygen) => {
                let lacks = |call: &str| BackendError::Unsupported(format!("{} key generation (this wolfSSL build lacks {call})", alg.id));
                let (size, curve) = match kind {
                    Kind::Rsa => (
                        pk.wc_MakeRsaKey.map(|_| alg.bits as c_int).ok_or_else(|| lacks("wc_MakeRsaKey"))?,
                        0,
                    ),
                    Kind::Ecc => (
                        pk.wc_ecc_make_key_ex
                            .map(|_| alg.bits.div_ceil(8) as c_int)
                            .ok_or_else(|| lacks("wc_ecc_make_key_ex"))?,
                        curve_id(alg)?,
                    ),
                    Kind::Ed25519 => (pk.wc_ed25519_make_key.map(|_| 32).ok_or_else(|| lacks("wc_ed25519_make_key"))?, 0),
                    _ => (pk.wc_ed448_make_key.map(|_| 57).ok_or_else(|| lacks("wc_ed448_make_key"))?, 0),
                };
                let key = WcKey::new(api, pk, kind)?;
                Box::new(KeyGen {
                    api,
                    pk,
                    key,
                    rng,
                    size,
                    curve,
                })
            }
            _ => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
        })
    }

    /// wolfCrypt draws k from the generator given to `wc_ecc_sign_hash`
    /// unless `wc_ecc_set_deterministic` has turned RFC 6979 on for the key
    /// (ecc.h; the key's `deterministic` flag, built in where
    /// `WOLFSSL_ECDSA_DETERMINISTIC_K` or `_K_VARIANT` is defined, as in
    /// Debian's 5.5.4 options.h), which cryptobench does not call.
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Random)
    }
}

//! Public key through EVP_PKEY (OpenSSL 1.1.1, 3.x, 4.x), calling per
//! timed operation what `apps/speed.c` calls (docs/METHOD.md, "Public
//! key"): `EVP_PKEY_sign`/`EVP_PKEY_verify` on a context initialised once
//! (RSA, ECDSA, ML-DSA, SLH-DSA), `EVP_DigestSign`/`EVP_DigestVerify`
//! (EdDSA; re-initialised with the kept key per call from 3.0 on, as 3.x's
//! speed.c does, because a one-shot EdDSA context is spent after one call),
//! `EVP_PKEY_derive` on a context with the peer set,
//! `EVP_PKEY_encapsulate`/`EVP_PKEY_decapsulate`, `EVP_PKEY_encrypt`/
//! `EVP_PKEY_decrypt`, and `EVP_PKEY_keygen` + `EVP_PKEY_free`
//! (pk_sessions.rs), on the keys and contexts of pk_contexts.rs.

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::pk_contexts::{unsupported, Lib};
use super::pk_sessions::{EdDsa, Kem, Keygen, Oaep, Secret, Signing};
use super::OpensslBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::support::Support;

impl OpensslBackend {
    pub(super) fn lib(&self) -> Result<Lib<'_>, BackendError> {
        match &self.pk_api {
            Ok(pk) => Ok(Lib {
                api: &self.api,
                pk,
                engine: self.engine.as_ref().map(|e| e.id.as_str()),
                wanted: self.providers.wanted.as_deref(),
            }),
            Err(symbol) => Err(BackendError::Unsupported(format!(
                "public key (the loaded libcrypto lacks {symbol})"
            ))),
        }
    }
}

impl PkLibrary for OpensslBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        let lib = match self.lib() {
            Ok(l) => l,
            Err(e) => return Support::Unsupported(e.to_string()),
        };
        let probe = lib.keygen_ctx(alg).map(drop).map_err(|e| match e {
            BackendError::Unsupported(_) => e,
            _ => unsupported(lib, alg),
        });
        Support::from(probe)
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let lib = self.lib()?;
        lib.public_of(alg, &lib.load(alg, keys)?)
    }

    /// OpenSSL draws k at random (its default `nonce-type` 0; from 3.2 a
    /// caller may ask for RFC 6979, which cryptobench does not), mixing the
    /// key and the digest into the random bytes (`BN_generate_dsa_nonce`).
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Random)
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        let lib = self.lib()?;
        if op == Operation::Keygen {
            return Ok(Box::new(Keygen {
                ctx: lib.keygen_ctx(alg)?,
                last: None,
                alg: cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?,
            }));
        }
        if op == Operation::Derive {
            let (ctx, ours, theirs) = lib.derive_ctx(alg, keys)?;
            return Ok(Box::new(Secret {
                ctx,
                _keys: (ours, theirs),
            }));
        }
        let key = match lib.load(alg, keys) {
            Ok(k) => k,
            // A public key the library refuses to load verifies nothing (test vectors).
            Err(BackendError::Call { .. }) if keys.is_public_only() && op == Operation::Verify => {
                return Ok(Box::new(crate::pk::Rejecting))
            }
            Err(e) => return Err(e),
        };
        Ok(match op {
            Operation::Sign | Operation::Verify if alg.kind == PkKind::EdDsa => Box::new(EdDsa {
                md: lib.eddsa_ctx(&key, op == Operation::Sign)?,
                reinit: lib.version() >= 0x3000_0000,
                key,
            }),
            Operation::Sign | Operation::Verify => Box::new(Signing {
                ctx: lib.sign_ctx(alg, &key, op == Operation::Sign)?,
                _key: key,
            }),
            Operation::Encrypt | Operation::Decrypt => Box::new(Oaep {
                ctx: lib.oaep_ctx(&key, op == Operation::Encrypt)?,
                _key: key,
                len: alg.rsa_bytes(),
            }),
            Operation::Encaps | Operation::Decaps => Box::new(Kem::new(lib, key, op == Operation::Encaps)?),
            _ => return Err(BackendError::Unsupported(format!("{} {}", alg.id, op.short()))),
        })
    }
}

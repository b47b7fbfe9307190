//! Public key through BearSSL's RSA and EC calls, each the implementation
//! BearSSL picks (`br_rsa_*_get_default`: i62 where the compiler has
//! 64×64→128 multiplications, else i31; `br_ec_get_default`,
//! `br_ecdsa_*_asn1_get_default`): RSA PKCS#1 v1.5 sign and verify over the
//! precomputed SHA-256 digest, RSA-OAEP (SHA-256, MGF1-SHA-256, no label),
//! ECDSA on P-256/384/521 over the digest with DER signatures, ECDH on
//! P-256/384 and X25519 (`br_ec_impl.mul`), and key generation for RSA and
//! ECDSA (sessions in pk_sessions.rs, keys in pk_keys.rs). BearSSL 0.6 has
//! no RSA-PSS (Debian's libbearssl.so.0.6 exports no `br_rsa_pss_*`), no
//! Ed25519, Ed448 or X448, and nothing post-quantum: n/a.

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::api::*;
use super::pk_keys::{curve_of, Drbg, EcPrivate, RsaPrivate, RsaPublic};
use super::pk_sessions::*;
use super::BearsslBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::support::Support;

impl BearsslBackend {
    /// Why BearSSL 0.6 lacks `alg`, or None where it has it.
    fn lacks(&self, alg: &PkAlgorithmSpec) -> Option<String> {
        let why = match alg.kind {
            PkKind::RsaPkcs1 | PkKind::RsaOaep | PkKind::Ecdsa => return None,
            PkKind::Ecdh if curve_of(alg).is_some() => return None,
            PkKind::RsaPss => "BearSSL 0.6 has no RSA-PSS: libbearssl.so.0.6 exports no br_rsa_pss_*",
            PkKind::EdDsa => "BearSSL 0.6 has no Ed25519 or Ed448",
            PkKind::Ecdh => "BearSSL 0.6 has no X448 (its Curve448 id has no implementation)",
            _ => "BearSSL 0.6 has no post-quantum scheme",
        };
        Some(format!("{} ({why})", alg.id))
    }

    /// The hash class whose output is as long as an ECDSA cell's digest.
    fn ecdsa_hash(&self, alg: &PkAlgorithmSpec) -> *const HashClass {
        match alg.message_len {
            48 => self.hashes.sha384,
            64 => self.hashes.sha512,
            _ => self.hashes.sha256,
        }
    }

    /// The public point of an EC key: as given, or computed from the private key.
    fn ec_point(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        if !keys.public.is_empty() {
            return Ok(keys.public.clone());
        }
        EcPrivate::of(alg, keys)?.public(&self.api, self.impls.ec)
    }
}

impl PkLibrary for BearsslBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        match self.lacks(alg) {
            Some(why) => Support::Unsupported(why),
            None => Support::Supported,
        }
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        if let Some(why) = self.lacks(alg) {
            return Err(BackendError::Unsupported(why));
        }
        if alg.is_rsa() {
            let sk = RsaPrivate::of(alg, keys)?;
            let mut n = vec![0u8; sk.len()];
            // SAFETY: n holds the modulus length; the key's bytes are live.
            let len = unsafe { ((self.api.br_rsa_compute_modulus_get_default)())(n.as_mut_ptr().cast(), &sk.raw()) };
            if len == 0 {
                return Err(BackendError::Call {
                    call: "br_rsa_compute_modulus",
                    detail: "returned 0".into(),
                });
            }
            n.truncate(len);
            return Ok(n);
        }
        EcPrivate::of(alg, keys)?.public(&self.api, self.impls.ec)
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        if let Some(why) = self.lacks(alg) {
            return Err(BackendError::Unsupported(why));
        }
        let api = &self.api;
        let ec = self.impls.ec;
        // SAFETY (each `*_get_default`): plain queries returning BearSSL's chosen function.
        Ok(match (alg.kind, op) {
            (PkKind::RsaPkcs1, Operation::Sign) => Box::new(RsaSigner {
                sign: unsafe { (api.br_rsa_pkcs1_sign_get_default)() },
                key: RsaPrivate::of(alg, keys)?,
            }),
            (PkKind::RsaPkcs1, Operation::Verify) => Box::new(RsaVerifier {
                vrfy: unsafe { (api.br_rsa_pkcs1_vrfy_get_default)() },
                key: RsaPublic::of(alg, keys)?,
                digest: [0; 64],
            }),
            (PkKind::RsaOaep, Operation::Encrypt) => Box::new(RsaOaep {
                encrypt: Some((
                    unsafe { (api.br_rsa_oaep_encrypt_get_default)() },
                    RsaPublic::of(alg, keys)?,
                    Drbg::new(api, self.hashes.sha256)?,
                )),
                decrypt: None,
                sha256: self.hashes.sha256,
            }),
            (PkKind::RsaOaep, Operation::Decrypt) => Box::new(RsaOaep {
                encrypt: None,
                decrypt: Some((unsafe { (api.br_rsa_oaep_decrypt_get_default)() }, RsaPrivate::of(alg, keys)?)),
                sha256: self.hashes.sha256,
            }),
            (PkKind::Ecdsa, Operation::Sign) => Box::new(Ecdsa {
                sign: Some((unsafe { (api.br_ecdsa_sign_asn1_get_default)() }, EcPrivate::of(alg, keys)?)),
                vrfy: None,
                ec,
                hash: self.ecdsa_hash(alg),
            }),
            (PkKind::Ecdsa, Operation::Verify) => Box::new(Ecdsa {
                sign: None,
                vrfy: Some((
                    unsafe { (api.br_ecdsa_vrfy_asn1_get_default)() },
                    self.ec_point(alg, keys)?,
                    curve_of(alg).expect("checked by lacks"),
                )),
                ec,
                hash: self.ecdsa_hash(alg),
            }),
            (PkKind::Ecdh, Operation::Derive) => {
                let peer_keys = keys
                    .peer
                    .as_deref()
                    .ok_or_else(|| BackendError::Invalid(format!("{}: no peer key", alg.id)))?;
                let peer = self.ec_point(alg, peer_keys)?;
                Box::new(Agreement {
                    ec,
                    key: EcPrivate::of(alg, keys)?,
                    work: Vec::with_capacity(peer.len()),
                    peer,
                })
            }
            (PkKind::RsaPkcs1 | PkKind::Ecdsa, Operation::Keygen) => Box::new(KeyGen {
                api,
                rng: Drbg::new(api, self.hashes.sha256)?,
                rsa: (alg.kind == PkKind::RsaPkcs1).then(|| (unsafe { (api.br_rsa_keygen_get_default)() }, alg.bits)),
                ec: (alg.kind == PkKind::Ecdsa).then(|| (ec, curve_of(alg).expect("checked by lacks"))),
                private: vec![0; 1280],
                public: vec![0; 516],
                last: (0, 0),
            }),
            _ => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
        })
    }

    /// BearSSL derives k deterministically: src/ec/ecdsa_i31_sign_raw.c
    /// (and _i15_), "RFC 6979 generation of the "k" value", an HMAC_DRBG on
    /// the message's hash seeded with the private key and the reduced
    /// digest (RFC 6979 §3.3); its API takes no random generator for k.
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Rfc6979)
    }
}

//! Public key through a PKCS#11 token, whatever mechanisms it lists
//! (`C_GetMechanismList`): RSA PKCS#1 v1.5 and PSS, ECDSA on the NIST
//! curves and Ed25519 signing and verifying ([`super::pk_sign`]), ECDH on
//! the NIST curves and X25519 ([`super::pk_derive`]); keys are the run's
//! seeded keys imported as session objects ([`super::pk_keys`]). A scheme
//! the token does not list is `n/a` naming the missing mechanism.

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;
use cryptoki_sys::*;

use super::module::field;
use super::pk_derive::DeriveSession;
use super::pk_keys::{curve, import, Usage};
use super::pk_sign::{mechanism_of, SignSession};
use super::Pkcs11Library;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::support::Support;

/// The mechanism an algorithm needs from the token (None: not driven through PKCS#11).
fn needs(alg: &PkAlgorithmSpec) -> Option<(CK_MECHANISM_TYPE, &'static str)> {
    match alg.kind {
        PkKind::Ecdh if curve(alg).is_some() => Some((CKM_ECDH1_DERIVE, "CKM_ECDH1_DERIVE")),
        PkKind::RsaPkcs1 => Some((CKM_RSA_PKCS, "CKM_RSA_PKCS")),
        PkKind::RsaPss => Some((CKM_RSA_PKCS_PSS, "CKM_RSA_PKCS_PSS")),
        PkKind::Ecdsa if curve(alg).is_some() => Some((CKM_ECDSA, "CKM_ECDSA")),
        PkKind::EdDsa if mechanism_of(alg).is_some() => Some((CKM_EDDSA, "CKM_EDDSA")),
        _ => None,
    }
}

/// Whether the token makes an Edwards or Montgomery key object at all
/// (SoftHSM2 2.6 makes no CKK_EC_MONTGOMERY object: `C_CreateObject`
/// answers CKR_ATTRIBUTE_VALUE_INVALID), tried with a throw-away key: a
/// token that cannot is n/a for the scheme, not a failed check.
fn refuses_key_type(m: &super::module::Module, alg: &PkAlgorithmSpec) -> Option<String> {
    let (kind, _, len) = curve(alg)?;
    if kind != CKK_EC_EDWARDS && kind != CKK_EC_MONTGOMERY {
        return None;
    }
    let name = if kind == CKK_EC_EDWARDS {
        "CKK_EC_EDWARDS"
    } else {
        "CKK_EC_MONTGOMERY"
    };
    let usage = if kind == CKK_EC_EDWARDS { Usage::Sign } else { Usage::Derive };
    let keys = PkKeys {
        seed: vec![0x42; len],
        ..PkKeys::default()
    };
    let session = match m.session() {
        Ok(s) => s,
        Err(e) => return Some(format!("no session to try a {name} key object in: {e}")),
    };
    let made = import(m, session, alg, &keys, usage);
    m.close(session);
    made.err().map(|e| format!("the token refuses a {name} key object: {e}"))
}

impl PkLibrary for Pkcs11Library {
    /// ECDSA verify: the DER signature decoded once (`KeptInput`), the library taking r ‖ s.
    fn extra_work(&self, alg: &PkAlgorithmSpec, op: Operation) -> Option<&'static str> {
        (alg.kind == PkKind::Ecdsa && op == Operation::Verify).then_some(crate::pk::ECDSA_DER_KEPT)
    }
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        let Some((mechanism, name)) = needs(alg) else {
            return Support::Unsupported(format!(
                "{} (cryptobench drives RSA PKCS#1/PSS, ECDSA and ECDH on the NIST curves, Ed25519 and X25519 through PKCS#11)",
                alg.id
            ));
        };
        if !self.module.has(mechanism) {
            return Support::Unsupported(format!(
                "{} (the token '{}' does not list {name} in C_GetMechanismList)",
                alg.id,
                field(&self.module.token.label)
            ));
        }
        match refuses_key_type(&self.module, alg) {
            Some(why) => Support::Unsupported(format!("{} ({why})", alg.id)),
            None => Support::Supported,
        }
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        if let Support::Unsupported(why) = PkLibrary::pk_support(self, alg) {
            return Err(BackendError::Unsupported(why));
        }
        let usage = match (alg.kind, op) {
            (PkKind::Ecdh, Operation::Derive) => Usage::Derive,
            (PkKind::Ecdh, _) => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
            (_, Operation::Sign) => Usage::Sign,
            (_, Operation::Verify) => Usage::Verify,
            _ => {
                return Err(BackendError::Unsupported(format!(
                    "{} {} cells through PKCS#11",
                    alg.id,
                    op.short()
                )))
            }
        };
        let alg: &'static PkAlgorithmSpec = cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?;
        let m = &self.module;
        let session = m.session()?;
        let key = match import(m, session, alg, keys, usage) {
            Ok(k) => k,
            Err(e) => {
                m.close(session);
                return Err(e);
            }
        };
        if let Usage::Derive = usage {
            let peer = keys
                .peer
                .as_ref()
                .map(|p| p.public.clone())
                .ok_or_else(|| BackendError::Invalid(format!("{}: no peer key", alg.id)));
            let peer = match peer {
                Ok(p) => p,
                Err(e) => {
                    m.close(session);
                    return Err(e);
                }
            };
            let len = curve(alg).expect("needs() checked the curve").2;
            return Ok(Box::new(DeriveSession {
                m,
                session,
                key,
                peer,
                len,
            }));
        }
        let max = match alg.kind {
            PkKind::RsaPkcs1 | PkKind::RsaPss => keys.rsa.as_ref().map_or(alg.bits as usize / 8, |r| r.n.len()),
            PkKind::Ecdsa => 2 * curve(alg).expect("needs() checked the curve").2,
            _ => 64,
        };
        Ok(Box::new(SignSession::new(m, session, key, alg, max)))
    }

    /// What the module does is its own; SoftHSM2 calls OpenSSL's
    /// `ECDSA_do_sign`, which draws k at random.
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Random)
    }
}

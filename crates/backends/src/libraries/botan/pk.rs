//! Public key through Botan's C API (botan/ffi.h `botan_pk_op_*`): RSA
//! PKCS#1 v1.5 and PSS and ECDSA on the digest the cell signs, Ed25519 on
//! the message, ECDH on the NIST curves and X25519. The padding names are
//! Botan 2's (handbook, "Public Key Cryptography"): `EMSA3(Raw,SHA-256)`
//! (PKCS#1 v1.5 whose input is a SHA-256 digest: the DigestInfo is added,
//! nothing hashed), `PSSR_Raw(SHA-256,MGF1,32)`, `Raw` for ECDSA (the input
//! is the digest; DER output by `BOTAN_PUBKEY_DER_FORMAT_SIGNATURE`),
//! `Pure` for Ed25519, the `Raw` KDF for key agreement. Ed448, X448 and the
//! post-quantum schemes are not in Botan 2: n/a.

use std::ffi::CString;

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::api::Api;
use super::pk_api::*;
use super::pk_keys::{curve_name, private, public, Private, Public};
use super::sessions::check;
use super::BotanBackend;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::pk::keys::PkKeys;
use crate::pk::{fill, PkLibrary, PkSession};
use crate::support::Support;

/// The padding (EMSA) a signature scheme is driven with, and the flags.
fn padding(alg: &PkAlgorithmSpec) -> Option<(&'static str, u32)> {
    Some(match alg.kind {
        PkKind::RsaPkcs1 => ("EMSA3(Raw,SHA-256)", 0),
        PkKind::RsaPss => ("PSSR_Raw(SHA-256,MGF1,32)", 0),
        PkKind::Ecdsa if curve_name(alg).is_some() => ("Raw", BOTAN_PUBKEY_DER_FORMAT_SIGNATURE),
        PkKind::EdDsa if alg.openssl_name == "ED25519" => ("Pure", 0),
        _ => return None,
    })
}

fn agrees(alg: &PkAlgorithmSpec) -> bool {
    alg.kind == PkKind::Ecdh && (curve_name(alg).is_some() || alg.openssl_name == "X25519")
}

impl BotanBackend {
    fn pk_api(&self) -> Result<&PkApi, BackendError> {
        self.pk
            .as_ref()
            .map_err(|missing| BackendError::Unsupported(format!("public key (this Botan lacks {missing})")))
    }
}

impl PkLibrary for BotanBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        if let Err(e) = self.pk_api() {
            return Support::Unsupported(e.to_string());
        }
        if padding(alg).is_some() || agrees(alg) {
            Support::Supported
        } else {
            Support::Unsupported(format!("{} (not in Botan 2: no Ed448, X448, ML-KEM, ML-DSA or SLH-DSA)", alg.id))
        }
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        if let Support::Unsupported(why) = PkLibrary::pk_support(self, alg) {
            return Err(BackendError::Unsupported(why));
        }
        let (api, pk) = (&self.api, self.pk_api()?);
        let rng = Random::new(api, pk)?;
        match (op, padding(alg)) {
            (Operation::Sign, Some((pad, flags))) => {
                let key = private(api, pk, alg, keys)?;
                let mut handle: SignOp = std::ptr::null_mut();
                let pad = CString::new(pad).expect("no NUL");
                // SAFETY: a live key; writes a new operation handle.
                check(
                    api,
                    unsafe { (pk.botan_pk_op_sign_create)(&mut handle, key.key, pad.as_ptr(), flags) },
                    "botan_pk_op_sign_create",
                )?;
                let mut max = 0usize;
                // SAFETY: a live operation.
                let rc = unsafe { (pk.botan_pk_op_sign_output_length)(handle, &mut max) };
                let session = Signer {
                    api,
                    pk,
                    handle,
                    _key: key,
                    rng,
                    max,
                };
                check(api, rc, "botan_pk_op_sign_output_length")?;
                Ok(Box::new(session))
            }
            (Operation::Verify, Some((pad, flags))) => {
                let key = public(api, pk, alg, keys)?;
                let mut handle: VerifyOp = std::ptr::null_mut();
                let pad = CString::new(pad).expect("no NUL");
                // SAFETY: a live key; writes a new operation handle.
                check(
                    api,
                    unsafe { (pk.botan_pk_op_verify_create)(&mut handle, key.key, pad.as_ptr(), flags) },
                    "botan_pk_op_verify_create",
                )?;
                Ok(Box::new(Verifier {
                    api,
                    pk,
                    handle,
                    _key: key,
                }))
            }
            (Operation::Derive, None) if agrees(alg) => {
                let key = private(api, pk, alg, keys)?;
                let peer = keys
                    .peer
                    .as_ref()
                    .map(|p| p.public.clone())
                    .ok_or_else(|| BackendError::Invalid(format!("{}: no peer key", alg.id)))?;
                let mut handle: AgreeOp = std::ptr::null_mut();
                let kdf = CString::new("Raw").expect("no NUL");
                // SAFETY: a live key; writes a new operation handle.
                check(
                    api,
                    unsafe { (pk.botan_pk_op_key_agreement_create)(&mut handle, key.key, kdf.as_ptr(), 0) },
                    "botan_pk_op_key_agreement_create",
                )?;
                let mut max = 0usize;
                // SAFETY: a live operation.
                let rc = unsafe { (pk.botan_pk_op_key_agreement_size)(handle, &mut max) };
                let session = Agreement {
                    api,
                    pk,
                    handle,
                    _key: key,
                    peer,
                    max,
                };
                check(api, rc, "botan_pk_op_key_agreement_size")?;
                Ok(Box::new(session))
            }
            _ => Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
        }
    }

    /// Botan 2's ECDSA derives k deterministically from the key and the
    /// input (ecdsa.cpp: `RFC6979_Nonce_Generator`, with SHA-512 for the
    /// `Raw` padding), and blinds with the generator given to the call.
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Rfc6979)
    }
}

/// Botan's system generator, for the calls that take one (blinding, PSS salt).
struct Random<'a> {
    pk: &'a PkApi,
    rng: Rng,
}

impl<'a> Random<'a> {
    fn new(api: &Api, pk: &'a PkApi) -> Result<Random<'a>, BackendError> {
        let mut rng: Rng = std::ptr::null_mut();
        let kind = CString::new("system").expect("no NUL");
        // SAFETY: writes a new generator handle.
        check(api, unsafe { (pk.botan_rng_init)(&mut rng, kind.as_ptr()) }, "botan_rng_init")?;
        Ok(Random { pk, rng })
    }
}

impl Drop for Random<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, destroyed once.
        unsafe { (self.pk.botan_rng_destroy)(self.rng) };
    }
}

struct Signer<'a> {
    api: &'a Api,
    pk: &'a PkApi,
    handle: SignOp,
    _key: Private<'a>,
    rng: Random<'a>,
    max: usize,
}

impl PkSession for Signer<'_> {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, pk, handle, rng, max) = (self.api, self.pk, self.handle, self.rng.rng, self.max);
        // SAFETY: a live operation; `message` holds its length.
        check(
            api,
            unsafe { (pk.botan_pk_op_sign_update)(handle, message.as_ptr(), message.len()) },
            "botan_pk_op_sign_update",
        )?;
        fill(signature, max, |out| {
            let mut n = max;
            // SAFETY: `out` has room for `max` bytes (the operation's own bound).
            check(
                api,
                unsafe { (pk.botan_pk_op_sign_finish)(handle, rng, out, &mut n) },
                "botan_pk_op_sign_finish",
            )?;
            Ok(n)
        })
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(BOTAN_ALLOCATES)
    }
}

impl Drop for Signer<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, destroyed once (before its key).
        unsafe { (self.pk.botan_pk_op_sign_destroy)(self.handle) };
    }
}

struct Verifier<'a> {
    api: &'a Api,
    pk: &'a PkApi,
    handle: VerifyOp,
    _key: Public<'a>,
}

impl PkSession for Verifier<'_> {
    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let (api, pk, handle) = (self.api, self.pk, self.handle);
        // SAFETY: a live operation; the inputs hold their lengths.
        check(
            api,
            unsafe { (pk.botan_pk_op_verify_update)(handle, message.as_ptr(), message.len()) },
            "botan_pk_op_verify_update",
        )?;
        // SAFETY: as above.
        match unsafe { (pk.botan_pk_op_verify_finish)(handle, signature.as_ptr(), signature.len()) } {
            0 => Ok(true),
            BOTAN_FFI_INVALID_VERIFIER => Ok(false),
            rc => check(api, rc, "botan_pk_op_verify_finish").map(|_| false),
        }
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(BOTAN_ALLOCATES)
    }
}

impl Drop for Verifier<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, destroyed once (before its key).
        unsafe { (self.pk.botan_pk_op_verify_destroy)(self.handle) };
    }
}

struct Agreement<'a> {
    api: &'a Api,
    pk: &'a PkApi,
    handle: AgreeOp,
    _key: Private<'a>,
    peer: Vec<u8>,
    max: usize,
}

impl PkSession for Agreement<'_> {
    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, pk, handle, max, peer) = (self.api, self.pk, self.handle, self.max, &self.peer);
        fill(secret, max, |out| {
            let mut n = max;
            // SAFETY: `out` has room for `max` bytes; `peer` holds its length; no salt.
            let rc = unsafe { (pk.botan_pk_op_key_agreement)(handle, out, &mut n, peer.as_ptr(), peer.len(), std::ptr::null(), 0) };
            check(api, rc, "botan_pk_op_key_agreement")?;
            Ok(n)
        })
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(BOTAN_ALLOCATES)
    }
}

impl Drop for Agreement<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, destroyed once (before its key).
        unsafe { (self.pk.botan_pk_op_key_agreement_destroy)(self.handle) };
    }
}

/// Botan computes with `BigInt`s and `secure_vector`s on the heap and
/// returns every result as a vector that its C API then copies out.
const BOTAN_ALLOCATES: Allocation = Allocation::in_c(
    "Botan's public-key code computes with heap-allocated BigInts and secure_vectors, and its C API copies each result out of a new vector",
);

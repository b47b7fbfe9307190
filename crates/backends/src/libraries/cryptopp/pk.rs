//! Public key through the Crypto++ shim (shim_pk.cpp says which Crypto++
//! classes each scheme is): RSA PKCS#1 v1.5 and PSS signatures and
//! RSA-OAEP, ECDSA on P-256/384/521 over a precomputed digest, Ed25519,
//! X25519 and ECDH on P-256/384, and key generation for each. Crypto++'s ECDSA signatures are IEEE P1363 (r ‖ s): they are
//! encoded as DER here (`ecdsa_der_into`) and a DER signature to verify is
//! read by the strict parser Nettle's backend uses (`ecdsa_from_der`, once
//! per distinct signature, [`KeptInput`]), as an application verifying DER
//! with Crypto++ must convert it.
//! n/a, saying why: Ed448, X448 and the post-quantum schemes (not in
//! Crypto++ 8.7).

use std::ffi::c_int;

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::api::{Api, Handle};
use super::pk_api::*;
use super::sessions::check;
use super::CryptoppBackend;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::pk::encoding::{ecdsa_der_into, ecdsa_from_der, pad_into};
use crate::pk::keys::PkKeys;
use crate::pk::{fill, KeptInput, PkLibrary, PkSession};
use crate::support::Support;

/// The shim's kind of a catalog scheme.
fn kind_of(alg: &PkAlgorithmSpec) -> Result<c_int, BackendError> {
    let why = match (alg.kind, alg.openssl_name) {
        (PkKind::RsaPkcs1, _) => return Ok(PK_RSA_PKCS1),
        (PkKind::RsaOaep, _) => return Ok(PK_RSA_OAEP),
        (PkKind::Ecdsa, "P-256") => return Ok(PK_ECDSA_P256),
        (PkKind::Ecdsa, "P-384") => return Ok(PK_ECDSA_P384),
        (PkKind::Ecdsa, "P-521") => return Ok(PK_ECDSA_P521),
        (PkKind::EdDsa, "ED25519") => return Ok(PK_ED25519),
        (PkKind::Ecdh, "X25519") => return Ok(PK_X25519),
        (PkKind::Ecdh, "P-256") => return Ok(PK_ECDH_P256),
        (PkKind::Ecdh, "P-384") => return Ok(PK_ECDH_P384),
        (PkKind::RsaPss, _) => return Ok(PK_RSA_PSS),
        (PkKind::EdDsa | PkKind::Ecdh, _) => "Crypto++ 8.7 has no Curve448",
        _ => "not in Crypto++ 8.7",
    };
    Err(BackendError::Unsupported(format!("{}: {why}", alg.id)))
}

impl CryptoppBackend {
    fn pk_api(&self) -> Result<&PkApi, BackendError> {
        self.pk
            .as_ref()
            .map_err(|missing| BackendError::Unsupported(format!("public key (the Crypto++ shim lacks {missing})")))
    }
}

/// A shim handle on one key of one scheme, freed on drop.
struct PkHandle<'a> {
    api: &'a Api,
    pk: &'a PkApi,
    handle: Handle,
    /// The longest output of the handle's operation.
    max: usize,
    /// ECDSA: the curve (for DER), the P1363 signature a sign call makes,
    /// and the P1363 form of the DER signature verify calls pass.
    ecdsa: Option<&'static PkAlgorithmSpec>,
    p1363: Vec<u8>,
    kept: KeptInput<Option<Vec<u8>>>,
}

impl<'a> PkHandle<'a> {
    fn new(api: &'a Api, pk: &'a PkApi, kind: c_int, private: &[u8], public: &[u8], peer: &[u8]) -> Result<PkHandle<'a>, BackendError> {
        // SAFETY: the slices cover the lengths passed; the shim copies them.
        let handle = unsafe {
            (pk.cbcp_pk_new)(
                kind,
                private.as_ptr(),
                private.len(),
                public.as_ptr(),
                public.len(),
                peer.as_ptr(),
                peer.len(),
            )
        };
        if handle.is_null() {
            check(api, -1, "cbcp_pk_new")?;
        }
        Ok(PkHandle {
            api,
            pk,
            handle,
            max: 1024,
            ecdsa: None,
            p1363: Vec::new(),
            kept: KeptInput::default(),
        })
    }

    /// A call writing up to `max` bytes into `out`.
    fn out(&self, out: &mut Vec<u8>, call: &'static str, f: impl FnOnce(*mut u8, usize, *mut usize) -> c_int) -> Result<(), BackendError> {
        fill(out, self.max, |p| {
            let mut n = 0;
            check(self.api, f(p, self.max, &mut n), call)?;
            Ok(n)
        })
    }
}

impl Drop for PkHandle<'_> {
    fn drop(&mut self) {
        // SAFETY: a live handle of the shim.
        unsafe { (self.pk.cbcp_pk_free)(self.handle) };
    }
}

impl PkSession for PkHandle<'_> {
    fn allocates(&self) -> Option<Allocation> {
        Some(Allocation::in_c(
            "Crypto++'s big integers (Integer, over SecBlock) are allocated on the heap in every operation",
        ))
    }

    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let (pk, h) = (self.pk, self.handle);
        if self.ecdsa.is_none() {
            // SAFETY: a live handle; the buffers outlive the call.
            return self.out(signature, "cbcp_pk_sign", |p, cap, n| unsafe {
                (pk.cbcp_pk_sign)(h, message.as_ptr(), message.len(), p, cap, n)
            });
        }
        let mut p1363 = std::mem::take(&mut self.p1363);
        // SAFETY: as above.
        let signed = self.out(&mut p1363, "cbcp_pk_sign", |p, cap, n| unsafe {
            (pk.cbcp_pk_sign)(h, message.as_ptr(), message.len(), p, cap, n)
        });
        // r ‖ s, each as long as the group order (P1363), encoded as DER.
        let half = p1363.len() / 2;
        ecdsa_der_into(signature, &p1363[..half], &p1363[half..]);
        self.p1363 = p1363;
        signed
    }

    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let signature = match self.ecdsa {
            None => signature,
            Some(alg) => {
                let n = alg.bits.div_ceil(8) as usize;
                let p1363 = self.kept.get(signature, |der| {
                    Ok(ecdsa_from_der(alg, der).map(|(r, s)| {
                        let (mut rr, mut ss) = (Vec::new(), Vec::new());
                        pad_into(&mut rr, &r, n);
                        pad_into(&mut ss, &s, n);
                        [rr, ss].concat()
                    }))
                })?;
                match p1363 {
                    Some(p) => p.as_slice(),
                    // Not strict DER: it verifies nothing.
                    None => return Ok(false),
                }
            }
        };
        // SAFETY: a live handle; the buffers outlive the call.
        let rc = unsafe { (self.pk.cbcp_pk_verify)(self.handle, message.as_ptr(), message.len(), signature.as_ptr(), signature.len()) };
        match check(self.api, rc, "cbcp_pk_verify") {
            Ok(()) => Ok(true),
            Err(BackendError::AuthenticationFailed) => Ok(false),
            Err(e) => Err(e),
        }
    }

    fn encrypt(&mut self, message: &[u8], ciphertext: &mut Vec<u8>) -> Result<(), BackendError> {
        let (pk, h) = (self.pk, self.handle);
        // SAFETY: as for sign.
        self.out(ciphertext, "cbcp_pk_encrypt", |p, cap, n| unsafe {
            (pk.cbcp_pk_encrypt)(h, message.as_ptr(), message.len(), p, cap, n)
        })
    }

    fn decrypt(&mut self, ciphertext: &[u8], message: &mut Vec<u8>) -> Result<(), BackendError> {
        let (pk, h) = (self.pk, self.handle);
        // SAFETY: as for sign.
        self.out(message, "cbcp_pk_decrypt", |p, cap, n| unsafe {
            (pk.cbcp_pk_decrypt)(h, ciphertext.as_ptr(), ciphertext.len(), p, cap, n)
        })
    }

    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let (pk, h) = (self.pk, self.handle);
        // SAFETY: as for sign.
        self.out(secret, "cbcp_pk_derive", |p, cap, n| unsafe { (pk.cbcp_pk_derive)(h, p, cap, n) })
    }
}

impl PkLibrary for CryptoppBackend {
    /// ECDSA verify: the DER signature decoded once (`KeptInput`), the library taking r ‖ s.
    fn extra_work(&self, alg: &PkAlgorithmSpec, op: Operation) -> Option<&'static str> {
        (alg.kind == PkKind::Ecdsa && op == Operation::Verify).then_some(crate::pk::ECDSA_DER_KEPT)
    }
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        Support::from(self.pk_api().and_then(|_| kind_of(alg)).map(drop))
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let (pk, kind) = (self.pk_api()?, kind_of(alg)?);
        if alg.is_rsa() {
            return Err(BackendError::Unsupported(format!("{} public key", alg.id)));
        }
        let handle = PkHandle::new(&self.api, pk, kind, private_of(alg, keys), &[], &[])?;
        let mut out = Vec::new();
        // SAFETY: as for sign.
        handle.out(&mut out, "cbcp_pk_public", |p, cap, n| unsafe {
            (pk.cbcp_pk_public)(handle.handle, p, cap, n)
        })?;
        Ok(out)
    }

    /// Crypto++'s DL signature schemes draw k from the random generator
    /// they are given (pubkey.h, `DL_SignerBase::SignAndRestart`), mixed
    /// with the message representative and the key.
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Random)
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        let (pk, kind) = (self.pk_api()?, kind_of(alg)?);
        if op == Operation::Keygen {
            return Ok(Box::new(Keygen::new(&self.api, pk, kind, alg.bits)?));
        }
        let needs_private = matches!(op, Operation::Sign | Operation::Decrypt | Operation::Derive);
        let public_side = matches!(op, Operation::Verify | Operation::Encrypt);
        if !needs_private && !public_side {
            return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short())));
        }
        let public = if alg.is_rsa() { &keys.public_der } else { &keys.public };
        // A verifying handle on the key's public half; the private key where no public key is given.
        let private = if needs_private || public.is_empty() {
            private_of(alg, keys)
        } else {
            &[][..]
        };
        let peer = keys.peer.as_deref().map(|p| p.public.as_slice()).unwrap_or_default();
        match PkHandle::new(&self.api, pk, kind, private, public, peer) {
            Ok(mut h) => {
                if alg.kind == PkKind::Ecdsa {
                    h.ecdsa = Some(cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?);
                }
                Ok(Box::new(h))
            }
            // A public key Crypto++ refuses to load verifies nothing (test vectors).
            Err(BackendError::Call { .. }) if keys.is_public_only() && op == Operation::Verify => Ok(Box::new(crate::pk::Rejecting)),
            Err(e) => Err(e),
        }
    }
}

/// Key generation: a shim handle that makes a key pair and drops it per
/// call (`cbcp_pk_keygen`).
struct Keygen<'a> {
    api: &'a Api,
    pk: &'a PkApi,
    handle: Handle,
}

impl<'a> Keygen<'a> {
    fn new(api: &'a Api, pk: &'a PkApi, kind: c_int, bits: u32) -> Result<Keygen<'a>, BackendError> {
        // SAFETY: plain values; the shim returns a handle or null.
        let handle = unsafe { (pk.cbcp_pk_keygen_new)(kind, bits) };
        if handle.is_null() {
            check(api, -1, "cbcp_pk_keygen_new")?;
        }
        Ok(Keygen { api, pk, handle })
    }
}

impl Drop for Keygen<'_> {
    fn drop(&mut self) {
        // SAFETY: a live handle of the shim.
        unsafe { (self.pk.cbcp_pk_free)(self.handle) };
    }
}

impl PkSession for Keygen<'_> {
    fn allocates(&self) -> Option<Allocation> {
        Some(Allocation::in_c(
            "Crypto++'s keys and big integers (Integer, over SecBlock) are allocated on the heap",
        ))
    }

    fn keygen(&mut self) -> Result<(), BackendError> {
        // SAFETY: a live keygen handle.
        check(self.api, unsafe { (self.pk.cbcp_pk_keygen)(self.handle) }, "cbcp_pk_keygen")
    }

    /// RSA: the modulus; EC: the uncompressed point; Ed25519, X25519: the raw key.
    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        let (pk, h) = (self.pk, self.handle);
        let mut out = Vec::new();
        fill(&mut out, 1024, |p| {
            let mut n = 0;
            // SAFETY: a live handle; `p` has 1024 bytes.
            check(self.api, unsafe { (pk.cbcp_pk_public)(h, p, 1024, &mut n) }, "cbcp_pk_public")?;
            Ok(n)
        })?;
        Ok(out)
    }
}

/// The private key in the shim's form: PKCS#1 DER (RSA), the scalar (EC), the secret (Ed25519, X25519).
fn private_of<'k>(alg: &PkAlgorithmSpec, keys: &'k PkKeys) -> &'k [u8] {
    match alg.kind {
        _ if alg.is_rsa() => &keys.private_der,
        PkKind::Ecdsa | PkKind::Ecdh if !keys.ec_private.is_empty() => &keys.ec_private,
        _ => &keys.seed,
    }
}

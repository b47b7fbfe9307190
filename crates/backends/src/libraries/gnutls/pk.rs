//! Public key through GnuTLS's abstract key API (gnutls/abstract.h): RSA
//! PKCS#1 v1.5 and PSS and ECDSA sign the digest the cell signs
//! (`gnutls_privkey_sign_hash2`, which adds the DigestInfo for PKCS#1;
//! `GNUTLS_SIGN_RSA_PSS_RSAE_SHA256`: PSS with SHA-256, MGF1 and a salt as
//! long as the digest, on an RSA key), Ed25519 and Ed448 the message
//! (`gnutls_privkey_sign_data2`); verification through
//! `gnutls_pubkey_verify_hash2`/`_data2`. Keys: RSA and EC from their DER
//! (PKCS#1, SEC 1), EdDSA from a PKCS#8 of its raw key
//! (`gnutls_privkey_import_x509_raw`), public keys from their
//! SubjectPublicKeyInfo, the raw EdDSA key, or the private key. GnuTLS 3.7 has no key agreement outside a TLS
//! session in its API, and no post-quantum scheme: n/a.

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::api::{Api, Datum};
use super::pk_api::*;
use super::sessions::check;
use super::GnutlsBackend;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::support::Support;

fn datum(bytes: &[u8]) -> Datum {
    Datum {
        data: bytes.as_ptr(),
        size: bytes.len() as std::ffi::c_uint,
    }
}

/// The signature algorithm of a scheme, and whether it signs the message
/// itself (EdDSA) rather than a digest.
fn scheme(alg: &PkAlgorithmSpec) -> Option<(std::ffi::c_int, bool)> {
    Some(match (alg.kind, alg.openssl_name) {
        (PkKind::RsaPkcs1, _) => (GNUTLS_SIGN_RSA_SHA256, false),
        (PkKind::RsaPss, _) => (GNUTLS_SIGN_RSA_PSS_RSAE_SHA256, false),
        (PkKind::Ecdsa, "P-256") => (GNUTLS_SIGN_ECDSA_SHA256, false),
        (PkKind::Ecdsa, "P-384") => (GNUTLS_SIGN_ECDSA_SHA384, false),
        (PkKind::Ecdsa, "P-521") => (GNUTLS_SIGN_ECDSA_SHA512, false),
        (PkKind::EdDsa, "ED25519") => (GNUTLS_SIGN_EDDSA_ED25519, true),
        (PkKind::EdDsa, "ED448") => (GNUTLS_SIGN_EDDSA_ED448, true),
        _ => return None,
    })
}

fn edwards_curve(alg: &PkAlgorithmSpec) -> std::ffi::c_int {
    if alg.openssl_name == "ED448" {
        GNUTLS_ECC_CURVE_ED448
    } else {
        GNUTLS_ECC_CURVE_ED25519
    }
}

impl GnutlsBackend {
    fn pk_api(&self) -> Result<(&PkApi, FreeFn), BackendError> {
        match &self.pk {
            Ok((pk, free)) => Ok((pk, *free)),
            Err(missing) => Err(BackendError::Unsupported(format!("public key (this GnuTLS lacks {missing})"))),
        }
    }
}

impl PkLibrary for GnutlsBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        if let Err(e) = self.pk_api() {
            return Support::Unsupported(e.to_string());
        }
        match (scheme(alg), alg.kind) {
            (Some(_), _) => Support::Supported,
            (None, PkKind::Ecdh) => {
                Support::Unsupported(format!("{} (GnuTLS 3.7's API has no key agreement outside a TLS session)", alg.id))
            }
            (None, _) => Support::Unsupported(format!("{} (not in GnuTLS 3.7)", alg.id)),
        }
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        if let Support::Unsupported(why) = PkLibrary::pk_support(self, alg) {
            return Err(BackendError::Unsupported(why));
        }
        let (pk, free) = self.pk_api()?;
        let (algorithm, on_message) = scheme(alg).expect("checked by pk_support");
        let api = &self.api;
        match op {
            Operation::Sign => {
                let key = private_key(api, pk, alg, keys)?;
                Ok(Box::new(Signer {
                    api,
                    pk,
                    free,
                    key: key.take(),
                    algorithm,
                    on_message,
                }))
            }
            Operation::Verify => {
                let mut key: PubKey = std::ptr::null_mut();
                // SAFETY: writes a new key handle.
                check(api, unsafe { (pk.gnutls_pubkey_init)(&mut key) }, "gnutls_pubkey_init")?;
                let verifier = Verifier {
                    api,
                    pk,
                    key,
                    algorithm,
                    on_message,
                };
                let rc = if !keys.public_der.is_empty() {
                    let der = datum(&keys.public_der);
                    // SAFETY: a live key; the DER outlives the call.
                    unsafe { (pk.gnutls_pubkey_import)(key, &der, GNUTLS_X509_FMT_DER) }
                } else if alg.kind == PkKind::EdDsa && !keys.public.is_empty() {
                    let x = datum(&keys.public);
                    // SAFETY: as above; EdDSA takes no y.
                    unsafe { (pk.gnutls_pubkey_import_ecc_raw)(key, edwards_curve(alg), &x, std::ptr::null()) }
                } else if !keys.is_public_only() {
                    // The public half of the private key (Ed448 keys carry no public key).
                    let private = private_key(api, pk, alg, keys)?;
                    // SAFETY: live keys.
                    unsafe { (pk.gnutls_pubkey_import_privkey)(key, private.0, GNUTLS_KEY_DIGITAL_SIGNATURE, 0) }
                } else {
                    return Err(BackendError::Invalid(format!("{}: no public key to import", alg.id)));
                };
                check(api, rc, "gnutls_pubkey_import")?;
                Ok(Box::new(verifier))
            }
            _ => Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
        }
    }

    /// GnuTLS 3.7's ECDSA (nettle underneath, lib/nettle/pk.c) derives k
    /// deterministically only when asked (`GNUTLS_PRIVKEY_FLAG_REPRODUCIBLE`,
    /// not given here); otherwise it draws k at random.
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Random)
    }
}

/// A private key, freed on drop unless taken.
struct Private<'a>(PrivKey, &'a PkApi);

impl Private<'_> {
    fn take(self) -> PrivKey {
        let key = self.0;
        std::mem::forget(self);
        key
    }
}

impl Drop for Private<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { (self.1.gnutls_privkey_deinit)(self.0) };
    }
}

/// The PKCS#8 DER of an EdDSA private key (RFC 8410 §7: OneAsymmetricKey
/// with id-Ed25519 1.3.101.112 or id-Ed448 1.3.101.113 and the raw key in
/// an OCTET STRING), which GnuTLS imports without the public key.
fn eddsa_pkcs8(alg: &PkAlgorithmSpec, seed: &[u8]) -> Vec<u8> {
    let oid_last = if alg.openssl_name == "ED448" { 0x71 } else { 0x70 };
    let n = seed.len() as u8;
    let mut der = vec![
        0x30,
        14 + n,
        0x02,
        0x01,
        0x00,
        0x30,
        0x05,
        0x06,
        0x03,
        0x2b,
        0x65,
        oid_last,
        0x04,
        2 + n,
        0x04,
        n,
    ];
    der.extend_from_slice(seed);
    der
}

/// The private key of `keys`: RSA and EC from their DER, EdDSA from its PKCS#8.
fn private_key<'a>(api: &Api, pk: &'a PkApi, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Private<'a>, BackendError> {
    let mut key: PrivKey = std::ptr::null_mut();
    // SAFETY: writes a new key handle.
    check(api, unsafe { (pk.gnutls_privkey_init)(&mut key) }, "gnutls_privkey_init")?;
    let private = Private(key, pk);
    let der = if alg.kind == PkKind::EdDsa {
        eddsa_pkcs8(alg, &keys.seed)
    } else {
        keys.private_der.clone()
    };
    let d = datum(&der);
    // SAFETY: a live key; the DER outlives the call; no password.
    let rc = unsafe { (pk.gnutls_privkey_import_x509_raw)(key, &d, GNUTLS_X509_FMT_DER, std::ptr::null(), 0) };
    check(api, rc, "gnutls_privkey_import_x509_raw")?;
    Ok(private)
}

struct Signer<'a> {
    api: &'a Api,
    pk: &'a PkApi,
    free: FreeFn,
    key: PrivKey,
    algorithm: std::ffi::c_int,
    on_message: bool,
}

impl PkSession for Signer<'_> {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let input = datum(message);
        let mut out = Datum {
            data: std::ptr::null(),
            size: 0,
        };
        let sign = if self.on_message {
            self.pk.gnutls_privkey_sign_data2
        } else {
            self.pk.gnutls_privkey_sign_hash2
        };
        // SAFETY: a live key; `input` outlives the call; `out` is written with a gnutls_malloc'd buffer.
        let rc = unsafe { sign(self.key, self.algorithm, 0, &input, &mut out) };
        check(self.api, rc, "gnutls_privkey_sign")?;
        signature.clear();
        // Room for the longest signature (RSA-4096: 512 bytes) from the first
        // call on, so that one a byte longer (DER ECDSA) does not grow it.
        signature.reserve(MAX_SIGNATURE.max(out.size as usize));
        // SAFETY: GnuTLS wrote `size` bytes at `data`; freed once with its own free.
        unsafe {
            signature.extend_from_slice(std::slice::from_raw_parts(out.data, out.size as usize));
            (self.free)(out.data as *mut std::ffi::c_void);
        }
        Ok(())
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(GNUTLS_ALLOCATES)
    }
}

impl Drop for Signer<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { (self.pk.gnutls_privkey_deinit)(self.key) };
    }
}

struct Verifier<'a> {
    api: &'a Api,
    pk: &'a PkApi,
    key: PubKey,
    algorithm: std::ffi::c_int,
    on_message: bool,
}

impl PkSession for Verifier<'_> {
    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let (input, sig) = (datum(message), datum(signature));
        let verify = if self.on_message {
            self.pk.gnutls_pubkey_verify_data2
        } else {
            self.pk.gnutls_pubkey_verify_hash2
        };
        // SAFETY: a live key; the inputs outlive the call.
        match unsafe { verify(self.key, self.algorithm, 0, &input, &sig) } {
            rc if rc >= 0 => Ok(true),
            GNUTLS_E_PK_SIG_VERIFY_FAILED => Ok(false),
            rc => check(self.api, rc, "gnutls_pubkey_verify").map(|_| false),
        }
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(GNUTLS_ALLOCATES)
    }
}

impl Drop for Verifier<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { (self.pk.gnutls_pubkey_deinit)(self.key) };
    }
}

/// The longest signature of the catalog's schemes here: RSA-4096's 512 bytes.
const MAX_SIGNATURE: usize = 512;

/// GnuTLS returns each signature in a new `gnutls_malloc`'d datum, and its
/// Nettle-based code works on GMP integers allocated per call.
const GNUTLS_ALLOCATES: Allocation = Allocation::in_c(
    "GnuTLS returns each signature in a new gnutls_malloc'd datum and computes with GMP integers allocated per call (lib/nettle/pk.c)",
);

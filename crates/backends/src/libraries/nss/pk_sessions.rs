//! NSS's public-key sessions: one key imported (pk_keys.rs), then one
//! PK11 call per operation. RSA PKCS#1 v1.5 signs with `PK11_Sign`, which
//! on an RSA key is raw `CKM_RSA_PKCS`: it is given the SHA-256 DigestInfo
//! ‖ digest (RFC 8017 §9.2, note 1), and `PK11_Verify` compares the same;
//! RSA-PSS is `PK11_SignWithMechanism`/`PK11_VerifyWithMechanism` with
//! `CKM_RSA_PKCS_PSS` (SHA-256, MGF1-SHA-256, 32-byte salt); OAEP
//! `PK11_PubEncrypt`/`PK11_PrivDecrypt` with `CKM_RSA_PKCS_OAEP` (SHA-256,
//! MGF1-SHA-256, no label); ECDSA `PK11_Sign`/`PK11_Verify` on the digest,
//! whose r ‖ s is converted to and from DER; ECDH and X25519
//! `PK11_PubDeriveWithKDF` (`CKM_ECDH1_DERIVE`, `CKD_NULL`) and the secret
//! read with `PK11_ExtractKeyValue` + `PK11_GetKeyData`; key generation
//! `PK11_GenerateKeyPair`.

use std::ffi::{c_uint, c_ulong, c_void};
use std::ptr;

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptoki_sys::*;

use super::api::*;
use super::pk_api::{Api as PkApi, PrivKey, PubKey};
use super::pk_keys::{encoded_spki, Private, Public};
use super::sessions::{check, failed};
use crate::error::BackendError;
use crate::named::Allocation;
use crate::pk::encoding::{ecdsa_der_into, ecdsa_from_der, point_of_spki};
use crate::pk::keys::RsaParts;
use crate::pk::{fill, KeptInput, PkSession};

/// What NSS allocates in a public-key call, which cryptobench cannot avoid.
pub const NSS_ALLOCATES: Allocation = Allocation::in_c(
    "NSS allocates inside every public-key call: softoken makes an operation context per C_SignInit/C_VerifyInit/C_EncryptInit/C_DecryptInit and freebl computes with heap mp_int numbers; a derive makes a new PK11SymKey",
);

/// DigestInfo for SHA-256 up to the digest (RFC 8017 §9.2, note 1).
const SHA256_DIGEST_INFO: [u8; 19] = [
    0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
];

/// The PSS parameters of every rsa*-pss cell.
fn pss_params() -> CK_RSA_PKCS_PSS_PARAMS {
    CK_RSA_PKCS_PSS_PARAMS {
        hashAlg: CKM_SHA256,
        mgf: CKG_MGF1_SHA256,
        sLen: 32,
    }
}

/// A signing or verifying session of RSA PKCS#1 v1.5, RSA-PSS or ECDSA.
pub struct Signature<'a> {
    pub api: &'a Api,
    pub pk: &'a PkApi,
    pub alg: &'static PkAlgorithmSpec,
    pub private: Option<Private<'a>>,
    pub public: Option<Public<'a>>,
    /// The longest signature: the modulus length (RSA), r ‖ s (ECDSA).
    pub max: usize,
    /// What NSS signs: DigestInfo ‖ digest for PKCS#1 v1.5, else the digest.
    input: Vec<u8>,
    /// NSS's signature (ECDSA: r ‖ s, converted to DER afterwards).
    raw: Vec<u8>,
    /// A DER ECDSA signature to verify as r ‖ s (None: not strict DER), converted once.
    kept: KeptInput<Option<Vec<u8>>>,
    pss: CK_RSA_PKCS_PSS_PARAMS,
}

impl<'a> Signature<'a> {
    pub fn new(
        api: &'a Api,
        pk: &'a PkApi,
        alg: &'static PkAlgorithmSpec,
        private: Option<Private<'a>>,
        public: Option<Public<'a>>,
        max: usize,
    ) -> Self {
        Signature {
            api,
            pk,
            alg,
            private,
            public,
            max,
            input: Vec::with_capacity(SHA256_DIGEST_INFO.len() + 64),
            raw: Vec::new(),
            kept: KeptInput::default(),
            pss: pss_params(),
        }
    }

    fn prepare_input(&mut self, message: &[u8]) {
        self.input.clear();
        if self.alg.kind == PkKind::RsaPkcs1 {
            self.input.extend_from_slice(&SHA256_DIGEST_INFO);
        }
        self.input.extend_from_slice(message);
    }
}

fn missing(what: &str) -> BackendError {
    BackendError::Invalid(format!("internal: a session without its {what} key"))
}

impl PkSession for Signature<'_> {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let key = self.private.as_ref().ok_or_else(|| missing("private"))?.key;
        self.prepare_input(message);
        let ecdsa = self.alg.kind == PkKind::Ecdsa;
        let (api, pk, max, input) = (self.api, self.pk, self.max, &self.input);
        let pss = self.alg.kind == PkKind::RsaPss;
        let mut params = self.pss;
        let out = if ecdsa { &mut self.raw } else { &mut *signature };
        fill(out, max, |out| {
            let mut sig = SecItem {
                kind: 0,
                data: out,
                len: max as c_uint,
            };
            let hash = SecItem::of(input);
            let status = if pss {
                let param = SecItem::param(&mut params);
                // SAFETY: a live key; sig has room for max bytes (the modulus length); the items outlive the call.
                unsafe { (pk.PK11_SignWithMechanism)(key, CKM_RSA_PKCS_PSS, &param, &mut sig, &hash) }
            } else {
                // SAFETY: as above.
                unsafe { (pk.PK11_Sign)(key, &mut sig, &hash) }
            };
            check(api, status, if pss { "PK11_SignWithMechanism" } else { "PK11_Sign" })?;
            Ok(sig.len as usize)
        })?;
        if ecdsa {
            let (r, s) = self.raw.split_at(self.raw.len() / 2);
            ecdsa_der_into(signature, r, s);
        }
        Ok(())
    }

    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let key = self.public.as_ref().ok_or_else(|| missing("public"))?.key;
        let sig: &[u8] = if self.alg.kind == PkKind::Ecdsa {
            let (alg, len) = (self.alg, self.max / 2);
            let rs = self.kept.get(signature, |der| {
                Ok(ecdsa_from_der(alg, der).and_then(|(r, s)| {
                    (r.len() <= len && s.len() <= len).then(|| {
                        let mut out = vec![0u8; 2 * len];
                        out[len - r.len()..len].copy_from_slice(&r);
                        out[2 * len - s.len()..].copy_from_slice(&s);
                        out
                    })
                }))
            })?;
            match rs {
                Some(rs) => rs,
                None => return Ok(false),
            }
        } else {
            signature
        };
        let sig = SecItem::of(sig);
        self.prepare_input(message);
        let hash = SecItem::of(&self.input);
        let status = if self.alg.kind == PkKind::RsaPss {
            let param = SecItem::param(&mut self.pss);
            // SAFETY: a live key; the items outlive the call and are read only.
            unsafe { (self.pk.PK11_VerifyWithMechanism)(key, CKM_RSA_PKCS_PSS, &param, &sig, &hash, ptr::null_mut()) }
        } else {
            // SAFETY: as above.
            unsafe { (self.pk.PK11_Verify)(key, &sig, &hash, ptr::null_mut()) }
        };
        // Any failure is a rejection, as NSS's own verifiers read it
        // (lib/cryptohi/secvfy.c, vfy_VerifyDigest: a PK11_Verify that fails
        // is SEC_ERROR_BAD_SIGNATURE); softoken reports a PKCS#1 v1.5
        // signature with bad padding as SEC_ERROR_PKCS11_DEVICE_ERROR.
        Ok(status == SEC_SUCCESS)
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(NSS_ALLOCATES)
    }
}

/// RSA-OAEP with SHA-256, MGF1-SHA-256 and no label, one direction.
pub struct Oaep<'a> {
    pub api: &'a Api,
    pub pk: &'a PkApi,
    pub private: Option<Private<'a>>,
    pub public: Option<Public<'a>>,
    pub max: usize,
    pub params: CK_RSA_PKCS_OAEP_PARAMS,
}

pub fn oaep_params() -> CK_RSA_PKCS_OAEP_PARAMS {
    CK_RSA_PKCS_OAEP_PARAMS {
        hashAlg: CKM_SHA256,
        mgf: CKG_MGF1_SHA256,
        source: CKZ_DATA_SPECIFIED,
        pSourceData: ptr::null_mut(),
        ulSourceDataLen: 0,
    }
}

impl PkSession for Oaep<'_> {
    fn encrypt(&mut self, message: &[u8], ciphertext: &mut Vec<u8>) -> Result<(), BackendError> {
        let key = self.public.as_ref().ok_or_else(|| missing("public"))?.key;
        let (api, pk, max) = (self.api, self.pk, self.max);
        let mut param = SecItem::param(&mut self.params);
        fill(ciphertext, max, |out| {
            let mut n: c_uint = 0;
            // SAFETY: a live key; out has room for max bytes; the message is read only.
            let status = unsafe {
                (pk.PK11_PubEncrypt)(
                    key,
                    CKM_RSA_PKCS_OAEP,
                    &mut param,
                    out,
                    &mut n,
                    max as c_uint,
                    message.as_ptr(),
                    message.len() as c_uint,
                    ptr::null_mut(),
                )
            };
            check(api, status, "PK11_PubEncrypt")?;
            Ok(n as usize)
        })
    }

    fn decrypt(&mut self, ciphertext: &[u8], message: &mut Vec<u8>) -> Result<(), BackendError> {
        let key = self.private.as_ref().ok_or_else(|| missing("private"))?.key;
        let (api, pk, max) = (self.api, self.pk, self.max);
        let mut param = SecItem::param(&mut self.params);
        fill(message, max, |out| {
            let mut n: c_uint = 0;
            // SAFETY: a live key; out has room for max bytes; the ciphertext is read only.
            let status = unsafe {
                (pk.PK11_PrivDecrypt)(
                    key,
                    CKM_RSA_PKCS_OAEP,
                    &mut param,
                    out,
                    &mut n,
                    max as c_uint,
                    ciphertext.as_ptr(),
                    ciphertext.len() as c_uint,
                )
            };
            if status != SEC_SUCCESS {
                // SAFETY: reads NSPR's per-thread error.
                return Err(match unsafe { (api.PORT_GetError)() } {
                    SEC_ERROR_BAD_DATA | SEC_ERROR_INPUT_LEN => BackendError::AuthenticationFailed,
                    _ => failed(api, "PK11_PrivDecrypt"),
                });
            }
            Ok(n as usize)
        })
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(NSS_ALLOCATES)
    }
}

/// ECDH or X25519 between the key's private part and the peer's public key.
pub struct Agreement<'a> {
    pub api: &'a Api,
    pub pk: &'a PkApi,
    pub private: Private<'a>,
    pub peer: Public<'a>,
    pub len: usize,
}

impl PkSession for Agreement<'_> {
    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, pk) = (self.api, self.pk);
        // The target and operation of NSS's own X25519 test (pk11_curve25519_unittest.cc):
        // the secret is the raw x coordinate (CKD_NULL), as long as the field.
        // SAFETY: live keys; no KDF data.
        let sym = unsafe {
            (pk.PK11_PubDeriveWithKDF)(
                self.private.key,
                self.peer.key,
                PR_FALSE,
                ptr::null_mut(),
                ptr::null_mut(),
                CKM_ECDH1_DERIVE,
                CKM_SHA512_HMAC,
                CKA_DERIVE as c_ulong,
                0,
                CKD_NULL,
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        if sym.is_null() {
            return Err(failed(api, "PK11_PubDeriveWithKDF"));
        }
        let result = (|| {
            // SAFETY: a live key; the data item belongs to the key.
            check(api, unsafe { (pk.PK11_ExtractKeyValue)(sym) }, "PK11_ExtractKeyValue")?;
            // SAFETY: as above.
            let data = unsafe { (pk.PK11_GetKeyData)(sym) };
            if data.is_null() {
                return Err(failed(api, "PK11_GetKeyData"));
            }
            let len = self.len;
            fill(secret, len, |out| {
                // SAFETY: NSS holds len bytes at data; out has room for `len`.
                unsafe {
                    let n = (*data).len as usize;
                    if n > len {
                        return Err(BackendError::Invalid(format!("NSS derived {n} bytes, {len} expected")));
                    }
                    ptr::copy_nonoverlapping((*data).data, out, n);
                    Ok(n)
                }
            })
        })();
        // SAFETY: owned, freed once.
        unsafe { (api.PK11_FreeSymKey)(sym) };
        result
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(NSS_ALLOCATES)
    }
}

/// Key generation: RSA (`CKM_RSA_PKCS_KEY_PAIR_GEN`, e = 65537) or EC
/// (`CKM_EC_KEY_PAIR_GEN` on the named curve), session objects of the internal slot.
pub struct KeyGen<'a> {
    pub api: &'a Api,
    pub pk: &'a PkApi,
    pub alg: &'static PkAlgorithmSpec,
    /// The curve's OID (EC), the parameter of the generation.
    pub curve: Vec<u8>,
    pub last: Option<(Private<'a>, Public<'a>)>,
}

impl PkSession for KeyGen<'_> {
    fn keygen(&mut self) -> Result<(), BackendError> {
        let (api, pk) = (self.api, self.pk);
        self.last = None;
        let mut rsa = super::pk_api::RsaGenParams {
            key_size_in_bits: self.alg.bits as i32,
            pe: 65537,
        };
        let mut curve = SecItem::of(&self.curve);
        let (mech, param): (c_ulong, *mut c_void) = if self.alg.is_rsa() {
            (CKM_RSA_PKCS_KEY_PAIR_GEN, (&mut rsa as *mut super::pk_api::RsaGenParams).cast())
        } else {
            (CKM_EC_KEY_PAIR_GEN, (&mut curve as *mut SecItem).cast())
        };
        // SAFETY: the internal slot; released below.
        let slot = unsafe { (api.PK11_GetInternalSlot)() };
        if slot.is_null() {
            return Err(failed(api, "PK11_GetInternalSlot"));
        }
        let mut public: PubKey = ptr::null_mut();
        // SAFETY: the parameter outlives the call; a session key pair, not sensitive.
        let private: PrivKey = unsafe {
            let key = (pk.PK11_GenerateKeyPair)(slot, mech, param, &mut public, PR_FALSE, PR_FALSE, ptr::null_mut());
            (api.PK11_FreeSlot)(slot);
            key
        };
        if private.is_null() || public.is_null() {
            return Err(failed(api, "PK11_GenerateKeyPair"));
        }
        self.last = Some((Private::owned(pk, private), Public::owned(pk, public)));
        Ok(())
    }

    /// The modulus (RSA) or the uncompressed point (EC) of the last pair.
    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        let (_, public) = self
            .last
            .as_ref()
            .ok_or_else(|| BackendError::Invalid("no key generated yet".into()))?;
        let spki = encoded_spki(self.api, self.pk, public.key)?;
        if self.alg.is_rsa() {
            Ok(RsaParts::of_public_der(&spki).map_err(BackendError::Invalid)?.n)
        } else {
            Ok(point_of_spki(self.alg, &spki))
        }
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(NSS_ALLOCATES)
    }
}

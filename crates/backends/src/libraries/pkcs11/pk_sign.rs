//! Signing and verifying through a token: `C_SignInit` + `C_Sign` and
//! `C_VerifyInit` + `C_Verify` with one mechanism per scheme, on the
//! digest (RSA, ECDSA) or the message (EdDSA) the cell signs:
//!
//! - RSA PKCS#1 v1.5: `CKM_RSA_PKCS` over the DER DigestInfo of the SHA-256
//!   digest (RFC 8017 section 9.2, note 1, gives its 19-byte prefix), so the
//!   signature is the one every library makes with SHA-256;
//! - RSA-PSS: `CKM_RSA_PKCS_PSS` with SHA-256, MGF1-SHA-256 and a 32-byte
//!   salt over the digest (PKCS#11 v3.0 Current Mechanisms 2.1.14), as the
//!   other libraries' rsa*-pss cells;
//! - ECDSA: `CKM_ECDSA` over the digest; the token's r ‖ s converted to and
//!   from DER, the form the other libraries exchange;
//! - Ed25519: `CKM_EDDSA` without parameters (pure Ed25519, 2.3.14).

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptoki_sys::*;

use super::module::{ck, func, rv_error, Module};
use super::sessions::MODULE_ALLOCATES;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::pk::encoding::{ecdsa_der_into, ecdsa_from_der};
use crate::pk::{fill, KeptInput, PkSession};

/// DigestInfo for SHA-256 up to the digest (RFC 8017 section 9.2, note 1).
const SHA256_DIGEST_INFO: [u8; 19] = [
    0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
];

/// The mechanism a scheme signs with, and whether the token must list it.
pub fn mechanism_of(alg: &PkAlgorithmSpec) -> Option<CK_MECHANISM_TYPE> {
    Some(match alg.kind {
        PkKind::RsaPkcs1 => CKM_RSA_PKCS,
        PkKind::RsaPss => CKM_RSA_PKCS_PSS,
        PkKind::Ecdsa => CKM_ECDSA,
        PkKind::EdDsa if alg.openssl_name == "ED25519" => CKM_EDDSA,
        _ => return None,
    })
}

/// One key object in a session of its own, signing or verifying.
pub struct SignSession<'a> {
    pub m: &'a Module,
    pub session: CK_SESSION_HANDLE,
    pub key: CK_OBJECT_HANDLE,
    pub alg: &'static PkAlgorithmSpec,
    /// The longest signature: the modulus length (RSA), r ‖ s (ECDSA), 64 (Ed25519).
    pub max: usize,
    /// What the token signs: the DigestInfo ‖ digest for PKCS#1 v1.5, else the input.
    input: Vec<u8>,
    /// The token's signature (ECDSA: r ‖ s, converted to DER afterwards).
    raw: Vec<u8>,
    /// A DER ECDSA signature to verify, as r ‖ s (None: not strict DER), converted once.
    kept: KeptInput<Option<Vec<u8>>>,
    /// The signature as the token reads it (grown once, reused).
    sig: Vec<u8>,
    pss: CK_RSA_PKCS_PSS_PARAMS,
}

impl<'a> SignSession<'a> {
    pub fn new(m: &'a Module, session: CK_SESSION_HANDLE, key: CK_OBJECT_HANDLE, alg: &'static PkAlgorithmSpec, max: usize) -> Self {
        SignSession {
            m,
            session,
            key,
            alg,
            max,
            input: Vec::new(),
            raw: Vec::new(),
            kept: KeptInput::default(),
            sig: Vec::new(),
            pss: CK_RSA_PKCS_PSS_PARAMS {
                hashAlg: CKM_SHA256,
                mgf: CKG_MGF1_SHA256,
                sLen: 32,
            },
        }
    }

    fn mechanism(&mut self) -> CK_MECHANISM {
        let (parameter, len) = if self.alg.kind == PkKind::RsaPss {
            (
                &mut self.pss as *mut CK_RSA_PKCS_PSS_PARAMS as *mut std::ffi::c_void,
                std::mem::size_of::<CK_RSA_PKCS_PSS_PARAMS>(),
            )
        } else {
            (std::ptr::null_mut(), 0)
        };
        CK_MECHANISM {
            mechanism: mechanism_of(self.alg).expect("checked by pk_support"),
            pParameter: parameter,
            ulParameterLen: len as CK_ULONG,
        }
    }

    /// The bytes the token signs for `message` (kept in `input`).
    fn prepare_input(&mut self, message: &[u8]) {
        self.input.clear();
        if self.alg.kind == PkKind::RsaPkcs1 {
            self.input.extend_from_slice(&SHA256_DIGEST_INFO);
        }
        self.input.extend_from_slice(message);
    }
}

impl PkSession for SignSession<'_> {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        self.prepare_input(message);
        let mut mech = self.mechanism();
        // SAFETY: the mechanism's parameter (PSS) lives in self; handles of this module.
        ck("C_SignInit", unsafe {
            func!(self.m, C_SignInit)(self.session, &mut mech, self.key)
        })?;
        let (m, session, max, input) = (self.m, self.session, self.max, &self.input);
        let ecdsa = self.alg.kind == PkKind::Ecdsa;
        let out = if ecdsa { &mut self.raw } else { &mut *signature };
        fill(out, max, |out| {
            let mut n = max as CK_ULONG;
            // SAFETY: `out` has room for `max` bytes, `input` holds its length.
            let rv = unsafe { func!(m, C_Sign)(session, input.as_ptr() as *mut u8, input.len() as CK_ULONG, out, &mut n) };
            ck("C_Sign", rv)?;
            Ok(n as usize)
        })?;
        if ecdsa {
            let (r, s) = self.raw.split_at(self.raw.len() / 2);
            ecdsa_der_into(signature, r, s);
        }
        Ok(())
    }

    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        self.sig.clear();
        if self.alg.kind == PkKind::Ecdsa {
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
                Some(rs) => self.sig.extend_from_slice(rs),
                None => return Ok(false),
            }
        } else {
            self.sig.extend_from_slice(signature);
        }
        self.prepare_input(message);
        let mut mech = self.mechanism();
        // SAFETY: as in sign.
        ck("C_VerifyInit", unsafe {
            func!(self.m, C_VerifyInit)(self.session, &mut mech, self.key)
        })?;
        // SAFETY: `input` and `sig` hold their lengths.
        let rv = unsafe {
            func!(self.m, C_Verify)(
                self.session,
                self.input.as_ptr() as *mut u8,
                self.input.len() as CK_ULONG,
                self.sig.as_ptr() as *mut u8,
                self.sig.len() as CK_ULONG,
            )
        };
        match rv {
            CKR_OK => Ok(true),
            CKR_SIGNATURE_INVALID | CKR_SIGNATURE_LEN_RANGE => Ok(false),
            _ => Err(rv_error("C_Verify", rv)),
        }
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(MODULE_ALLOCATES)
    }
}

impl Drop for SignSession<'_> {
    fn drop(&mut self) {
        self.m.close(self.session);
    }
}

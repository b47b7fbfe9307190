//! ECDSA on the NIST curves through a PKCS#11 token: the run's seeded
//! private scalar and public point imported as session objects
//! (`CKK_EC`, `CKA_EC_PARAMS` the curve's OID, `CKA_VALUE` the scalar,
//! `CKA_EC_POINT` the DER OCTET STRING of the uncompressed point: PKCS#11
//! v2.40 current mechanisms, 2.3.3 and 2.3.4), signing and verifying the
//! digest with `CKM_ECDSA` (`C_SignInit` + `C_Sign`, `C_VerifyInit` +
//! `C_Verify`), whose signature is r ‖ s, converted to and from DER.

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;
use cryptoki_sys::*;

use super::module::{attr, attr_bytes, ck, field, func, rv_error, Module};
use super::sessions::MODULE_ALLOCATES;
use super::Pkcs11Library;
use crate::error::BackendError;
use crate::pk::encoding::{ecdsa_der_into, ecdsa_from_der};
use crate::pk::keys::PkKeys;
use crate::pk::{fill, KeptInput, PkLibrary, PkSession};
use crate::support::Support;

/// The DER OID of a curve (`CKA_EC_PARAMS`, RFC 5480 section 2.1.1.1) and its field length.
fn curve(alg: &PkAlgorithmSpec) -> Option<(&'static [u8], usize)> {
    Some(match alg.openssl_name {
        "P-256" => (&[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07], 32),
        "P-384" => (&[0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22], 48),
        "P-521" => (&[0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x23], 66),
        _ => return None,
    })
}

/// The DER OCTET STRING holding `point` (`CKA_EC_POINT`).
fn octet_string(point: &[u8]) -> Vec<u8> {
    let mut out = vec![0x04];
    if point.len() >= 0x80 {
        out.push(0x81);
    }
    out.push(point.len() as u8);
    out.extend_from_slice(point);
    out
}

impl PkLibrary for Pkcs11Library {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        if alg.kind != PkKind::Ecdsa || curve(alg).is_none() {
            return Support::Unsupported(format!(
                "{} (cryptobench drives ECDSA on the NIST curves only through PKCS#11 yet)",
                alg.id
            ));
        }
        if !self.module.has(CKM_ECDSA) {
            return Support::Unsupported(format!(
                "{} (the token '{}' does not list CKM_ECDSA in C_GetMechanismList)",
                alg.id,
                field(&self.module.token.label)
            ));
        }
        Support::Supported
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        if let Support::Unsupported(why) = PkLibrary::pk_support(self, alg) {
            return Err(BackendError::Unsupported(why));
        }
        let (oid, len) = curve(alg).expect("checked by pk_support");
        let m = &self.module;
        let session = m.session()?;
        let key = match op {
            Operation::Sign => private_key(m, session, oid, &keys.ec_private),
            Operation::Verify => public_key(m, session, oid, &keys.public),
            other => Err(BackendError::Unsupported(format!("{} {} cells", alg.id, other.short()))),
        };
        let key = match key {
            Ok(k) => k,
            Err(e) => {
                m.close(session);
                return Err(e);
            }
        };
        Ok(Box::new(EcdsaSession {
            m,
            session,
            key,
            len,
            alg: cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?,
            rs: Vec::new(),
            kept: KeptInput::default(),
        }))
    }

    /// What the module does is its own; SoftHSM2 calls OpenSSL's
    /// `ECDSA_do_sign`, which draws k at random.
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Random)
    }
}

fn private_key(m: &Module, session: CK_SESSION_HANDLE, oid: &[u8], scalar: &[u8]) -> Result<CK_OBJECT_HANDLE, BackendError> {
    let (class, kind, yes, no) = (CKO_PRIVATE_KEY, CKK_EC, CK_TRUE, CK_FALSE);
    let mut template = [
        attr(CKA_CLASS, &class),
        attr(CKA_KEY_TYPE, &kind),
        attr(CKA_TOKEN, &no),
        attr(CKA_PRIVATE, &no),
        attr(CKA_SENSITIVE, &no),
        attr(CKA_SIGN, &yes),
        attr_bytes(CKA_EC_PARAMS, oid),
        attr_bytes(CKA_VALUE, scalar),
    ];
    m.create(session, &mut template)
}

fn public_key(m: &Module, session: CK_SESSION_HANDLE, oid: &[u8], point: &[u8]) -> Result<CK_OBJECT_HANDLE, BackendError> {
    let (class, kind, yes, no) = (CKO_PUBLIC_KEY, CKK_EC, CK_TRUE, CK_FALSE);
    let point = octet_string(point);
    let mut template = [
        attr(CKA_CLASS, &class),
        attr(CKA_KEY_TYPE, &kind),
        attr(CKA_TOKEN, &no),
        attr(CKA_VERIFY, &yes),
        attr_bytes(CKA_EC_PARAMS, oid),
        attr_bytes(CKA_EC_POINT, &point),
    ];
    m.create(session, &mut template)
}

/// One key object in a session of its own, signing or verifying digests.
struct EcdsaSession<'a> {
    m: &'a Module,
    session: CK_SESSION_HANDLE,
    key: CK_OBJECT_HANDLE,
    /// The field's length in bytes: r and s each.
    len: usize,
    alg: &'static PkAlgorithmSpec,
    /// r ‖ s as the module writes and reads it.
    rs: Vec<u8>,
    /// A signature to verify, as r ‖ s (None: not strict DER), converted once.
    kept: KeptInput<Option<Vec<u8>>>,
}

impl EcdsaSession<'_> {
    fn mechanism() -> CK_MECHANISM {
        CK_MECHANISM {
            mechanism: CKM_ECDSA,
            pParameter: std::ptr::null_mut(),
            ulParameterLen: 0,
        }
    }
}

impl PkSession for EcdsaSession<'_> {
    fn sign(&mut self, digest: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let mut mech = Self::mechanism();
        // SAFETY: a mechanism without parameter; handles of this module.
        ck("C_SignInit", unsafe {
            func!(self.m, C_SignInit)(self.session, &mut mech, self.key)
        })?;
        let (m, session) = (self.m, self.session);
        fill(&mut self.rs, 2 * self.len, |out| {
            let mut n = (2 * self.len) as CK_ULONG;
            // SAFETY: `out` has room for r ‖ s, `digest` holds its length.
            let rv = unsafe { func!(m, C_Sign)(session, digest.as_ptr() as *mut u8, digest.len() as CK_ULONG, out, &mut n) };
            ck("C_Sign", rv)?;
            Ok(n as usize)
        })?;
        let (r, s) = self.rs.split_at(self.rs.len() / 2);
        ecdsa_der_into(signature, r, s);
        Ok(())
    }

    fn verify(&mut self, digest: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let (alg, len) = (self.alg, self.len);
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
        let Some(rs) = rs else {
            return Ok(false);
        };
        let mut mech = Self::mechanism();
        // SAFETY: a mechanism without parameter; handles of this module.
        ck("C_VerifyInit", unsafe {
            func!(self.m, C_VerifyInit)(self.session, &mut mech, self.key)
        })?;
        // SAFETY: `digest` and `rs` hold their lengths.
        let rv = unsafe {
            func!(self.m, C_Verify)(
                self.session,
                digest.as_ptr() as *mut u8,
                digest.len() as CK_ULONG,
                rs.as_ptr() as *mut u8,
                rs.len() as CK_ULONG,
            )
        };
        match rv {
            CKR_OK => Ok(true),
            CKR_SIGNATURE_INVALID | CKR_SIGNATURE_LEN_RANGE => Ok(false),
            _ => Err(rv_error("C_Verify", rv)),
        }
    }

    fn allocates(&self) -> Option<&'static str> {
        Some(MODULE_ALLOCATES)
    }
}

impl Drop for EcdsaSession<'_> {
    fn drop(&mut self) {
        self.m.close(self.session);
    }
}

//! The run's seeded keys imported into a PKCS#11 token as session objects
//! (`CKA_TOKEN` false: gone when the session closes), with the attributes
//! of PKCS#11 v3.0 (Current Mechanisms, 2.1.2-2.1.3 RSA, 2.3.3-2.3.4 EC,
//! 2.3.5-2.3.8 Edwards and Montgomery keys).

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptoki_sys::*;

use super::module::{attr, attr_bytes, Module};
use crate::error::BackendError;
use crate::pk::keys::{PkKeys, RsaParts};

/// What a key object is used for: `CKA_SIGN`, `CKA_VERIFY` or `CKA_DERIVE`.
#[derive(Clone, Copy)]
pub enum Usage {
    Sign,
    Verify,
    Derive,
}

impl Usage {
    fn attribute(self) -> CK_ATTRIBUTE_TYPE {
        match self {
            Usage::Sign => CKA_SIGN,
            Usage::Verify => CKA_VERIFY,
            Usage::Derive => CKA_DERIVE,
        }
    }

    fn class(self) -> CK_OBJECT_CLASS {
        match self {
            Usage::Verify => CKO_PUBLIC_KEY,
            Usage::Sign | Usage::Derive => CKO_PRIVATE_KEY,
        }
    }
}

/// The key type and `CKA_EC_PARAMS` of an elliptic-curve algorithm: the
/// curve's DER OID (RFC 5480 section 2.1.1.1 for the NIST curves, RFC 8410
/// section 3 for id-Ed25519 1.3.101.112 and id-X25519 1.3.101.110), and
/// the field length in bytes (r and s each, the ECDH secret).
pub fn curve(alg: &PkAlgorithmSpec) -> Option<(CK_KEY_TYPE, &'static [u8], usize)> {
    Some(match alg.openssl_name {
        "P-256" => (CKK_EC, &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07], 32),
        "P-384" => (CKK_EC, &[0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22], 48),
        "P-521" => (CKK_EC, &[0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x23], 66),
        "ED25519" => (CKK_EC_EDWARDS, &[0x06, 0x03, 0x2b, 0x65, 0x70], 32),
        "X25519" => (CKK_EC_MONTGOMERY, &[0x06, 0x03, 0x2b, 0x65, 0x6e], 32),
        _ => return None,
    })
}

/// The DER OCTET STRING holding `point` (`CKA_EC_POINT`).
pub fn octet_string(point: &[u8]) -> Vec<u8> {
    let mut out = vec![0x04];
    if point.len() >= 0x80 {
        out.push(0x81);
    }
    out.push(point.len() as u8);
    out.extend_from_slice(point);
    out
}

/// The object of `keys` for `usage` in `session`.
pub fn import(
    m: &Module,
    session: CK_SESSION_HANDLE,
    alg: &PkAlgorithmSpec,
    keys: &PkKeys,
    usage: Usage,
) -> Result<CK_OBJECT_HANDLE, BackendError> {
    let (class, yes, no) = (usage.class(), CK_TRUE, CK_FALSE);
    let mut template = vec![attr(CKA_CLASS, &class), attr(CKA_TOKEN, &no), attr(usage.attribute(), &yes)];
    if matches!(usage, Usage::Sign | Usage::Derive) {
        template.push(attr(CKA_PRIVATE, &no));
        template.push(attr(CKA_SENSITIVE, &no));
    }
    let rsa_type = CKK_RSA;
    let point;
    let ec;
    let public_rsa;
    match alg.kind {
        PkKind::RsaPkcs1 | PkKind::RsaPss => {
            let r = match &keys.rsa {
                Some(r) => r,
                None => {
                    // A public key alone (test vectors): its SubjectPublicKeyInfo.
                    public_rsa =
                        RsaParts::of_public_der(&keys.public_der).map_err(|e| BackendError::Invalid(format!("{}: {e}", alg.id)))?;
                    &public_rsa
                }
            };
            template.push(attr(CKA_KEY_TYPE, &rsa_type));
            template.push(attr_bytes(CKA_MODULUS, &r.n));
            template.push(attr_bytes(CKA_PUBLIC_EXPONENT, &r.e));
            if matches!(usage, Usage::Sign) {
                for (kind, value) in [
                    (CKA_PRIVATE_EXPONENT, &r.d),
                    (CKA_PRIME_1, &r.p),
                    (CKA_PRIME_2, &r.q),
                    (CKA_EXPONENT_1, &r.dp),
                    (CKA_EXPONENT_2, &r.dq),
                    (CKA_COEFFICIENT, &r.qinv),
                ] {
                    template.push(attr_bytes(kind, value));
                }
            }
        }
        _ => {
            let (kind, oid, _) = curve(alg).ok_or_else(|| BackendError::Unsupported(format!("{} key objects", alg.id)))?;
            ec = kind;
            template.push(attr(CKA_KEY_TYPE, &ec));
            template.push(attr_bytes(CKA_EC_PARAMS, oid));
            match usage {
                Usage::Verify => {
                    point = octet_string(&keys.public);
                    template.push(attr_bytes(CKA_EC_POINT, &point));
                }
                // EC: the private scalar; Edwards and Montgomery: the raw private key (the seed).
                Usage::Sign | Usage::Derive if kind == CKK_EC => template.push(attr_bytes(CKA_VALUE, &keys.ec_private)),
                Usage::Sign | Usage::Derive => template.push(attr_bytes(CKA_VALUE, &keys.seed)),
            }
        }
    }
    m.create(session, &mut template)
}

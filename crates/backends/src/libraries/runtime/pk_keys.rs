//! The seeded key material (crates/backends/src/pk/keys.rs) in the two
//! encodings every runtime imports without a parser of ours: a private key
//! as PKCS#8 (RFC 5208; RFC 8410 for the Edwards and Montgomery curves) and
//! a public key as SubjectPublicKeyInfo (RFC 5280 §4.1.2.7). Go's
//! `x509.ParsePKCS8PrivateKey`, pyca's `load_der_private_key`, Node's
//! `createPrivateKey({format: 'der', type: 'pkcs8'})` and Java's
//! `PKCS8EncodedKeySpec` all take them. ML-KEM and ML-DSA keys are their
//! seeds (d‖z, FIPS 203 §7.1; ξ, FIPS 204 §6.1) and ML-DSA public keys
//! their raw encoding, which is how the runtimes import them.

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};

use crate::error::BackendError;
use crate::pk::keys::PkKeys;

/// One DER element: tag, definite length (X.690 §8.1.3), body.
fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = body.len();
    match n {
        0..=0x7f => out.push(n as u8),
        0x80..=0xff => out.extend([0x81, n as u8]),
        _ => out.extend([0x82, (n >> 8) as u8, n as u8]),
    }
    out.extend_from_slice(body);
    out
}

/// An unsigned big-endian integer as a DER INTEGER.
fn integer(v: &[u8]) -> Vec<u8> {
    let start = v.iter().position(|&b| b != 0).unwrap_or(v.len().saturating_sub(1));
    let v = &v[start..];
    let mut body = Vec::with_capacity(v.len() + 1);
    if v.first().is_none_or(|b| b & 0x80 != 0) {
        body.push(0);
    }
    body.extend_from_slice(v);
    tlv(0x02, &body)
}

/// The OID of an RFC 8410 curve: id-X25519 1.3.101.110, id-X448 .111,
/// id-Ed25519 .112, id-Ed448 .113.
fn rfc8410_oid(alg: &PkAlgorithmSpec) -> Option<Vec<u8>> {
    let last = match alg.openssl_name {
        "X25519" => 0x6e,
        "X448" => 0x6f,
        "ED25519" => 0x70,
        "ED448" => 0x71,
        _ => return None,
    };
    Some(tlv(0x06, &[0x2b, 0x65, last]))
}

/// The named curve of an EC key (RFC 5480 §2.1.1.1): prime256v1
/// 1.2.840.10045.3.1.7, secp384r1 1.3.132.0.34, secp521r1 1.3.132.0.35.
fn curve_oid(alg: &PkAlgorithmSpec) -> Option<Vec<u8>> {
    let body: &[u8] = match alg.openssl_name {
        "P-256" => &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07],
        "P-384" => &[0x2b, 0x81, 0x04, 0x00, 0x22],
        "P-521" => &[0x2b, 0x81, 0x04, 0x00, 0x23],
        _ => return None,
    };
    Some(tlv(0x06, body))
}

/// id-ecPublicKey 1.2.840.10045.2.1 (RFC 5480 §2.1.1).
const EC_PUBLIC_KEY: &[u8] = &[0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
/// rsaEncryption 1.2.840.113549.1.1.1 with its NULL parameters (RFC 8017 §A.1).
const RSA_ENCRYPTION: &[u8] = &[0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00];

fn bad(alg: &PkAlgorithmSpec, what: impl std::fmt::Display) -> BackendError {
    BackendError::Invalid(format!("{}: {what}", alg.id))
}

/// The private key a driver imports: PKCS#8, or the seed of ML-KEM. Empty
/// for a key that holds a public key alone (verification vectors).
pub fn private_key(alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
    if keys.is_public_only() {
        return Ok(Vec::new());
    }
    if alg.is_rsa() {
        use rsa::pkcs1::DecodeRsaPrivateKey;
        use rsa::pkcs8::EncodePrivateKey;
        let key = rsa::RsaPrivateKey::from_pkcs1_der(&keys.private_der).map_err(|e| bad(alg, e))?;
        return Ok(key.to_pkcs8_der().map_err(|e| bad(alg, e))?.as_bytes().to_vec());
    }
    if let Some(oid) = rfc8410_oid(alg) {
        // OneAsymmetricKey v1 whose privateKey is CurvePrivateKey, an OCTET STRING (RFC 8410 §7).
        let body = [integer(&[0]), tlv(0x30, &oid), tlv(0x04, &tlv(0x04, &keys.seed))].concat();
        return Ok(tlv(0x30, &body));
    }
    match alg.kind {
        PkKind::MlKem | PkKind::MlDsa => Ok(keys.seed.clone()),
        PkKind::Ecdsa | PkKind::Ecdh => {
            macro_rules! pkcs8 {
                ($c:ident) => {{
                    use $c::pkcs8::EncodePrivateKey;
                    let secret = $c::SecretKey::from_slice(&keys.ec_private).map_err(|e| bad(alg, e))?;
                    Ok(secret.to_pkcs8_der().map_err(|e| bad(alg, e))?.as_bytes().to_vec())
                }};
            }
            match alg.openssl_name {
                "P-256" => pkcs8!(p256),
                "P-384" => pkcs8!(p384),
                "P-521" => pkcs8!(p521),
                other => Err(bad(alg, format!("no EC curve {other}"))),
            }
        }
        _ => Err(BackendError::Unsupported(format!("{} keys for a runtime's driver", alg.id))),
    }
}

/// The SubjectPublicKeyInfo of `keys`: its own DER where known, else built
/// from the raw public key; `computed` is the public key as the driver
/// computes it from the private key, asked for only where `keys` holds no
/// public key (X448, Ed448). Empty for ML-KEM, whose driver takes the
/// seed; raw for ML-DSA.
pub fn spki(
    alg: &PkAlgorithmSpec,
    keys: &PkKeys,
    computed: impl FnOnce() -> Result<Vec<u8>, BackendError>,
) -> Result<Vec<u8>, BackendError> {
    if alg.kind == PkKind::MlKem {
        return Ok(Vec::new());
    }
    if alg.kind == PkKind::MlDsa {
        return if keys.public.is_empty() {
            computed()
        } else {
            Ok(keys.public.clone())
        };
    }
    if !keys.public_der.is_empty() {
        return Ok(keys.public_der.clone());
    }
    let bit_string = |raw: &[u8]| tlv(0x03, &[&[0u8][..], raw].concat());
    if alg.is_rsa() {
        let parts = keys.rsa.as_ref().ok_or_else(|| bad(alg, "the key has no RSA modulus"))?;
        let public = tlv(0x30, &[integer(&parts.n), integer(&parts.e)].concat());
        return Ok(tlv(0x30, &[tlv(0x30, RSA_ENCRYPTION), bit_string(&public)].concat()));
    }
    let raw = if keys.public.is_empty() { computed()? } else { keys.public.clone() };
    if let Some(oid) = rfc8410_oid(alg) {
        return Ok(tlv(0x30, &[tlv(0x30, &oid), bit_string(&raw)].concat()));
    }
    match curve_oid(alg) {
        Some(curve) => Ok(tlv(
            0x30,
            &[tlv(0x30, &[EC_PUBLIC_KEY, &curve].concat()), bit_string(&raw)].concat(),
        )),
        None => Err(BackendError::Unsupported(format!("{} public keys for a runtime's driver", alg.id))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pk::keys::keys_for;

    fn alg(id: &str) -> &'static PkAlgorithmSpec {
        cryptobench_core::pk::find(id).unwrap()
    }

    #[test]
    fn ec_public_keys_built_from_the_point_match_the_crates_der() {
        for id in ["ecdsap256", "ecdsap384", "ecdsap521"] {
            let mut keys = (*keys_for(alg(id), 7)).clone();
            let expected = std::mem::take(&mut keys.public_der);
            assert_eq!(spki(alg(id), &keys, || unreachable!()).unwrap(), expected, "{id}");
        }
    }

    #[test]
    fn rsa_public_keys_built_from_the_parts_match_the_crates_der() {
        let mut keys = (*keys_for(alg("rsa2048"), 7)).clone();
        let expected = std::mem::take(&mut keys.public_der);
        assert_eq!(spki(alg("rsa2048"), &keys, || unreachable!()).unwrap(), expected);
    }

    #[test]
    fn ed25519_keys_are_the_rfc_8410_encodings() {
        // RFC 8410 §10.3's example private key and its SPKI from §10.1's prefix.
        let keys = PkKeys {
            seed: (0u8..32).collect(),
            public: vec![0xab; 32],
            ..PkKeys::default()
        };
        let der = private_key(alg("ed25519"), &keys).unwrap();
        assert_eq!(
            &der[..16],
            &[0x30, 0x2e, 2, 1, 0, 0x30, 5, 6, 3, 0x2b, 0x65, 0x70, 4, 0x22, 4, 0x20]
        );
        assert_eq!(&der[16..], keys.seed.as_slice());
        let public = spki(alg("ed25519"), &keys, || unreachable!()).unwrap();
        assert_eq!(&public[..12], &[0x30, 0x2a, 0x30, 5, 6, 3, 0x2b, 0x65, 0x70, 3, 0x21, 0]);
    }

    #[test]
    fn a_missing_public_key_is_asked_for() {
        let keys = PkKeys {
            seed: vec![1; 56],
            ..PkKeys::default()
        };
        let public = spki(alg("x448"), &keys, || Ok(vec![9; 56])).unwrap();
        assert_eq!(public.len(), 12 + 56);
        assert_eq!(&public[public.len() - 56..], &[9; 56]);
    }
}

//! The run's keys, data and signatures as libgcrypt's S-expressions, and
//! the byte strings cryptobench compares read back out of them. Keys are
//! the run's keys written out (gcrypt's `u` is p⁻¹ mod q with p < q:
//! [`gcrypt_primes`]).

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};

use super::pk_api::S;
use crate::error::BackendError;
use crate::pk::encoding::{ecdsa_der_into, ecdsa_from_der, pad_into};
use crate::pk::keys::{PkKeys, RsaParts};

/// An S-expression's hex string of `bytes`.
pub fn h(bytes: &[u8]) -> String {
    format!("#{}#", hex::encode(bytes))
}

fn curve_name(alg: &PkAlgorithmSpec) -> &'static str {
    match alg.openssl_name {
        "P-256" => "NIST P-256",
        "P-384" => "NIST P-384",
        "P-521" => "NIST P-521",
        _ => "Ed25519",
    }
}

/// The primes and CRT coefficient as libgcrypt's secret key takes them:
/// p < q and u = p⁻¹ mod q (libgcrypt manual, "RSA key parameters"). PKCS#1
/// gives qInv = q⁻¹ mod p for primes in either order; with p > q libgcrypt's
/// CRT step goes wrong for some inputs (about 1 in 270 PSS signatures of an
/// imported key did not verify, by libgcrypt or RustCrypto).
fn gcrypt_primes(keys: &PkKeys, r: &RsaParts) -> Result<[Vec<u8>; 3], BackendError> {
    use rsa::pkcs1::DecodeRsaPrivateKey;
    use rsa::traits::{PrivateKeyParts, PublicKeyParts};
    let below = |a: &[u8], b: &[u8]| (a.len(), a) < (b.len(), b);
    if below(&r.q, &r.p) {
        // q < p: gcrypt's p is PKCS#1's q, and qInv is the inverse it wants.
        return Ok([r.q.clone(), r.p.clone(), r.qinv.clone()]);
    }
    // p < q: p⁻¹ mod q, the qInv of the same key with its primes given the other way round.
    let invalid = |e: rsa::Error| BackendError::Invalid(format!("RSA key: {e}"));
    let key = rsa::RsaPrivateKey::from_pkcs1_der(&keys.private_der).map_err(|e| BackendError::Invalid(format!("RSA key: {e}")))?;
    let primes = key.primes();
    let swapped = rsa::RsaPrivateKey::from_components(
        key.n().as_ref().clone(),
        key.e().clone(),
        key.d().clone(),
        vec![primes[1].as_ref().clone(), primes[0].as_ref().clone()],
    )
    .map_err(invalid)?;
    let u = swapped
        .qinv()
        .map(|m| m.retrieve().to_be_bytes().to_vec())
        .ok_or_else(|| BackendError::Invalid("RSA key without a CRT coefficient".into()))?;
    Ok([r.p.clone(), r.q.clone(), u])
}

/// The key S-expressions (private, public) of `keys`; the private one is
/// empty for a public key alone.
pub fn key_texts(alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<(String, String), BackendError> {
    if let Some(r) = &keys.rsa {
        let public = format!("(public-key (rsa (n {})(e {})))", h(&r.n), h(&r.e));
        let [p, q, u] = gcrypt_primes(keys, r)?;
        let private = format!(
            "(private-key (rsa (n {})(e {})(d {})(p {})(q {})(u {})))",
            h(&r.n),
            h(&r.e),
            h(&r.d),
            h(&p),
            h(&q),
            h(&u)
        );
        return Ok((private, public));
    }
    if alg.is_rsa() {
        use rsa::pkcs8::DecodePublicKey;
        use rsa::traits::PublicKeyParts;
        let k = rsa::RsaPublicKey::from_public_key_der(&keys.public_der).map_err(|e| BackendError::Invalid(e.to_string()))?;
        let public = format!(
            "(public-key (rsa (n {})(e {})))",
            h(&k.n().as_ref().to_be_bytes()),
            h(&k.e().to_be_bytes())
        );
        return Ok((String::new(), public));
    }
    match alg.kind {
        PkKind::Ecdsa => {
            let public = if keys.public.is_empty() {
                crate::pk::keys::ec_keys_from_scalar(alg, &keys.ec_private)
                    .map_err(BackendError::Invalid)?
                    .public
            } else {
                keys.public.clone()
            };
            let curve = curve_name(alg);
            Ok((
                format!(
                    "(private-key (ecc (curve \"{curve}\")(q {})(d {})))",
                    h(&public),
                    h(&keys.ec_private)
                ),
                format!("(public-key (ecc (curve \"{curve}\")(q {})))", h(&public)),
            ))
        }
        _ => {
            // Ed25519: the public key in gcrypt's prefixed form (0x40 ‖ A).
            let public = if keys.public.is_empty() {
                let s: [u8; 32] = keys
                    .seed
                    .as_slice()
                    .try_into()
                    .map_err(|_| BackendError::Invalid("an Ed25519 key is 32 bytes".into()))?;
                ed25519_dalek::SigningKey::from_bytes(&s).verifying_key().to_bytes().to_vec()
            } else {
                keys.public.clone()
            };
            let q = [&[0x40u8][..], &public].concat();
            Ok((
                format!("(private-key (ecc (curve Ed25519)(flags eddsa)(q {})(d {})))", h(&q), h(&keys.seed)),
                format!("(public-key (ecc (curve Ed25519)(flags eddsa)(q {})))", h(&q)),
            ))
        }
    }
}

/// The data S-expression of a signature over `message` (a digest for RSA and ECDSA).
pub fn sign_data(alg: &PkAlgorithmSpec, message: &[u8]) -> String {
    match alg.kind {
        PkKind::RsaPkcs1 => format!("(data (flags pkcs1)(hash sha256 {}))", h(message)),
        PkKind::RsaPss => format!("(data (flags pss)(salt-length 2:32)(hash sha256 {}))", h(message)),
        PkKind::Ecdsa => format!("(data (flags raw)(value {}))", h(message)),
        _ => format!("(data (flags eddsa)(hash-algo sha512)(value {}))", h(message)),
    }
}

/// The data S-expression RSA-OAEP encrypts.
pub fn oaep_data(message: &[u8]) -> String {
    format!("(data (flags oaep)(hash-algo sha256)(value {}))", h(message))
}

/// The S-expression of an RSA-OAEP ciphertext.
pub fn oaep_ciphertext(ciphertext: &[u8]) -> String {
    format!("(enc-val (flags oaep)(hash-algo sha256)(rsa (a {})))", h(ciphertext))
}

/// The parameters `gcry_pk_genkey` makes a key of `alg` with.
pub fn genkey_parameters(alg: &PkAlgorithmSpec) -> String {
    if alg.is_rsa() {
        format!("(genkey (rsa (nbits {}:{})))", alg.bits.to_string().len(), alg.bits)
    } else if alg.kind == PkKind::Ecdsa {
        format!("(genkey (ecc (curve \"{}\")))", curve_name(alg))
    } else {
        "(genkey (ecc (curve Ed25519)(flags eddsa)))".to_string()
    }
}

/// The (sig-val …) S-expression of signature bytes; None for bytes that are no signature.
pub fn signature_text(alg: &PkAlgorithmSpec, sig: &[u8]) -> Option<String> {
    Some(match alg.kind {
        // gcrypt takes the signature as an integer: the octet string's length check of
        // RFC 8017 §8.1.2/§8.2.2 step 1 (exactly k bytes) is the caller's.
        PkKind::RsaPkcs1 | PkKind::RsaPss if sig.len() != alg.rsa_bytes() => return None,
        PkKind::RsaPkcs1 | PkKind::RsaPss => format!("(sig-val (rsa (s {})))", h(sig)),
        PkKind::Ecdsa => {
            let (r, s) = ecdsa_from_der(alg, sig)?;
            format!("(sig-val (ecdsa (r {})(s {})))", h(&r), h(&s))
        }
        _ if sig.len() == 64 => format!("(sig-val (eddsa (r {})(s {})))", h(&sig[..32]), h(&sig[32..])),
        _ => return None,
    })
}

/// Copies the big-endian integer `v` into `out`, left-padded to its length.
fn padded(out: &mut [u8], v: &[u8]) {
    let v = &v[v.len().saturating_sub(out.len())..];
    let split = out.len() - v.len();
    out[..split].fill(0);
    out[split..].copy_from_slice(v);
}

/// The signature bytes of a (sig-val …) S-expression into `out`, without
/// allocating once `out` has grown: RSA's s of the modulus's length,
/// ECDSA's (r, s) in DER, Ed25519's r ‖ s.
pub fn write_signature(alg: &PkAlgorithmSpec, sig: &S<'_>, out: &mut Vec<u8>) -> Result<(), BackendError> {
    let missing = || BackendError::Invalid("gcrypt's signature lacks its values".into());
    match alg.kind {
        PkKind::RsaPkcs1 | PkKind::RsaPss => sig.with_value("s", |s| pad_into(out, s, alg.rsa_bytes())).ok_or_else(missing),
        PkKind::Ecdsa => {
            // P-521's 66 bytes are the longest.
            let n = alg.bits.div_ceil(8) as usize;
            let (mut r, mut s) = ([0u8; 66], [0u8; 66]);
            let (r, s) = (&mut r[..n], &mut s[..n]);
            sig.with_value("r", |v| padded(r, v)).ok_or_else(missing)?;
            sig.with_value("s", |v| padded(s, v)).ok_or_else(missing)?;
            ecdsa_der_into(out, r, s);
            Ok(())
        }
        _ => {
            let mut rs = [0u8; 64];
            let (r, s) = rs.split_at_mut(32);
            sig.with_value("r", |v| padded(r, v)).ok_or_else(missing)?;
            sig.with_value("s", |v| padded(s, v)).ok_or_else(missing)?;
            out.clear();
            out.extend_from_slice(&rs);
            Ok(())
        }
    }
}

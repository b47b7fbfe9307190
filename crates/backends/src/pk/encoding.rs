//! Encodings of public-key values that libraries working on big integers
//! (libgcrypt's S-expressions, Nettle's GMP integers) need converted to the
//! byte strings cryptobench compares: fixed-length big-endian integers and
//! ECDSA signatures in DER (SEC 1 §C.8), as OpenSSL and RustCrypto give them.

use cryptobench_core::pk::PkAlgorithmSpec;

/// Left-pads a big-endian integer to `n` bytes.
pub fn pad(v: &[u8], n: usize) -> Vec<u8> {
    let v = &v[v.len().saturating_sub(n)..];
    let mut out = vec![0u8; n - v.len()];
    out.extend_from_slice(v);
    out
}

/// DER of an ECDSA signature (r, s) (SEC 1 §C.8).
pub fn ecdsa_der(r: &[u8], s: &[u8]) -> Vec<u8> {
    fn int(v: &[u8]) -> Vec<u8> {
        let start = v.iter().position(|&b| b != 0).unwrap_or(v.len().saturating_sub(1));
        let mut body = v[start..].to_vec();
        if body.is_empty() {
            body.push(0);
        }
        if body[0] & 0x80 != 0 {
            body.insert(0, 0);
        }
        let mut out = vec![0x02];
        out.extend(len(body.len()));
        out.extend(body);
        out
    }
    fn len(n: usize) -> Vec<u8> {
        if n < 0x80 {
            vec![n as u8]
        } else {
            vec![0x81, n as u8]
        }
    }
    let body = [int(r), int(s)].concat();
    let mut out = vec![0x30];
    out.extend(len(body.len()));
    out.extend(body);
    out
}

/// (r, s) of a DER ECDSA signature, or None when it is not strict DER.
pub fn ecdsa_from_der(alg: &PkAlgorithmSpec, der: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    macro_rules! split {
        ($c:ident) => {{
            let sig = $c::ecdsa::Signature::from_der(der).ok()?;
            let (r, s) = sig.split_bytes();
            Some((r.to_vec(), s.to_vec()))
        }};
    }
    match alg.openssl_name {
        "P-256" => split!(p256),
        "P-384" => split!(p384),
        _ => split!(p521),
    }
}

//! Encodings of public-key values that libraries working on big integers
//! (libgcrypt's S-expressions, Nettle's GMP integers) need converted to the
//! byte strings cryptobench compares: fixed-length big-endian integers and
//! ECDSA signatures in DER (SEC 1 §C.8), as OpenSSL and RustCrypto give them.

use cryptobench_core::pk::PkAlgorithmSpec;

/// Left-pads a big-endian integer to `n` bytes.
pub fn pad(v: &[u8], n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n);
    pad_into(&mut out, v, n);
    out
}

/// [`pad`] into `out` (cleared first): no allocation once `out` has grown to `n`.
pub fn pad_into(out: &mut Vec<u8>, v: &[u8], n: usize) {
    let v = &v[v.len().saturating_sub(n)..];
    out.clear();
    out.resize(n - v.len(), 0);
    out.extend_from_slice(v);
}

/// DER of an ECDSA signature (r, s) (SEC 1 §C.8).
pub fn ecdsa_der(r: &[u8], s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    ecdsa_der_into(&mut out, r, s);
    out
}

/// [`ecdsa_der`] into `out` (cleared first): no allocation once `out` has
/// grown to the signature's length.
pub fn ecdsa_der_into(out: &mut Vec<u8>, r: &[u8], s: &[u8]) {
    /// The minimal two's-complement body of an unsigned integer: its
    /// significant bytes, with a 0 before a high bit; (leading 0?, bytes).
    fn body(v: &[u8]) -> (bool, &[u8]) {
        let start = v.iter().position(|&b| b != 0).unwrap_or(v.len().saturating_sub(1));
        let v = &v[start..];
        match v.first() {
            None => (true, v),
            Some(b) => (b & 0x80 != 0, v),
        }
    }
    fn len(out: &mut Vec<u8>, n: usize) {
        if n >= 0x80 {
            out.push(0x81);
        }
        out.push(n as u8);
    }
    fn int(out: &mut Vec<u8>, (zero, v): (bool, &[u8])) {
        out.push(0x02);
        len(out, v.len() + usize::from(zero));
        if zero {
            out.push(0);
        }
        out.extend_from_slice(v);
    }
    let (r, s) = (body(r), body(s));
    let int_len = |(zero, v): (bool, &[u8])| {
        let n = v.len() + usize::from(zero);
        2 + usize::from(n >= 0x80) + n
    };
    out.clear();
    out.push(0x30);
    len(out, int_len(r) + int_len(s));
    int(out, r);
    int(out, s);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn der_integers_are_minimal_and_unsigned() {
        assert_eq!(ecdsa_der(&[0, 0, 1], &[0x80]), vec![0x30, 7, 2, 1, 1, 2, 2, 0, 0x80]);
        assert_eq!(ecdsa_der(&[0, 0], &[]), vec![0x30, 6, 2, 1, 0, 2, 1, 0]);
        // P-521: a body of 0x80 bytes or more takes a long-form length.
        let r = [0x7fu8; 66];
        let der = ecdsa_der(&r, &r);
        assert_eq!(&der[..3], &[0x30, 0x81, 136]);
        assert_eq!(&der[3..5], &[2, 66]);
        let mut out = Vec::with_capacity(200);
        ecdsa_der_into(&mut out, &r, &r);
        assert_eq!(out, der);
    }

    #[test]
    fn padding_keeps_the_low_bytes() {
        assert_eq!(pad(&[1, 2], 4), vec![0, 0, 1, 2]);
        assert_eq!(pad(&[1, 2, 3], 2), vec![2, 3]);
        let mut out = vec![9; 8];
        pad_into(&mut out, &[5], 3);
        assert_eq!(out, vec![0, 0, 5]);
    }
}

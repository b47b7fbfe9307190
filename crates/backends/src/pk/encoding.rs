//! Encodings of public-key values that libraries working on big integers
//! (libgcrypt's S-expressions, Nettle's GMP integers) need converted to the
//! byte strings cryptobench compares: fixed-length big-endian integers and
//! ECDSA signatures in DER (SEC 1 §C.8), as OpenSSL and RustCrypto give them;
//! and the SubjectPublicKeyInfo of an EC point, for the EVP libraries that
//! load public keys from DER alone.

use cryptobench_core::pk::PkAlgorithmSpec;

/// A big-endian integer left-padded to `n` bytes (its low `n` bytes where
/// it is longer) into `out`, cleared first: no allocation once `out` has
/// grown to `n`.
pub fn pad_into(out: &mut Vec<u8>, v: &[u8], n: usize) {
    let v = &v[v.len().saturating_sub(n)..];
    out.clear();
    out.resize(n - v.len(), 0);
    out.extend_from_slice(v);
}

/// SubjectPublicKeyInfo of an uncompressed EC point (RFC 5480 §2): the
/// fixed prefix of the curve, then the point.
pub fn ec_spki(alg: &PkAlgorithmSpec, point: &[u8]) -> Vec<u8> {
    let prefix = match alg.openssl_name {
        "P-256" => "3059301306072a8648ce3d020106082a8648ce3d030107034200",
        "P-384" => "3076301006072a8648ce3d020106052b81040022036200",
        _ => "30819b301006072a8648ce3d020106052b8104002303818600",
    };
    let mut der = hex::decode(prefix).expect("hex");
    der.extend_from_slice(point);
    der
}

/// The uncompressed point at the end of an EC SubjectPublicKeyInfo.
pub fn point_of_spki(alg: &PkAlgorithmSpec, der: &[u8]) -> Vec<u8> {
    let n = 1 + 2 * alg.bits.div_ceil(8) as usize;
    der[der.len().saturating_sub(n)..].to_vec()
}

/// DER of an ECDSA signature (r, s) (SEC 1 §C.8) into `out`, cleared
/// first: no allocation once `out` has grown to the signature's length.
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

    fn der(r: &[u8], s: &[u8]) -> Vec<u8> {
        let mut out = vec![9; 3];
        ecdsa_der_into(&mut out, r, s);
        out
    }

    fn pad(v: &[u8], n: usize) -> Vec<u8> {
        let mut out = vec![9; 8];
        pad_into(&mut out, v, n);
        out
    }

    #[test]
    fn der_integers_are_minimal_and_unsigned() {
        assert_eq!(der(&[0, 0, 1], &[0x80]), vec![0x30, 7, 2, 1, 1, 2, 2, 0, 0x80]);
        assert_eq!(der(&[0, 0], &[]), vec![0x30, 6, 2, 1, 0, 2, 1, 0]);
        // P-521: a body of 0x80 bytes or more takes a long-form length.
        let r = [0x7fu8; 66];
        let der = der(&r, &r);
        assert_eq!(&der[..3], &[0x30, 0x81, 136]);
        assert_eq!(&der[3..5], &[2, 66]);
        assert_eq!(der.len(), 3 + 2 * 68);
    }

    #[test]
    fn der_matches_the_rust_crates_encoding() {
        use p256::ecdsa::Signature;
        let (r, s) = ([0x80u8; 32], [1u8; 32]);
        let expected = Signature::from_scalars(r, s).unwrap().to_der();
        assert_eq!(der(&r, &s), expected.as_bytes());
    }

    #[test]
    fn padding_keeps_the_low_bytes() {
        assert_eq!(pad(&[1, 2], 4), vec![0, 0, 1, 2]);
        assert_eq!(pad(&[1, 2, 3], 2), vec![2, 3]);
        assert_eq!(pad(&[5], 1), vec![5]);
    }
}

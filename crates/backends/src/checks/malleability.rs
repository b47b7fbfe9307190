//! The malleability check, before any signature cell is timed: a valid
//! signature of the library's own, made non-canonical without changing
//! what it signs mod the group order (S + L for EdDSA, s + n for ECDSA
//! and RSA), must be rejected. A library that accepts it has a defect
//! (crates/core/src/defect.rs), reported with the rule and the mutated
//! bytes; the tamper checks of pk_verify.rs, which flip bits a verifier
//! must examine, stay failures of their own.
//!
//! Where cryptobench converts a DER signature for the library (libgcrypt,
//! Nettle: crates/backends/src/pk/encoding.rs) the conversion rejects an
//! ECDSA s ≥ n first, so for those the ECDSA mutation checks that path.

use cryptobench_core::defect::Defect;
use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use crate::checks::defects::Library;
use crate::known_defects::{KnownDefect, Mutation};
use crate::pk::encoding::{ecdsa_der_into, ecdsa_from_der};
use crate::pk::keys::{seeded_bytes, PkKeys};
use crate::pk::PkBackend;

/// Ed25519's group order L = 2^252 + 27742317777372353535851937790883648493
/// (RFC 8032 §5.1), little-endian as S is encoded.
const ED25519_L: [u8; 32] = hex_le("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010");

/// Ed448's group order L = 2^446 − 13818066809895115352007386748515426880336692474882178609894547503885
/// (RFC 8032 §5.2), little-endian in 57 bytes as S is encoded.
const ED448_L: [u8; 57] =
    hex_le("f34458ab92c27823558fc58d72c26c219036d6ae49db4ec4e923ca7cffffffffffffffffffffffffffffffffffffffffffffffffffffff3f00");

/// How many signatures an RSA check tries for one whose s + n still fits the modulus's length.
const RSA_TRIES: u64 = 64;

/// Bytes from hex at compile time.
const fn hex_le<const N: usize>(hex: &str) -> [u8; N] {
    const fn nibble(c: u8) -> u8 {
        match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            _ => panic!("not lowercase hex"),
        }
    }
    let h = hex.as_bytes();
    assert!(h.len() == 2 * N, "hex of the wrong length");
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = nibble(h[2 * i]) << 4 | nibble(h[2 * i + 1]);
        i += 1;
    }
    out
}

/// a + b of two unsigned integers of `a.len()` bytes, little-endian; None on overflow.
fn add_le(a: &[u8], b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(a.len());
    let mut carry = 0u16;
    for (i, x) in a.iter().enumerate() {
        let sum = u16::from(*x) + u16::from(b.get(i).copied().unwrap_or(0)) + carry;
        out.push(sum as u8);
        carry = sum >> 8;
    }
    (carry == 0 && b.iter().skip(a.len()).all(|&x| x == 0)).then_some(out)
}

/// a + b of two unsigned big-endian integers, in `len` bytes; None when it does not fit.
fn add_be(a: &[u8], b: &[u8], len: usize) -> Option<Vec<u8>> {
    let rev = |v: &[u8]| v.iter().rev().copied().collect::<Vec<u8>>();
    let mut sum = add_le(&rev(a), &rev(b)).or_else(|| {
        // One byte more for the carry, then see whether it fits `len`.
        let mut wide = rev(a);
        wide.push(0);
        add_le(&wide, &rev(b))
    })?;
    while sum.len() > len && sum.last() == Some(&0) {
        sum.pop();
    }
    if sum.len() > len {
        return None;
    }
    sum.resize(len, 0);
    sum.reverse();
    Some(sum)
}

/// The group order n of an ECDSA curve, big-endian: the curve crate's
/// scalar −1, plus one (so no constant is written here).
fn ecdsa_order(alg: &PkAlgorithmSpec) -> Vec<u8> {
    use p256::elliptic_curve::PrimeField;
    let minus_one = match alg.openssl_name {
        "P-256" => (-p256::Scalar::ONE).to_repr().to_vec(),
        "P-384" => (-p384::Scalar::ONE).to_repr().to_vec(),
        _ => (-p521::Scalar::ONE).to_repr().to_vec(),
    };
    add_be(&minus_one, &[1], minus_one.len()).expect("n − 1 + 1 fits")
}

/// One non-canonical signature: which mutation, the signed message, the bytes.
struct Mutated {
    mutation: Mutation,
    message: Vec<u8>,
    signature: Vec<u8>,
    /// Which bytes changed and how, for the report.
    what: String,
    rule: &'static str,
}

/// The non-canonical signatures of `alg` made from the library's own
/// signatures (`sign`), with the check's rule; empty for algorithms without one.
fn mutations(pk: &dyn PkBackend, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<Mutated>, String> {
    let message = seeded_bytes("malleability", 1, alg.message_len.max(1));
    let sign = |m: &[u8]| pk.sign(alg, keys, m).map_err(|e| format!("signing: {e}"));
    let mut out = Vec::new();
    match alg.kind {
        PkKind::EdDsa => {
            let sig = sign(&message)?;
            let half = sig.len() / 2;
            let (r, s) = sig.split_at(half);
            let l: &[u8] = if half == 32 { &ED25519_L } else { &ED448_L };
            let rule = if half == 32 {
                "RFC 8032 §5.1.7: S is decoded as an integer in the range 0 <= s < L, else the signature is invalid"
            } else {
                "RFC 8032 §5.2.7: S is decoded as an integer in the range 0 <= S < L, else the signature is invalid"
            };
            let plus_l = add_le(s, l).ok_or("S + L does not fit its encoding")?;
            out.push(Mutated {
                mutation: Mutation::EddsaSPlusL,
                signature: [r, &plus_l].concat(),
                what: format!("S (bytes {half}..{} of the signature) replaced by S + L", sig.len()),
                message: message.clone(),
                rule,
            });
            if half == 57 {
                // The 57th byte of S, always 0 for S < L < 2^446: set to 1, S + 2^448.
                let mut high = sig.clone();
                high[sig.len() - 1] ^= 1;
                out.push(Mutated {
                    mutation: Mutation::Ed448SPlus2Pow448,
                    signature: high,
                    what: format!("the last byte (the 57th of S) 0x00 -> 0x01: S + 2^448 (byte {})", sig.len() - 1),
                    message,
                    rule,
                });
            }
        }
        PkKind::Ecdsa => {
            let sig = sign(&message)?;
            let (r, s) = ecdsa_from_der(alg, &sig).ok_or("the library's signature is not strict DER")?;
            let n = ecdsa_order(alg);
            let s_plus_n = add_be(&s, &n, n.len() + 1).expect("one byte more holds s + n");
            let mut der = Vec::new();
            ecdsa_der_into(&mut der, &r, &s_plus_n);
            out.push(Mutated {
                mutation: Mutation::EcdsaSPlusN,
                signature: der,
                what: "s replaced by s + n in the DER signature".into(),
                message,
                rule: "FIPS 186-5 §6.4.2 step 1 (SEC 1 v2 §4.1.4): r and s must be integers in [1, n - 1], else the signature is invalid",
            });
        }
        PkKind::RsaPkcs1 | PkKind::RsaPss => {
            let n = &keys.rsa.as_ref().ok_or("an RSA key without its modulus")?.n;
            for i in 0..RSA_TRIES {
                let m = seeded_bytes("malleability", i, alg.message_len.max(1));
                let sig = sign(&m)?;
                // Only an s + n below 2^(8k) keeps the signature's length k.
                if let Some(plus_n) = add_be(&sig, n, sig.len()) {
                    out.push(Mutated {
                        mutation: Mutation::RsaSPlusN,
                        signature: plus_n,
                        what: format!("s replaced by s + n (signature {i} whose s + n still fits {} bytes)", sig.len()),
                        message: m,
                        rule:
                            "RFC 8017 §5.2.2 (RSAVP1) step 1: s must be between 0 and n - 1, else 'signature representative out of range'",
                    });
                    break;
                }
            }
        }
        _ => {}
    }
    Ok(out)
}

/// Runs the malleability check of `alg` (EdDSA, ECDSA, RSA signatures):
/// the checks that passed, and the defects found.
pub fn check(pk: &dyn PkBackend, alg: &PkAlgorithmSpec, keys: &PkKeys, library: &Library) -> Result<(usize, Vec<Defect>), String> {
    let mut passed = 0;
    let mut defects = Vec::new();
    for m in mutations(pk, alg, keys)? {
        // An error is a rejection, as a verifier that refuses the encoding outright rejects it.
        if !pk.verify(alg, keys, &m.message, &m.signature).unwrap_or(false) {
            passed += 1;
            continue;
        }
        defects.push(Defect {
            algorithm: alg.id.into(),
            operation: Operation::Verify,
            finding: "accepts a non-canonical signature of a valid one".into(),
            rule: m.rule.into(),
            input: format!(
                "the library's own signature of the {}-byte message {} with {}: {}",
                m.message.len(),
                hex::encode(&m.message),
                m.what,
                hex::encode(&m.signature)
            ),
            library: library.label.clone(),
            known: library
                .known
                .iter()
                .find(|k| k.found_by_mutation(alg.id, m.mutation))
                .map(KnownDefect::reference),
        });
    }
    Ok((passed, defects))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le(mut v: Vec<u8>) -> Vec<u8> {
        v.reverse();
        v
    }

    #[test]
    fn the_orders_are_those_of_rfc_8032_and_the_curve_crates() {
        // Ed25519: L = 2^252 + c, c < 2^128.
        let c: u128 = 27742317777372353535851937790883648493;
        let mut expected = c.to_le_bytes().to_vec();
        expected.resize(32, 0);
        expected[31] = 0x10;
        assert_eq!(ED25519_L.to_vec(), expected);
        // Ed448: L + c = 2^446, c = 13818066809895115352007386748515426880336692474882178609894547503885
        // (RFC 8032 §5.2), here in hex.
        let mut c448 = le(hex::decode("8335dc163bb124b65129c96fde933d8d723a70aadc873d6d54a7bb0d").unwrap());
        c448.resize(57, 0);
        let mut two_446 = vec![0u8; 57];
        two_446[55] = 0x40;
        assert_eq!(add_le(&ED448_L, &c448).unwrap(), two_446);
        // P-256 n (FIPS 186-5 / SP 800-186 §3.2.1.3).
        let p256 = pk_alg("ecdsap256");
        assert_eq!(
            hex::encode(ecdsa_order(p256)),
            "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"
        );
    }

    fn pk_alg(id: &str) -> &'static PkAlgorithmSpec {
        cryptobench_core::pk::find(id).unwrap()
    }

    #[test]
    fn big_endian_sums_keep_their_length_or_say_they_do_not_fit() {
        assert_eq!(add_be(&[0x01, 0xff], &[0x01], 2), Some(vec![0x02, 0x00]));
        assert_eq!(add_be(&[0xff, 0xff], &[0x01], 2), None);
        assert_eq!(add_be(&[0xff, 0xff], &[0x01], 3), Some(vec![0x01, 0x00, 0x00]));
        assert_eq!(add_be(&[0x00, 0x10], &[0x00, 0x20], 2), Some(vec![0x00, 0x30]));
        assert_eq!(add_le(&[0xff], &[0x01]), None);
    }

    #[test]
    fn the_reference_library_rejects_every_mutation() {
        let reference = crate::libraries::open_reference().expect("RustCrypto is built in");
        let pk = reference.pk().unwrap();
        let library = Library::of(reference.as_ref());
        for id in ["ed25519", "ecdsap256", "ecdsap521", "rsa2048"] {
            let alg = pk_alg(id);
            let keys = crate::pk::keys::keys_for(alg, crate::pk::keys::RUN_SEED);
            let made = mutations(pk, alg, &keys).unwrap();
            assert!(!made.is_empty() || alg.is_rsa(), "{id}: no mutation made");
            for m in &made {
                assert!(
                    !pk.verify(alg, &keys, &m.message, &m.signature).unwrap_or(false),
                    "{id}: RustCrypto accepts {}",
                    m.what
                );
            }
            let (passed, defects) = check(pk, alg, &keys, &library).unwrap();
            assert_eq!((passed, defects.len()), (made.len(), 0), "{id}");
        }
    }
}

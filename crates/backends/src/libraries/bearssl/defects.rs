//! BearSSL's known defects (data: crate::known_defects says what each field means).

use cryptobench_core::Operation;

use crate::known_defects::{FoundBy, KnownDefect};

pub static KNOWN_DEFECTS: &[KnownDefect] = &[KnownDefect {
    id: "bearssl-ecdsa-lenient-der",
    algorithms: &["ecdsap256", "ecdsap384", "ecdsap521"],
    operation: Operation::Verify,
    found_by: &[
        FoundBy::Vectors {
            file: "ecdsa_secp256r1_sha256_test.json",
            tc_ids: &[6, 8, 84, 128],
        },
        FoundBy::Vectors {
            file: "ecdsa_secp384r1_sha384_test.json",
            tc_ids: &[6, 8, 84, 128],
        },
        FoundBy::Vectors {
            file: "ecdsa_secp521r1_sha512_test.json",
            tc_ids: &[82, 126],
        },
    ],
    cause: "BearSSL's ASN.1 ECDSA verification converts the signature with br_ecdsa_asn1_to_raw (src/ec/ecdsa_atr.c), \
            which its comment calls \"a bit lenient\": a long-form SEQUENCE length (0x81 n) is taken for any n, \
            leading zero bytes of r and s are stripped whatever their number, and an INTEGER is read as unsigned, \
            so an s whose DER lacks its leading 0 (a negative INTEGER) reads as the positive s: one signature has \
            several encodings that verify",
    rule: "RFC 3279 §2.2.3 and SEC 1 §4.1.4 with X.690 §10 (DER): an ECDSA signature is the DER encoding \
           of Ecdsa-Sig-Value, minimal lengths and integers, r and s positive (Wycheproof: MissingZero, \
           BerEncodedSignature, InvalidEncoding)",
    affected: "BearSSL 0.6 (Debian 12: 0.6+dfsg.1, as found here)",
    fixed_in: None,
    fixed: "not fixed: the leniency is deliberate (the comment of br_ecdsa_asn1_to_raw: \"These deviations are still unambiguous\")",
    source: "src/ec/ecdsa_atr.c of BearSSL 0.6 (br_ecdsa_asn1_to_raw), called by br_ecdsa_i31_vrfy_asn1 (src/ec/ecdsa_i31_vrfy_asn1.c)",
}];

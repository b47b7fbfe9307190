//! Mbed TLS's known defects (data: crate::known_defects says what each
//! field means). Read in Mbed TLS 2.28's library/ecdsa.c and
//! library/asn1parse.c.

use cryptobench_core::Operation;

use crate::known_defects::{FoundBy, KnownDefect};

pub static KNOWN_DEFECTS: &[KnownDefect] = &[KnownDefect {
    id: "mbedtls-ecdsa-ber-signature",
    algorithms: &["ecdsap256", "ecdsap384", "ecdsap521"],
    operation: Operation::Verify,
    found_by: &[
        FoundBy::Vectors {
            file: "ecdsa_secp256r1_sha256_test.json",
            tc_ids: &[6, 8, 9, 67, 68, 84, 114, 115, 128],
        },
        FoundBy::Vectors {
            file: "ecdsa_secp384r1_sha384_test.json",
            tc_ids: &[6, 8, 9, 67, 68, 84, 114, 115, 128],
        },
        FoundBy::Vectors {
            file: "ecdsa_secp521r1_sha512_test.json",
            tc_ids: &[7, 65, 66, 82, 112, 113, 126],
        },
    ],
    cause: "mbedtls_ecdsa_read_signature (library/ecdsa.c) parses the signature with mbedtls_asn1_get_tag and \
            mbedtls_asn1_get_mpi (library/asn1parse.c): lengths in long form or with leading zero bytes are \
            accepted (mbedtls_asn1_get_len checks no minimal form), and an INTEGER is read as unsigned \
            big-endian bytes (mbedtls_mpi_read_binary) with no check of minimality or sign, so r and s with \
            leading zeros, or an s with its top bit set and no leading zero, verify",
    rule: "RFC 3279 §2.2.3 and SEC 1 §4.1.4 with X.690 §10 (DER): an ECDSA signature is the DER encoding of \
           Ecdsa-Sig-Value, one encoding per signature (Wycheproof: BerEncodedSignature, InvalidEncoding, \
           MissingZero)",
    affected: "Mbed TLS 2.28.3 (as found here)",
    fixed_in: None,
    fixed: "not known to be fixed: asn1parse.c of the 2.28 branch reads lengths and INTEGERs as above",
    source: "library/asn1parse.c of Mbed TLS 2.28, mbedtls_asn1_get_len and mbedtls_asn1_get_mpi; \
             library/ecdsa.c, mbedtls_ecdsa_read_signature_restartable",
}];

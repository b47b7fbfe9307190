//! GnuTLS's known defects (data: crate::known_defects says what each field
//! means): GnuTLS computes public key with Nettle (lib/nettle/pk.c), so a
//! defect of Nettle's is GnuTLS's too where GnuTLS calls the code that has it.

use cryptobench_core::Operation;

use crate::known_defects::{FoundBy, KnownDefect, Mutation};

pub static KNOWN_DEFECTS: &[KnownDefect] = &[
    KnownDefect {
        id: "gnutls-ed448-s-byte",
        algorithms: &["ed448"],
        operation: Operation::Verify,
        found_by: &[
            FoundBy::Mutation(Mutation::Ed448SPlus2Pow448),
            FoundBy::Vectors {
                file: "ed448_test.json",
                tc_ids: &[76],
            },
        ],
        cause: "GnuTLS verifies Ed448 with Nettle's ed448_shake256_verify (lib/nettle/pk.c, _wrap_nettle_pk_verify), \
            whose _eddsa_verify reads the 57 bytes of S into 448 bits (Nettle's nettle-ed448-s-byte): \
            a signature with the 57th byte of S changed still verifies",
        rule: "RFC 8032 §5.2.7: S is decoded as an integer in the range 0 <= S < L, \
           and a signature whose S is out of range is invalid (EdDSA signatures are not malleable, §8.4)",
        affected: "GnuTLS with Nettle 3.6 to 3.10.2 underneath (Debian 12: GnuTLS 3.7.9 on Nettle 3.8.1)",
        fixed_in: None,
        fixed: "not fixed in Nettle (see nettle-ed448-s-byte); GnuTLS adds no check of its own",
        source: "lib/nettle/pk.c of GnuTLS 3.7 (the GNUTLS_PK_EDDSA_ED448 case calls ed448_shake256_verify); \
             Nettle's eddsa-verify.c as for nettle-ed448-s-byte",
    },
    KnownDefect {
        id: "gnutls-ecdsa-point-doubling",
        algorithms: &["ecdsap256", "ecdsap384", "ecdsap521"],
        operation: Operation::Verify,
        found_by: &[
            FoundBy::Vectors {
                file: "ecdsa_secp256r1_sha256_test.json",
                tc_ids: &[427],
            },
            FoundBy::Vectors {
                file: "ecdsa_secp384r1_sha384_test.json",
                tc_ids: &[453],
            },
            FoundBy::Vectors {
                file: "ecdsa_secp521r1_sha512_test.json",
                tc_ids: &[494],
            },
        ],
        cause: "GnuTLS verifies ECDSA with Nettle's ecdsa_verify (lib/nettle/pk.c), whose ecc_ecdsa_verify adds \
                u1*G and u2*Q with ecc->add_hhh, wrong when the two are equal (Nettle's nettle-ecdsa-point-doubling): \
                a valid signature with u1*G = u2*Q is rejected",
        rule: "FIPS 186-5 §6.4.2: the signature is valid when the x coordinate of R = u1*G + u2*Q, \
               reduced mod n, equals r, also where u1*G = u2*Q (Wycheproof: PointDuplication)",
        affected: "GnuTLS on Nettle up to 3.8.1 (Debian 12: GnuTLS 3.7.9 on Nettle 3.8.1)",
        fixed_in: None,
        fixed: "fixed underneath in Nettle 3.9 (commit 4eb5868ce896); GnuTLS itself is unchanged, so its version does not tell",
        source: "lib/nettle/pk.c of GnuTLS 3.7 (ecdsa_verify); Nettle as for nettle-ecdsa-point-doubling",
    },
    KnownDefect {
        id: "gnutls-ecdsa-ber-signature",
        algorithms: &["ecdsap256", "ecdsap384", "ecdsap521"],
        operation: Operation::Verify,
        found_by: &[
            FoundBy::Vectors {
                file: "ecdsa_secp256r1_sha256_test.json",
                tc_ids: &[6, 8, 9, 48, 67, 68, 84, 114, 115, 128, 472, 473, 474],
            },
            FoundBy::Vectors {
                file: "ecdsa_secp384r1_sha384_test.json",
                tc_ids: &[6, 8, 9, 48, 67, 68, 84, 114, 115, 128, 492, 493, 494],
            },
            FoundBy::Vectors {
                file: "ecdsa_secp521r1_sha512_test.json",
                tc_ids: &[7, 46, 65, 66, 82, 112, 113, 126, 530, 531, 532],
            },
        ],
        cause: "GnuTLS reads an ECDSA signature with _gnutls_decode_ber_rs (lib/pk.c), a BER decoding through \
                libtasn1: long-form and zero-padded lengths, indefinite lengths, non-minimal tags and integers \
                with leading zeros (or without the zero a positive s needs) are accepted, so one signature has \
                many encodings that verify",
        rule: "RFC 3279 §2.2.3 and SEC 1 §4.1.4 with X.690 §10 (DER): an ECDSA signature is the DER encoding \
               of Ecdsa-Sig-Value, one encoding per signature (Wycheproof: BerEncodedSignature, InvalidEncoding)",
        affected: "GnuTLS 3.7.9 (as found here)",
        fixed_in: None,
        fixed: "not known to be fixed",
        source: "lib/pk.c of GnuTLS 3.7, _gnutls_decode_ber_rs (its name says BER)",
    },
];

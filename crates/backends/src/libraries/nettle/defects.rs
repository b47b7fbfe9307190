//! Nettle's known defects (data: crate::known_defects says what each field
//! means). Read in Nettle's source, as mirrored at
//! <https://github.com/gnutls/nettle> (master 4dc3da9db752, 2026-01-02;
//! release tags nettle_3.6 to nettle_3.10.2), and its NEWS file.

use cryptobench_core::Operation;

use crate::known_defects::{FoundBy, KnownDefect, Mutation};

pub static KNOWN_DEFECTS: &[KnownDefect] = &[
    KnownDefect {
        id: "nettle-ed448-s-byte",
        algorithms: &["ed448"],
        operation: Operation::Verify,
        found_by: &[
            FoundBy::Mutation(Mutation::Ed448SPlus2Pow448),
            FoundBy::Vectors {
                file: "ed448_test.json",
                tc_ids: &[76],
            },
        ],
        cause: "_eddsa_verify (eddsa-verify.c) reads the 57 bytes of S with \
                mpn_set_base256_le(sp, ecc->q.size, signature + nbytes, nbytes) into q.size limbs, \
                448 bits, so the 57th byte of S is never read and the check s < q sees S mod 2^448: \
                a signature with that byte changed still verifies",
        rule: "RFC 8032 §5.2.7: S is decoded as an integer in the range 0 <= S < L, \
               and a signature whose S is out of range is invalid (EdDSA signatures are not malleable, §8.4)",
        affected: "Nettle 3.6 (its first Ed448) to 3.10.2 and 4.0",
        fixed_in: None,
        fixed: "not fixed: eddsa-verify.c in Nettle's master (4dc3da9db752, 2026-01-02) reads S the same way",
        source: "eddsa-verify.c, line 'mpn_set_base256_le (sp, ecc->q.size, signature + nbytes, nbytes)', \
                 unchanged from nettle_3.6_release_20200429 to master 4dc3da9db752",
    },
    KnownDefect {
        id: "nettle-ecdsa-point-doubling",
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
        cause: "ecc_ecdsa_verify (ecc-ecdsa-verify.c) adds u1*G and u2*Q with ecc->add_hhh, \
                which gives a wrong point when the two are equal (its comment says so): \
                a valid signature with u1*G = u2*Q is rejected",
        rule: "FIPS 186-5 §6.4.2: the signature is valid when the x coordinate of R = u1*G + u2*Q, \
               reduced mod n, equals r, also where u1*G = u2*Q (Wycheproof: PointDuplication)",
        affected: "Nettle up to 3.8.1",
        fixed_in: Some("3.9"),
        fixed: "Nettle 3.9",
        source: "commit 4eb5868ce896 'Fix ECDSA verify corner case' (2022-09-14, uses ecc_nonsec_add_jjj); \
                 NEWS for 3.9: 'Fix bug in ecdsa and gostdsa signature verify operation, for the unlikely \
                 corner case that point addition really is point duplication'",
    },
];

//! Botan's known defects (data: crate::known_defects says what each field
//! means). Read in Botan's source (src/lib/pubkey/ed25519/ed25519.cpp of
//! the 2.x branch) and its issue tracker (randombit/botan #2049, #3338).

use cryptobench_core::Operation;

use crate::known_defects::{FoundBy, KnownDefect, Mutation};

pub static KNOWN_DEFECTS: &[KnownDefect] = &[
    KnownDefect {
        id: "botan-ed25519-s-range",
        algorithms: &["ed25519"],
        operation: Operation::Verify,
        // tcId 63 is S + L, 85 "S just above the bound"; Wycheproof's other
        // S + L cases (tcId 64-66) set one of the top three bits, which the
        // check does reject.
        found_by: &[
            FoundBy::Mutation(Mutation::EddsaSPlusL),
            FoundBy::Vectors {
                file: "ed25519_test.json",
                tc_ids: &[63, 85],
            },
        ],
        cause: "ed25519_verify (src/lib/pubkey/ed25519/ed25519.cpp) rejects S only when its top three bits are set \
            (`if(sig[63] & 224) return false;`, ref10's check) and never compares S with L, so S + L, \
            which is below 2^253, verifies like S",
        rule: "RFC 8032 §5.1.7: S is decoded as an integer in the range 0 <= S < L, \
           and a signature whose S is out of range is invalid (EdDSA signatures are not malleable, §8.4)",
        affected: "Botan 2.x (2.2, its first Ed25519, to 2.19)",
        fixed_in: Some("3.0"),
        fixed: "in the 3.x line by randombit/botan pull request #3338 'Fix Ed25519 signature malleability'; \
            no 2.19 release is known here to carry it",
        source: "randombit/botan issue #2049 (2019: 'RFC 8032 explicitly requires we check that S < l'), \
             pull request #3338 (merged); ed25519.cpp of the 2.x branch checks only sig[63] & 224",
    },
    KnownDefect {
        id: "botan-rsa-pss-signature-length",
        algorithms: &["rsa2048-pss"],
        operation: Operation::Verify,
        found_by: &[FoundBy::Vectors {
            file: "rsa_pss_2048_sha256_mgf1_32_test.json",
            tc_ids: &[104],
        }],
        cause: "RSA_Verify_Operation::verify_mr (src/lib/pubkey/rsa/rsa.cpp) reads the signature with \
                `BigInt m(msg, msg_len)`, which drops leading zero bytes, and never checks that it is k \
                octets long: a valid PSS signature with a zero byte prepended verifies",
        rule: "RFC 8017 §8.1.2 step 1: if the length of the signature S is not k octets, output \
               \"invalid signature\"",
        affected: "Botan 2.19.3 (as found here)",
        fixed_in: None,
        fixed: "not known to be fixed: rsa.cpp of the 2.x branch has no length check",
        source: "src/lib/pubkey/rsa/rsa.cpp of the 2.x branch, RSA_Verify_Operation::verify_mr",
    },
];

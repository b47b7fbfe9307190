//! Crypto++'s known defects (data: crate::known_defects says what each
//! field means), found through the shim's calls (shim_pk.cpp): RSA through
//! `RSASS<PKCS1v15, ...>::Verifier` and `RSASS<PSS, ...>::Verifier`, Ed25519 through `ed25519Verifier`,
//! both with `PK_Verifier::VerifyMessage`. Read in Crypto++ 8.7's rsa.cpp
//! and xed25519.cpp / donna_64.cpp (its ed25519-donna).

use cryptobench_core::Operation;

use crate::known_defects::{FoundBy, KnownDefect, Mutation};

pub static KNOWN_DEFECTS: &[KnownDefect] = &[
    KnownDefect {
        id: "cryptopp-rsa-s-range",
        algorithms: &["rsa2048", "rsa2048-pss"],
        operation: Operation::Verify,
        found_by: &[
            FoundBy::Mutation(Mutation::RsaSPlusN),
            FoundBy::Vectors {
                file: "rsa_signature_2048_sha256_test.json",
                tc_ids: &[244],
            },
            FoundBy::Vectors {
                file: "rsa_pss_2048_sha256_mgf1_32_test.json",
                tc_ids: &[103],
            },
        ],
        cause: "RSAFunction::ApplyFunction (rsa.cpp) computes s^e mod n with a_exp_b_mod_c on the signature as \
                given, without checking that s < n, so s + n (which still fits the modulus's length) verifies \
                like s",
        rule: "RFC 8017 §5.2.2 (RSAVP1) step 1: if the signature representative s is not between 0 and n - 1, \
               output \"signature representative out of range\"",
        affected: "Crypto++ 8.7.0 (as found here)",
        fixed_in: None,
        fixed: "not known to be fixed",
        source: "rsa.cpp of Crypto++ 8.7, RSAFunction::ApplyFunction",
    },
    KnownDefect {
        id: "cryptopp-ed25519-s-range",
        algorithms: &["ed25519"],
        operation: Operation::Verify,
        found_by: &[
            FoundBy::Mutation(Mutation::EddsaSPlusL),
            FoundBy::Vectors {
                file: "ed25519_test.json",
                tc_ids: &[63, 85],
            },
        ],
        cause: "Crypto++'s Ed25519 verification is ed25519-donna's ed25519_sign_open (donna_64.cpp), which \
                rejects S only when its top three bits are set (`RS[63] & 224`, ref10's check) and never \
                compares S with L, so S + L, below 2^253, verifies like S",
        rule: "RFC 8032 §5.1.7: S is decoded as an integer in the range 0 <= S < L, and a signature whose S \
               is out of range is invalid (EdDSA signatures are not malleable, §8.4)",
        affected: "Crypto++ 8.7.0 (as found here)",
        fixed_in: None,
        fixed: "not known to be fixed",
        source: "donna_64.cpp of Crypto++ 8.7, ed25519_sign_open (from floodyberry/ed25519-donna)",
    },
    KnownDefect {
        id: "cryptopp-ed25519-signature-length",
        algorithms: &["ed25519"],
        operation: Operation::Verify,
        found_by: &[FoundBy::Vectors {
            file: "ed25519_test.json",
            tc_ids: &[33, 34, 37, 38],
        }],
        cause: "ed25519Verifier (xed25519.cpp) takes a signature of any length through \
                PK_Verifier::VerifyMessage and reads at most 64 bytes of it into a zeroed buffer: a valid \
                signature with bytes appended, or with a final zero byte removed, verifies",
        rule: "RFC 8032 §5.1.7 step 1: a signature is 64 octets; one of another length is invalid \
               (Wycheproof: SignatureWithGarbage, CompressedSignature)",
        affected: "Crypto++ 8.7.0 (as found here)",
        fixed_in: None,
        fixed: "not known to be fixed",
        source: "xed25519.cpp of Crypto++ 8.7, ed25519Verifier (as called through VerifyMessage)",
    },
    KnownDefect {
        id: "cryptopp-rsa-signature-length",
        algorithms: &["rsa2048-pss"],
        operation: Operation::Verify,
        found_by: &[FoundBy::Vectors {
            file: "rsa_pss_2048_sha256_mgf1_32_test.json",
            tc_ids: &[104],
        }],
        cause: "TF_VerifierBase::InputSignature (pubkey.cpp) reads the signature as an Integer of whatever \
                length it is given and never compares that length with the modulus's, so a valid signature \
                with zero bytes prepended verifies",
        rule: "RFC 8017 §8.1.2 (RSASSA-PSS-VERIFY) step 1: if the length of the signature S is not k octets, \
               output \"invalid signature\"",
        affected: "Crypto++ 8.7.0 (as found here)",
        fixed_in: None,
        fixed: "not known to be fixed",
        source: "pubkey.cpp of Crypto++ 8.7, TF_VerifierBase::InputSignature",
    },
];

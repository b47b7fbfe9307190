//! wolfSSL's known defects (data: crate::known_defects says what each
//! field means), of the public-key algorithms cryptobench drives through
//! wolfCrypt. Found here in Debian 12's wolfSSL 5.5.4; the causes read in
//! wolfSSL's source as mirrored at <https://github.com/wolfSSL/wolfssl>
//! (wolfcrypt/src/rsa.c at 0459e83a59d8, wolfcrypt/src/ed25519.c at
//! 00f4820b3c6c) and its issue tracker.

use cryptobench_core::Operation;

use crate::known_defects::{FoundBy, KnownDefect, Mutation};

pub static KNOWN_DEFECTS: &[KnownDefect] = &[
    KnownDefect {
        id: "wolfssl-rsa-s-range",
        algorithms: &["rsa2048", "rsa3072", "rsa4096", "rsa2048-pss", "rsa3072-pss", "rsa4096-pss"],
        operation: Operation::Verify,
        found_by: &[
            FoundBy::Mutation(Mutation::RsaSPlusN),
            FoundBy::Vectors {
                file: "rsa_signature_2048_sha256_test.json",
                tc_ids: &[244],
            },
        ],
        cause: "the public operation of a verification (wolfcrypt/src/rsa.c, RsaFunctionSync: \
                RSA_PUBLIC_DECRYPT is mp_exptmod_nct(tmp, e, n)) reduces the signature mod n and never \
                compares it with n; the range check RsaFunctionCheckIn (c + 1 < n) runs for \
                RSA_PRIVATE_DECRYPT only (wc_RsaFunction_ex): s + n gives the same message representative",
        rule: "RFC 8017 §5.2.2 (RSAVP1) step 1: if the signature representative s is not between 0 \
               and n - 1, output 'signature representative out of range' (§8.1.2 and §8.2.2 then reject)",
        affected: "wolfSSL 5.5.4 (as found here)",
        fixed_in: None,
        fixed: "not known to be fixed: rsa.c at 0459e83a59d8 still checks the range for private decryption only",
        source: "wolfcrypt/src/rsa.c at 0459e83a59d8: wc_RsaFunction_ex calls RsaFunctionCheckIn only when \
                 type == RSA_PRIVATE_DECRYPT; RsaFunctionSync's RSA_PUBLIC_DECRYPT case has no comparison with n",
    },
    KnownDefect {
        id: "wolfssl-ed25519-s-range",
        algorithms: &["ed25519"],
        operation: Operation::Verify,
        found_by: &[FoundBy::Vectors {
            file: "ed25519_test.json",
            tc_ids: &[85],
        }],
        cause: "ed25519_verify_msg_final_with_sha (wolfcrypt/src/ed25519.c) compares S with the group \
                order L only partly: when the top byte of S is 0x10, the loop over the bytes that must \
                be zero `break`s on a non-zero one and the signature goes on to be verified instead of \
                being rejected, so an S above L whose top byte is 0x10 verifies like S mod L",
        rule: "RFC 8032 §5.1.7: S is decoded as an integer in the range 0 <= S < L, \
               and a signature whose S is out of range is invalid (EdDSA signatures are not malleable, §8.4)",
        affected: "wolfSSL 5.5.4 (as found here)",
        fixed_in: None,
        fixed: "reported as wolfSSL issue #7510 (2024-05-08: 'Instead of break, it should be return \
                BAD_FUNC_ARG') and answered by pull request #7513 ('ed25519: check that the signature is \
                smaller than the order', merged); the first release that carries it is not established here",
        source: "wolfSSL/wolfssl issue #7510 and pull request #7513; wolfcrypt/src/ed25519.c at 00f4820b3c6c, \
                 ed25519_verify_msg_final_with_sha, the `if (sig[i] > 0x00) break;` loop",
    },
];

//! libgcrypt's known defects (data: crate::known_defects says what each
//! field means), of the algorithms cryptobench drives through libgcrypt
//! (its Ed448 is not driven; its EdDSA code has the same unchecked S).
//! Read in libgcrypt's source, as mirrored at
//! <https://github.com/gpg/libgcrypt> (master e099ccfea936, 2026-08-07;
//! release tags libgcrypt-1.6.0 to libgcrypt-1.12.2).

use cryptobench_core::Operation;

use crate::known_defects::{FoundBy, KnownDefect, Mutation};

pub static KNOWN_DEFECTS: &[KnownDefect] = &[
    KnownDefect {
        id: "gcrypt-ed25519-s-range",
        algorithms: &["ed25519"],
        operation: Operation::Verify,
        found_by: &[
            FoundBy::Mutation(Mutation::EddsaSPlusL),
            FoundBy::Vectors {
                file: "ed25519_test.json",
                tc_ids: &[63, 64, 65, 66, 85],
            },
        ],
        cause: "_gcry_ecc_eddsa_verify (cipher/ecc-eddsa.c) reads S as an integer and compares \
                encodepoint(S*G - h*Q) with R, never S with the group order: S + L gives the same point",
        rule: "RFC 8032 §5.1.7: S is decoded as an integer in the range 0 <= s < L, \
               and a signature whose S is out of range is invalid (EdDSA signatures are not malleable, §8.4)",
        affected: "libgcrypt 1.6 (its first EdDSA) to 1.12.2",
        fixed_in: None,
        fixed: "not fixed: cipher/ecc-eddsa.c in libgcrypt's master (e099ccfea936, 2026-08-07) has no S < L check",
        source: "cipher/ecc-eddsa.c, _gcry_ecc_eddsa_verify: S is used by _gcry_mpi_ec_mul_point (&Ia, s, ec->G, ec) \
                 with no comparison to ec->n, in libgcrypt-1.10.1 and master e099ccfea936",
    },
    KnownDefect {
        id: "gcrypt-rsa-s-range",
        algorithms: &["rsa2048", "rsa3072", "rsa4096", "rsa2048-pss", "rsa3072-pss", "rsa4096-pss"],
        operation: Operation::Verify,
        found_by: &[
            FoundBy::Mutation(Mutation::RsaSPlusN),
            FoundBy::Vectors {
                file: "rsa_signature_2048_sha256_test.json",
                tc_ids: &[244],
            },
        ],
        cause: "rsa_verify (cipher/rsa.c) computes s^e mod n from the signature as given, never \
                comparing s with n: s + n gives the same message representative",
        rule: "RFC 8017 §5.2.2 (RSAVP1) step 1: if the signature representative s is not between 0 \
               and n - 1, output 'signature representative out of range' (§8.1.2 and §8.2.2 then reject)",
        affected: "libgcrypt to 1.12.2",
        fixed_in: None,
        fixed: "not fixed: cipher/rsa.c in libgcrypt's master (e099ccfea936, 2026-08-07) has no s < n check",
        source: "cipher/rsa.c, rsa_verify: public (result, sig, &pk) with no comparison of sig to pk.n, \
                 in libgcrypt-1.10.1 and master e099ccfea936",
    },
];

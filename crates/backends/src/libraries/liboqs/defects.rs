//! liboqs's known defects (data: crate::known_defects says what each field
//! means), found through `OQS_SIG_verify`. Both are in the AVX2 code of
//! ML-DSA that liboqs 0.13 takes from pq-crystals/dilithium
//! (src/sig/ml_dsa/pqcrystals-dilithium-standard_ml-dsa-*_avx2), which
//! `OQS_SIG_verify` runs on a CPU with AVX2 and POPCNT (sig_ml_dsa_65.c);
//! the reference C code it falls back to has neither, so on a CPU without
//! AVX2 the vectors below pass (and these tests then name them as not found).

use cryptobench_core::Operation;

use crate::known_defects::{FoundBy, KnownDefect};

/// Where upstream fixed both, and where liboqs left that code.
const FIXED: &str = "fixed upstream in pq-crystals/dilithium (commits bba9534a for use_hint and d35ba3fe for \
                     the norm of z, June 2026); liboqs replaced its pqcrystals ML-DSA with mldsa-native \
                     (open-quantum-safe/liboqs PR #2284), which mldsa-native issue #1153 says never had either";
const SOURCE: &str = "pq-crystals/dilithium issue #113 and commit bba9534a; mldsa-native issue #1153";

pub static KNOWN_DEFECTS: &[KnownDefect] = &[
    KnownDefect {
        id: "liboqs-mldsa-use-hint-zero",
        algorithms: &["mldsa65"],
        operation: Operation::Verify,
        found_by: &[FoundBy::Vectors {
            file: "mldsa_65_verify_test.json",
            tc_ids: &[161],
        }],
        cause: "use_hint_avx (avx2/rounding.c) picks the hint's direction with _mm256_blendv_epi32 on the sign \
                bit of r0, so r0 = 0 counts as positive and gives r1 + 1 where the reference code gives r1 - 1: \
                a valid signature whose hint meets r0 = 0 is rejected",
        rule: "FIPS 204 Algorithm 40 (UseHint): if h = 1 and r0 > 0 return (r1 + 1) mod m; if h = 1 and \
               r0 <= 0 return (r1 - 1) mod m",
        affected: "liboqs 0.13.0 on CPUs with AVX2 (as found here)",
        fixed_in: None,
        fixed: FIXED,
        source: SOURCE,
    },
    KnownDefect {
        id: "liboqs-mldsa-z-norm",
        algorithms: &["mldsa65"],
        operation: Operation::Verify,
        found_by: &[FoundBy::Vectors {
            file: "mldsa_65_verify_test.json",
            tc_ids: &[
                84, 85, 86, 87, 88, 90, 91, 92, 93, 94, 95, 97, 98, 99, 102, 103, 104, 106, 109, 110, 111, 112, 113, 114, 115, 116, 117,
                118, 120, 121, 122, 124, 125, 126, 127, 128, 129, 130, 131, 132, 139,
            ],
        }],
        cause: "crypto_sign_verify_internal (avx2/sign.c) unpacks z and never checks its infinity norm (\"shortness \
                follows from unpacking\"), unlike ref/sign.c: a signature with a coefficient of z at or beyond \
                γ1 - β verifies (41 of Wycheproof's 52 such cases in this file; it rejects the other 11)",
        rule: "FIPS 204 Algorithm 8 (ML-DSA.Verify_internal), line 13: return [[ ||z||∞ < γ1 - β ]] and [[ c̃ = c̃' ]]",
        affected: "liboqs 0.13.0 on CPUs with AVX2 (as found here)",
        fixed_in: None,
        fixed: FIXED,
        source: SOURCE,
    },
];

//! The generators liboqs's known-answer files are drawn from
//! (tests/test_helpers.c, `OQS_KAT_PRNG_new`), seeded with 48 bytes:
//!
//! - HQC: SHAKE256 over the seed and a domain byte 1, squeezed on every
//!   draw (`hqc_prng_seed`, `hqc_prng_randombytes`), as the HQC submission's
//!   own KAT generator does;
//! - every other scheme: NIST's AES-256 CTR_DRBG of the PQC submissions
//!   (rng.c's `randombytes_init(seed, NULL, 256)`), from the
//!   `nist-pqc-seeded-rng` crate.
//!
//! Falcon and HQC keys are made from the seed this way ([`super::seeded`]),
//! so the key of a known-answer file's entry is the key of its seed.

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use nist_pqc_seeded_rng::{NistPqcAes256CtrRng, RngCore};

use super::seeded::Draw;
use shake::digest::{ExtendableOutput, Update, XofReader};

/// The generator liboqs's KAT of `alg` draws from, seeded with `seed` (48 bytes).
pub fn kat_stream(alg: &PkAlgorithmSpec, seed: &[u8; 48]) -> Draw {
    if alg.kind == PkKind::Hqc {
        let mut reader = shake::Shake256::default().chain(seed).chain([1u8]).finalize_xof();
        Box::new(move |out| reader.read(out))
    } else {
        let mut rng = NistPqcAes256CtrRng::from(*seed);
        Box::new(move |out| rng.fill_bytes(out))
    }
}

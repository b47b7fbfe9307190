//! The rules the audit's verdicts are judged by (the symmetric cells'
//! in [`super`], public key's in [`super::pk`]): the CPU features a
//! family means on an architecture, when two medians differ *beyond the
//! noise*, and the words of a verdict on measured figures.
//!
//! Two medians differ beyond the noise by the project's one rule
//! ([`crate::decision`]: their 95% confidence intervals do not overlap and
//! they are more than 1% apart), the rule `compare`, the report's factors
//! and "Which is fastest?" use too. A family counts as
//! *accelerating* when switching it off slows the largest size beyond the
//! noise by at least [`MIN_FACTOR`]; a smaller slowdown beyond the noise is
//! reported as what it is; a *speed-up* with the family off (seen under
//! emulators) likewise. "Not used" needs intervals narrow enough to rule
//! out a [`MIN_FACTOR`] effect either way.

use crate::audit::{isa, Isa, VerdictKind};
use crate::catalog::{AlgorithmSpec, Family};
use crate::decision::{decide, Decision};
use crate::stats::Summary;

/// Smallest slow-down that counts as acceleration.
pub const MIN_FACTOR: f64 = 1.10;

/// The x86 features of the big-number family (crates/cpu/src/features/openssl.rs cites where OpenSSL uses them).
pub const BIGNUM_X86: &[&str] = &["bmi2", "adx", "avx512ifma"];

/// The CPU features a family means for one algorithm on the architecture
/// `arch` (None: a public-key algorithm, for which only the SHA family would
/// need to know the digest).
pub fn family_features(family: Family, alg: Option<&AlgorithmSpec>, arch: &str) -> &'static [&'static str] {
    let digest_len = alg.map_or(0, |a| a.digest_len);
    let sha1 = alg.is_some_and(|a| a.family == "sha1");
    match (family, isa(arch)) {
        (Family::Aes, Isa::X86) => &["aes", "vaes"],
        (Family::Clmul, Isa::X86) => &["pclmulqdq", "vpclmulqdq"],
        (Family::Sha, Isa::X86) if digest_len > 32 => &["sha512"],
        (Family::Sha, Isa::X86) => &["sha_ni"],
        (Family::Simd, Isa::X86) => &["ssse3", "avx", "avx2", "avx512f", "avx512bw", "avx512vl"],
        (Family::Aes, Isa::Arm) => &["aes"],
        (Family::Clmul, Isa::Arm) => &["pmull"],
        (Family::Sha, Isa::Arm) if sha1 => &["sha1"],
        (Family::Sha, Isa::Arm) if digest_len > 32 => &["sha512"],
        (Family::Sha, Isa::Arm) => &["sha2"],
        (Family::Simd, Isa::Arm) => &["neon"],
        (Family::Aes | Family::Clmul | Family::Sha, Isa::Power) => &["vcrypto"],
        (Family::Simd, Isa::Power) => &["altivec", "vsx"],
        // IBM Z: the CPACF functions (crates/cpu/src/features/s390x.rs); GCM
        // runs whole in KMA where MSA 8 has it, so KMA belongs to AES.
        (Family::Aes, Isa::Z) => &["km_aes", "kmctr_aes", "kma_gcm"],
        (Family::Clmul, Isa::Z) => &["kimd_ghash"],
        (Family::Sha, Isa::Z) if sha1 => &["kimd_sha1"],
        (Family::Sha, Isa::Z) if digest_len > 32 => &["kimd_sha512"],
        (Family::Sha, Isa::Z) => &["kimd_sha256"],
        (Family::Simd, Isa::Z) => &["vx"],
        // RISC-V: the scalar (Zkn*, Zbkc, Zbc) and vector (Zvk*, Zvbc) crypto extensions.
        (Family::Aes, Isa::RiscV) => &["zkne", "zknd", "zvkned"],
        (Family::Clmul, Isa::RiscV) => &["zbc", "zbkc", "zvbc", "zvkg"],
        (Family::Sha, Isa::RiscV) if sha1 => &[],
        (Family::Sha, Isa::RiscV) if digest_len > 32 => &["zknh", "zvknhb"],
        (Family::Sha, Isa::RiscV) => &["zknh", "zvknha", "zvknhb"],
        (Family::Simd, Isa::RiscV) => &["v", "zvkb", "zvbb"],
        (Family::Bignum, Isa::X86) => BIGNUM_X86,
        // OpenSSL's PPC_MADD300 (ISA 3.00's maddld/maddhdu): bn_mul_mont_300_fixed_n6 of crypto/bn/bn_ppc.c.
        (Family::Bignum, Isa::Power) => &["arch_3_00"],
        (Family::Bignum, _) => &[],
    }
}

/// Medians differ beyond noise by the one rule (crate::decision).
pub fn beyond_noise(on: &Summary, off: &Summary) -> bool {
    decide(on, off) == Decision::Different
}

/// The intervals are narrow enough to rule out an effect of MIN_FACTOR
/// either way: even the most favourable ends differ by less. (Ruling out
/// only a slow-down called "not used" a family whose masked worker ran
/// three times faster, as libgcrypt's AES-GCM does under qemu-ppc64le 7.2
/// with its POWER8 vector crypto switched off.)
fn excludes_acceleration(on: &Summary, off: &Summary) -> bool {
    on.median_ci95[1] < MIN_FACTOR * off.median_ci95[0] && off.median_ci95[1] < MIN_FACTOR * on.median_ci95[0]
}

/// The CPU the verdicts are about: the worker's architecture and the names
/// of the features it detected, and the emulator it ran under, if any.
pub struct WorkerCpu<'a> {
    pub arch: &'a str,
    pub features: Vec<String>,
    pub emulated_by: Option<&'a str>,
}

/// The measured verdict for one family whose masked features are `names`.
pub fn measured(on: Option<&Summary>, off: Option<&Summary>, names: &str, figures: &str) -> (VerdictKind, String) {
    match (on, off) {
        (Some(on), Some(off)) if beyond_noise(on, off) && on.median >= MIN_FACTOR * off.median => {
            (VerdictKind::Accelerated, format!("accelerated by {names}: {figures}"))
        }
        (Some(on), Some(off)) if beyond_noise(on, off) && on.median > off.median => (
            VerdictKind::SmallGain,
            format!(
                "{names} is used but worth little: switching it off costs {:.1}%, beyond the noise: {figures}",
                (1.0 - off.median / on.median) * 100.0
            ),
        ),
        (Some(on), Some(off)) if beyond_noise(on, off) => (
            VerdictKind::FasterWithout,
            format!(
                "faster with {names} switched off, by {:.1}% beyond the noise (an emulator, or a slower path chosen): {figures}",
                (off.median / on.median - 1.0) * 100.0
            ),
        ),
        (Some(on), Some(off)) if excludes_acceleration(on, off) => (
            VerdictKind::AvailableNotUsed,
            format!("the CPU offers {names} but this library does not use it: switching it off gives {figures}"),
        ),
        (Some(on), Some(off)) if crate::decision::too_few(on) || crate::decision::too_few(off) => (
            VerdictKind::Inconclusive,
            format!(
                "the CPU offers {names}; cannot tell whether it is used: too few samples or clean replicates for the one \
                 rule ({figures}); drop --quick or raise --replicates"
            ),
        ),
        _ => (
            VerdictKind::Inconclusive,
            format!("the CPU offers {names}; cannot tell whether it is used: too noisy ({figures}); give the cells more --time or --replicates, or a quieter machine"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{summarize, Sample};

    /// A summary of `n` samples of a loop taking about `ns` per call.
    fn summary(ns: u64, n: u64) -> Summary {
        let samples: Vec<Sample> = (0..n)
            .map(|i| Sample {
                iterations: 1000,
                wall_ns: ns * 1000 + i % 3,
                cpu_ns: None,
            })
            .collect();
        summarize(&samples, 16384).unwrap()
    }

    #[test]
    fn a_family_whose_masked_worker_runs_three_times_faster_is_not_called_unused() {
        // Too few samples for the one rule: nothing beyond the noise can be decided.
        let (on, off) = (summary(3000, 3), summary(1000, 3));
        assert_eq!(decide(&on, &off), Decision::Undecided);
        let (kind, text) = measured(Some(&on), Some(&off), "POWER8 vector crypto", "…");
        assert_eq!(kind, VerdictKind::Inconclusive, "{text}");
        assert!(text.contains("cannot tell"), "{text}");
        // The same figures on both sides are still "not used".
        let (kind, _) = measured(Some(&on), Some(&summary(3000, 3)), "POWER8 vector crypto", "…");
        assert_eq!(kind, VerdictKind::AvailableNotUsed);
    }
}

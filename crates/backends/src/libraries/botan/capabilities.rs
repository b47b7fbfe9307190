//! Botan's view of the CPU and its masks: the registry's `view` and `mask`
//! hooks.
//!
//! The botan backend reports Botan's CPUID bits with the names `botan
//! cpuid` prints (botan/cpuid.h, `CPUID::to_string`): "botan cpuid: sse2
//! ssse3 … aes_ni clmul … intel_sha avx512_aes avx512_clmul". Botan reads
//! `BOTAN_CLEAR_CPUID` (names separated by commas, as
//! `CPUID::bit_from_string` spells them) to clear bits: Botan 3 itself,
//! Botan 2 through the backend (cpuid.rs).

use cryptobench_core::catalog::Family;
use cryptobench_cpu::features::Feature;

use crate::registry::{Mask, MaskContext};

/// The variable naming the features to clear (Botan 3's name and syntax).
pub const CLEAR_CPUID_ENV: &str = "BOTAN_CLEAR_CPUID";

/// Botan's name → the feature names `cryptobench cpu` uses.
const NAMES: &[(&str, &str)] = &[
    ("ssse3", "ssse3"),
    ("neon", "neon"),
    ("aes_ni", "aes"),
    ("clmul", "pclmulqdq"),
    ("intel_sha", "sha_ni"),
    ("avx512_aes", "vaes"),
    ("avx512_clmul", "vpclmulqdq"),
    ("avx2", "avx2"),
    ("avx512f", "avx512f"),
    ("avx512bw", "avx512bw"),
    ("arm_aes", "aes"),
    ("arm_pmull", "pmull"),
    ("arm_sha1", "sha1"),
    ("arm_sha2", "sha2"),
    ("arm_sha3", "sha3"),
    ("arm_sha2_512", "sha512"),
    ("arm_sve", "sve"),
];

/// Features Botan's bit set can express.
const UNDERSTOOD: &[&str] = &[
    "ssse3",
    "neon",
    "aes",
    "pclmulqdq",
    "sha_ni",
    "vaes",
    "vpclmulqdq",
    "avx2",
    "avx512f",
    "avx512bw",
    "pmull",
    "sha1",
    "sha2",
    "sha3",
    "sha512",
    "sve",
];

fn arm(arch: &str) -> bool {
    arch == "aarch64" || arch == "arm"
}

/// The names that clear a family on the worker's architecture `arch`
/// (Rust's names, std::env::consts::ARCH).
fn family_names(family: Family, arch: &str) -> &'static [&'static str] {
    if arm(arch) {
        match family {
            Family::Aes => &["armv8aes"],
            Family::Clmul => &["armv8pmull"],
            Family::Sha => &["armv8sha1", "armv8sha2", "armv8sha2_512"],
            Family::Simd => &["neon"],
            Family::Bignum => &[],
        }
    } else {
        match family {
            // VAES and VPCLMULQDQ are Botan's avx512_aes and avx512_clmul.
            Family::Aes => &["aesni", "avx512_aes"],
            Family::Clmul => &["clmul", "avx512_clmul"],
            Family::Sha => &["intel_sha"],
            // SSE2 is the x86-64 baseline, outside the family.
            Family::Simd => &["ssse3", "avx2", "avx512f"],
            // Public key is not measured through Botan: no big-number switch is built.
            Family::Bignum => &[],
        }
    }
}

/// The variable and value that switch `families` off.
fn env_mask(families: &[Family], arch: &str) -> (&'static str, String) {
    let names: Vec<&str> = families.iter().flat_map(|f| family_names(*f, arch).iter().copied()).collect();
    (CLEAR_CPUID_ENV, names.join(","))
}

/// The CPU features a mask of `families` switches off (Botan has no SHA512
/// instruction code on x86).
fn cleared(families: &[Family], arch: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    for f in families {
        out.extend_from_slice(match (f, arm(arch)) {
            (Family::Aes, false) => &["aes", "vaes"][..],
            (Family::Clmul, false) => &["pclmulqdq", "vpclmulqdq"],
            (Family::Sha, false) => &["sha_ni"],
            (Family::Simd, false) => &["ssse3", "avx2", "avx512f"],
            (Family::Aes, true) => &["aes"],
            (Family::Clmul, true) => &["pmull"],
            (Family::Sha, true) => &["sha1", "sha2", "sha512"],
            (Family::Simd, true) => &["neon"],
            (Family::Bignum, _) => &[],
        });
    }
    out
}

/// Decodes "botan cpuid: …" as the backend reports it.
fn features(capabilities: &str) -> Option<Vec<Feature>> {
    let bits = capabilities.trim().strip_prefix("botan cpuid:")?;
    Some(
        bits.split_whitespace()
            .filter_map(|b| NAMES.iter().find(|(n, _)| *n == b))
            .map(|(b, name)| Feature {
                name,
                source: format!("Botan CPUID {b}"),
            })
            .collect(),
    )
}

/// The registry's view hook: Botan's CPUID bits decoded.
pub fn view(capabilities: &str, _version: Option<&str>) -> Option<(Vec<Feature>, &'static [&'static str])> {
    features(capabilities).map(|f| (f, UNDERSTOOD))
}

/// The registry's mask hook: `BOTAN_CLEAR_CPUID` with the names of the
/// worker's architecture.
pub fn mask(ctx: &MaskContext<'_>, families: &[Family]) -> Result<Mask, String> {
    Ok(Mask::new(env_mask(families, ctx.arch), cleared(families, ctx.arch)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_clear_whole_families() {
        assert_eq!(
            env_mask(&[Family::Aes], "x86_64"),
            (CLEAR_CPUID_ENV, "aesni,avx512_aes".to_string())
        );
        assert_eq!(
            env_mask(&Family::ALL, "x86_64").1,
            "aesni,avx512_aes,clmul,avx512_clmul,intel_sha,ssse3,avx2,avx512f"
        );
        assert_eq!(env_mask(&[Family::Aes], "aarch64").1, "armv8aes");
    }

    #[test]
    fn the_mask_hook_takes_the_workers_architecture() {
        let ctx = |arch| MaskContext {
            capabilities: None,
            cpu: &[],
            vendor: None,
            arch,
        };
        let m = mask(&ctx("aarch64"), &[Family::Sha]).unwrap();
        assert_eq!((m.var, m.value.as_str()), (CLEAR_CPUID_ENV, "armv8sha1,armv8sha2,armv8sha2_512"));
        assert_eq!(m.cleared, vec!["sha1", "sha2", "sha512"]);
        assert_eq!(mask(&ctx("x86_64"), &[Family::Sha]).unwrap().cleared, vec!["sha_ni"]);
    }

    #[test]
    fn decodes_the_bits() {
        let f = features("botan cpuid: sse2 ssse3 avx2 aes_ni clmul intel_sha avx512_aes").unwrap();
        let names: Vec<&str> = f.iter().map(|x| x.name).collect();
        assert_eq!(names, vec!["ssse3", "avx2", "aes", "pclmulqdq", "sha_ni", "vaes"]);
        assert!(features("gnutls: x").is_none());
        assert_eq!(view("botan cpuid: aes_ni", None).map(|(f, u)| (f.len(), u.len())), Some((1, 16)));
    }
}

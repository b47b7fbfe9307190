//! Nettle's masks. Nettle "fat" builds pick their code at load time from the
//! CPU, unless `NETTLE_FAT_OVERRIDE` lists the features to assume instead
//! (nettle fat-x86_64.c: "vendor:intel", "vendor:amd", "aesni", "sha_ni",
//! "pclmul"; fat-arm64.c: "aes", "pmull", "sha1", "sha2"). A mask is
//! therefore the list of what the CPU offers minus the family switched off.
//! A build that is not fat ignores the variable. The registry's hook is
//! [`mask`]; Nettle reports no view of the CPU of its own.

use cryptobench_core::catalog::Family;
use cryptobench_cpu::features::Feature;

use crate::registry::{Mask, MaskContext};

pub const FAT_OVERRIDE_ENV: &str = "NETTLE_FAT_OVERRIDE";

/// (Nettle's name, the CPU feature it stands for, its family)
const X86: &[(&str, &str, Family)] = &[
    ("aesni", "aes", Family::Aes),
    ("pclmul", "pclmulqdq", Family::Clmul),
    ("sha_ni", "sha_ni", Family::Sha),
];
const ARM64: &[(&str, &str, Family)] = &[
    ("aes", "aes", Family::Aes),
    ("pmull", "pmull", Family::Clmul),
    ("sha1", "sha1", Family::Sha),
    ("sha2", "sha2", Family::Sha),
];

/// Nettle's names on the worker architecture `arch` (std::env::consts::ARCH).
fn table(arch: &str) -> &'static [(&'static str, &'static str, Family)] {
    if arch == "aarch64" {
        ARM64
    } else {
        X86
    }
}

/// The override that keeps every feature `cpu` offers except those of
/// `families`, for a worker of architecture `arch`.
fn env_mask(cpu: &[Feature], vendor: Option<&str>, families: &[Family], arch: &str) -> (&'static str, String) {
    let arm = arch == "aarch64";
    let table = table(arch);
    let mut items: Vec<&str> = Vec::new();
    if !arm {
        match vendor {
            Some("GenuineIntel") => items.push("vendor:intel"),
            Some("AuthenticAMD") => items.push("vendor:amd"),
            _ => {}
        }
    }
    for (name, feature, family) in table {
        if cpu.iter().any(|f| f.name == *feature) && !families.contains(family) {
            items.push(name);
        }
    }
    (FAT_OVERRIDE_ENV, items.join(","))
}

/// The CPU features a mask of `families` switches off: those of Nettle's
/// names in the families (Nettle has no VAES, SHA512 or SIMD switch).
pub fn cleared(families: &[Family], arch: &str) -> Vec<&'static str> {
    table(arch)
        .iter()
        .filter(|(_, _, family)| families.contains(family))
        .map(|(_, feature, _)| *feature)
        .collect()
}

/// The registry's mask hook: the override from the worker's CPU features,
/// vendor and architecture. A family Nettle has no switch for (SIMD) clears
/// nothing, so the audit does not measure it.
pub fn mask(ctx: &MaskContext<'_>, families: &[Family]) -> Result<Mask, String> {
    Ok(Mask::new(
        env_mask(ctx.cpu, ctx.vendor, families, ctx.arch),
        cleared(families, ctx.arch),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &'static str) -> Feature {
        Feature {
            name,
            source: "test".into(),
        }
    }

    #[test]
    fn keeps_what_the_cpu_has_minus_the_family() {
        let cpu = [f("aes"), f("pclmulqdq"), f("sha_ni"), f("avx2")];
        assert_eq!(
            env_mask(&cpu, Some("AuthenticAMD"), &[Family::Aes], "x86_64").1,
            "vendor:amd,pclmul,sha_ni"
        );
        assert_eq!(
            env_mask(&cpu, Some("GenuineIntel"), &[Family::Sha], "x86_64").1,
            "vendor:intel,aesni,pclmul"
        );
        assert_eq!(env_mask(&cpu, None, &Family::ALL, "x86_64").1, "");
        assert_eq!(env_mask(&[f("aes")], None, &[Family::Clmul], "x86_64").1, "aesni");
        assert_eq!(cleared(&[Family::Aes, Family::Sha], "x86_64"), vec!["aes", "sha_ni"]);
        assert!(cleared(&[Family::Simd], "x86_64").is_empty(), "Nettle has no SIMD switch");
        let arm = [f("aes"), f("pmull"), f("sha2")];
        assert_eq!(env_mask(&arm, None, &[Family::Aes], "aarch64").1, "pmull,sha2");
    }

    #[test]
    fn the_registry_hook_reads_the_context() {
        let cpu = [f("aes"), f("pclmulqdq")];
        let ctx = MaskContext {
            capabilities: None,
            cpu: &cpu,
            vendor: Some("AuthenticAMD"),
            arch: "x86_64",
        };
        let m = mask(&ctx, &[Family::Aes]).unwrap();
        assert_eq!((m.var, m.value.as_str()), ("NETTLE_FAT_OVERRIDE", "vendor:amd,pclmul"));
        assert_eq!(m.cleared, vec!["aes"]);
        assert!(
            mask(&ctx, &[Family::Simd]).unwrap().cleared.is_empty(),
            "no SIMD switch: not measured"
        );
    }
}

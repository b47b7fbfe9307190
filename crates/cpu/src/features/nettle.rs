//! Nettle's masks. Nettle "fat" builds pick their code at load time from the
//! CPU, unless `NETTLE_FAT_OVERRIDE` lists the features to assume instead
//! (nettle fat-x86_64.c: "vendor:intel", "vendor:amd", "aesni", "sha_ni",
//! "pclmul"; fat-arm64.c: "aes", "pmull", "sha1", "sha2"). A mask is
//! therefore the list of what the CPU offers minus the family switched off.
//! A build that is not fat ignores the variable.

use super::Feature;
use cryptobench_core::catalog::Family;

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

/// The override that keeps every feature `cpu` offers except those of `families`.
pub fn mask(cpu: &[Feature], vendor: Option<&str>, families: &[Family]) -> (&'static str, String) {
    let arm = cfg!(target_arch = "aarch64");
    let table = if arm { ARM64 } else { X86 };
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
/// names in the families (Nettle has no VAES or SHA512 code to switch).
pub fn cleared(families: &[Family]) -> Vec<&'static str> {
    let table = if cfg!(target_arch = "aarch64") { ARM64 } else { X86 };
    table
        .iter()
        .filter(|(_, _, family)| families.contains(family))
        .map(|(_, feature, _)| *feature)
        .collect()
}

#[cfg(all(test, target_arch = "x86_64"))]
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
        assert_eq!(mask(&cpu, Some("AuthenticAMD"), &[Family::Aes]).1, "vendor:amd,pclmul,sha_ni");
        assert_eq!(mask(&cpu, Some("GenuineIntel"), &[Family::Sha]).1, "vendor:intel,aesni,pclmul");
        assert_eq!(mask(&cpu, None, &Family::ALL).1, "");
        assert_eq!(mask(&[f("aes")], None, &[Family::Clmul]).1, "aesni");
        assert_eq!(cleared(&[Family::Aes, Family::Sha]), vec!["aes", "sha_ni"]);
    }
}

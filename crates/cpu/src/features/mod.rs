//! CPU crypto features by normalised name, from the processor (CPUID and
//! XGETBV on x86, HWCAP on Linux arm64 and POWER, STFLE and the CPACF
//! queries on IBM Z, riscv_hwprobe and the ISA string on RISC-V, sysctl on
//! macOS, the Windows API),
//! from the compiler (target features this binary was built with), and from
//! a crypto library's own capability vector, so the three can be compared.

pub mod arm;
pub mod ppc;
pub mod riscv;
mod runtime;
pub mod s390x;
pub mod x86;

pub use runtime::{compile_time_features, runtime_features};

use serde::Serialize;

/// A feature this tool knows, with the name every view uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Feature {
    /// Normalised name, e.g. "aes", "pclmulqdq", "sha2", "pmull".
    pub name: &'static str,
    /// Where the fact was read, e.g. "CPUID.1:ECX[25]", "AT_HWCAP bit 3".
    pub source: String,
}

/// Features that matter for cryptography, in display order, per architecture.
pub const X86_CRYPTO: &[&str] = &[
    "ssse3",
    "aes",
    "pclmulqdq",
    "vaes",
    "vpclmulqdq",
    "sha_ni",
    "sha512",
    "avx",
    "avx2",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "gfni",
    "bmi2",
    "adx",
    "avx512ifma",
];
pub const ARM_CRYPTO: &[&str] = &["neon", "aes", "pmull", "sha1", "sha2", "sha3", "sha512", "sve", "sve2"];
/// POWER: AltiVec/VMX, VSX, the ISA 2.07 vector crypto (AES, SHA-2, vpmsum;
/// POWER8+) and the ISA levels the libraries choose code by.
pub const PPC_CRYPTO: &[&str] = &["altivec", "vsx", "vcrypto", "arch_2_07", "arch_3_00", "arch_3_1"];
/// IBM Z: the message-security assist and its extensions, the vector
/// facility, and the CPACF functions (s390x.rs).
pub const S390X_CRYPTO: &[&str] = &[
    "msa",
    "msa4",
    "msa8",
    "msa9",
    "vx",
    "km_aes",
    "kmctr_aes",
    "kma_gcm",
    "kimd_ghash",
    "kimd_sha1",
    "kimd_sha256",
    "kimd_sha512",
    "kimd_sha3",
];
/// RISC-V: the vector extension, bit manipulation and the scalar and vector crypto extensions (riscv.rs).
pub const RISCV_CRYPTO: &[&str] = &[
    "v", "zbb", "zbc", "zbkb", "zbkc", "zknd", "zkne", "zknh", "zvbb", "zvbc", "zvkb", "zvkg", "zvkned", "zvknha", "zvknhb", "zvksed",
    "zvksh",
];

/// The crypto feature names relevant on the architecture `arch` (Rust's
/// names: std::env::consts::ARCH of the worker that reports them).
pub fn crypto_feature_names_of(arch: &str) -> &'static [&'static str] {
    match arch {
        "aarch64" | "arm" => ARM_CRYPTO,
        a if a.starts_with("powerpc") => PPC_CRYPTO,
        "s390x" => S390X_CRYPTO,
        a if a.starts_with("riscv") => RISCV_CRYPTO,
        _ => X86_CRYPTO,
    }
}

/// The crypto feature names relevant on this build's architecture.
pub fn crypto_feature_names() -> &'static [&'static str] {
    crypto_feature_names_of(std::env::consts::ARCH)
}

/// The features a worker reported, under the names this crate knows (the
/// tables of every architecture; a worker may run on another one). Names
/// this build does not know are dropped.
pub fn from_records(records: &[cryptobench_core::result::FeatureRecord]) -> Vec<Feature> {
    records
        .iter()
        .filter_map(|r| {
            X86_CRYPTO
                .iter()
                .chain(ARM_CRYPTO)
                .chain(PPC_CRYPTO)
                .chain(S390X_CRYPTO)
                .chain(RISCV_CRYPTO)
                .find(|n| **n == r.name)
                .map(|name| Feature {
                    name,
                    source: r.source.clone(),
                })
        })
        .collect()
}

/// Features as a run records them (the reverse of [`from_records`]).
pub fn to_records(features: &[Feature]) -> Vec<cryptobench_core::result::FeatureRecord> {
    features
        .iter()
        .map(|f| cryptobench_core::result::FeatureRecord {
            name: f.name.to_string(),
            source: f.source.clone(),
        })
        .collect()
}

/// A difference between what the CPU offers and what a library believes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    pub feature: &'static str,
    pub message: String,
}

impl Mismatch {
    /// The mismatch as a run records it.
    pub fn record(&self) -> cryptobench_core::audit::LibraryMismatch {
        cryptobench_core::audit::LibraryMismatch {
            feature: self.feature.to_string(),
            message: self.message.clone(),
        }
    }
}

/// Compares the CPU's features with a library's view of them. A feature the
/// CPU has and the library does not see is acceleration left unused (e.g.
/// OpenSSL on Windows on Arm reporting no capability at all); one the library
/// claims without the CPU having it is a wrong mask or a broken detection.
pub fn mismatches(cpu: &[Feature], library: &[Feature], library_name: &str, understood: &[&'static str]) -> Vec<Mismatch> {
    let has = |set: &[Feature], name: &str| set.iter().any(|f| f.name == name);
    let mut out = Vec::new();
    for &name in understood {
        match (has(cpu, name), has(library, name)) {
            (true, false) => out.push(Mismatch {
                feature: name,
                message: format!("the CPU offers {name} but {library_name} does not use it: expect unaccelerated code paths"),
            }),
            (false, true) => out.push(Mismatch {
                feature: name,
                message: format!("{library_name} claims {name}, which this CPU does not offer: a forced capability mask?"),
            }),
            _ => {}
        }
    }
    out
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
    fn mismatches_go_both_ways() {
        let cpu = [f("aes"), f("pclmulqdq")];
        let lib = [f("pclmulqdq"), f("sha_ni")];
        let m = mismatches(&cpu, &lib, "OpenSSL", &["aes", "pclmulqdq", "sha_ni"]);
        assert_eq!(m.len(), 2);
        assert!(m[0].message.contains("offers aes but OpenSSL does not use it"));
        assert!(m[1].message.contains("claims sha_ni"));
    }
}

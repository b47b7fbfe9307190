//! What a run records about the machines it ran on: the host of the
//! orchestrator, each worker's platform and CPU features, and the core
//! clock measured around a configuration's cells. Part of the result model
//! ([`crate::result`] re-exports every type).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HostInfo {
    pub hostname: Option<String>,
    pub cpu_model: Option<String>,
    pub logical_cores: usize,
    pub arch: String,
    pub os: String,
    pub kernel: Option<String>,
    /// Hypervisor vendor when the CPU reports one.
    pub virtualization: Option<String>,
    /// Time-stamp counter rate in MHz, measured (x86: reference cycles, not core cycles).
    #[serde(default)]
    pub tsc_mhz: Option<f64>,
    /// The clock the OS reports, in MHz, and where it was read.
    #[serde(default)]
    pub reported_mhz: Option<f64>,
    #[serde(default)]
    pub reported_mhz_source: Option<String>,
    /// The cpufreq governor of the measured CPU, where the OS exposes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<String>,
    /// Whether turbo/boost was on, where the OS says (intel_pstate no_turbo, cpufreq boost).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boost: Option<bool>,
}

/// An effective core clock measured with dependent-instruction chains (see crates/cpu/src/clock.rs).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClockMeasurement {
    /// From the fastest run of each chain length.
    pub mhz: f64,
    /// Lowest and highest of the per-repetition estimates.
    pub min_mhz: f64,
    pub max_mhz: f64,
    pub repetitions: usize,
}

/// The worker's clock right before its first cell and right after its last.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ConfigurationClock {
    pub before: Option<ClockMeasurement>,
    pub after: Option<ClockMeasurement>,
    /// Why no clock, cycles per byte or score per MHz is given, where they
    /// would mean nothing (a worker under an emulator times the emulator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_meaningful: Option<String>,
}

impl ConfigurationClock {
    /// The clock cycles are counted at: the mean of before and after, or whichever exists.
    pub fn mhz(&self) -> Option<f64> {
        match (self.before, self.after) {
            (Some(b), Some(a)) => Some((b.mhz + a.mhz) / 2.0),
            (Some(x), None) | (None, Some(x)) => Some(x.mhz),
            (None, None) => None,
        }
    }
}

/// A CPU feature by its normalised name ("aes", "sha_ni", "pmull") and where it was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FeatureRecord {
    pub name: String,
    pub source: String,
}

/// What a worker reports about the machine it runs on: everything about
/// "the CPU" of a configuration comes from here, not from the orchestrator
/// (a worker may run under an emulator or on another machine).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct WorkerPlatform {
    /// The architecture the worker binary was built for, e.g. "x86_64", "aarch64".
    pub arch: String,
    pub os: String,
    /// The CPU's crypto features as the worker detects them at run time.
    #[serde(default)]
    pub features: Vec<FeatureRecord>,
    /// The logical CPUs the worker may run on after pinning (Linux: sched_getaffinity).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affinity: Option<Vec<usize>>,
    /// False for a debug build, whose Rust code runs many times slower.
    #[serde(default = "yes")]
    pub optimized: bool,
    /// The emulator the worker runs under ("qemu-aarch64 version 7.2.22",
    /// "Rosetta 2"), where it is emulated: its figures then describe the
    /// emulator, not a CPU of its architecture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emulated_by: Option<String>,
    /// Which processor it is, as the OS reports it (x86: CPUID vendor,
    /// family and model; arm: MIDR implementer and part), from which the
    /// microarchitecture is recognised. Absent in runs of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_identity: Option<CpuIdentity>,
    /// The worker's byte order is big-endian (IBM Z, POWER in big-endian
    /// mode): its known answers and agreement fingerprints were checked in
    /// that order. Absent (false) for little-endian workers.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub big_endian: bool,
}

impl WorkerPlatform {
    /// The architecture as people name it: see [`arch_display_name`].
    pub fn arch_label(&self) -> &str {
        arch_display_name(&self.arch, self.big_endian)
    }
}

/// An architecture as its users name it, from Rust's name
/// (std::env::consts::ARCH) and the byte order: Rust calls both POWER
/// byte orders "powerpc64"; Linux distributions call the little-endian one
/// ppc64le (Debian: ppc64el) and the big-endian one ppc64.
pub fn arch_display_name(rust_arch: &str, big_endian: bool) -> &str {
    match (rust_arch, big_endian) {
        ("powerpc64", false) => "ppc64le",
        ("powerpc64", true) => "ppc64",
        (other, _) => other,
    }
}

/// The processor's identification registers as /proc/cpuinfo gives them:
/// "vendor_id", "cpu family" and "model" (x86 CPUID, family and model
/// with their extended fields added), or "CPU implementer" and "CPU part"
/// (arm MIDR_EL1 bits 31:24 and 15:4).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CpuIdentity {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implementer: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<u32>,
    /// Where it was read, e.g. "/proc/cpuinfo", or who recorded it.
    pub source: String,
}

fn yes() -> bool {
    true
}

#[cfg(test)]
mod arch_name_tests {
    use super::*;

    #[test]
    fn power_is_named_by_its_byte_order_and_the_rest_as_rust_names_them() {
        assert_eq!(arch_display_name("powerpc64", false), "ppc64le");
        assert_eq!(arch_display_name("powerpc64", true), "ppc64");
        assert_eq!(arch_display_name("s390x", true), "s390x");
        assert_eq!(arch_display_name("x86_64", false), "x86_64");
        let p = WorkerPlatform {
            arch: "powerpc64".into(),
            ..Default::default()
        };
        assert_eq!(p.arch_label(), "ppc64le");
    }
}

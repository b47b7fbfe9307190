//! What `cryptobench audit` decided, kept with its run: per library, the
//! configurations it measured with acceleration families switched off, and a
//! verdict per algorithm and family with the figures behind it. The verdicts
//! are computed from the measured cells by [`crate::verdict`]; these are
//! their types, stored in [`crate::result::RunResult::audit`] so that
//! `report`, `runs show` and the stores give them back from a saved run.

use serde::{Deserialize, Serialize};

use crate::catalog::Family;
use crate::machine::FeatureRecord;

/// The audit part of a run: one entry per audited library.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AuditInfo {
    pub libraries: Vec<AuditedLibrary>,
}

/// One audited library (one `--backend` of `cryptobench audit`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AuditedLibrary {
    /// The run's index of the configuration with every family on.
    pub base_index: usize,
    /// How the user named the library (`openssl`, `openssl=/path/libcrypto.so`).
    pub configuration: String,
    /// The architecture of the worker that ran this library: what the verdicts are about.
    pub worker_arch: String,
    /// The CPU features that worker detected.
    #[serde(default)]
    pub worker_features: Vec<FeatureRecord>,
    /// Every configuration of this library in the audit, the baseline first.
    pub configurations: Vec<MaskedConfiguration>,
    /// Differences between the CPU's features and the library's own view of them.
    #[serde(default)]
    pub mismatches: Vec<LibraryMismatch>,
    pub verdicts: Vec<Verdict>,
}

impl AuditedLibrary {
    /// The masked configuration with this run index, if it belongs to this library.
    pub fn configuration(&self, index: usize) -> Option<&MaskedConfiguration> {
        self.configurations.iter().find(|m| m.index == index)
    }
}

/// Which families a configuration of the audit has switched off (empty: all on).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MaskedConfiguration {
    /// 1-based index into the run's configurations.
    pub index: usize,
    pub families_off: Vec<Family>,
    /// The variable and value set in the worker's environment.
    pub mask: Option<(String, String)>,
    /// The CPU features the mask switches off (normalised names); a verdict
    /// names no other feature.
    #[serde(default)]
    pub cleared: Vec<String>,
}

impl MaskedConfiguration {
    /// "all on", "AES off", "AES+CLMUL off", "all off": the configuration's
    /// role in the audit, the same words in every output.
    pub fn role(&self) -> String {
        role(&self.families_off)
    }
}

/// The role of a set of switched-off families (see [`MaskedConfiguration::role`]).
/// Every crypto family off (AES, CLMUL and SHA, with or without SIMD) is
/// "all off": audits saved before the SIMD family switched those three.
pub fn role(families_off: &[Family]) -> String {
    let every_crypto = [Family::Aes, Family::Clmul, Family::Sha].iter().all(|f| families_off.contains(f));
    match families_off.len() {
        0 => "all on".to_string(),
        _ if every_crypto => "all off".to_string(),
        _ => format!(
            "{} off",
            families_off.iter().map(|f| family_title(*f)).collect::<Vec<_>>().join("+")
        ),
    }
}

/// How a family is written for people: "AES", "CLMUL", "SHA", "SIMD".
pub fn family_title(family: Family) -> &'static str {
    match family {
        Family::Aes => "AES",
        Family::Clmul => "CLMUL",
        Family::Sha => "SHA",
        Family::Simd => "SIMD",
        Family::Bignum => "BIGNUM",
    }
}

/// The instruction sets the audit tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isa {
    X86,
    Arm,
    Power,
    /// IBM Z (s390x): CPACF and the vector facility.
    Z,
    RiscV,
}

/// The instruction set of a worker's architecture (Rust's names: std::env::consts::ARCH).
pub fn isa(arch: &str) -> Isa {
    if arch == "aarch64" || arch == "arm" || arch.starts_with("armv") {
        Isa::Arm
    } else if arch.starts_with("powerpc") {
        Isa::Power
    } else if arch == "s390x" {
        Isa::Z
    } else if arch.starts_with("riscv") {
        Isa::RiscV
    } else {
        Isa::X86
    }
}

/// Whether `arch` (a worker's architecture) is an Arm one.
pub fn is_arm(arch: &str) -> bool {
    isa(arch) == Isa::Arm
}

/// How people write a CPU feature on `arch`: "AES-NI", "SHA-NI", "VAES",
/// "PMULL", "AltiVec", "KM-AES", "Zvkned".
pub fn feature_title(feature: &str, arch: &str) -> String {
    match feature {
        "aes" if isa(arch) == Isa::X86 => "AES-NI".into(),
        "sha_ni" => "SHA-NI".into(),
        "vcrypto" => "POWER8 vector crypto".into(),
        "altivec" => "AltiVec".into(),
        "vx" => "the vector facility".into(),
        // CPACF functions: the instruction and the function, as IBM writes them (KM-AES, KIMD-SHA-512).
        "kma_gcm" => "KMA-GCM".into(),
        "kimd_sha1" => "KIMD-SHA-1".into(),
        "kimd_sha256" => "KIMD-SHA-256".into(),
        "kimd_sha512" => "KIMD-SHA-512".into(),
        "kimd_sha3" => "KIMD-SHA3".into(),
        s390x if isa(arch) == Isa::Z && s390x.contains('_') => s390x.replace('_', "-").to_uppercase(),
        // RISC-V extensions as the specifications write them: V, Zbc, Zvkned.
        "v" => "V".into(),
        riscv if isa(arch) == Isa::RiscV && riscv.starts_with('z') => {
            let mut c = riscv.chars();
            c.next().map(|first| first.to_uppercase().chain(c).collect()).unwrap_or_default()
        }
        other => other.to_uppercase(),
    }
}

/// A feature the CPU offers and the library does not see, or the reverse.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LibraryMismatch {
    pub feature: String,
    pub message: String,
}

/// A library's own view of the CPU (its capability vector, decoded) held
/// against the CPU its worker detected: what `cryptobench cpu` shows per
/// library, what the audit warns about, and what `run` answers with.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CapabilityView {
    /// The features the library's vector says it uses.
    pub features: Vec<FeatureRecord>,
    /// The features its vector can express at all: of the others it says nothing.
    pub expressible: Vec<String>,
    /// Where the library's view and the CPU's features differ.
    pub mismatches: Vec<LibraryMismatch>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VerdictKind {
    /// The CPU offers the family and the library uses it: switching it off costs ≥ 10%, beyond the noise.
    Accelerated,
    /// Switching it off costs less than 10%, but beyond the noise.
    SmallGain,
    /// Switching it off makes the cell faster, beyond the noise (e.g. under an emulator).
    FasterWithout,
    /// The CPU offers the family but switching it off changes nothing measurable.
    AvailableNotUsed,
    /// The CPU lacks the family's instructions.
    NotOffered,
    /// The CPU offers instructions of the family that this library's mask cannot switch off.
    NotMasked,
    /// The CPU offers the family, but the figures are too noisy to tell whether it is used.
    Inconclusive,
    /// The algorithm has no hardware family; the figure is all-off against all-on.
    NoFamily,
}

impl VerdictKind {
    /// A few words for a table cell; the verdict's `text` says the rest.
    pub fn short(self) -> &'static str {
        match self {
            VerdictKind::Accelerated => "accelerated",
            VerdictKind::SmallGain => "small gain",
            VerdictKind::FasterWithout => "faster without",
            VerdictKind::AvailableNotUsed => "available, not used",
            VerdictKind::NotOffered => "not offered",
            VerdictKind::NotMasked => "cannot be masked",
            VerdictKind::Inconclusive => "inconclusive",
            VerdictKind::NoFamily => "control",
        }
    }
}

/// The verdict on one algorithm and one family, with the figures it rests on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Verdict {
    /// The algorithm's id; for public key the cell's, with its operation: "rsa2048 sign".
    pub algorithm: String,
    pub family: Option<Family>,
    pub kind: VerdictKind,
    /// The CPU features of the family that matter for this algorithm (on the worker's architecture).
    pub features: Vec<String>,
    /// Of those, the ones the worker's CPU offers and the mask switched off: what the figures are about.
    pub masked: Vec<String>,
    /// The run's index of the configuration the family-off figures come from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub off_index: Option<usize>,
    pub small_size: usize,
    pub large_size: usize,
    /// On/off throughput ratio at the smallest and the largest size.
    pub factor_small: Option<f64>,
    pub factor_large: Option<f64>,
    /// Bytes per second at the largest size with the family on and off.
    pub on_large: Option<f64>,
    pub off_large: Option<f64>,
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_name_the_families_switched_off() {
        assert_eq!(role(&[]), "all on");
        assert_eq!(role(&[Family::Aes]), "AES off");
        assert_eq!(role(&[Family::Aes, Family::Clmul]), "AES+CLMUL off");
        assert_eq!(role(&Family::ALL), "all off");
        assert_eq!(role(&[Family::Aes, Family::Clmul, Family::Sha]), "all off", "audits before SIMD");
        assert_eq!(role(&[Family::Simd]), "SIMD off");
    }
}

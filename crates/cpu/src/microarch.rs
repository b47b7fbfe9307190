//! Microarchitectures recognised from a [`CpuIdentity`]: x86 by CPUID
//! vendor, family and model ranges, arm by MIDR implementer and part. The
//! table is data (data/microarchitectures.json, each entry with the source
//! of its numbers); the best-known figures of crates/advice are keyed by
//! these ids. A core for which no figure is published may name the nearest
//! earlier core of its line (`nearest_published`), which advice then names
//! as such, never as this core's own figure.

use std::sync::OnceLock;

use cryptobench_core::result::CpuIdentity;
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct Microarch {
    /// Stable id, e.g. "zen3", "cortex-a76".
    pub id: String,
    /// How people name it, e.g. "Zen 3".
    pub name: String,
    pub arch: String,
    #[serde(default)]
    pub x86: Vec<X86Match>,
    #[serde(default)]
    pub midr: Vec<MidrMatch>,
    /// The earlier core of the same line whose published figures are shown,
    /// for reference only, where this core has none.
    #[serde(default)]
    pub nearest_published: Option<String>,
    /// How this core differs from `nearest_published` in what crypto code
    /// uses (vector width, VAES, AVX-512, SVE): said wherever that core's
    /// figure is shown for this one.
    #[serde(default)]
    pub differs_from_nearest: Option<String>,
    /// Why no CPU identity names this core (no MIDR part published): it
    /// is then named with `advise --core`.
    #[serde(default)]
    pub unrecognised: Option<String>,
    /// Where the identifying numbers come from.
    pub source: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct X86Match {
    pub vendor: String,
    pub family: u32,
    /// Inclusive model ranges.
    pub models: Vec<[u32; 2]>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct MidrMatch {
    pub implementer: u32,
    pub parts: Vec<u32>,
}

#[derive(Debug, Deserialize)]
struct Table {
    microarchitectures: Vec<Microarch>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        serde_json::from_str(include_str!("../data/microarchitectures.json")).expect("data/microarchitectures.json is valid")
    })
}

/// Every microarchitecture of the table.
pub fn all() -> &'static [Microarch] {
    &table().microarchitectures
}

/// A microarchitecture by id.
pub fn find(id: &str) -> Option<&'static Microarch> {
    all().iter().find(|m| m.id.eq_ignore_ascii_case(id.trim()))
}

/// The microarchitecture of a processor of architecture `arch` with this
/// identity. The fields of the other architecture are ignored (a worker
/// under qemu-user reads the host's /proc/cpuinfo).
pub fn recognise(id: &CpuIdentity, arch: &str) -> Option<&'static Microarch> {
    all().iter().filter(|m| m.arch == arch).find(|m| {
        let x86 = m.x86.iter().any(|x| {
            id.vendor.as_deref() == Some(x.vendor.as_str())
                && id.family == Some(x.family)
                && id
                    .model
                    .is_some_and(|model| x.models.iter().any(|[lo, hi]| (*lo..=*hi).contains(&model)))
        });
        let arm = m
            .midr
            .iter()
            .any(|a| id.implementer == Some(a.implementer) && id.part.is_some_and(|p| a.parts.contains(&p)));
        x86 || arm
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x86(vendor: &str, family: u32, model: u32) -> CpuIdentity {
        CpuIdentity {
            vendor: Some(vendor.into()),
            family: Some(family),
            model: Some(model),
            source: "test".into(),
            ..Default::default()
        }
    }

    #[test]
    fn recognises_x86_and_arm_cores() {
        // EPYC Milan reports family 0x19 model 0x01 (Linux amd.c: Zen 3 for models 0x00-0x0f).
        assert_eq!(recognise(&x86("AuthenticAMD", 25, 1), "x86_64").unwrap().id, "zen3");
        assert_eq!(recognise(&x86("AuthenticAMD", 25, 0x11), "x86_64").unwrap().id, "zen4");
        // SKYLAKE_X 0x55 (Skylake-SP, Cascade Lake) has AVX-512, client Skylake 0x5E has not.
        assert_eq!(recognise(&x86("GenuineIntel", 6, 0x55), "x86_64").unwrap().id, "skylake-sp");
        assert_eq!(recognise(&x86("GenuineIntel", 6, 0x5E), "x86_64").unwrap().id, "skylake");
        assert_eq!(recognise(&x86("GenuineIntel", 6, 0x8F), "x86_64").unwrap().id, "sapphire-rapids");
        assert_eq!(recognise(&x86("GenuineIntel", 6, 0xBA), "x86_64").unwrap().id, "raptor-lake");
        assert_eq!(recognise(&x86("AuthenticAMD", 26, 0x44), "x86_64").unwrap().id, "zen5");
        assert!(recognise(&x86("GenuineIntel", 6, 0x55), "aarch64").is_none());
        let a76 = CpuIdentity {
            implementer: Some(0x41),
            part: Some(0xd0b),
            source: "test".into(),
            ..Default::default()
        };
        assert_eq!(recognise(&a76, "aarch64").unwrap().id, "cortex-a76");
        let n1 = CpuIdentity {
            part: Some(0xd0c),
            ..a76.clone()
        };
        assert_eq!(recognise(&n1, "aarch64").unwrap().id, "neoverse-n1");
    }

    #[test]
    fn every_entry_is_cited_and_stands_in_only_for_known_ids() {
        for m in all() {
            assert!(!m.source.trim().is_empty(), "{} has no source", m.id);
            assert!(
                !m.x86.is_empty() || !m.midr.is_empty() || m.unrecognised.as_deref().is_some_and(|w| !w.trim().is_empty()),
                "{} cannot be recognised and does not say why",
                m.id
            );
            if let Some(n) = &m.nearest_published {
                assert!(find(n).is_some_and(|n| n.arch == m.arch), "{}: unknown {n}", m.id);
                // Another generation's figure is never shown without how it differs.
                assert!(m.differs_from_nearest.as_deref().is_some_and(|d| !d.trim().is_empty()), "{}", m.id);
            }
            // MIDR parts are named by the arm part table too (arm_parts.rs, from cputype.h).
            for a in &m.midr {
                for p in &a.parts {
                    assert!(
                        !crate::arm_parts::name(a.implementer, *p).starts_with("arm core"),
                        "{}: {p:#x}",
                        m.id
                    );
                }
            }
        }
    }
}

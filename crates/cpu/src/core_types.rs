//! The distinct core types of a machine, for `run --core-types`: the
//! clusters of an arm big.LITTLE SoC (told apart by their MIDR part number),
//! Intel's P and E cores (CPUID leaf 1AH core type), and arm cores of one
//! design that differ in the scheduler's capacity or their cpufreq maximum
//! (a prime core clocked above its siblings of the same design). sbc-bench's
//! observation is why: on ARMv8 with the Crypto Extensions the aes-256-cbc
//! score per MHz is fixed per core type, so each type must be measured on
//! its own cores at its own clock.

use cryptobench_core::cores::CoreType;

use crate::topology::{LogicalCpu, Topology};
use crate::{arm_parts, core_class, hybrid};

/// What identifies a core's design.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Design {
    Arm(u32, u32),
    /// Leaf 1AH EAX: core type and native model ID.
    X86Hybrid(u32),
    Unknown,
}

fn design(c: &LogicalCpu) -> Design {
    match (c.midr, c.hybrid) {
        (Some((i, p, _)), _) => Design::Arm(i, p),
        (None, Some(eax)) => Design::X86Hybrid(eax),
        _ => Design::Unknown,
    }
}

type Key = (Design, Option<u32>, Option<u64>);

/// arm cores of one design in clusters of different capacity or clock (a
/// prime core) are told apart; x86 cores only by their CPUID core type,
/// since turbo binning gives cores of one type different maxima (Intel's
/// Turbo Boost Max 3.0 "favored" cores).
fn key(c: &LogicalCpu) -> Key {
    match design(c) {
        d @ Design::Arm(..) => (d, c.capacity, c.max_khz),
        d => (d, None, None),
    }
}

/// The core types of `t`, in the order of their first CPU; one entry for a
/// machine whose cores are all alike.
pub fn core_types(t: &Topology) -> Vec<CoreType> {
    let mut groups: Vec<(Key, Vec<&LogicalCpu>)> = Vec::new();
    for c in &t.cpus {
        match groups.iter_mut().find(|(k, _)| *k == key(c)) {
            Some((_, members)) => members.push(c),
            None => groups.push((key(c), vec![c])),
        }
    }
    let mut types: Vec<CoreType> = groups
        .iter()
        .map(|((d, _, _), members)| {
            let first = members[0];
            let (name, evidence, class) = match d {
                Design::Arm(i, p) => (
                    arm_parts::name(*i, *p),
                    format!("MIDR {i:#04x}:{p:#05x}, from {}", first.midr.map(|m| m.2).unwrap_or("?")),
                    core_class::for_midr(&format!("{i:#x}"), &format!("{p:#x}")).map(|c| c.class.clone()),
                ),
                Design::X86Hybrid(eax) => (
                    hybrid::type_name(*eax),
                    format!(
                        "core type {:#04x}, native model {:#08x}, from {}",
                        eax >> 24,
                        eax & 0x00ff_ffff,
                        t.hybrid_source.unwrap_or("CPUID leaf 1AH")
                    ),
                    None,
                ),
                Design::Unknown => (
                    first.model_name.clone().unwrap_or_else(|| "cores".into()),
                    "no arm MIDR differs, no x86 hybrid bit is set".to_string(),
                    None,
                ),
            };
            // The highest of the type's cores (they differ only where the key ignores it).
            CoreType {
                name,
                cpus: members.iter().map(|c| c.id).collect(),
                evidence,
                capacity: members.iter().filter_map(|c| c.capacity).max(),
                max_mhz: members.iter().filter_map(|c| c.max_khz).max().map(|k| k as f64 / 1000.0),
                core_class: class,
            }
        })
        .collect();
    // The same design at different capacities or clocks: tell them apart in the name.
    let names: Vec<String> = types.iter().map(|t| t.name.clone()).collect();
    for (i, t) in types.iter_mut().enumerate() {
        if names.iter().filter(|n| **n == names[i]).count() > 1 {
            let suffix = match (t.max_mhz, t.capacity) {
                (Some(mhz), _) => format!(" ({mhz:.0} MHz)"),
                (None, Some(cap)) => format!(" (capacity {cap})"),
                _ => format!(" (CPU {})", t.cpus[0]),
            };
            t.name.push_str(&suffix);
        }
    }
    if types.len() == 1 {
        types[0].evidence = format!("all {} CPUs alike: {}", types[0].cpus.len(), types[0].evidence);
    }
    types
}

// Here, above both the topology and the core types read from it (topology.rs
// does not import this file).
impl Topology {
    /// The description a run records: placement among `allowed` and the core types.
    pub fn describe(&self, allowed: &[usize]) -> cryptobench_core::cores::Topology {
        let cores = self.cores(allowed);
        cryptobench_core::cores::Topology {
            source: self.root.describe(),
            placement_order: self.placement_order(allowed),
            placement_rule: self.placement_rule(allowed),
            physical_cores: cores.len(),
            logical_cpus: cores.iter().map(Vec::len).sum(),
            core_types: core_types(self),
        }
    }
}

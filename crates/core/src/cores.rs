//! Where the workers of a run ran when it used several cores at once
//! (`run --threads`) or measured each core type apart (`run --core-types`):
//! the placement of a configuration's workers, the machine's cores as they
//! were read, and the per-worker measurements of a cell measured by several
//! workers together. The aggregation itself is in [`crate::aggregate`].

use serde::{Deserialize, Serialize};

use crate::machine::ConfigurationClock;
use crate::stats::{Sample, Summary};

/// How a configuration's workers were placed. Absent: one worker, pinned
/// only where `--cpu` said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Placement {
    /// Workers started together on every cell of this configuration, each
    /// pinned to its own logical CPU (1 for the one-core figure the others
    /// are scaled against, and for each core type).
    pub threads: usize,
    /// The logical CPU of each worker, in the order they were placed.
    pub cpus: Vec<usize>,
    /// The core type these CPUs are (`--core-types`), as named in the run's `topology`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_type: Option<String>,
    /// Several workers only: the clock each measured on its own core right
    /// before its first cell and after its last, while the others ran their
    /// chains too (the clock under that load), in the order of `cpus`. One
    /// worker's clock is the configuration's `clock`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clocks: Vec<ConfigurationClock>,
}

impl Placement {
    /// "2 threads", "1 thread", or the core type's name.
    pub fn describe(&self) -> String {
        match &self.core_type {
            Some(t) => t.clone(),
            None if self.threads == 1 => "1 thread".into(),
            None => format!("{} threads", self.threads),
        }
    }
}

/// The machine's cores as cryptobench read them for `--threads` and `--core-types`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Topology {
    /// The files it was read from: sysfs and procfs under `/`, or the root
    /// named by CRYPTOBENCH_SYSFS_ROOT (a recorded tree of another machine).
    pub source: String,
    /// The logical CPUs this process may use, in the order `--threads`
    /// places workers on them.
    pub placement_order: Vec<usize>,
    /// That order in words, with the files it came from.
    pub placement_rule: String,
    /// Physical cores and logical CPUs among the CPUs this process may use.
    pub physical_cores: usize,
    pub logical_cpus: usize,
    /// The distinct core types, biggest first; one where all cores are alike.
    pub core_types: Vec<CoreType>,
}

/// One kind of core of the machine: a cluster of a big.LITTLE SoC, Intel's
/// P or E cores, or all cores of a homogeneous machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CoreType {
    /// "Cortex-A76", "Intel Core (P-core)", "Intel Atom (E-core)", or the
    /// processor's model name where all cores are alike.
    pub name: String,
    /// Its logical CPUs.
    pub cpus: Vec<usize>,
    /// What told it apart: "MIDR 0x41:0xd0b (/proc/cpuinfo CPU part)",
    /// "CPUID 1AH core type 0x40", "all cores alike".
    pub evidence: String,
    /// The scheduler's relative capacity (sysfs `cpu_capacity`, 1024 = the
    /// biggest core), where the kernel exposes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<u32>,
    /// The highest clock cpufreq allows (`cpuinfo_max_freq`), in MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_mhz: Option<f64>,
    /// The reference class of crates/cpu/data/core-classes.json its ID
    /// matches (arm: the MIDR part number), for the sbc-bench score per MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core_class: Option<String>,
}

/// A cell measured by several workers at once (`--threads`): each worker's
/// own measurement. The cell's `summary` then describes their aggregate
/// (docs/METHOD.md, "Several cores at once"): the median is the sum of the
/// workers' medians, the interval the sum of their simultaneous intervals.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Aggregate {
    /// One per worker, in the order of the configuration's placement.
    pub workers: Vec<WorkerMeasurement>,
    /// The aggregate median ÷ (workers × the median of the same cell
    /// measured by one worker of the same library in the same run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scaling_efficiency: Option<f64>,
}

/// One worker's part of a cell measured by several workers.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct WorkerMeasurement {
    /// The logical CPU it was pinned to.
    pub cpu: usize,
    pub summary: Summary,
    /// Every sample, in the order taken; sample k of every worker started
    /// at the same barrier.
    pub samples: Vec<Sample>,
    pub warnings: Vec<String>,
    pub checksum: String,
    /// At the clock this worker measured on its core.
    #[serde(default)]
    pub cycles_per_byte: Option<f64>,
}

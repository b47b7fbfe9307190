//! The logical CPUs of a machine as the kernel describes them: which share
//! a physical core (SMT siblings), the scheduler's capacity, the cpufreq
//! maximum, and what identifies the core (arm MIDR, x86 hybrid core type).
//! Read from a [`Root`]: this machine, or a recorded tree of another one.
//!
//! Files (Linux Documentation/admin-guide/cputopology.rst and
//! Documentation/ABI/stable/sysfs-devices-system-cpu):
//! `sys/devices/system/cpu/online`, per CPU `topology/thread_siblings_list`
//! (the logical CPUs of the same core), `topology/physical_package_id`,
//! `cpu_capacity` (arm, riscv: Documentation/devicetree/bindings/cpu/cpu-capacity.txt),
//! `cpufreq/cpuinfo_max_freq` (kHz), `regs/identification/midr_el1`
//! (arm64: Documentation/arch/arm64/cpu-feature-registers.rst), and the
//! per-processor blocks of `proc/cpuinfo` ("CPU implementer", "CPU part",
//! "model name").

use crate::arm_parts;
use crate::sysfs::{format_cpu_list, parse_cpu_list, Root};

/// What the kernel says about one logical CPU.
#[derive(Debug, Clone, PartialEq)]
pub struct LogicalCpu {
    pub id: usize,
    pub package: Option<u32>,
    /// The logical CPUs of its physical core, itself included.
    pub siblings: Vec<usize>,
    pub capacity: Option<u32>,
    pub max_khz: Option<u64>,
    /// arm: MIDR implementer and part, and where they were read.
    pub midr: Option<(u32, u32, &'static str)>,
    pub model_name: Option<String>,
    /// x86 hybrid: CPUID leaf 1AH EAX.
    pub hybrid: Option<u32>,
}

/// The CPUs of a machine.
#[derive(Debug, Clone)]
pub struct Topology {
    pub root: Root,
    pub cpus: Vec<LogicalCpu>,
    /// Whether thread_siblings_list was found (else every CPU is its own core).
    pub siblings_known: bool,
    /// Whether the hybrid core types came from CPUID read on each CPU or a recording.
    pub hybrid_source: Option<&'static str>,
}

#[derive(Debug, thiserror::Error)]
pub enum TopologyError {
    #[error(
        "no CPU is described under {0}: it has neither sys/devices/system/cpu/online nor cpuN directories there, nor proc/cpuinfo; \
         point CRYPTOBENCH_SYSFS_ROOT at a tree that holds them (a recorded machine), or unset it"
    )]
    NoCpus(String),
}

/// One "processor : N" block of /proc/cpuinfo as key → value.
fn cpuinfo_blocks(text: &str) -> Vec<(usize, Vec<(String, String)>)> {
    let mut blocks: Vec<(usize, Vec<(String, String)>)> = Vec::new();
    for line in text.lines() {
        let Some((k, v)) = line.split_once(':') else { continue };
        let (k, v) = (k.trim().to_string(), v.trim().to_string());
        if k == "processor" {
            if let Ok(n) = v.parse() {
                blocks.push((n, Vec::new()));
            }
        } else if let Some((_, fields)) = blocks.last_mut() {
            fields.push((k, v));
        }
    }
    blocks
}

fn hex(text: &str) -> Option<u64> {
    u64::from_str_radix(text.trim().trim_start_matches("0x"), 16).ok()
}

impl Topology {
    /// Reads every online CPU under `root`.
    pub fn read(root: &Root) -> Result<Topology, TopologyError> {
        let cpuinfo = root.read(&root.path.join("proc/cpuinfo")).unwrap_or_default();
        let blocks = cpuinfo_blocks(&cpuinfo);
        let ids = root
            .read(&root.cpu_dir("online"))
            .or_else(|| root.read(&root.cpu_dir("present")))
            .and_then(|t| parse_cpu_list(&t))
            .or_else(|| {
                let mut ids: Vec<usize> = std::fs::read_dir(root.cpu_dir(""))
                    .ok()?
                    .filter_map(|e| e.ok()?.file_name().to_str()?.strip_prefix("cpu")?.parse().ok())
                    .collect();
                ids.sort_unstable();
                (!ids.is_empty()).then_some(ids)
            })
            .or_else(|| (!blocks.is_empty()).then(|| blocks.iter().map(|b| b.0).collect()))
            .or_else(|| {
                // No sysfs and no procfs (another OS): the CPUs this process may use, nothing else known.
                root.live
                    .then(|| (0..std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)).collect())
            })
            .ok_or_else(|| TopologyError::NoCpus(root.path.display().to_string()))?;
        let hybrid = crate::hybrid::core_types(root, &ids);
        let mut siblings_known = false;
        let cpus = ids
            .iter()
            .map(|&id| {
                let field = |name: &str| {
                    blocks
                        .iter()
                        .find(|b| b.0 == id)
                        .and_then(|b| b.1.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
                };
                let siblings = root
                    .cpu_file(id, "topology/thread_siblings_list")
                    .or_else(|| root.cpu_file(id, "topology/core_cpus_list"))
                    .and_then(|t| parse_cpu_list(&t))
                    .filter(|s| s.contains(&id));
                siblings_known |= siblings.is_some();
                let midr = root
                    .cpu_file(id, "regs/identification/midr_el1")
                    .and_then(|t| hex(&t))
                    .map(|m| {
                        let (i, p) = arm_parts::from_midr(m);
                        (i, p, "sysfs regs/identification/midr_el1")
                    })
                    .or_else(|| {
                        let i = hex(&field("CPU implementer")?)? as u32;
                        let p = hex(&field("CPU part")?)? as u32;
                        Some((i, p, "/proc/cpuinfo CPU implementer and CPU part"))
                    });
                LogicalCpu {
                    id,
                    package: root.cpu_file(id, "topology/physical_package_id").and_then(|t| t.parse().ok()),
                    siblings: siblings.unwrap_or_else(|| vec![id]),
                    capacity: root.cpu_file(id, "cpu_capacity").and_then(|t| t.parse().ok()),
                    max_khz: root.cpu_file(id, "cpufreq/cpuinfo_max_freq").and_then(|t| t.parse().ok()),
                    midr,
                    model_name: field("model name"),
                    hybrid: hybrid.as_ref().and_then(|h| h.get(&id).copied()),
                }
            })
            .collect();
        Ok(Topology {
            hybrid_source: hybrid.as_ref().map(|_| {
                if root.live {
                    "CPUID leaf 1AH read on each CPU by a thread pinned to it"
                } else {
                    "CPUID leaf 1AH as recorded in cpuid.txt"
                }
            }),
            root: root.clone(),
            cpus,
            siblings_known,
        })
    }

    /// This machine, or the recorded tree CRYPTOBENCH_SYSFS_ROOT names.
    pub fn of_this_machine() -> Result<Topology, TopologyError> {
        Topology::read(&Root::from_env())
    }

    pub fn ids(&self) -> Vec<usize> {
        self.cpus.iter().map(|c| c.id).collect()
    }

    /// The physical cores among `allowed`: each the sorted list of its allowed
    /// logical CPUs, ordered by package and first CPU.
    pub fn cores(&self, allowed: &[usize]) -> Vec<Vec<usize>> {
        let mut cores: Vec<(Option<u32>, Vec<usize>)> = Vec::new();
        for c in self.cpus.iter().filter(|c| allowed.contains(&c.id)) {
            let members: Vec<usize> = c.siblings.iter().copied().filter(|s| allowed.contains(s)).collect();
            if !cores.iter().any(|(_, m)| *m == members) {
                cores.push((c.package, members));
            }
        }
        cores.sort_by_key(|(p, m)| (p.unwrap_or(0), m[0]));
        cores.into_iter().map(|(_, m)| m).collect()
    }

    /// The CPUs of `allowed` in the order `--threads` places workers: the
    /// first hardware thread of every physical core, then the second of
    /// every core that has one, and so on, so that N workers never share a
    /// core while N does not exceed the cores.
    pub fn placement_order(&self, allowed: &[usize]) -> Vec<usize> {
        let cores = self.cores(allowed);
        let depth = cores.iter().map(Vec::len).max().unwrap_or(0);
        (0..depth)
            .flat_map(|r| cores.iter().filter_map(move |c| c.get(r).copied()))
            .collect()
    }

    /// The placement order in words, with where the cores were read.
    pub fn placement_rule(&self, allowed: &[usize]) -> String {
        let cores = self.cores(allowed);
        let logical: usize = cores.iter().map(Vec::len).sum();
        let from = if self.siblings_known {
            format!("cores from topology/thread_siblings_list under {}", self.root.describe())
        } else {
            format!(
                "no SMT siblings described under {}: every logical CPU taken as its own core",
                self.root.describe()
            )
        };
        if logical > cores.len() {
            format!(
                "one worker per physical core first, then their SMT siblings ({} cores, {logical} logical CPUs; {from})",
                cores.len()
            )
        } else {
            format!(
                "one worker per core in CPU order ({} cores, no SMT siblings among them; {from})",
                cores.len()
            )
        }
    }
}

/// "0-3" for a list of CPUs, for messages.
pub fn cpus_text(cpus: &[usize]) -> String {
    format_cpu_list(cpus)
}

//! Where the workers of `run --threads` and `run --core-types` go: the
//! machine's cores are read (crates/cpu/src/topology.rs; another machine's
//! recorded tree with CRYPTOBENCH_SYSFS_ROOT), and every configuration is
//! measured once per thread count (workers on the first N CPUs of the
//! placement order: one per physical core first, then SMT siblings) or
//! once per core type (one worker on a core of that type). Bad counts and
//! types without a usable CPU are usage errors (exit 2) naming what is valid.

use anyhow::Result;
use cryptobench_core::cores::Topology as TopologyInfo;
use cryptobench_cpu::sysfs::format_cpu_list;
use cryptobench_cpu::topology::Topology;

use crate::exit::usage;

/// One way to run every configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    pub threads: usize,
    /// One CPU per worker.
    pub cpus: Vec<usize>,
    pub core_type: Option<String>,
    /// The reference class of the core type, for the score per MHz.
    pub core_class: Option<String>,
}

/// The placements of a run, the topology they came from, and what to tell the user first.
#[derive(Debug, Clone)]
pub struct Placements {
    pub planned: Vec<Planned>,
    pub topology: TopologyInfo,
    pub notes: Vec<String>,
}

/// The CPUs this process may run on.
fn allowed() -> Vec<usize> {
    #[cfg(target_os = "linux")]
    let cpus = cryptobench_cpu::allowed_cpus();
    #[cfg(not(target_os = "linux"))]
    let cpus: Vec<usize> = (0..std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)).collect();
    cpus
}

/// The topology to place workers on. Each worker pins itself with
/// sched_setaffinity (crates/cpu/src/thread.rs), which only Linux offers:
/// elsewhere the request is refused before anything is read (macOS has no
/// way to bind a thread to a core; its QoS classes only hint).
fn topology(option: &str) -> Result<Topology> {
    if !cfg!(target_os = "linux") {
        return Err(usage(format!(
            "{option} pins every worker to its own logical CPU, which cryptobench can do on Linux only \
             (sched_setaffinity); this is {}: measure one worker without {option}, or run it on Linux",
            std::env::consts::OS
        )));
    }
    Topology::of_this_machine().map_err(|e| usage(e.to_string()))
}

/// `--threads`: the counts given (`all` = every usable CPU), one always
/// included as the base of the scaling.
pub fn threads(values: &[String]) -> Result<Placements> {
    let topology = topology("--threads")?;
    let allowed: Vec<usize> = allowed().into_iter().filter(|c| topology.ids().contains(c)).collect();
    let order = topology.placement_order(&allowed);
    let max = order.len();
    let mut counts = vec![1usize];
    for v in values.iter().map(|v| v.trim()).filter(|v| !v.is_empty()) {
        let n = if v.eq_ignore_ascii_case("all") {
            max
        } else {
            match v.parse::<usize>() {
                Ok(n) if n >= 1 => n,
                _ => {
                    return Err(usage(format!(
                        "--threads {v}: give worker counts of 1 or more, comma separated (e.g. 1,2,4), or all"
                    )))
                }
            }
        };
        if n > max {
            return Err(usage(format!(
                "--threads {n}: this process may run on {max} logical CPU{} ({}); give at most {max}, or all",
                if max == 1 { "" } else { "s" },
                format_cpu_list(&order)
            )));
        }
        counts.push(n);
    }
    counts.sort_unstable();
    counts.dedup();
    let info = topology.describe(&allowed);
    let planned: Vec<Planned> = counts
        .iter()
        .map(|&n| Planned {
            threads: n,
            cpus: order[..n].to_vec(),
            core_type: None,
            core_class: None,
        })
        .collect();
    let mut notes = vec![format!("placement: {}", info.placement_rule)];
    for p in &planned {
        notes.push(format!(
            "{} on CPU{} {}",
            if p.threads == 1 {
                "1 worker".to_string()
            } else {
                format!("{} workers", p.threads)
            },
            if p.threads == 1 { "" } else { "s" },
            p.cpus.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(Placements {
        planned,
        topology: info,
        notes,
    })
}

/// "Cortex-A55: CPUs 0-3 (MIDR …; capacity 397; up to 1800 MHz; class cortex-a53)".
pub fn describe_type(t: &cryptobench_core::cores::CoreType) -> String {
    let mut facts = vec![t.evidence.clone()];
    if let Some(c) = t.capacity {
        facts.push(format!("capacity {c}"));
    }
    if let Some(m) = t.max_mhz {
        facts.push(format!("up to {m:.0} MHz"));
    }
    if let Some(c) = &t.core_class {
        facts.push(format!("reference class {c}"));
    }
    format!(
        "{}: CPU{} {} ({})",
        t.name,
        if t.cpus.len() == 1 { "" } else { "s" },
        format_cpu_list(&t.cpus),
        facts.join("; ")
    )
}

/// `--core-types`: one worker on the first usable CPU of each type.
pub fn core_types() -> Result<Placements> {
    let topology = topology("--core-types")?;
    let allowed = allowed();
    let usable: Vec<usize> = allowed.iter().copied().filter(|c| topology.ids().contains(c)).collect();
    let info = topology.describe(&usable);
    let types = &info.core_types;
    let listing: Vec<String> = types.iter().map(|t| format!("  {}", describe_type(t))).collect();
    let mut notes = Vec::new();
    if types.len() == 1 {
        notes.push(format!(
            "one core type here, measured once: {} (read from {})",
            describe_type(&types[0]),
            info.source
        ));
    } else {
        notes.push(format!(
            "{} core types (read from {}), each measured on its own core:",
            types.len(),
            info.source
        ));
        notes.extend(listing.iter().cloned());
    }
    let mut planned = Vec::new();
    for t in types {
        let Some(&cpu) = t.cpus.iter().find(|c| allowed.contains(c)) else {
            return Err(usage(format!(
                "{} core type{} found in {}:\n{}\nbut {} (CPU{} {}) has no CPU this process may run on (allowed: {}){}; \
                 `cryptobench cpu --topology` lists the types without measuring",
                types.len(),
                if types.len() == 1 { "" } else { "s" },
                info.source,
                listing.join("\n"),
                t.name,
                if t.cpus.len() == 1 { "" } else { "s" },
                format_cpu_list(&t.cpus),
                format_cpu_list(&allowed),
                if topology.root.live {
                    ""
                } else {
                    ": the recorded tree describes another machine, whose cores cannot be measured here"
                }
            )));
        };
        planned.push(Planned {
            threads: 1,
            cpus: vec![cpu],
            core_type: Some(t.name.clone()),
            core_class: t.core_class.clone(),
        });
    }
    for p in &planned {
        notes.push(format!("{} measured on CPU {}", p.core_type.as_deref().unwrap_or("?"), p.cpus[0]));
    }
    Ok(Placements {
        planned,
        topology: info,
        notes,
    })
}

//! Reading the kernel's description of the CPUs under a root directory:
//! `/` on a live machine, or a recorded tree of another machine
//! (CRYPTOBENCH_SYSFS_ROOT) holding the same `sys/devices/system/cpu/…`
//! and `proc/cpuinfo` files. Formats: Documentation/ABI/stable/sysfs-devices-system-cpu
//! and Documentation/admin-guide/cputopology.rst of the Linux kernel.

use std::path::{Path, PathBuf};

/// Names a recorded root to read the topology from instead of `/` (tests,
/// and looking at another machine's recorded tree).
pub const SYSFS_ROOT_ENV: &str = "CRYPTOBENCH_SYSFS_ROOT";

/// Where the CPUs are described: the root and whether it is this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    pub path: PathBuf,
    /// False for a recorded tree: nothing is read from the running CPU then
    /// (no CPUID), and its CPUs need not exist here.
    pub live: bool,
}

impl Root {
    /// CRYPTOBENCH_SYSFS_ROOT where set, else `/`.
    pub fn from_env() -> Root {
        match std::env::var_os(SYSFS_ROOT_ENV).filter(|v| !v.is_empty()) {
            Some(p) => Root::recorded(PathBuf::from(p)),
            None => Root::live(),
        }
    }

    pub fn live() -> Root {
        Root {
            path: PathBuf::from("/"),
            live: true,
        }
    }

    pub fn recorded(path: impl Into<PathBuf>) -> Root {
        Root {
            path: path.into(),
            live: false,
        }
    }

    /// `sys/devices/system/cpu/<rel>` under the root.
    pub fn cpu_dir(&self, rel: &str) -> PathBuf {
        self.path.join("sys/devices/system/cpu").join(rel)
    }

    /// A file under the root, trimmed; None where absent or empty.
    pub fn read(&self, path: &Path) -> Option<String> {
        std::fs::read_to_string(path)
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    }

    /// A per-CPU file, e.g. `cpu_file(3, "topology/thread_siblings_list")`.
    pub fn cpu_file(&self, cpu: usize, rel: &str) -> Option<String> {
        self.read(&self.cpu_dir(&format!("cpu{cpu}/{rel}")))
    }

    /// How the root is named in reports: "/" or the recorded tree's path.
    pub fn describe(&self) -> String {
        if self.live {
            "/sys and /proc of this machine".into()
        } else {
            format!("the recorded tree {} ({SYSFS_ROOT_ENV})", self.path.display())
        }
    }
}

/// Parses the kernel's CPU list format ("0-3,8,10-11"; cpulist_parse):
/// ascending, without duplicates. None for anything else.
pub fn parse_cpu_list(text: &str) -> Option<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in text.trim().split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                if b < a {
                    return None;
                }
                cpus.extend(a..=b);
            }
            None => cpus.push(part.parse().ok()?),
        }
    }
    cpus.sort_unstable();
    cpus.dedup();
    Some(cpus)
}

/// The compact form of a CPU list: "0-3,8".
pub fn format_cpu_list(cpus: &[usize]) -> String {
    let mut sorted = cpus.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        parts.push(if end == start {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_round_trip() {
        assert_eq!(parse_cpu_list("0-3,8,10-11\n").unwrap(), vec![0, 1, 2, 3, 8, 10, 11]);
        assert_eq!(parse_cpu_list("0,24").unwrap(), vec![0, 24]);
        assert_eq!(parse_cpu_list("5").unwrap(), vec![5]);
        assert!(parse_cpu_list("3-1").is_none());
        assert!(parse_cpu_list("a").is_none());
        assert_eq!(format_cpu_list(&[0, 1, 2, 3, 8, 10, 11]), "0-3,8,10-11");
        assert_eq!(format_cpu_list(&[24, 0]), "0,24");
        assert_eq!(format_cpu_list(&[]), "");
    }
}

//! How the OS drives the core clock: the cpufreq governor and whether
//! turbo/boost is on, where Linux exposes them (cpufreq sysfs,
//! Documentation/admin-guide/pm/cpufreq.rst; intel_pstate's `no_turbo`,
//! Documentation/admin-guide/pm/intel_pstate.rst). A governor other than
//! `performance` moves the clock with the load; boost makes it depend on
//! temperature and on how many cores are busy. Virtual machines usually
//! expose neither: then nothing is claimed.

use std::path::Path;

/// What the OS says about the clock policy; None where it says nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FrequencyPolicy {
    /// The governor and the file it was read from.
    pub governor: Option<(String, String)>,
    /// Whether boost/turbo is on, and the file that says so.
    pub boost: Option<(bool, String)>,
}

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Reads the policy under `sysfs` (normally `/sys`) for logical CPU `cpu`.
pub fn frequency_policy_at(sysfs: &Path, cpu: usize) -> FrequencyPolicy {
    let cpu_dir = sysfs.join(format!("devices/system/cpu/cpu{cpu}/cpufreq/scaling_governor"));
    let governor = read(&cpu_dir).map(|g| (g, cpu_dir.display().to_string()));
    // intel_pstate: no_turbo = 1 means turbo off; acpi-cpufreq and amd-pstate: boost = 1 means on.
    let no_turbo = sysfs.join("devices/system/cpu/intel_pstate/no_turbo");
    let boost_file = sysfs.join("devices/system/cpu/cpufreq/boost");
    let boost = read(&no_turbo)
        .map(|v| (v == "0", no_turbo.display().to_string()))
        .or_else(|| read(&boost_file).map(|v| (v == "1", boost_file.display().to_string())));
    FrequencyPolicy { governor, boost }
}

/// The policy of this machine for logical CPU `cpu`.
pub fn frequency_policy(cpu: usize) -> FrequencyPolicy {
    frequency_policy_at(Path::new("/sys"), cpu)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn reads_governor_and_turbo_where_exposed() {
        let dir = std::env::temp_dir().join(format!("cryptobench-freq-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(frequency_policy_at(&dir, 0), FrequencyPolicy::default());
        write(&dir, "devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
        write(&dir, "devices/system/cpu/intel_pstate/no_turbo", "0\n");
        let p = frequency_policy_at(&dir, 0);
        assert_eq!(p.governor.unwrap().0, "powersave");
        assert!(p.boost.unwrap().0, "no_turbo=0 means turbo is on");
        write(&dir, "devices/system/cpu/intel_pstate/no_turbo", "1\n");
        assert!(!frequency_policy_at(&dir, 0).boost.unwrap().0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn acpi_boost_is_read_where_intel_pstate_is_absent() {
        let dir = std::env::temp_dir().join(format!("cryptobench-boost-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        write(&dir, "devices/system/cpu/cpufreq/boost", "1\n");
        assert!(frequency_policy_at(&dir, 3).boost.unwrap().0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

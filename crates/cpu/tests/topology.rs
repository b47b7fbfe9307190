//! Topology and core-type detection on recorded trees of real machines
//! (tests/fixtures/topology/README.md says where each file comes from).

use std::path::PathBuf;

use cryptobench_cpu::sysfs::Root;
use cryptobench_cpu::topology::Topology;

fn fixture(name: &str) -> Topology {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/topology").join(name);
    Topology::read(&Root::recorded(path)).expect("the fixture is readable")
}

#[test]
fn rk3588_has_an_a55_and_an_a76_cluster() {
    let t = fixture("rk3588");
    assert_eq!(t.ids(), (0..8).collect::<Vec<_>>());
    let types = cryptobench_cpu::core_types::core_types(&t);
    assert_eq!(types.len(), 2, "{types:?}");
    let (little, big) = (&types[0], &types[1]);
    assert_eq!(little.name, "Cortex-A55");
    assert_eq!(little.cpus, vec![0, 1, 2, 3]);
    assert_eq!(little.capacity, Some(397));
    assert_eq!(little.max_mhz, Some(1800.0));
    assert_eq!(little.core_class.as_deref(), Some("cortex-a53"));
    assert!(
        little.evidence.contains("0xd05") && little.evidence.contains("/proc/cpuinfo"),
        "{}",
        little.evidence
    );
    assert_eq!(big.name, "Cortex-A76");
    assert_eq!(big.cpus, vec![4, 5, 6, 7]);
    assert_eq!(big.capacity, Some(1024));
    assert_eq!(big.max_mhz, Some(2400.0));
    assert_eq!(big.core_class.as_deref(), Some("cortex-a72"));
    // No SMT: one worker per core in CPU order.
    assert_eq!(t.placement_order(&t.ids()), (0..8).collect::<Vec<_>>());
    assert!(t.placement_rule(&t.ids()).contains("no SMT siblings"));
}

#[test]
fn alder_lake_has_p_cores_with_smt_and_e_cores() {
    let t = fixture("i7-12700k");
    let types = cryptobench_cpu::core_types::core_types(&t);
    assert_eq!(types.len(), 2, "{types:?}");
    assert_eq!(types[0].name, "Intel Core (P-core)");
    assert_eq!(types[0].cpus, (0..16).collect::<Vec<_>>());
    assert_eq!(types[0].max_mhz, Some(4900.0));
    assert!(types[0].evidence.contains("core type 0x40") && types[0].evidence.contains("recorded in cpuid.txt"));
    assert_eq!(types[1].name, "Intel Atom (E-core)");
    assert_eq!(types[1].cpus, vec![16, 17, 18, 19]);
    // Placement: every physical core first (8 P, 4 E), then the P cores' second threads.
    let order = t.placement_order(&t.ids());
    assert_eq!(order, vec![0, 2, 4, 6, 8, 10, 12, 14, 16, 17, 18, 19, 1, 3, 5, 7, 9, 11, 13, 15]);
    let d = t.describe(&t.ids());
    assert_eq!((d.physical_cores, d.logical_cpus), (12, 20));
    assert!(d.placement_rule.contains("SMT siblings") && d.placement_rule.contains("12 cores, 20 logical CPUs"));
}

#[test]
fn a_two_socket_smt_server_places_every_core_before_any_sibling() {
    let t = fixture("xeon-e5-2680v3");
    let types = cryptobench_cpu::core_types::core_types(&t);
    assert_eq!(types.len(), 1, "{types:?}");
    assert_eq!(types[0].name, "Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz");
    assert!(types[0].evidence.starts_with("all 48 CPUs alike"));
    let order = t.placement_order(&t.ids());
    assert_eq!(order[..24], (0..24).collect::<Vec<_>>()[..]);
    assert_eq!(order[24..], (24..48).collect::<Vec<_>>()[..]);
    // Only some CPUs allowed (a cpuset): siblings of allowed CPUs come last.
    assert_eq!(t.placement_order(&[0, 1, 24, 25, 30]), vec![0, 1, 30, 24, 25]);
    assert_eq!(t.cores(&[0, 24]), vec![vec![0, 24]]);
}

#[test]
fn a_missing_tree_says_what_to_do() {
    let err = Topology::read(&Root::recorded("/nonexistent/cryptobench-root"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("CRYPTOBENCH_SYSFS_ROOT") && err.contains("/nonexistent/cryptobench-root"),
        "{err}"
    );
}

#[test]
fn this_machine_is_described() {
    let t = Topology::read(&Root::live()).expect("this machine describes its CPUs");
    assert!(!t.cpus.is_empty());
    let types = cryptobench_cpu::core_types::core_types(&t);
    assert!(!types.is_empty());
    let all: usize = types.iter().map(|t| t.cpus.len()).sum();
    assert_eq!(all, t.cpus.len());
}

/// Turbo binning is not a core type on x86: cores of one CPUID type with
/// different cpufreq maxima (Turbo Boost Max 3.0 favored cores) stay one
/// type; on arm, one design in two clusters of different clocks is two.
#[test]
fn x86_favored_cores_stay_one_type_and_arm_prime_cores_do_not() {
    let dir = tempfile::tempdir().unwrap();
    let copy = |from: &str| {
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/topology").join(from);
        let dst = dir.path().join(from);
        copy_tree(&src, &dst);
        dst
    };
    let intel = copy("i7-12700k");
    std::fs::write(intel.join("sys/devices/system/cpu/cpu2/cpufreq/cpuinfo_max_freq"), "5000000\n").unwrap();
    let t = Topology::read(&Root::recorded(&intel)).unwrap();
    let types = cryptobench_cpu::core_types::core_types(&t);
    assert_eq!(types.len(), 2, "{types:?}");
    assert_eq!(types[0].max_mhz, Some(5000.0), "the highest of the type");

    let arm = copy("rk3588");
    for cpu in [6, 7] {
        std::fs::write(
            arm.join(format!("sys/devices/system/cpu/cpu{cpu}/cpufreq/cpuinfo_max_freq")),
            "2256000\n",
        )
        .unwrap();
    }
    let t = Topology::read(&Root::recorded(&arm)).unwrap();
    let names: Vec<String> = cryptobench_cpu::core_types::core_types(&t).into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["Cortex-A55", "Cortex-A76 (2400 MHz)", "Cortex-A76 (2256 MHz)"]);
}

fn copy_tree(src: &std::path::Path, dst: &std::path::Path) {
    std::fs::create_dir_all(dst).unwrap();
    for entry in std::fs::read_dir(src).unwrap() {
        let entry = entry.unwrap();
        let to = dst.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &to);
        } else {
            std::fs::copy(entry.path(), to).unwrap();
        }
    }
}

//! Several cores: `run --threads` with real workers in step, `run
//! --core-types` here and on a recorded RK3588 tree, and the usage errors.

mod common;

use common::{build_fixture_library, cryptobench, json, system_openssl_available, FAST};

const RK3588: &str = "crates/cpu/tests/fixtures/topology/rk3588";

fn usable_cpus() -> usize {
    #[cfg(target_os = "linux")]
    let n = cryptobench_cpu::allowed_cpus().len();
    #[cfg(not(target_os = "linux"))]
    let n = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    n
}

#[test]
fn two_workers_measure_in_step_and_are_summed() {
    if !system_openssl_available() {
        return;
    }
    if usable_cpus() < 2 {
        cryptobench_testkit::platform_lacks("a second CPU", "this process may use only one");
        return;
    }
    let out = cryptobench()
        .args([
            "run",
            "--threads",
            "2",
            "--algos",
            "sha256,aes-128-cbc",
            "--sizes",
            "16,1024",
            "--format",
            "json",
            "--no-save",
        ])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let typed: cryptobench_core::result::RunResult = serde_json::from_slice(&out.stdout).expect("the result model");
    let run = json(&out);
    let configs = run["configurations"].as_array().unwrap();
    assert_eq!(configs.len(), 2, "one worker as the base, then two");
    assert_eq!(configs[0]["placement"]["threads"], 1);
    assert_eq!(configs[1]["placement"]["threads"], 2);
    let cpus = configs[1]["placement"]["cpus"].as_array().unwrap();
    assert_eq!(cpus.len(), 2);
    assert_ne!(cpus[0], cpus[1], "each worker on its own CPU");
    assert_eq!(
        configs[0]["placement"]["cpus"][0], cpus[0],
        "the base runs where the first worker runs"
    );
    // Each worker measured its own core's clock (where this architecture has a clock method).
    assert_eq!(configs[1]["placement"]["clocks"].as_array().unwrap().len(), 2);
    assert!(run["topology"]["placement_rule"].as_str().unwrap().contains("one worker per"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("2 workers on CPUs"), "{stderr}");

    let group = &typed.configurations[1];
    assert_eq!(group.status, cryptobench_core::result::ConfigurationStatus::Completed);
    assert_eq!(group.cells.len(), 4);
    for cell in &group.cells {
        let cryptobench_core::result::CellOutcome::Measured(m) = &cell.outcome else {
            panic!("{cell:?}")
        };
        let a = m.aggregate.as_ref().expect("every worker's measurement is kept");
        assert_eq!(a.workers.len(), 2);
        assert!(m.samples.is_empty(), "the samples are the workers'");
        // In step: both took the same number of samples, and the figure is the sum of their medians.
        assert_eq!(a.workers[0].samples.len(), a.workers[1].samples.len());
        assert_eq!(m.summary.samples, a.workers[0].samples.len());
        let sum: f64 = a.workers.iter().map(|w| w.summary.median).sum();
        assert!((m.summary.median - sum).abs() <= 1e-9 * sum, "{} vs {sum}", m.summary.median);
        assert!(m.summary.median_ci95[0] <= m.summary.median && m.summary.median <= m.summary.median_ci95[1]);
        assert!(a.scaling_efficiency.is_some_and(|e| e > 0.0), "against the one-worker cell");
        assert_ne!(a.workers[0].cpu, a.workers[1].cpu);
    }

    // The table shows the scaling section and names the configurations by thread count.
    let text = cryptobench()
        .args(["run", "--threads", "all", "--algos", "sha256", "--sizes", "64", "--no-save"])
        .args(FAST)
        .output()
        .unwrap();
    assert!(text.status.success(), "{}", String::from_utf8_lossy(&text.stderr));
    let table = String::from_utf8_lossy(&text.stdout);
    assert!(
        table.contains("· 1 thread") && table.contains(&format!("· {} threads", usable_cpus())),
        "{table}"
    );
    assert!(table.contains("scaling at 64 B") && table.contains("efficiency"), "{table}");
    assert!(table.contains("clock under load"), "{table}");
}

#[test]
fn rounds_pool_each_workers_samples_with_its_own() {
    if !system_openssl_available() || usable_cpus() < 2 {
        return;
    }
    let out = cryptobench()
        .args([
            "run",
            "--threads",
            "2",
            "--rounds",
            "2",
            "--algos",
            "md5",
            "--sizes",
            "256",
            "--format",
            "json",
            "--no-save",
        ])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run: cryptobench_core::result::RunResult = serde_json::from_slice(&out.stdout).unwrap();
    let cryptobench_core::result::CellOutcome::Measured(m) = &run.configurations[1].cells[0].outcome else {
        panic!()
    };
    let a = m.aggregate.as_ref().unwrap();
    let cpus: Vec<usize> = a.workers.iter().map(|w| w.cpu).collect();
    assert_eq!(cpus, run.configurations[1].placement.as_ref().unwrap().cpus);
    assert_eq!(a.workers[0].samples.len(), a.workers[1].samples.len());
    assert!(a.workers[0].samples.len() >= 6, "two rounds of at least 3 samples");
}

#[test]
fn more_threads_than_cpus_is_a_usage_error_naming_the_count() {
    let n = usable_cpus();
    let out = cryptobench()
        .args(["run", "--threads", &(n + 1).to_string(), "--no-save"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("--threads {}", n + 1)) && stderr.contains(&format!("give at most {n}")),
        "{stderr}"
    );
    for bad in ["0", "two"] {
        let out = cryptobench().args(["run", "--threads", bad, "--no-save"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "--threads {bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("or all"));
    }
    let out = cryptobench()
        .args(["run", "--threads", "2", "--cpu", "0", "--no-save"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "--threads with --cpu");
}

#[test]
fn core_types_here_are_found_and_measured() {
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .env_remove("CRYPTOBENCH_SYSFS_ROOT")
        .args([
            "run",
            "--core-types",
            "--algos",
            "aes-256-cbc",
            "--sizes",
            "16384",
            "--format",
            "json",
            "--no-save",
        ])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = json(&out);
    let types = run["topology"]["core_types"].as_array().unwrap();
    let configs = run["configurations"].as_array().unwrap();
    assert_eq!(configs.len(), types.len(), "one configuration per core type");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if types.len() == 1 {
        assert!(stderr.contains("one core type here, measured once"), "{stderr}");
    }
    for (c, t) in configs.iter().zip(types) {
        assert_eq!(c["placement"]["core_type"], t["name"]);
        let cpu = &c["placement"]["cpus"][0];
        assert!(t["cpus"].as_array().unwrap().contains(cpu), "measured on a core of its type");
        if cryptobench_testkit::own_emulator().is_some() {
            // An emulated worker's score would time the emulator: none is given.
            assert!(c["score"]["aes256cbc_16k_k"].is_null(), "{c}");
        } else {
            // aes-256-cbc at 16 KiB in stream mode: the sbc-bench score of that core.
            assert!(c["score"]["aes256cbc_16k_k"].as_f64().unwrap() > 0.0, "{c}");
        }
    }
}

#[test]
fn the_recorded_rk3588_lists_its_two_clusters_with_their_cpus() {
    // `cpu --topology` lists without measuring.
    let out = cryptobench()
        .env("CRYPTOBENCH_SYSFS_ROOT", RK3588)
        .args(["cpu", "--topology"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Cortex-A55: CPUs 0-3") && text.contains("Cortex-A76: CPUs 4-7"),
        "{text}"
    );
    assert!(text.contains("capacity 397") && text.contains("up to 2400 MHz"), "{text}");
    assert!(text.contains("core types for run --core-types: 2"), "{text}");

    let out = cryptobench()
        .env("CRYPTOBENCH_SYSFS_ROOT", RK3588)
        .args(["cpu", "--topology", "--format", "json"])
        .output()
        .unwrap();
    let t: cryptobench_core::cores::Topology = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        t.core_types.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        ["Cortex-A55", "Cortex-A76"]
    );
    assert_eq!(t.core_types[1].core_class.as_deref(), Some("cortex-a72"));

    // `run --core-types` lists them too, and cannot measure cores this machine does not have.
    let out = cryptobench()
        .env("CRYPTOBENCH_SYSFS_ROOT", RK3588)
        .args(["run", "--core-types", "--no-save"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if usable_cpus() >= 8 {
        // A machine with CPUs 0-7 would measure both types here.
        return;
    }
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("2 core types found in the recorded tree"), "{stderr}");
    assert!(
        stderr.contains("Cortex-A55: CPUs 0-3") && stderr.contains("Cortex-A76: CPUs 4-7"),
        "{stderr}"
    );
    assert!(stderr.contains("no CPU this process may run on"), "{stderr}");
}

#[test]
fn a_recorded_tree_that_is_not_there_is_a_usage_error() {
    let out = cryptobench()
        .env("CRYPTOBENCH_SYSFS_ROOT", "/nonexistent/cryptobench-tree")
        .args(["run", "--core-types", "--no-save"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("CRYPTOBENCH_SYSFS_ROOT"));
}

#[test]
fn a_crashing_or_hanging_worker_stops_its_group_and_says_on_which_cpu() {
    if !system_openssl_available() || usable_cpus() < 2 {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (Some(crashing), Some(hanging)) = (
        build_fixture_library("crashing_libcrypto", dir.path()),
        build_fixture_library("hanging_libcrypto", dir.path()),
    ) else {
        return;
    };
    let started = std::time::Instant::now();
    let out = cryptobench()
        .args([
            "run",
            "--threads",
            "2",
            "--algos",
            "aes-128-cbc",
            "--sizes",
            "16",
            "--format",
            "json",
            "--no-save",
        ])
        .args(["--worker-timeout", "2"])
        .arg(format!("--backend=openssl={}", crashing.display()))
        .arg(format!("--backend=openssl={}", hanging.display()))
        .args(["--backend", "openssl"])
        .args(FAST)
        .output()
        .unwrap();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(90),
        "the run waited for a hung group"
    );
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let run = json(&out);
    let configs = run["configurations"].as_array().unwrap();
    assert_eq!(configs.len(), 6, "three libraries, one and two workers each");
    // The crashing library: one worker and two alike.
    assert_eq!(configs[1]["status"], "crashed", "{}", configs[1]);
    let reason = configs[1]["reason"].as_str().unwrap();
    assert!(reason.contains("the worker on CPU") && reason.contains("signal 11"), "{reason}");
    // The hanging one: the group is killed after the silence limit, saying what each was doing.
    assert_eq!(configs[3]["status"], "timed_out", "{}", configs[3]);
    let reason = configs[3]["reason"].as_str().unwrap();
    assert!(
        reason.contains("the workers said nothing for 2s") && reason.contains("verifying aes-128-cbc"),
        "{reason}"
    );
    // The rest of the run is measured.
    assert_eq!(configs[5]["status"], "completed", "{}", configs[5]);
    assert_eq!(configs[5]["cells"][0]["status"], "measured");
}

//! `cryptobench run` end to end, through real worker processes.

mod common;

use common::{build_fixture_library, cryptobench, json, system_openssl_available, FAST};
use predicates::prelude::*;

#[test]
fn measures_verified_cells_with_statistics_in_json() {
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .args([
            "run",
            "--algos",
            "aes-128-gcm,sha256,aes-128-cbc",
            "--sizes",
            "16,1024",
            "--format",
            "json",
        ])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let typed: cryptobench_core::result::RunResult = serde_json::from_slice(&out.stdout).expect("output follows the result model");
    assert_eq!(typed.configurations.len(), 1);
    let run = json(&out);
    assert_eq!(run["schema_version"], 1);
    let config = &run["configurations"][0];
    assert_eq!(config["status"], "completed");
    assert!(config["backend"]["version"].as_str().unwrap().contains("SSL"));
    assert_eq!(config["verifications"].as_array().unwrap().len(), 3);
    assert!(config["verifications"].as_array().unwrap().iter().all(|v| v["status"] == "passed"));
    let cells = config["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 6);
    for cell in cells {
        assert_eq!(cell["status"], "measured", "{cell}");
        let samples = cell["samples"].as_array().unwrap();
        assert_eq!(cell["summary"]["samples"].as_u64().unwrap() as usize, samples.len());
        assert!(cell["summary"]["median"].as_f64().unwrap() > 0.0);
        assert!(cell["summary"]["q1"].as_f64().unwrap() <= cell["summary"]["q3"].as_f64().unwrap());
        assert_eq!(cell["checksum"].as_str().unwrap().len(), 16);
    }
    let mode = |alg: &str| cells.iter().find(|c| c["algorithm"] == alg).unwrap()["mode"].clone();
    assert_eq!(mode("aes-128-cbc"), "stream");
    assert_eq!(mode("aes-128-gcm"), "message");
    assert_eq!(mode("sha256"), "message");
}

#[test]
fn table_names_library_cpu_mode_and_sizes() {
    if !system_openssl_available() {
        return;
    }
    cryptobench()
        .args(["run", "--algos", "aes-256-ctr,md5", "--sizes", "64,16k"])
        .args(FAST)
        .assert()
        .success()
        // The library by name and version, and whether it uses the CPU's crypto instructions.
        .stdout(predicate::str::contains("OpenSSL"))
        .stdout(predicate::str::contains("hardware: "))
        .stdout(predicate::str::contains("aes-256-ctr"))
        .stdout(predicate::str::contains("stream"))
        .stdout(predicate::str::contains("64 B"))
        .stdout(predicate::str::contains("16 KiB"))
        .stdout(predicate::str::contains("verified before timing"));
}

#[test]
fn decrypt_and_operation_lists() {
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .args([
            "run",
            "--algos",
            "aes-128-gcm,chacha20-poly1305,aes-128-xts,sha1",
            "--sizes",
            "32",
            "--ops",
            "enc,dec",
            "--format",
            "json",
        ])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success());
    let run = json(&out);
    let cells = run["configurations"][0]["cells"].as_array().unwrap();
    let ops: Vec<(String, String)> = cells
        .iter()
        .map(|c| (c["algorithm"].as_str().unwrap().into(), c["operation"].as_str().unwrap().into()))
        .collect();
    assert!(ops.contains(&("aes-128-gcm".into(), "decrypt".into())));
    assert!(ops.contains(&("aes-128-xts".into(), "encrypt".into())));
    assert!(ops.contains(&("sha1".into(), "digest".into())));
    assert_eq!(cells.len(), 7, "three ciphers × two operations + one digest");
    assert!(cells.iter().all(|c| c["status"] == "measured"), "{cells:?}");

    let out = cryptobench()
        .args(["run", "--algos", "aes-128-cbc", "--sizes", "16", "--decrypt", "--format", "json"])
        .args(FAST)
        .output()
        .unwrap();
    assert_eq!(json(&out)["configurations"][0]["cells"][0]["operation"], "decrypt");
}

#[test]
fn modes_rekey_and_aad_are_named_in_every_output() {
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .args([
            "run",
            "--algos",
            "aes-128-gcm",
            "--sizes",
            "16",
            "--rekey",
            "--aad",
            "0",
            "--format",
            "csv",
        ])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("configuration,backend,"), "{text}");
    assert!(text.contains("message+rekey aad=0"), "{text}");

    let out = cryptobench()
        .args([
            "run", "--algos", "sha512", "--sizes", "16", "--mode", "stream", "--format", "markdown", "--units", "k",
        ])
        .args(FAST)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("| sha512") && text.contains("stream") && text.contains("1000s of bytes"),
        "{text}"
    );
}

#[test]
fn sizes_a_mode_cannot_take_are_reported_not_timed() {
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .args(["run", "--algos", "aes-128-cbc", "--sizes", "15,16", "--format", "json"])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success());
    let cells = json(&out)["configurations"][0]["cells"].as_array().unwrap().clone();
    assert_eq!(cells[0]["status"], "unsupported");
    assert!(cells[0]["reason"].as_str().unwrap().contains("multiple"));
    assert_eq!(cells[1]["status"], "measured");
}

#[test]
fn two_builds_side_by_side() {
    if !system_openssl_available() {
        return;
    }
    let v: serde_json::Value =
        serde_json::from_slice(&cryptobench().args(["algorithms", "--format", "json"]).output().unwrap().stdout).unwrap();
    let system_path = v["configurations"][0]["backend"]["library_path"].as_str().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("libcrypto-copy.so");
    std::fs::copy(&system_path, &copy).unwrap();
    let out = cryptobench()
        .args([
            "run",
            "--algos",
            "sha256",
            "--sizes",
            "64",
            "--format",
            "json",
            "--backend",
            "openssl",
        ])
        .arg(format!("--backend=openssl={}", copy.display()))
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = json(&out);
    let configs = run["configurations"].as_array().unwrap();
    assert_eq!(configs.len(), 2);
    assert_eq!(
        configs[1]["backend"]["library_path"].as_str().unwrap(),
        copy.canonicalize().unwrap().display().to_string()
    );
    assert!(configs.iter().all(|c| c["cells"][0]["status"] == "measured"));
}

#[test]
fn a_crashing_worker_costs_only_its_configuration() {
    if !system_openssl_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let Some(crashing) = build_fixture_library("crashing_libcrypto", dir.path()) else {
        return;
    };
    let Some(incomplete) = build_fixture_library("incomplete_libcrypto", dir.path()) else {
        return;
    };
    let out = cryptobench()
        .args([
            "run",
            "--algos",
            "aes-128-cbc",
            "--sizes",
            "16",
            "--format",
            "json",
            "--backend",
            "openssl",
        ])
        .arg(format!("--backend=openssl={}", crashing.display()))
        .arg(format!("--backend=openssl={}", incomplete.display()))
        .args(FAST)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "incomplete run: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = json(&out);
    let configs = run["configurations"].as_array().unwrap();
    assert_eq!(configs[0]["status"], "completed");
    assert_eq!(configs[0]["cells"][0]["status"], "measured");
    assert_eq!(configs[1]["status"], "crashed");
    assert!(
        configs[1]["reason"].as_str().unwrap().contains("signal 11"),
        "{}",
        configs[1]["reason"]
    );
    assert_eq!(configs[2]["status"], "unavailable");
    assert!(
        configs[2]["reason"].as_str().unwrap().contains("lacks the symbol"),
        "{}",
        configs[2]["reason"]
    );

    // The table says the same in words, after the measured rows.
    cryptobench()
        .args(["run", "--algos", "aes-128-cbc", "--sizes", "16", "--backend", "openssl"])
        .arg(format!("--backend=openssl={}", crashing.display()))
        .args(FAST)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("CRASHED: worker killed by signal 11"))
        .stdout(predicate::str::contains("aes-128-cbc"));
}

#[test]
fn pinning_is_applied_and_recorded() {
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .args(["run", "--algos", "sha1", "--sizes", "64", "--cpu", "0", "--format", "json"])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = json(&out);
    assert_eq!(run["settings"]["pinned_cpu"], 0);
    assert_eq!(run["configurations"][0]["cells"][0]["status"], "measured");
    // The worker itself reports the CPUs it may run on after pinning.
    if cfg!(target_os = "linux") {
        assert_eq!(run["configurations"][0]["platform"]["affinity"], serde_json::json!([0]));
    }
    // Without --cpu the worker keeps the whole machine.
    let out = cryptobench()
        .args(["run", "--algos", "sha1", "--sizes", "64", "--format", "json"])
        .args(FAST)
        .output()
        .unwrap();
    let affinity = json(&out)["configurations"][0]["platform"]["affinity"].clone();
    if cfg!(target_os = "linux") {
        assert_eq!(
            affinity.as_array().unwrap().len(),
            std::thread::available_parallelism().unwrap().get(),
            "{affinity}"
        );
    }
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    if !system_openssl_available() {
        return;
    }
    let mut child = common::cryptobench_std()
        .args(["run", "--no-save", "--algos", "sha1", "--sizes", "16", "--quick", "--time", "0.005"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before anything is written
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The run's budget is said before the first cell (wrapped at 160 columns, its
    // continuation indented); nothing else, no error about the pipe.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("budget: "), "{stderr}");
    assert!(stderr.lines().skip(1).all(|l| l.starts_with("  ")), "{stderr}");
}

#[test]
fn replicates_are_fresh_workers_kept_whole_in_a_random_order() {
    if !system_openssl_available() {
        return;
    }
    let one = cryptobench()
        .args([
            "run",
            "--algos",
            "md5",
            "--sizes",
            "64",
            "--format",
            "json",
            "--min-samples-for-tests",
        ])
        .output()
        .unwrap();
    assert_eq!(one.status.code(), Some(2), "an unknown flag is a usage error");
    let out = cryptobench()
        .args([
            "run",
            "--algos",
            "md5,sha1",
            "--sizes",
            "64,256",
            "--replicates",
            "3",
            "--format",
            "json",
        ])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = json(&out);
    assert_eq!(run["settings"]["replicates"], 3);
    assert!(run["settings"]["order_seed"].is_u64());
    let config = &run["configurations"][0];
    let cells = config["cells"].as_array().unwrap();
    // In the plan's order, whatever order the workers measured them in.
    let order: Vec<(String, u64)> = cells
        .iter()
        .map(|c| (c["algorithm"].as_str().unwrap().to_string(), c["size"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        order,
        vec![("md5".into(), 64), ("md5".into(), 256), ("sha1".into(), 64), ("sha1".into(), 256)]
    );
    assert_eq!(config["verifications"].as_array().unwrap().len(), 2);
    let mut sequences = Vec::new();
    for cell in cells {
        let replicates = cell["replicates"].as_array().unwrap();
        let numbers: Vec<u64> = replicates.iter().map(|r| r["replicate"].as_u64().unwrap()).collect();
        assert_eq!(numbers, vec![1, 2, 3], "{cell}");
        let counted: u64 = replicates.iter().map(|r| r["summary"]["samples"].as_u64().unwrap()).sum();
        assert_eq!(
            counted as usize,
            cell["samples"].as_array().unwrap().len(),
            "their samples, one after the other"
        );
        assert_eq!(cell["summary"]["samples"].as_u64().unwrap(), counted);
        assert_eq!(cell["summary"]["replicates"]["count"], 3);
        // The figure is the fastest replicate's median.
        let fastest = replicates
            .iter()
            .map(|r| r["summary"]["median"].as_f64().unwrap())
            .fold(f64::MIN, f64::max);
        assert_eq!(cell["summary"]["median"].as_f64().unwrap(), fastest);
        sequences.extend(replicates.iter().map(|r| r["sequence"].as_u64().unwrap()));
    }
    sequences.sort_unstable();
    assert_eq!(
        sequences,
        (0..12).collect::<Vec<u64>>(),
        "every replicate of every cell has its own place in the run"
    );
    // Replicate 2 of every cell comes after replicate 1 of every cell: rounds.
    let last_of_first = cells
        .iter()
        .map(|c| c["replicates"][0]["sequence"].as_u64().unwrap())
        .max()
        .unwrap();
    let first_of_second = cells
        .iter()
        .map(|c| c["replicates"][1]["sequence"].as_u64().unwrap())
        .min()
        .unwrap();
    assert!(last_of_first < first_of_second);
    cryptobench().args(["run", "--replicates", "0"]).assert().code(2);
    // --rounds, the option of earlier versions, is read as --replicates.
    let old = cryptobench()
        .args(["run", "--algos", "md5", "--sizes", "64", "--rounds", "2", "--format", "json"])
        .args(FAST)
        .output()
        .unwrap();
    assert_eq!(json(&old)["settings"]["replicates"], 2);
}

#[test]
fn a_hanging_worker_is_killed_after_the_timeout_and_the_rest_is_kept() {
    if !system_openssl_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let Some(hanging) = build_fixture_library("hanging_libcrypto", dir.path()) else {
        return;
    };
    let db = dir.path().join("runs.sqlite");
    let started = std::time::Instant::now();
    let out = cryptobench()
        .args([
            "run",
            "--algos",
            "aes-128-cbc",
            "--sizes",
            "16",
            "--format",
            "json",
            "--worker-timeout",
            "2",
        ])
        .arg(format!("--backend=openssl={}", hanging.display()))
        .args(["--backend", "openssl", "--db"])
        .arg(&db)
        .args(FAST)
        .output()
        .unwrap();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "the run waited for the hung worker"
    );
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let run = json(&out);
    let configs = run["configurations"].as_array().unwrap();
    assert_eq!(configs[0]["status"], "timed_out", "{}", configs[0]);
    let reason = configs[0]["reason"].as_str().unwrap();
    assert!(reason.contains("said nothing for 2s while verifying aes-128-cbc"), "{reason}");
    assert_eq!(configs[1]["status"], "completed");
    assert_eq!(configs[1]["cells"][0]["status"], "measured");
    // Saved, with the timed-out configuration in it.
    let shown = cryptobench()
        .args(["runs", "show", "1", "--format", "json", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(shown.status.success(), "{}", String::from_utf8_lossy(&shown.stderr));
    assert_eq!(json(&shown)["configurations"][0]["status"], "timed_out");
}

//! Every script in bench/ has a smoke run in CI: it offers `--smoke` (its
//! `--help` says so), bench/smoke-all runs it (its `--list` names every
//! executable file in bench/), and .ci/run runs bench/smoke-all after the
//! tests. A script added to bench/ without a smoke mode fails here. The
//! smoke runs themselves need a built cryptobench and take a minute or
//! two, so .ci/run starts them, not this test.

#![cfg(unix)]

use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The runner: in bench/, but no benchmark of its own.
const RUNNER: &str = "smoke-all";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every executable file directly in bench/ except the runner: what must have a smoke run.
fn scripts() -> BTreeSet<String> {
    std::fs::read_dir(root().join("bench"))
        .expect("bench/ is readable")
        .map(|e| e.expect("a bench/ entry").path())
        .filter(|p| p.is_file() && std::fs::metadata(p).is_ok_and(|m| m.permissions().mode() & 0o111 != 0))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != RUNNER)
        .collect()
}

fn bench(name: &str) -> PathBuf {
    root().join("bench").join(name)
}

/// Whether python3 can be started; the scripts (and the runner) need it.
fn python_here() -> bool {
    Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success())
}

#[test]
fn the_runner_covers_every_script_in_bench() {
    if !python_here() {
        return cryptobench_testkit::missing("python3", "bench/smoke-all is a Python script");
    }
    let out = Command::new(bench(RUNNER)).arg("--list").output().expect("bench/smoke-all starts");
    assert!(
        out.status.success(),
        "bench/smoke-all --list: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed: BTreeSet<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
    let expected = scripts();
    assert!(expected.len() >= 10, "bench/ holds the scripts: found only {expected:?}");
    assert_eq!(
        listed, expected,
        "bench/smoke-all --list must name every executable script in bench/"
    );
}

#[test]
fn every_script_in_bench_offers_a_smoke_mode() {
    if !python_here() {
        return cryptobench_testkit::missing("python3", "most bench/ scripts are Python");
    }
    let mut lacking = Vec::new();
    for name in scripts() {
        let out = Command::new(bench(&name))
            .arg("--help")
            .current_dir(root())
            .output()
            .expect("a bench/ script starts");
        let help = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() || !help.contains("--smoke") {
            lacking.push(format!(
                "bench/{name}: --help exited {:?}{}",
                out.status.code(),
                if help.contains("--smoke") {
                    ""
                } else {
                    " and does not mention --smoke"
                }
            ));
        }
    }
    assert!(
        lacking.is_empty(),
        "every script in bench/ takes --smoke (a run in seconds through every step, for CI) and says so in --help:\n{}",
        lacking.join("\n")
    );
}

#[test]
fn ci_runs_the_smoke_runs_after_the_tests() {
    let ci = std::fs::read_to_string(root().join(".ci/run")).expect(".ci/run is readable");
    let commands: Vec<&str> = ci.lines().map(str::trim).filter(|l| !l.starts_with('#')).collect();
    let tests = commands.iter().position(|l| l.starts_with("cargo test --workspace"));
    let smoke = commands.iter().position(|l| l.starts_with("bench/smoke-all"));
    assert!(tests.is_some(), ".ci/run runs the README's test command");
    assert!(smoke.is_some(), ".ci/run runs bench/smoke-all");
    assert!(smoke > tests, ".ci/run runs bench/smoke-all after the tests");
}

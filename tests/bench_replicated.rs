//! The statistics the comparison scripts in bench/ share (bench/replicated.py:
//! the fastest replicate of each side, the ratio's interval, the verdicts)
//! pass their tests, bench/replicated_test.py. The scripts themselves run in
//! their smoke runs (bench/smoke-all), which judge nothing; this is where
//! the judging is checked.

use std::path::Path;
use std::process::Command;

#[test]
fn the_shared_statistics_of_bench_pass_their_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Ok(out) = Command::new("python3")
        .arg(root.join("bench").join("replicated_test.py"))
        .current_dir(root)
        .output()
    else {
        return cryptobench_testkit::missing("python3", "bench/replicated.py is Python");
    };
    assert!(
        out.status.success(),
        "bench/replicated_test.py failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

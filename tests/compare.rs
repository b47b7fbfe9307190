//! `cryptobench compare` on measured fixture runs and imported figures.

mod common;

use common::cryptobench;

fn ok(out: std::process::Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_configurations_of_one_run() {
    let text = ok(cryptobench()
        .args(["compare", "tests/fixtures/runs/aes-mask.json"])
        .output()
        .unwrap());
    // The measured fixture: clearing AES-NI and VAES costs aes-128-gcm dearly
    // at 16 KiB and leaves sha256 alone.
    assert!(
        text.contains("OpenSSL 3.0.19 · masked against OpenSSL 3.0.19: 6.43× slower on aes-128-gcm enc at 16 KiB"),
        "{text}"
    );
    // sha256 4% apart with intervals of several percent: neither apart nor a tie.
    assert!(text.contains("1.04× slower on sha256 at 16 KiB (cannot tell"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn several_runs_in_markdown() {
    insta::assert_snapshot!(ok(cryptobench()
        .args([
            "compare",
            "tests/fixtures/runs/three-builds.json",
            "tests/fixtures/runs/aes-mask.json",
            "--format",
            "markdown",
        ])
        .output()
        .unwrap()));
}

#[test]
fn stored_runs_by_label_including_imported_figures() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    for (file, label) in [
        ("openssl-0.9.8o-raspberry-pi.txt", "no-asm"),
        ("openssl-1.0.1c-raspberry-pi.txt", "asm"),
    ] {
        ok(cryptobench()
            .args([
                "import",
                "openssl-speed",
                &format!("tests/fixtures/openssl-speed/{file}"),
                "--label",
                label,
                "--db",
            ])
            .arg(&db)
            .output()
            .unwrap());
    }
    let text = ok(cryptobench()
        .args(["compare", "no-asm", "asm", "--units", "k", "--db"])
        .arg(&db)
        .output()
        .unwrap());
    // sha256 at 8 KiB: 19300.35k against 4175.45k.
    assert!(
        text.contains("4.62× faster on sha256 at 8 KiB (cannot tell: neither beyond the noise"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn nothing_to_compare_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.json");
    let out = cryptobench()
        .args([
            "import",
            "openssl-speed",
            "tests/fixtures/openssl-speed/openssl-3.0.19-mr-sha256.txt",
            "--no-save",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    std::fs::write(&one, ok(out)).unwrap();
    let out = cryptobench().arg("compare").arg(&one).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing to compare"));
    let out = cryptobench().args(["compare", "no-such-label", "x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn thread_counts_of_one_run_are_compared_with_one_worker() {
    let text = ok(cryptobench()
        .args(["compare", "tests/fixtures/runs/threads.json"])
        .output()
        .unwrap());
    assert!(
        text.contains("OpenSSL 3.0.22 · 1 thread: OpenSSL 3.0.22 25 Aug 2026 (baseline)"),
        "{text}"
    );
    assert!(
        text.contains("OpenSSL 3.0.22 · 2 threads against OpenSSL 3.0.22 · 1 thread:"),
        "{text}"
    );
    // The aggregates are tested on their per-sample sums, so the verdicts are not all "not tested".
    assert!(text.contains("× *"), "{text}");
}

/// The help says how `compare` decides: the one rule (intervals apart and
/// more than 1% apart), not the Mann–Whitney test it no longer runs.
#[test]
fn help_describes_the_one_rule() {
    let help = ok(cryptobench().args(["compare", "--help"]).output().unwrap());
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!help.to_lowercase().contains("mann"), "{help}");
    assert!(help.contains("crates/core/src/decision.rs"), "{help}");
    assert!(help.contains("do not overlap") && help.contains("more than 1%"), "{help}");
}

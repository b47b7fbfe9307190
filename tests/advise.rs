//! `cryptobench advise`: advice on stored runs (no measuring), what it
//! says it ran, the Advice section that opens a report, and bad input.
//!
//! The recorded runs (tests/fixtures/runs/README.md) are `--quick` runs,
//! which get no advice (the first test). The others advise on a copy whose
//! recorded budget is raised to the default ([`admitted`]), so that the
//! rules can be tested on real recorded cells; those cells stay a quick
//! run's, read by these tests only.

mod common;

use common::cryptobench;
use predicates::prelude::*;
use tempfile::NamedTempFile;

const ZEN3: &str = "tests/fixtures/runs/advice-zen3.json";

/// A copy of a recorded run with the default budget per cell recorded.
fn admitted(path: &str) -> NamedTempFile {
    let mut run: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    run["settings"]["timing"]["cell_budget_ns"] = serde_json::json!(cryptobench_core::stopping::DEFAULT_CELL_BUDGET_NS);
    let file = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    std::fs::write(file.path(), serde_json::to_string(&run).unwrap()).unwrap();
    file
}

fn advise(args: &[&str]) -> String {
    let out = cryptobench().arg("advise").args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_quick_run_gets_no_advice_and_says_why() {
    let text = advise(&["--from", ZEN3]);
    assert!(text.starts_with("What ran:\n  [1] OpenSSL 3.0."), "{text}");
    assert!(text.contains("No advice: the run timed each cell for 40 ms"), "{text}");
    assert!(!text.contains("  - "), "{text}");
    assert!(text.contains("best here: [2] ring 0.17.14"), "{text}");
}

#[test]
fn advises_on_a_stored_run_and_says_what_ran() {
    let run = admitted(ZEN3);
    let out = cryptobench()
        .args(["advise", "--from", run.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("What ran:\n  [1] OpenSSL 3.0."), "{text}");
    assert!(text.contains("Core: Zen 3 (CPUID family 0x19 model 0x1"), "{text}");
    assert!(text.contains("- move to ring 0.17"), "{text}");
    assert!(text.contains("lelegard/shabench"), "{text}");
    assert!(text.contains("no figure is published for Zen 3 (chacha20-poly1305)"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing measured"));
}

#[test]
fn a_named_core_replaces_the_recorded_one() {
    let run = admitted(ZEN3);
    let text = advise(&["--from", run.path().to_str().unwrap(), "--core", "skylake"]);
    assert!(text.contains("Core: Skylake (client) (given with --core)"), "{text}");
    assert!(text.contains("published for Skylake (client)"), "{text}");
    let list = advise(&["--core", "list"]);
    assert!(
        list.contains("cortex-a76") && list.contains("neoverse-v2") && list.contains("sapphire-rapids"),
        "{list}"
    );
}

#[test]
fn public_key_is_advised_in_operations_per_second_and_cycles_per_operation() {
    let run = admitted("tests/fixtures/runs/advice-pk.json");
    let text = advise(&["--from", run.path().to_str().unwrap()]);
    assert!(text.contains("\ned25519 sign\n") && text.contains("\ned25519 verify\n"), "{text}");
    assert!(
        text.contains("operations per second") && text.contains("cycles per operation at the measured"),
        "{text}"
    );
    assert!(
        !text.contains("MB/s") && !text.contains("0–0") && !text.contains("no measured clock"),
        "{text}"
    );
}

#[test]
fn looks_wrong_names_the_cause_the_library_reports_and_never_at_16_bytes() {
    // The whole process ran with OPENSSL_ia32cap clearing AES-NI, VAES and VPCLMULQDQ:
    // OpenSSL's own capability line shows it, decoded by its registry entry.
    let run = admitted("tests/fixtures/runs/advice-no-aesni.json");
    let text = advise(&["--from", run.path().to_str().unwrap(), "--core", "zen4"]);
    assert!(text.contains("looks wrong"), "{text}");
    assert!(text.contains("leaves out AES-NI"), "{text}");
    // The same library measured at 16 and 64 B only: per-call costs, not the code path.
    let small = admitted("tests/fixtures/runs/advice-16b-no-aesni.json");
    let text = advise(&["--from", small.path().to_str().unwrap(), "--core", "zen4"]);
    assert!(!text.contains("looks wrong") && !text.contains("× the best known"), "{text}");
    assert!(text.contains("the largest size measured is 64 B"), "{text}");
}

#[test]
fn the_markdown_report_opens_with_the_advice() {
    let run = admitted(ZEN3);
    let out = cryptobench()
        .args(["report", run.path().to_str().unwrap(), "--format", "markdown"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let advice = text.find("## Advice").expect("an Advice section");
    let first_other = text[advice + 1..].find("\n## ").map(|i| i + advice + 1);
    assert!(first_other.is_some_and(|o| o > advice), "{text}");
    assert!(
        text[..advice].matches("\n## ").count() == 0,
        "Advice must be the first section: {text}"
    );
    // A quick run's report has no Advice section.
    let quick = cryptobench().args(["report", ZEN3, "--format", "markdown"]).output().unwrap();
    assert!(!String::from_utf8(quick.stdout).unwrap().contains("## Advice"));
}

#[test]
fn bad_input_names_what_is_valid() {
    cryptobench()
        .args(["advise", "--from", ZEN3, "--core", "zen9"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown core 'zen9'").and(predicate::str::contains("zen3")));
    cryptobench()
        .args(["advise", "--from", ZEN3, "--algos", "rot13"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown algorithm 'rot13'"));
    cryptobench()
        .args(["advise", "--from", "no/such/run.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no such file"));
}

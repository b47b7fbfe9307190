//! `cryptobench advise`: advice on stored runs (no measuring), what it
//! says it ran, the Advice section that opens a report, and bad input.

mod common;

use common::cryptobench;
use predicates::prelude::*;

const ZEN3: &str = "tests/fixtures/runs/advice-zen3.json";

#[test]
fn advises_on_a_stored_run_and_says_what_ran() {
    let out = cryptobench().args(["advise", "--from", ZEN3]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("What ran:\n  [1] OpenSSL 3.0."), "{text}");
    assert!(text.contains("Core: Zen 3 (CPUID family 0x19 model 0x1"), "{text}");
    assert!(text.contains("- move to ring 0.17"), "{text}");
    assert!(text.contains("sha512-x86_64.pl:96"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing measured"));
}

#[test]
fn a_named_core_replaces_the_recorded_one() {
    let out = cryptobench()
        .args(["advise", "--from", ZEN3, "--core", "skylake"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Core: Skylake (given with --core)"), "{text}");
    // Skylake's SHA-256 (no SHA extensions) is 7.70 cycles per byte: this machine is far ahead of it.
    assert!(text.contains("published for Skylake"), "{text}");
    let list = cryptobench().args(["advise", "--core", "list"]).output().unwrap();
    assert!(String::from_utf8(list.stdout).unwrap().contains("cortex-a76"));
}

#[test]
fn the_markdown_report_opens_with_the_advice() {
    let out = cryptobench().args(["report", ZEN3, "--format", "markdown"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let advice = text.find("## Advice").expect("an Advice section");
    let first_other = text[advice + 1..].find("\n## ").map(|i| i + advice + 1);
    assert!(first_other.is_some_and(|o| o > advice), "{text}");
    assert!(
        text[..advice].matches("\n## ").count() == 0,
        "Advice must be the first section: {text}"
    );
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

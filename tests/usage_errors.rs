//! Bad input: a clear message naming what is valid, exit code 2, no panic.

mod common;

use common::cryptobench;
use predicates::prelude::*;

fn rejects(args: &[&str], says: &[&str]) {
    let assert = cryptobench()
        .args(args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("panicked").not());
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    for s in says {
        assert!(stderr.contains(s), "`{}` should say '{s}', said: {stderr}", args.join(" "));
    }
}

#[test]
fn unknown_algorithm_lists_the_valid_ones() {
    rejects(
        &["run", "--algos", "aes-128-gcm,rot13"],
        &["unknown algorithm 'rot13'", "chacha20-poly1305", "sha3-256"],
    );
}

#[test]
fn unknown_backend_lists_the_valid_ones() {
    rejects(
        &["run", "--backend", "nosuchlib"],
        &["unknown backend 'nosuchlib'", "openssl", "wolfssl"],
    );
}

#[test]
fn sizes_must_be_positive_whole_numbers() {
    rejects(&["run", "--sizes", "0"], &["size 0"]);
    rejects(&["run", "--sizes", "16,-5"], &["'-5' is not a size"]);
    rejects(&["run", "--sizes", "abc"], &["'abc' is not a size"]);
    rejects(&["run", "--sizes", "-16"], &["'-16' is not a size"]);
    rejects(&["run", "--sizes", "1.5"], &["not a size"]);
    rejects(&["run", "--sizes", "1024m"], &["larger than the maximum"]);
}

#[test]
fn time_must_be_a_sensible_duration() {
    rejects(&["run", "--time", "soon"], &["not a duration"]);
    rejects(&["run", "--time", "-1"], &["--time"]);
    rejects(&["run", "--time", "0"], &["outside"]);
}

#[test]
fn target_must_be_a_sensible_percentage() {
    rejects(&["run", "--target", "tight"], &["not a percentage", "1%"]);
    rejects(&["run", "--target", "0%"], &["outside 0.1% to 50%"]);
    rejects(&["run", "--target", "80"], &["outside 0.1% to 50%"]);
}

#[test]
fn library_paths_are_checked() {
    rejects(
        &["run", "--backend", "openssl=/nonexistent/libcrypto.so.3"],
        &["/nonexistent/libcrypto.so.3", "No such file"],
    );
    rejects(&["run", "--backend", "openssl=/tmp"], &["is not a file"]);
    rejects(&["run", "--backend", "openssl="], &["path after '=' is empty"]);
    // A file that exists but is not a libcrypto: the only configuration, so nothing can run.
    rejects(
        &["run", "--backend", concat!("openssl=", env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")],
        &["no configuration can be measured", "cannot load"],
    );
}

#[test]
fn contradictory_flags_are_refused() {
    rejects(&["run", "--mode", "stream", "--rekey"], &["--rekey"]);
    rejects(&["run", "--decrypt", "--ops", "enc"], &["cannot be used with"]);
    rejects(&["run", "--cpu", "4096"], &["--cpu 4096"]);
    rejects(&["run", "--aad", "70000"], &["--aad"]);
    rejects(&["algorithms", "--format", "csv"], &["table or json"]);
}

#[test]
fn help_teaches() {
    cryptobench()
        .args(["run", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--rekey"))
        .stdout(predicate::str::contains("Examples:"))
        .stdout(predicate::str::contains("1000s of bytes"));
}

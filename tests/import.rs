//! `cryptobench import openssl-speed` on real outputs from 0.9.8 to 3.0.19
//! (tests/fixtures/openssl-speed/README.md says where each comes from).

mod common;

use common::cryptobench;
use serde_json::Value;

const DIR: &str = "tests/fixtures/openssl-speed";

fn import_json(file: &str) -> Value {
    let out = cryptobench()
        .args(["import", "openssl-speed", &format!("{DIR}/{file}"), "--no-save", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{file}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The median of the cell (algorithm, size), in bytes per second.
fn figure(run: &Value, algorithm: &str, size: u64) -> f64 {
    run["configurations"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["algorithm"] == algorithm && c["size"] == size)
        .unwrap_or_else(|| panic!("no {algorithm} {size}"))["summary"]["median"]
        .as_f64()
        .unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs()
}

#[test]
fn tables_of_every_version_read_figure_for_figure() {
    // (file, version as printed, algorithm, size, the figure printed ×1000)
    let cases = [
        (
            "openssl-0.9.8e-alix-evp-aes-128-cbc.txt",
            "OpenSSL 0.9.8e 23 Feb 2007",
            "aes-128-cbc",
            8192,
            6_141_800.0,
        ),
        (
            "openssl-0.9.8o-raspberry-pi.txt",
            "OpenSSL 0.9.8o 01 Jun 2010",
            "aes-256-cbc",
            16,
            2_383_900.0,
        ),
        (
            "openssl-1.0.1c-raspberry-pi.txt",
            "OpenSSL 1.0.1c 10 May 2012",
            "des-ede3-cbc",
            1024,
            2_397_530.0,
        ),
        (
            "openssl-1.1.1-era-sbc-bench-aes-256-cbc.txt",
            "unknown version (not in the text)",
            "aes-256-cbc",
            16384,
            1_144_575_320.0,
        ),
        (
            "openssl-3.0.19-evp-aes-128-gcm-terminal.txt",
            "3.0.19",
            "aes-128-gcm",
            16384,
            3_646_379_670.0,
        ),
        ("openssl-3.0.19-md5-sha1-sha256.txt", "3.0.19", "sha256", 64, 166_773_950.0),
        (
            "openssl-1.1.1w-evp-aes-128-gcm.txt",
            "OpenSSL 1.1.1w  11 Sep 2023",
            "aes-128-gcm",
            256,
            1_933_245_950.0,
        ),
        ("openssl-4.0.3-evp-aes-128-gcm.txt", "4.0.3", "aes-128-gcm", 1024, 1_407_969_600.0),
        ("openssl-4.0.3-aead-evp-aes-128-gcm.txt", "4.0.3", "aes-128-gcm", 2, 5_572_300.0),
    ];
    for (file, version, alg, size, expected) in cases {
        let run = import_json(file);
        assert_eq!(run["imported"]["format"], "openssl-speed", "{file}");
        assert_eq!(run["configurations"][0]["backend"]["version"], version, "{file}");
        let got = figure(&run, alg, size);
        assert!(close(got, expected), "{file} {alg} {size}: {got} != {expected}");
    }
}

#[test]
fn machine_readable_figures_are_bytes_per_second() {
    let run = import_json("openssl-3.0.19-mr-sha256.txt");
    assert!(close(figure(&run, "sha256", 16384), 1_473_062_841.38));
    let run = import_json("openssl-3.0.19-mr-aes-128-cbc.txt");
    assert!(close(figure(&run, "aes-128-cbc", 16), 920_782_257.14));
    assert_eq!(run["settings"]["sizes"], serde_json::json!([16, 64, 256, 1024, 8192, 16384]));
}

#[test]
fn aead_semantics_follow_the_version() {
    // 1.1.1 streams GCM updates on one context without -aead (docs/METHOD.md).
    let run = import_json("openssl-1.1.1w-evp-aes-128-gcm.txt");
    let cell = &run["configurations"][0]["cells"][0];
    assert_eq!((cell["mode"].as_str(), cell["rekey"].as_bool()), (Some("stream"), Some(false)));
    assert_eq!(cell["warnings"].as_array().unwrap().len(), 1, "no caveat: the version is known");
    // -mr output has no version line: the AEAD mode is a guess, and says so.
    let run = import_json("openssl-1.1.1w-mr-chacha20-poly1305.txt");
    assert!(close(figure(&run, "chacha20-poly1305", 16384), 2_010_040_858.95));
    let warnings = run["configurations"][0]["cells"][0]["warnings"].to_string();
    assert!(warnings.contains("the mode is a guess"), "{warnings}");
}

#[test]
fn openssl_4_output_with_five_capability_words_and_aead_sizes() {
    let run = import_json("openssl-4.0.3-evp-aes-128-gcm.txt");
    let caps = run["configurations"][0]["backend"]["cpu_capabilities"].as_str().unwrap();
    assert_eq!(caps.matches(":0x").count(), 4, "five words: {caps}");
    let cell = &run["configurations"][0]["cells"][0];
    assert_eq!(
        (cell["mode"].as_str(), cell["rekey"].as_bool(), cell["aad"].as_u64()),
        (Some("message"), Some(true), Some(0))
    );
    // -aead: the 2, 31, 136 size list, 13 bytes of AAD per message.
    let run = import_json("openssl-4.0.3-aead-evp-aes-128-gcm.txt");
    assert_eq!(run["settings"]["sizes"], serde_json::json!([2, 31, 136, 1024, 8192, 16384]));
    assert_eq!(run["configurations"][0]["cells"][0]["aad"], 13);
    let run = import_json("openssl-4.0.3-mr-sha256.txt");
    assert!(close(figure(&run, "sha256", 16384), 1_505_169_473.02));
}

#[test]
fn environment_lines_and_semantics_are_kept() {
    let run = import_json("openssl-1.0.1c-raspberry-pi.txt");
    let env = &run["imported"]["environment"];
    assert_eq!(env["built on"], "Sun Jul 29 00:43:16 CEST 2012");
    assert!(env["compiler"].as_str().unwrap().starts_with("armv6j-hardfloat-linux-gnueabi-gcc"));
    assert!(env["not imported (not in the catalog)"].as_str().unwrap().contains("aes-128 ige"));
    // mdc2 printed 0.00 there: not a figure. md2 is not in the catalog.
    let cells = run["configurations"][0]["cells"].as_array().unwrap();
    assert!(cells.iter().all(|c| c["summary"]["samples"] == 0 || c["status"] != "measured"));
    let run = import_json("openssl-3.0.19-evp-aes-128-gcm-terminal.txt");
    assert_eq!(
        run["configurations"][0]["backend"]["cpu_capabilities"],
        "OPENSSL_ia32cap=0xfffa3203078bffff:0x400684219c07ab"
    );
    // 3.0.19 sets key and IV for every GCM message, without AAD (docs/METHOD.md).
    let cell = &run["configurations"][0]["cells"][0];
    assert_eq!(
        (cell["mode"].as_str(), cell["rekey"].as_bool(), cell["aad"].as_u64()),
        (Some("message"), Some(true), Some(0))
    );
    let run = import_json("openssl-0.9.8o-raspberry-pi.txt");
    let cells = run["configurations"][0]["cells"].as_array().unwrap();
    assert!(cells.iter().any(|c| c["algorithm"] == "sha512"));
}

#[test]
fn the_table_in_openssl_units() {
    let out = cryptobench()
        .args([
            "import",
            "openssl-speed",
            &format!("{DIR}/openssl-1.0.1c-raspberry-pi.txt"),
            "--no-save",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    insta::with_settings!({filters => vec![(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "[imported at]")]}, {
        insta::assert_snapshot!(text);
    });
}

#[test]
fn garbage_lines_are_skipped_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let real = std::fs::read_to_string(format!("{DIR}/openssl-3.0.19-md5-sha1-sha256.txt")).unwrap();
    let mut lines: Vec<&str> = real.lines().collect();
    lines.insert(8, "%%% a line that is no part of openssl speed %%%");
    lines.insert(9, "sha1  12.3k  not-a-number  1  2  3  4");
    lines.push("\u{1b}[0m trailing terminal noise");
    let file = dir.path().join("noisy.txt");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let out = cryptobench()
        .args(["import", "openssl-speed"])
        .arg(&file)
        .args(["--no-save", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(run["imported"]["environment"]["ignored lines"], "3");
    assert!(close(figure(&run, "sha1", 16384), 1_064_619_340.0), "the real row wins");
}

#[test]
fn text_without_results_is_a_usage_error_and_saves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    for (name, text) in [
        ("garbage.txt", "hello\nthis is not openssl speed\n"),
        ("empty.txt", ""),
        (
            "header-only.txt",
            "The 'numbers' are in 1000s of bytes per second processed.\ntype             16 bytes     64 bytes\n",
        ),
        ("mr-without-sizes.txt", "+F:25:sha256:1.00:2.00\n"),
    ] {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        let out = cryptobench()
            .args(["import", "openssl-speed"])
            .arg(&file)
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        let msg = String::from_utf8_lossy(&out.stderr);
        assert!(
            msg.contains(name) && (msg.contains("no openssl speed results") || msg.contains("line 1")),
            "{msg}"
        );
    }
    assert!(!db.exists(), "nothing was written");
    let out = cryptobench().args(["import", "openssl-speed", "/no/such/file"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn an_import_is_stored_and_marked() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    let out = cryptobench()
        .args([
            "import",
            "openssl-speed",
            &format!("{DIR}/openssl-0.9.8o-raspberry-pi.txt"),
            "--label",
            "rpi-2012",
            "--db",
        ])
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("as run 1"));
    let out = cryptobench().args(["runs", "list", "--db"]).arg(&db).output().unwrap();
    let list = String::from_utf8(out.stdout).unwrap();
    assert!(list.contains("rpi-2012 (imported openssl-speed)"), "{list}");
}

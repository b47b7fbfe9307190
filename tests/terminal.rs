//! What the commands print on a terminal, end to end: `run` answers first
//! (the fastest per algorithm and operation, public key included; for one
//! library whether it uses the CPU's crypto instructions, as `cpu` compares
//! them), in at most 80 lines for every library here on three algorithms at
//! two sizes; and no line of `run`, `backends`, `algorithms` or `verify` is
//! wider than 160 columns unless `--verbose` asks for the whole text.
//! crates/report/tests/answer_first.rs holds the rendering to a recorded run.

mod common;

use common::{cryptobench, json, system_openssl_available};
use cryptobench_core::audit::feature_title;

/// The widest line a command prints by default (crates/report/src/width.rs).
const COLUMNS: usize = 160;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

/// Lines wider than [`COLUMNS`], with their width.
fn too_wide(text: &str) -> Vec<(usize, &str)> {
    text.lines().map(|l| (l.chars().count(), l)).filter(|(n, _)| *n > COLUMNS).collect()
}

#[test]
fn every_library_on_three_algorithms_answers_first_in_80_lines_of_160_columns() {
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .args([
            "run",
            "--backend",
            "all",
            "--quick",
            "--algos",
            "aes-128-gcm,sha256,rsa2048",
            "--sizes",
            "16,16k",
            "--no-save",
        ])
        .output()
        .unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("which is fastest"))
        .unwrap_or_else(|| panic!("no answer:\n{stdout}"));
    assert!(at < 15, "the answer starts at line {}:\n{stdout}", at + 1);
    let answer: Vec<&str> = lines[at..].iter().take_while(|l| !l.is_empty()).copied().collect();
    for row in ["aes-128-gcm enc message", "sha256", "rsa2048 sign", "rsa2048 verify"] {
        assert!(
            answer.iter().any(|l| l.trim_start().starts_with(row)),
            "no {row} in the answer:\n{}",
            answer.join("\n")
        );
    }
    assert!(lines.len() <= 80, "{} lines:\n{stdout}", lines.len());
    assert!(too_wide(&stdout).is_empty(), "{:#?}", too_wide(&stdout));
    assert!(too_wide(&stderr).is_empty(), "{:#?}", too_wide(&stderr));
    // One line per configuration before the table, no file paths: those are for --verbose.
    assert!(!stdout.contains("/libcrypto.so") && !stdout.contains("CPUINFO"), "{stdout}");
}

/// The AES, CLMUL and SHA instructions the line must speak of, by their names in `cpu`'s JSON.
fn named(arch: &str) -> &'static [&'static str] {
    match arch {
        "aarch64" => &["aes", "pmull", "sha2"],
        _ => &["aes", "pclmulqdq", "sha_ni", "vaes"],
    }
}

#[test]
fn one_library_says_in_one_line_whether_it_uses_what_the_cpu_offers() {
    if !system_openssl_available() {
        return;
    }
    // What `cpu` compares: the CPU's features and the library's own view of them.
    let cpu = cryptobench().args(["cpu", "--no-clock", "--format", "json"]).output().unwrap();
    let cpu = json(&cpu);
    let arch = cpu["seen_by"]["arch"].as_str().unwrap().to_string();
    let names = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .map(|a| a.iter().map(|f| f["name"].as_str().unwrap_or_default().to_string()).collect())
            .unwrap_or_default()
    };
    let offered = names(&cpu["runtime_features"]);
    let library = &cpu["libraries"][0];
    let (sees, unused) = (names(&library["features"]), names(&library["mismatches"]));

    let out = cryptobench().args(["run", "--quick", "--no-save"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let (at, line) = stdout
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("hardware: "))
        .unwrap_or_else(|| panic!("no hardware line:\n{stdout}"));
    assert!(at < 5, "{stdout}");
    assert!(line.chars().count() <= COLUMNS, "{line}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("hardware: ")).count(), 1, "{stdout}");
    if library["note"].is_string() {
        // The library reports no view of the CPU (OpenSSL 1.1.1): said so.
        assert!(line.contains("does not say which CPU features it uses"), "{line}");
        return;
    }
    let mut spoken = 0;
    for f in named(&arch).iter().filter(|f| offered.iter().any(|o| o == *f)) {
        let title = feature_title(f, &arch);
        assert!(line.contains(&title), "{title} (the CPU offers {f}): {line}");
        if unused.iter().any(|u| u == f) {
            assert!(line.contains("does not use"), "{line}");
        } else if sees.iter().any(|s| s == f) {
            assert!(line.contains(" uses "), "{line}");
        }
        spoken += 1;
    }
    if spoken == 0 {
        assert!(line.contains("no AES, CLMUL or SHA"), "{line}");
    }
}

#[test]
fn backends_algorithms_and_verify_fit_160_columns_and_verbose_has_the_rest() {
    let backends = cryptobench().args(["backends"]).output().unwrap();
    let backends_text = text(&backends.stdout);
    assert!(backends.status.success());
    assert!(too_wide(&backends_text).is_empty(), "{:#?}", too_wide(&backends_text));
    let verbose = text(&cryptobench().args(["backends", "--verbose"]).output().unwrap().stdout);
    // The whole path of the linked-in library (this very executable) and what it supports.
    assert!(verbose.contains("rustcrypto: aes-128-ecb"), "{verbose}");
    assert!(!backends_text.contains("rustcrypto: aes-128-ecb"), "{backends_text}");

    let algorithms = cryptobench().args(["algorithms", "--backend", "all"]).output().unwrap();
    assert!(algorithms.status.success());
    for stream in [text(&algorithms.stdout), text(&algorithms.stderr)] {
        assert!(too_wide(&stream).is_empty(), "{:#?}", too_wide(&stream));
    }
    // Every catalog algorithm in every table's split: the algorithm column is repeated.
    let tables = text(&algorithms.stdout).lines().filter(|l| l.starts_with(" algorithm ")).count();
    assert!(tables >= 1);

    // verify: a library defect's input (hundreds of hex digits for RSA) is cut, whole under --verbose.
    let verify = |extra: &[&str]| {
        let out = cryptobench()
            .args(["verify", "--backend", "all", "--algos", "rsa2048,ed25519", "--max-length", "1k"])
            .args(extra)
            .output()
            .unwrap();
        assert!(matches!(out.status.code(), Some(0 | 3)), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let short = verify(&[]);
    assert!(too_wide(&short).is_empty(), "{:#?}", too_wide(&short));
    let whole = verify(&["--verbose"]);
    if short.contains("DEFECT") {
        assert!(short.contains("(whole: --verbose, --format json)"), "{short}");
        assert!(
            whole
                .lines()
                .any(|l| l.trim_start().starts_with("input:") && l.chars().count() > COLUMNS),
            "{whole}"
        );
    }
}

//! Workers of another architecture, under qemu-user: `--arch aarch64` with
//! the cryptobench cross-built for aarch64-unknown-linux-gnu (`.ci/run`
//! builds it; README "Other architectures" says how). Without qemu or that
//! build these tests skip with the reason, and fail under CI=true.

mod common;

use common::{cryptobench, json, FAST};

const TRIPLE: &str = "aarch64-unknown-linux-gnu";

/// Whether `--arch aarch64` can run here; says why not otherwise.
fn aarch64_ready() -> bool {
    common::arch_ready("aarch64", &format!("qemu-user and a cryptobench built for {TRIPLE}"))
}

#[test]
fn an_aarch64_worker_runs_emulated_and_says_so() {
    if !aarch64_ready() {
        return;
    }
    let out = cryptobench()
        .args([
            "run",
            "--arch",
            "aarch64",
            "--algos",
            "aes-128-gcm,sha256",
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
    let run = json(&out);
    let c = &run["configurations"][0];
    assert_eq!(c["status"], "completed", "{c}");
    assert_eq!(c["platform"]["arch"], "aarch64");
    assert!(
        c["platform"]["emulated_by"].as_str().unwrap().starts_with("qemu-aarch64"),
        "{}",
        c["platform"]
    );
    assert!(
        c["backend"]["library_path"].as_str().unwrap().contains("aarch64-linux-gnu"),
        "{}",
        c["backend"]
    );
    assert!(c["backend"]["cpu_capabilities"].as_str().unwrap().starts_with("OPENSSL_armcap="));
    assert!(c["verifications"].as_array().unwrap().iter().all(|v| v["status"] == "passed"));
    assert!(c["cells"].as_array().unwrap().iter().all(|x| x["status"] == "measured"));
    // No clock, cycles per byte or score for an emulated worker, and the reason instead.
    assert!(c["clock"]["not_meaningful"].as_str().unwrap().contains("emulator"));
    assert!(c["score"].is_null());
    assert!(c["cells"][0]["cycles_per_byte"].is_null());
}

#[test]
fn native_and_emulated_side_by_side_give_a_ratio_table() {
    if !aarch64_ready() {
        return;
    }
    if cryptobench_testkit::own_emulator().is_some() {
        // These tests themselves run emulated (the aarch64 test run): no worker here is native.
        cryptobench_testkit::platform_lacks("a native worker", "the tests run under an emulator");
        return;
    }
    // One run, read back as the terminal table, Markdown and HTML report.
    let dir = tempfile::tempdir().unwrap();
    let out = cryptobench()
        .args(["run", "--backend", "openssl", "--backend", "openssl", "--arch", "aarch64"])
        .args(["--algos", "sha256", "--sizes", "16,1024", "--no-save", "--format", "json"])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let file = dir.path().join("run.json");
    std::fs::write(&file, &out.stdout).unwrap();
    let shown = cryptobench().args(["report", "--format", "markdown"]).arg(&file).output().unwrap();
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(
        text.contains("OpenSSL 3.0") && text.contains("aarch64, emulated — openssl (emulated by qemu-aarch64"),
        "{text}"
    );
    assert!(
        text.contains("emulated/native: OpenSSL") && text.contains("aarch64, emulated under qemu-aarch64"),
        "{text}"
    );
    assert!(
        text.contains("aarch64, emulated: no clock, cycles per byte or score per MHz"),
        "{text}"
    );
    let html = dir.path().join("run.html");
    let out = cryptobench().arg("report").arg(&file).arg("--html").arg(&html).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<h2>Native against emulated</h2>"), "no emulated/native section");
    assert!(
        page.contains("16 B: 0.") && page.contains("emulated / native, per size"),
        "no ratio drawn"
    );
}

#[test]
fn cpu_describes_the_emulated_cpu_in_arm_terms() {
    if !aarch64_ready() {
        return;
    }
    let out = cryptobench().args(["cpu", "--arch", "aarch64"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("the worker: aarch64, emulated by qemu-aarch64"), "{text}");
    assert!(text.contains("AT_HWCAP bit 3"), "AES with its HWCAP bit: {text}");
    assert!(text.contains("OPENSSL_armcap"), "{text}");
    let features = text.split("crypto features").nth(1).unwrap();
    for x86 in ["AES-NI", "pclmulqdq", "sha_ni", "avx2", "CPUID"] {
        assert!(!features.contains(x86), "x86 name {x86} in: {text}");
    }
}

#[test]
fn the_audit_of_an_aarch64_worker_uses_arm_families() {
    if !aarch64_ready() {
        return;
    }
    let out = cryptobench()
        .args([
            "audit",
            "--arch",
            "aarch64",
            "--algos",
            "aes-128-gcm,sha256,chacha20-poly1305",
            "--sizes",
            "16,16k",
            "--rounds",
            "1",
            "--format",
            "json",
            "--no-save",
        ])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json(&out);
    let lib = &v["libraries"][0];
    assert_eq!(lib["worker_arch"], "aarch64");
    let configs = v["run"]["configurations"].as_array().unwrap();
    // Each masked worker reports the vector it got: the mask took effect.
    for c in &configs[1..] {
        let mask = c["spec"]["env"]["OPENSSL_armcap"].as_str().unwrap();
        let reported = c["backend"]["cpu_capabilities"].as_str().unwrap();
        assert!(reported.starts_with(&format!("OPENSSL_armcap={mask}")), "{mask} vs {reported}");
    }
    let texts: Vec<&str> = lib["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["text"].as_str().unwrap())
        .collect();
    let all = texts.join("\n");
    for arm in ["AES", "PMULL", "SHA2", "NEON"] {
        assert!(all.contains(arm), "{arm} missing from:\n{all}");
    }
    for x86 in ["AES-NI", "SHA-NI", "PCLMULQDQ", "AVX"] {
        assert!(!all.contains(x86), "{x86} in:\n{all}");
    }
    assert!(texts.iter().all(|t| t.starts_with("under emulation")), "{all}");
    assert!(lib["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["factor_large"].as_f64().is_some()));
}

#[test]
fn verify_runs_the_aarch64_libraries_against_the_native_ones() {
    if !aarch64_ready() {
        return;
    }
    common::assert_arch_agrees_with_native_openssl("aarch64", "aes-128-gcm,sha256");
}

#[test]
fn an_unknown_architecture_is_a_usage_error_listing_the_valid_ones() {
    let out = cryptobench().args(["run", "--arch", "mips"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("aarch64, armhf, ppc64el, s390x, riscv64, i386"), "{err}");
    let out = cryptobench()
        .args(["run", "--backend", "openssl", "--arch", "aarch64", "--arch", "armhf"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "two --arch for one backend");
}

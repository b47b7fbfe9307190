//! `run --algos openssl-speed`: the rows `openssl speed` measures when given
//! no algorithm, for the loaded OpenSSL's version — symmetric and public key
//! — every cell verified, and the rows cryptobench cannot measure named with
//! the reason.

mod common;

use common::{cryptobench, json, system_openssl_available, FAST};

#[test]
fn openssl_speed_selects_the_default_set_of_the_loaded_version() {
    if !system_openssl_available() {
        return;
    }
    let out = cryptobench()
        .args(["run", "--algos", "openssl-speed", "--sizes", "16", "--no-save", "--format", "json"])
        .args(FAST)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let run = json(&out);
    let config = &run["configurations"][0];
    let version = config["backend"]["version"].as_str().unwrap();
    let expected = cryptobench_core::speed_defaults::defaults_for(version).expect("an OpenSSL 1.1.1 or later");
    let cells = config["cells"].as_array().unwrap();
    let mut ids: Vec<&str> = Vec::new();
    for id in cells.iter().map(|c| c["algorithm"].as_str().unwrap()) {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let mut wanted = expected.measured();
    wanted.extend(expected.measured_public_key());
    assert_eq!(ids, wanted, "{err}");
    assert!(
        cells.iter().any(|c| c["algorithm"] == "rsa2048" && c["operation"] == "sign"),
        "openssl speed's rsa rows are sign and verify: {err}"
    );
    for c in cells {
        if c["algorithm"] == "ghash" {
            // OpenSSL has GHASH only inside GCM and GMAC: said, not measured.
            assert_eq!(c["status"], "unsupported", "{c}");
            assert!(c["reason"].as_str().unwrap().contains("GMAC"), "{c}");
        } else {
            assert_eq!(c["status"], "measured", "{c}");
        }
    }
    assert!(config["verifications"].as_array().unwrap().iter().all(|v| v["status"] != "failed"));
    assert!(err.contains("not measured:") && err.contains("rand ("), "{err}");
    assert!(err.contains("ffdh2048") && err.contains("finite-field"), "{err}");
    // Only `run` resolves it.
    cryptobench().args(["verify", "--algos", "openssl-speed"]).assert().code(2);
}

/// The probe that reads OpenSSL's version for the default set is the one the
/// run uses: one worker probes, one measures (each start is logged by a
/// `--worker` command that then starts cryptobench's own worker).
#[cfg(unix)]
#[test]
fn openssl_is_probed_once() {
    if !system_openssl_available() {
        return;
    }
    if cryptobench_testkit::own_emulator().is_some() {
        cryptobench_testkit::platform_lacks("a native worker", "the tests run under an emulator");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("starts");
    let script = format!("echo started >> {}; exec \"$0\" \"$@\"", log.display());
    let worker = [
        "sh".to_string(),
        "-c".to_string(),
        script,
        assert_cmd::cargo::cargo_bin("cryptobench").display().to_string(),
    ]
    .iter()
    .map(|w| shlex::try_quote(w).unwrap().into_owned())
    .collect::<Vec<_>>()
    .join(" ");
    let out = cryptobench()
        .args(["run", "--backend", "openssl", "--worker", &worker])
        .args(["--algos", "openssl-speed", "--sizes", "16", "--no-save", "--format", "json"])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let starts = std::fs::read_to_string(&log).unwrap();
    assert_eq!(starts.lines().count(), 2, "one probe, one measuring worker: {starts}");
}

//! `run --algos openssl-speed`: the rows `openssl speed` measures when given
//! no algorithm, for the loaded OpenSSL's version, every cell verified, and
//! the rows cryptobench cannot measure named with the reason.

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
    let ids: Vec<&str> = cells.iter().map(|c| c["algorithm"].as_str().unwrap()).collect();
    assert_eq!(ids, expected.measured(), "{err}");
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
    // Only `run` resolves it.
    cryptobench().args(["verify", "--algos", "openssl-speed"]).assert().code(2);
}

//! `cryptobench algorithms`: the catalog and who supports what.

mod common;

use common::{cryptobench, system_openssl_available};
use cryptobench_core::CATALOG;

#[test]
fn lists_the_whole_catalog_with_support() {
    let out = cryptobench().args(["algorithms", "--format", "json"]).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let algs = v["algorithms"].as_array().unwrap();
    assert_eq!(algs.len(), CATALOG.len());
    if system_openssl_available() {
        let gcm = algs.iter().find(|a| a["id"] == "aes-128-gcm").unwrap();
        assert_eq!(gcm["supported_by"]["openssl"], true);
        assert_eq!(gcm["default_mode"], "message");
    }
    let table = cryptobench().arg("algorithms").output().unwrap();
    let text = String::from_utf8(table.stdout).unwrap();
    for alg in CATALOG {
        assert!(text.contains(alg.id), "{}", alg.id);
    }
}

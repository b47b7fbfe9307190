//! `runs list --format json|csv` for scripts, and an imported run's host
//! shown as "not recorded" rather than "unknown CPU (0 logical CPUs)".

mod common;

use common::cryptobench;

#[test]
fn runs_list_speaks_json_and_csv_and_says_what_an_import_did_not_record() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/openssl-speed/openssl-3.0.19-md5-sha1-sha256.txt"
    );
    let out = cryptobench()
        .args(["import", "openssl-speed", fixture, "--label", "pi, \"old\"", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(shown.contains("host: not recorded"), "{shown}");
    assert!(!shown.contains("0 logical CPUs"), "{shown}");

    let list = |format: &str| {
        let out = cryptobench()
            .args(["runs", "list", "--format", format, "--db"])
            .arg(&db)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let table = list("table");
    assert!(table.contains("not recorded"), "{table}");
    let v: serde_json::Value = serde_json::from_str(&list("json")).unwrap();
    assert_eq!(v[0]["id"], 1);
    assert_eq!(v[0]["imported"], "openssl-speed");
    assert_eq!(v[0]["label"], "pi, \"old\"");
    assert!(v[0]["hostname"].is_null());
    assert_eq!(v[0]["measured_cells"], 18);
    let csv = list("csv");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("id,saved_at,started_at,label,imported,hostname,cpu_model,configurations,measured_cells")
    );
    let row = lines.next().unwrap();
    assert!(
        row.starts_with("1,") && row.contains(",\"pi, \"\"old\"\"\",openssl-speed,"),
        "{row}"
    );
    cryptobench()
        .args(["runs", "list", "--format", "xml", "--db"])
        .arg(&db)
        .assert()
        .code(2);
}

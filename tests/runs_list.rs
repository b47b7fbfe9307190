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

/// A run of twenty configurations (RustCrypto's 28 crate versions among
/// them), a long label and a long CPU name still list in 120 columns, each
/// configuration by a short label; JSON keeps every version string whole.
#[test]
fn runs_list_fits_120_columns_and_json_keeps_the_full_strings() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/runs");
    let mut run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{fixtures}/all-libraries.json")).unwrap()).unwrap();
    let rustcrypto = run["configurations"][3]["backend"]["version"].as_str().unwrap().to_string();
    assert!(rustcrypto.len() > 150, "{rustcrypto}");
    let one: Vec<serde_json::Value> = run["configurations"].as_array().unwrap().clone();
    let mut many = Vec::new();
    for i in 0..20 {
        let mut c = one[i % one.len()].clone();
        c["index"] = (i + 1).into();
        many.push(c);
    }
    run["configurations"] = many.into();
    run["label"] = "nightly fleet comparison of every library on the big machine".into();
    run["host"]["cpu_model"] = "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz".into();
    let file = dir.path().join("many.json");
    std::fs::write(&file, serde_json::to_string(&run).unwrap()).unwrap();
    for f in [
        file.display().to_string(),
        format!("{fixtures}/three-builds.json"),
        format!("{fixtures}/threads.json"),
    ] {
        let out = cryptobench().args(["runs", "import", &f, "--db"]).arg(&db).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = cryptobench().args(["runs", "list", "--db"]).arg(&db).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8(out.stdout).unwrap();
    println!("{table}");
    for line in table.lines() {
        assert!(line.chars().count() <= 120, "{} columns: {line}\n{table}", line.chars().count());
    }
    assert!(table.contains("OpenSSL 3.0.22"), "{table}");
    assert!(table.contains("more"), "{table}");
    assert!(!table.contains("aes-gcm 0.11"), "no crate list in the table: {table}");
    let out = cryptobench()
        .args(["runs", "list", "--format", "json", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let configurations = v[0]["configurations"].as_array().unwrap();
    assert_eq!(configurations.len(), 20);
    assert!(configurations.iter().any(|c| c.as_str().unwrap().contains(&rustcrypto)));
}

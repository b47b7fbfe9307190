//! `cryptobench import openssl-speed` on the public-key sections of real
//! outputs of 1.1.1w, 3.0.22, 3.5.5 and 4.0.3, human and `-mr`
//! (tests/fixtures/openssl-speed/README.md says where each comes from).

mod common;

use common::cryptobench;
use serde_json::Value;

const DIR: &str = "tests/fixtures/openssl-speed";

fn import_json(file: &str) -> Value {
    let out = cryptobench()
        .args(["import", "openssl-speed", &format!("{DIR}/{file}"), "--no-save", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{file}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Operations per second of (algorithm, operation).
fn ops(run: &Value, algorithm: &str, operation: &str) -> Option<f64> {
    run["configurations"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["algorithm"] == algorithm && c["operation"] == operation)
        .and_then(|c| c["summary"]["median"].as_f64())
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() <= 1e-6 * b)
}

#[test]
fn human_tables_of_every_version_read_figure_for_figure() {
    // (file, algorithm, operation, the rate printed in that file)
    let cases = [
        ("openssl-1.1.1w-pk.txt", "rsa2048", "sign", 373.0),
        ("openssl-1.1.1w-pk.txt", "ecdsap256", "verify", 1030.0),
        ("openssl-1.1.1w-pk.txt", "x25519", "derive", 5230.7),
        ("openssl-1.1.1w-pk.txt", "ed25519", "sign", 7263.0),
        ("openssl-3.0.22-pk.txt", "rsa2048", "verify", 18366.3),
        ("openssl-3.0.22-pk.txt", "ed25519", "verify", 2797.0),
        ("openssl-3.5.5-pk.txt", "rsa2048", "sign", 957.8),
        ("openssl-3.5.5-pk.txt", "rsa2048", "keygen", 5.9),
        ("openssl-3.5.5-pk.txt", "mlkem768", "encaps", 12710.9),
        ("openssl-3.5.5-pk.txt", "mldsa65", "sign", 198.0),
        ("openssl-4.0.3-pk.txt", "ecdsap256", "sign", 25443.0),
        ("openssl-4.0.3-pk.txt", "ed25519", "verify", 8278.0),
        ("openssl-4.0.3-pk.txt", "mlkem768", "decaps", 19881.2),
        ("openssl-4.0.3-pk.txt", "mldsa65", "keygen", 2259.0),
    ];
    for (file, alg, op, printed) in cases {
        let run = import_json(file);
        assert!(
            close(ops(&run, alg, op), printed),
            "{file} {alg} {op}: {:?} vs {printed}",
            ops(&run, alg, op)
        );
    }
}

#[test]
fn machine_readable_lines_of_every_version() {
    let cases = [
        ("openssl-1.1.1w-mr-pk.txt", "rsa2048", "verify", 13759.0),
        ("openssl-1.1.1w-mr-pk.txt", "ed25519", "sign", 8947.0),
        ("openssl-3.0.22-mr-pk.txt", "x25519", "derive", 9803.0),
        ("openssl-3.0.22-mr-pk.txt", "ecdsap256", "sign", 15710.0),
        ("openssl-3.5.5-mr-pk.txt", "rsa2048", "sign", 916.831683),
        // 4.0 lists Ed25519 among the EC curves (+F4 index 22, 253 bits).
        ("openssl-4.0.3-mr-pk.txt", "ed25519", "sign", 10650.0),
    ];
    for (file, alg, op, printed) in cases {
        let run = import_json(file);
        assert!(close(ops(&run, alg, op), printed), "{file} {alg} {op}: {:?}", ops(&run, alg, op));
    }
    // KEMs and signatures: count / seconds of the +R16 line (3.5.5: "+R16:14206:ML-KEM-768:1.01" is in the file).
    let run = import_json("openssl-3.5.5-mr-pk.txt");
    let text = std::fs::read_to_string(format!("{DIR}/openssl-3.5.5-mr-pk.txt")).unwrap();
    let r16 = text.lines().find(|l| l.starts_with("+R16:") && l.contains("ML-KEM-768")).unwrap();
    let f: Vec<&str> = r16.split(':').collect();
    let expected = f[1].parse::<f64>().unwrap() / f[3].parse::<f64>().unwrap();
    assert!(close(ops(&run, "mlkem768", "encaps"), expected));
}

#[test]
fn public_key_cells_say_what_openssl_speed_signed() {
    let run = import_json("openssl-3.0.22-pk.txt");
    let cells = run["configurations"][0]["cells"].as_array().unwrap();
    let rsa = cells
        .iter()
        .find(|c| c["algorithm"] == "rsa2048" && c["operation"] == "sign")
        .unwrap();
    assert_eq!(rsa["size"], 36, "apps/speed.c signs 36 bytes");
    assert!(rsa["warnings"][0].as_str().unwrap().contains("no DigestInfo"));
    assert!(rsa["samples"].as_array().unwrap().is_empty());
    let table = cryptobench()
        .args(["import", "openssl-speed", &format!("{DIR}/openssl-3.0.22-pk.txt"), "--no-save"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains("sign/s") && text.contains("verify/s") && text.contains("derive/s"),
        "{text}"
    );
}

/// Shown stored run 1 of `db` as a table.
fn show(db: &std::path::Path, extra: &[&str]) -> String {
    let out = cryptobench()
        .args(["runs", "show", "1", "--db"])
        .arg(db)
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Each cell records its unit: a run from a cryptobench whose catalog has a
/// public-key id this one lacks is still read in operations per second;
/// a run written before units were recorded gets them from the catalog.
#[test]
fn imported_cells_keep_their_unit_and_old_runs_get_the_catalogs() {
    let mut run = import_json("openssl-3.5.5-pk.txt");
    let cells = run["configurations"][0]["cells"].as_array_mut().unwrap();
    assert!(cells.iter().all(|c| c["unit"] == "operations"), "{cells:?}");
    for c in cells.iter_mut().filter(|c| c["algorithm"] == "mldsa65") {
        c["algorithm"] = "mldsa-unknown".into();
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("newer.json");
    std::fs::write(&file, serde_json::to_string(&run).unwrap()).unwrap();
    let db = dir.path().join("runs.sqlite");
    let imported = cryptobench()
        .args(["runs", "import"])
        .arg(&file)
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    let table = show(&db, &[]);
    let (bytes, public_key) = table.split_once("public key, operations per second").expect("a public-key table");
    assert!(!bytes.contains("mldsa-unknown"), "{table}");
    let row = public_key
        .lines()
        .find(|l| l.trim_start().starts_with("mldsa-unknown"))
        .expect("its row");
    assert!(row.contains("198.0"), "sign/s as openssl speed printed it: {row}");
    let json: Value = serde_json::from_str(&show(&db, &["--format", "json"])).unwrap();
    let kept = json["configurations"][0]["cells"].as_array().unwrap();
    assert!(kept.iter().any(|c| c["algorithm"] == "mldsa-unknown" && c["unit"] == "operations"));

    // The same run as an older cryptobench wrote it: no unit anywhere.
    let mut old = run.clone();
    for c in old["configurations"][0]["cells"].as_array_mut().unwrap() {
        c.as_object_mut().unwrap().remove("unit");
    }
    let old_file = dir.path().join("old.json");
    std::fs::write(&old_file, serde_json::to_string(&old).unwrap()).unwrap();
    let out = cryptobench()
        .args(["report", "--format", "markdown"])
        .arg(&old_file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_str(&{
        let db2 = dir.path().join("old.sqlite");
        let o = cryptobench()
            .args(["runs", "import"])
            .arg(&old_file)
            .arg("--db")
            .arg(&db2)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        show(&db2, &["--format", "json"])
    })
    .unwrap();
    let cells = json["configurations"][0]["cells"].as_array().unwrap();
    let unit_of = |alg: &str| cells.iter().find(|c| c["algorithm"] == alg).map(|c| c["unit"].clone());
    assert_eq!(unit_of("rsa2048"), Some("operations".into()), "derived from the catalog");
    assert_eq!(
        unit_of("mldsa-unknown"),
        Some("bytes".into()),
        "an unknown id without a unit: bytes, as before"
    );
}

//! Public key end to end through the binary: `run --algos … --backend all`
//! (every library that has an operation measures it, verified first; the
//! others say why not), then the same run as CSV and Markdown, saved in a
//! store, compared with itself and drawn in the HTML report.

mod common;

use common::{cryptobench, json, system_openssl_available, FAST};
use serde_json::Value;

/// The algorithms of the acceptance command.
const ALGOS: &str = "rsa2048,ecdsap256,ed25519,x25519,mlkem768,mldsa65";

fn stdout(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The measured operations of one configuration: (algorithm, operation).
fn measured(config: &Value) -> Vec<(String, String)> {
    config["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "measured")
        .map(|c| {
            (
                c["algorithm"].as_str().unwrap().to_string(),
                c["operation"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn every_library_measures_what_it_has_and_names_what_it_lacks() {
    if !system_openssl_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pk.sqlite");
    let out = cryptobench()
        .args([
            "run",
            "--algos",
            ALGOS,
            "--backend",
            "all",
            "--format",
            "json",
            "--label",
            "pk-all",
            "--db",
        ])
        .arg(&db)
        .args(FAST)
        .output()
        .unwrap();
    // Exit 1 would mean a configuration crashed or a check failed.
    let run = {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        json(&out)
    };
    let configs = run["configurations"].as_array().unwrap();
    let by_backend = |id: &str| configs.iter().find(|c| c["spec"]["backend"] == id);
    let openssl = by_backend("openssl").expect("the system OpenSSL is measured");
    let ops = measured(openssl);
    for (alg, op) in [
        ("rsa2048", "sign"),
        ("rsa2048", "verify"),
        ("ecdsap256", "sign"),
        ("ecdsap256", "verify"),
        ("ed25519", "sign"),
        ("ed25519", "verify"),
        ("x25519", "derive"),
    ] {
        assert!(ops.contains(&(alg.into(), op.into())), "OpenSSL lacks {alg} {op}: {ops:?}");
    }
    // Every measured cell has its statistics in operations per second.
    for config in configs {
        for cell in config["cells"].as_array().unwrap().iter().filter(|c| c["status"] == "measured") {
            let s = &cell["summary"];
            assert!(s["median"].as_f64().unwrap() > 0.0, "{cell}");
            assert_eq!(s["samples"].as_u64().unwrap() as usize, cell["samples"].as_array().unwrap().len());
        }
        // What a library lacks is n/a with a reason, never a silent gap.
        for cell in config["cells"].as_array().unwrap().iter().filter(|c| c["status"] != "measured") {
            assert_eq!(cell["status"], "unsupported", "{cell}");
            assert!(!cell["reason"].as_str().unwrap_or("").is_empty(), "{cell}");
        }
        // Verified before timing, and nothing failed: a library defect (a
        // published rule the library breaks, e.g. libgcrypt accepting s + n)
        // is a finding of checks that ran, named with its rule and input.
        for v in config["verifications"].as_array().unwrap() {
            assert!(["passed", "unsupported", "defect"].contains(&v["status"].as_str().unwrap()), "{v}");
            if v["status"] == "defect" {
                let defects = v["defects"].as_array().unwrap();
                assert!(!defects.is_empty(), "{v}");
                for d in defects {
                    assert!(!d["rule"].as_str().unwrap_or("").is_empty(), "{v}");
                    assert!(!d["input"].as_str().unwrap_or("").is_empty(), "{v}");
                }
            }
        }
        let passed = |alg: &str| {
            config["verifications"]
                .as_array()
                .unwrap()
                .iter()
                .any(|v| v["algorithm"] == alg && (v["status"] == "passed" || v["status"] == "defect"))
        };
        for (alg, _) in measured(config) {
            assert!(passed(&alg), "{alg} measured without a passed verification: {config}");
        }
    }
    // ML-KEM and ML-DSA: RustCrypto has them whatever OpenSSL is loaded.
    let rust = measured(by_backend("rustcrypto").expect("RustCrypto is built in"));
    for op in ["keygen", "encaps", "decaps"] {
        assert!(rust.contains(&("mlkem768".into(), op.into())), "{rust:?}");
    }
    for op in ["sign", "verify"] {
        assert!(rust.contains(&("mldsa65".into(), op.into())), "{rust:?}");
    }
    // Nettle, where installed: EdDSA, X25519 and ECDSA through libhogweed.
    if let Some(nettle) = by_backend("nettle").filter(|c| c["status"] == "completed") {
        let ops = measured(nettle);
        for alg in ["ecdsap256", "ed25519"] {
            assert!(ops.contains(&(alg.into(), "sign".into())), "Nettle lacks {alg}: {ops:?}");
        }
    }
    // An OpenSSL below 3.5 names the version that has them.
    let version = openssl["backend"]["version"].as_str().unwrap_or("");
    if let Some(mlkem) = openssl["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["algorithm"] == "mlkem768" && c["status"] != "measured")
    {
        assert!(mlkem["reason"].as_str().unwrap().contains("3.5"), "{version}: {mlkem}");
    }

    // The saved run reads back in every format with its public-key layout.
    let show = |format: &str| {
        stdout(
            &cryptobench()
                .args(["runs", "show", "pk-all", "--format", format, "--db"])
                .arg(&db)
                .output()
                .unwrap(),
        )
    };
    let table = show("table");
    assert!(table.contains("sign/s") && table.contains("verify/s"), "{table}");
    assert!(table.contains("rsa2048") && table.contains("mlkem768"), "{table}");
    let csv = show("csv");
    assert!(csv.lines().any(|l| l.contains("ed25519") && l.contains("sign")), "{csv}");
    let markdown = show("markdown");
    assert!(markdown.contains("| rsa2048"), "{markdown}");
    let again = json(&cryptobench().args(["runs", "export", "pk-all", "--db"]).arg(&db).output().unwrap());
    assert_eq!(
        measured(&again["configurations"][0]),
        ops,
        "the store gives the public-key cells back"
    );

    // compare prints operations per second for public key.
    let compared = stdout(
        &cryptobench()
            .args(["compare", "pk-all", "pk-all", "--db"])
            .arg(&db)
            .output()
            .unwrap(),
    );
    assert!(compared.contains("rsa2048 sign") && compared.contains("op/s"), "{compared}");

    // The HTML report draws a chart per operation.
    let html = dir.path().join("pk.html");
    stdout(
        &cryptobench()
            .args(["report", "pk-all", "--html"])
            .arg(&html)
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap(),
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("id=\"public-key\""), "the report has its public-key section");
    for op in ["sign", "verify", "derive", "keygen", "encaps", "decaps"] {
        assert!(page.contains(&format!("id=\"pk-{op}\"")), "no {op} chart");
    }
    assert!(page.contains("ed25519 (20 B)"), "sign bars name what was signed");
}

/// `--threads 2` measures public-key cells with workers in step, as
/// `openssl speed -multi 2 rsa2048` does: an aggregate of two workers in
/// operations per second, each worker's samples kept.
#[test]
fn threads_measure_public_key_cells_in_step() {
    if !system_openssl_available() {
        return;
    }
    if cryptobench_testkit::own_emulator().is_some() {
        cryptobench_testkit::platform_lacks("pinned workers on two CPUs", "the tests run under an emulator");
        return;
    }
    if std::thread::available_parallelism().map_or(0, |n| n.get()) < 2 {
        cryptobench_testkit::platform_lacks("two CPUs", "this machine offers one");
        return;
    }
    let out = cryptobench()
        .args([
            "run",
            "--backend",
            "openssl",
            "--algos",
            "ecdsap256",
            "--threads",
            "2",
            "--no-save",
            "--format",
            "json",
        ])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = json(&out);
    let configurations = run["configurations"].as_array().unwrap();
    let two = configurations
        .iter()
        .find(|c| c["placement"]["threads"] == 2)
        .expect("a 2-thread configuration");
    let sign = two["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["operation"] == "sign")
        .expect("an ecdsap256 sign cell");
    assert_eq!(sign["status"], "measured", "{sign}");
    assert_eq!(sign["unit"], "operations", "{sign}");
    let workers = sign["aggregate"]["workers"].as_array().unwrap();
    assert_eq!(workers.len(), 2, "{sign}");
    let sum: f64 = workers.iter().map(|w| w["summary"]["median"].as_f64().unwrap()).sum();
    let median = sign["summary"]["median"].as_f64().unwrap();
    assert!(
        (sum - median).abs() <= 1e-6 * median,
        "the aggregate is the sum of the workers' medians: {sum} vs {median}"
    );
    // Operations per second, not bytes: one sign is far below a million per second per core.
    assert!(median > 0.0 && median < 1e7, "{median}");
}

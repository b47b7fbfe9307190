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

/// `algorithms` marks `yes*` exactly where docs/METHOD.md's table of named
/// extra work lists a library: each available configuration's extra work
/// (the hello's, which the table marks and lists below it) names the cells
/// the table lists for its library, algorithm by algorithm, and the table
/// shows one `yes*` and one note per algorithm that has some. Every library
/// of the registry is asked but the language runtimes (whose per-message
/// keying is marked per cell, and whose drivers take long to start).
#[test]
fn extra_work_is_marked_where_method_lists_it() {
    use cryptobench_backends::registry::Kind;
    use cryptobench_testkit::method::{extra_work_rows, method_text, named_cells};
    let rows = extra_work_rows(&method_text()).unwrap();
    let ids: Vec<&str> = cryptobench_backends::LIBRARIES
        .iter()
        .filter(|e| e.kind != Kind::Runtime)
        .map(|e| e.id)
        .collect();
    let args = |format: &str| {
        let mut a = vec!["algorithms".to_string(), "--format".into(), format.into()];
        a.extend(ids.iter().flat_map(|id| ["--backend".to_string(), id.to_string()]));
        a
    };
    let out = cryptobench().args(args("json")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (mut marked, mut compared) = (0, 0);
    let mut differ = Vec::new();
    for config in v["configurations"].as_array().unwrap() {
        let name = config["configuration"].as_str().unwrap();
        if config["available"] != true {
            cryptobench_testkit::backend_unavailable(name, config["reason"].as_str().unwrap_or_default());
            continue;
        }
        let library = config["backend"]["id"].as_str().unwrap();
        let extra = config["extra_work"].as_object().cloned().unwrap_or_default();
        for alg in v["algorithms"]
            .as_array()
            .unwrap()
            .iter()
            .chain(v["public_key_algorithms"].as_array().unwrap())
        {
            if alg["supported_by"][name] != true {
                continue;
            }
            let id = alg["id"].as_str().unwrap();
            let mut cells: Vec<String> = extra
                .get(id)
                .and_then(|w| w.as_str())
                .map(|lines| lines.lines().map(|l| l.split(": ").next().unwrap_or(l).to_string()).collect())
                .unwrap_or_default();
            cells.sort();
            let listed = named_cells(&rows, library, id);
            if cells != listed {
                differ.push(format!("{name} {id}: algorithms names {cells:?}, docs/METHOD.md lists {listed:?}"));
            }
            marked += usize::from(!cells.is_empty());
            compared += 1;
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    assert!(compared > 0, "no configuration was available");
    let table = cryptobench().args(args("table")).output().unwrap();
    let text = String::from_utf8(table.stdout).unwrap();
    let (body, notes) = text.split_once("Named extra work (docs/METHOD.md").unwrap_or((&text, ""));
    assert_eq!(body.matches("yes*").count(), marked, "{text}");
    let noted: std::collections::BTreeSet<(&str, &str)> = notes
        .lines()
        .filter_map(|l| l.strip_prefix("* "))
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            Some((w.next()?, w.next()?))
        })
        .collect();
    assert_eq!(noted.len(), marked, "one note per marked algorithm: {notes}");
}

//! Runs measured by cryptobench (tests/fixtures/runs, see its README) and
//! checks shared by the SQLite and PostgreSQL tests.
#![allow(dead_code)]

use cryptobench_core::result::RunResult;
use cryptobench_store::Store;

pub fn fixture(name: &str) -> RunResult {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/runs")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

pub fn as_json(run: &RunResult) -> String {
    serde_json::to_string_pretty(run).unwrap()
}

/// Save, list, load (identical document), find by label, delete.
pub fn round_trip(store: &mut dyn Store) {
    let three = fixture("three-builds.json");
    let masked = fixture("aes-mask.json");
    let a = store.save(&three).unwrap();
    let b = store.save(&masked).unwrap();
    assert_ne!(a, b);
    assert_eq!(as_json(&store.load(a).unwrap()), as_json(&three));
    assert_eq!(as_json(&store.load(b).unwrap()), as_json(&masked));
    let list = store.list().unwrap();
    let row = list.iter().find(|r| r.id == a).unwrap();
    assert_eq!(row.label.as_deref(), Some("three-builds"));
    assert_eq!(row.configurations.len(), 3);
    assert!(row.configurations[0].contains("1.1.1w"), "{:?}", row.configurations);
    assert_eq!(row.measured_cells, 36);
    assert_eq!(row.hostname, three.host.hostname);
    assert_eq!(store.find_label("aes-mask").unwrap().first(), Some(&b));
    store.delete(a).unwrap();
    assert!(matches!(store.load(a), Err(cryptobench_store::StoreError::NoSuchRun(_))));
    assert!(matches!(store.delete(a), Err(cryptobench_store::StoreError::NoSuchRun(_))));
    assert!(store.list().unwrap().iter().all(|r| r.id != a));
    assert_eq!(as_json(&store.load(b).unwrap()), as_json(&masked));
}

//! docs/run.schema.json documents the JSON output; it is generated from the
//! result types, and this test fails when the two drift apart. Regenerate
//! with `CRYPTOBENCH_UPDATE_SCHEMA=1 cargo test -p cryptobench-core --test schema`.

use cryptobench_core::result::RunResult;

#[test]
fn published_schema_matches_the_result_types() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/run.schema.json");
    let generated = serde_json::to_string_pretty(&schemars::schema_for!(RunResult)).unwrap() + "\n";
    if std::env::var_os("CRYPTOBENCH_UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let published = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        published == generated,
        "docs/run.schema.json is out of date: rerun with CRYPTOBENCH_UPDATE_SCHEMA=1"
    );
}

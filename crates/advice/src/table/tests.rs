use super::*;

#[test]
fn the_table_is_sound_and_large_enough() {
    assert_eq!(problems(entries()), Vec::<String>::new());
    assert!(entries().len() >= 150, "{} entries", entries().len());
    let sources = sources();
    assert!(sources.len() >= 4, "{sources:?}");
    let sha = for_core("sha256", None, "zen")[0];
    assert_eq!(sha.figure, "2.05");
    assert!(sha.citation().ends_with("x86_64/sha512-x86_64.pl:96"), "{}", sha.citation());
}

#[test]
fn the_cores_people_run_have_figures_of_their_own() {
    // Issue 33's list: each core with at least one published figure of its own generation.
    for core in [
        "zen2",
        "zen3",
        "zen4",
        "zen5",
        "skylake-sp",
        "ice-lake",
        "sapphire-rapids",
        "alder-lake",
        "raptor-lake",
        "cortex-a53",
        "cortex-a72",
        "cortex-a76",
        "neoverse-n1",
        "neoverse-n2",
        "neoverse-v1",
        "neoverse-v2",
        "apple-m1",
        "apple-m3",
        "apple-m4",
    ] {
        assert!(entries().iter().any(|e| e.microarchitecture == core), "{core}");
    }
    // Public key per operation, never across operations.
    let sign = best_for("ed25519", Some("sign"), "zen4").unwrap();
    let verify = best_for("ed25519", Some("verify"), "zen4").unwrap();
    assert!(sign.cycles().unwrap() < verify.cycles().unwrap());
    assert!(best_for("ed25519", None, "zen4").is_none());
}

#[test]
fn a_table_cell_is_checked_by_its_position_in_the_row() {
    let genoa = for_core("aes-128-gcm", None, "zen4")
        .into_iter()
        .find(|e| e.source.repository.ends_with("aesbench"))
        .unwrap();
    assert_eq!(genoa.figure, "26.1");
    assert!((genoa.cycles().unwrap() - 8.0 / 26.1).abs() < 1e-12);
    assert!(genoa.citation().contains("column 'EPYC 9534 / Genoa'"), "{}", genoa.citation());
    // The same row with another column's position fails.
    let mut moved = genoa.clone();
    moved.source.cell.as_mut().unwrap().index -= 1;
    let p = problems(&[moved]);
    assert!(p.iter().any(|l| l.contains("not '26.1'")), "{p:?}");
    // Ranks in parentheses and thousands separators.
    assert_eq!(row_figures("P-256 sign  85,274 (9)   74,756 (8)"), vec!["85,274", "74,756"]);
    assert_eq!(
        row_figures("| AMD Zen 4 (2022) | <span class=x>OpenSSL</span> | 111574 | 109143 | | 114875"),
        vec!["111574", "109143", "114875"]
    );
}

#[test]
fn an_entry_without_source_or_with_unknown_ids_fails() {
    let mut bad = entries()[0].clone();
    bad.source.file = String::new();
    bad.algorithm = "aes-129-gcm".into();
    bad.microarchitecture = "zen9".into();
    bad.figure = "9.99".into();
    let p = problems(&[bad]);
    assert!(p.iter().any(|l| l.contains("no source")), "{p:?}");
    assert!(p.iter().any(|l| l.contains("unknown algorithm id 'aes-129-gcm'")), "{p:?}");
    assert!(p.iter().any(|l| l.contains("unknown microarchitecture 'zen9'")), "{p:?}");
    assert!(p.iter().any(|l| l.contains("does not contain the figure")), "{p:?}");
    // A public-key figure needs its operation, and a unit per operation.
    let mut pk = best_for("ed25519", Some("sign"), "zen4").unwrap().clone();
    pk.operation = Some("encrypt".into());
    pk.unit = "cpb".into();
    let p = problems(&[pk]);
    assert!(p.iter().any(|l| l.contains("operation Some(\"encrypt\")")), "{p:?}");
    assert!(p.iter().any(|l| l.contains("unit 'cpb'")), "{p:?}");
}

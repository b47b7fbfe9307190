//! Every path of this repository that docs/METHOD.md cites exists: a
//! reader sent to `tests/one_rule.rs` must find the file there (it is
//! crates/report/tests/one_rule.rs). A cited path is a word whose first
//! component is a top folder of the repository ([`REPOSITORY_FOLDERS`]);
//! a `*` in a component matches any part of a name there. Other projects'
//! files that happen to start the same way (liboqs's `tests/`, Botan's
//! `src/`) are listed in [`OTHER_PROJECTS`] with the project they belong to.

use std::path::Path;

/// The top folders of the repository a cited path starts with.
const REPOSITORY_FOLDERS: &[&str] = &["crates", "src", "tests", "docs", "bench", "drivers", "fuzz", "scripts", ".ci"];

/// Paths METHOD.md cites from other projects' sources (how each begins), with the project.
const OTHER_PROJECTS: &[(&str, &str)] = &[
    ("src/ec/", "BearSSL"),
    ("src/lib/", "Botan"),
    ("src/rust/", "pyca/cryptography"),
    ("src/common/", "liboqs"),
    ("tests/test_helpers.c", "liboqs"),
    ("tests/KATs/", "liboqs"),
    ("docs/random_interleaving.md", "Google Benchmark"),
];

/// The words of `text` that name a path under one of the repository's top
/// folders, as written (a trailing `:line` or sentence punctuation left out).
fn cited_paths(text: &str) -> Vec<String> {
    let separators = |c: char| c.is_whitespace() || "()`\"'[];,|<>".contains(c);
    let mut paths: Vec<String> = text
        .split(separators)
        .map(|w| w.split(':').next().unwrap_or(w).trim_end_matches(['.', ',']))
        .filter(|w| w.contains('/') && !w.contains("//"))
        .filter(|w| {
            REPOSITORY_FOLDERS
                .iter()
                .any(|f| w.strip_prefix(f).is_some_and(|rest| rest.starts_with('/')))
        })
        .filter(|w| !OTHER_PROJECTS.iter().any(|(prefix, _)| w.starts_with(prefix)))
        .map(str::to_string)
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// Whether `name` matches `pattern`, where `*` stands for any run of characters.
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => name.starts_with(head) && (0..=name.len() - head.len()).any(|i| matches(tail, &name[head.len() + i..])),
    }
}

/// Whether `path` (relative to `root`, `*` allowed in any component) names something that exists.
fn exists(root: &Path, path: &str) -> bool {
    let mut found = vec![root.to_path_buf()];
    for component in path.trim_end_matches('/').split('/') {
        found = found
            .iter()
            .flat_map(|dir| {
                if !component.contains('*') {
                    let next = dir.join(component);
                    return if next.exists() { vec![next] } else { vec![] };
                }
                std::fs::read_dir(dir)
                    .map(|entries| {
                        entries
                            .filter_map(Result::ok)
                            .filter(|e| matches(component, &e.file_name().to_string_lossy()))
                            .map(|e| e.path())
                            .collect()
                    })
                    .unwrap_or_default()
            })
            .collect();
    }
    !found.is_empty()
}

#[test]
fn every_repository_path_method_cites_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let method = std::fs::read_to_string(root.join("docs/METHOD.md")).unwrap();
    let cited = cited_paths(&method);
    assert!(cited.len() > 50, "only {} paths found: {cited:?}", cited.len());
    let missing: Vec<&String> = cited.iter().filter(|p| !exists(root, p)).collect();
    assert!(
        missing.is_empty(),
        "docs/METHOD.md cites {} paths that do not exist in the repository:\n{}",
        missing.len(),
        missing.iter().map(|p| p.as_str()).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn cited_paths_are_read_as_written() {
    let text = "see (crates/core/src/decision.rs), `tests/one_rule.rs`: and crates/x/*.rs:12. Not apps/speed.c, \
                src/ec/ecdsa_atr.c or https://github.com/a/b.";
    assert_eq!(
        cited_paths(text),
        ["crates/core/src/decision.rs", "crates/x/*.rs", "tests/one_rule.rs"]
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(exists(root, "crates/backends/src/libraries/*/defects.rs"));
    assert!(exists(root, "crates/core/src/"));
    assert!(!exists(root, "tests/one_rule.rs"));
    assert!(!exists(root, "crates/backends/src/libraries/*/no_such_file.rs"));
    assert!(matches("pk*.rs", "pk_sessions.rs") && matches("pk*.rs", "pk.rs") && !matches("pk*.rs", "mod.rs"));
}

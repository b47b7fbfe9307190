//! The shape of the source: no two modules of a crate import each other,
//! directly or around a circle, and no source file outgrows
//! [`MAX_LINES`] unless it is data.
//!
//! How cycles are found, for the binary's src/ and every crates/*/src: each
//! .rs file is a module (`a/b.rs` is `a::b`, `a/mod.rs` is `a`). Its
//! comments and string literals are dropped, then every path it names is
//! collected: `use` trees, and `crate::…`, `super::…` and `self::…` paths
//! in code (`super` resolved from the file's module and any inline `mod`
//! around it). A path stands for the file of its longest prefix that is a
//! module. Modules that contain one another (a folder's mod.rs and its
//! files) may use each other; any other edge a → b is counted between the
//! two siblings under their deepest common module (`html::answer` →
//! `charts::svg` is `html` → `charts` at the crate root, `verdict::pk` →
//! `verdict::rules` is `pk` → `rules` inside `verdict`). Sibling modules
//! that reach each other, at any depth, are a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Cycles known and still to be broken: (source root, the modules in it).
const ALLOWED_CYCLES: &[(&str, &[&str])] = &[];

/// The most lines a source file may have, unless it is listed in [`LONG_FILES`].
const MAX_LINES: usize = 600;

/// Source files allowed over [`MAX_LINES`], each with the reason.
const LONG_FILES: &[(&str, &str)] = &[(
    "crates/backends/src/checks/known_answers.rs",
    "data: known-answer vectors of every algorithm, with their sources",
)];

/// The folders whose source files the line limit applies to.
const SOURCE_FOLDERS: &[&str] = &["src", "tests", "crates", "fuzz", "bench", "drivers"];

/// What counts as a source file for the line limit: Rust, the runtime
/// drivers (Python, Go, Java, JavaScript) and the C/C++ shims and fixtures.
const SOURCE_EXTENSIONS: &[&str] = &["rs", "py", "go", "java", "js", "c", "cc", "cpp", "h"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_modules_import_each_other_in_a_circle() {
    let mut roots = vec![PathBuf::from("src")];
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    crates.sort();
    roots.extend(crates.iter().map(|c| c.strip_prefix(root()).unwrap().join("src")));
    let mut found = Vec::new();
    for src in &roots {
        let src = src.to_str().unwrap().to_string();
        for cycle in cycles(&root().join(&src)) {
            found.push((src.clone(), cycle));
        }
    }
    let mut problems = Vec::new();
    for (src, cycle) in &found {
        let names: Vec<&str> = cycle.iter().map(|(m, _)| m.as_str()).collect();
        if !ALLOWED_CYCLES.iter().any(|(s, m)| s == src && *m == names.as_slice()) {
            let uses: Vec<String> = cycle.iter().map(|(m, to)| format!("{m} uses {}", to.join("; "))).collect();
            problems.push(format!(
                "{src}: {} import each other:\n    {}",
                names.join(" ↔ "),
                uses.join("\n    ")
            ));
        }
    }
    for (src, modules) in ALLOWED_CYCLES {
        let gone = !found
            .iter()
            .any(|(s, c)| s == src && c.iter().map(|(m, _)| m.as_str()).eq(modules.iter().copied()));
        if gone {
            problems.push(format!(
                "{src}: {} is no cycle any more: take it out of ALLOWED_CYCLES",
                modules.join(" ↔ ")
            ));
        }
    }
    assert!(problems.is_empty(), "import cycles:\n  {}", problems.join("\n  "));
}

#[test]
fn no_source_file_is_over_600_lines() {
    let mut files = Vec::new();
    for folder in SOURCE_FOLDERS {
        source_files(&root().join(folder), &mut files);
    }
    assert!(
        files.iter().any(|f| f.extension().is_some_and(|e| e == "java")),
        "the drivers' sources are counted too"
    );
    let mut problems = Vec::new();
    for file in &files {
        let name = file.strip_prefix(root()).unwrap().to_str().unwrap().replace('\\', "/");
        let lines = std::fs::read_to_string(file).unwrap().lines().count();
        let allowed = LONG_FILES.iter().any(|(f, _)| *f == name);
        if lines > MAX_LINES && !allowed {
            problems.push(format!(
                "{name} has {lines} lines (at most {MAX_LINES}): split it, or list it in LONG_FILES if it is data"
            ));
        }
        if lines <= MAX_LINES && allowed {
            problems.push(format!("{name} has {lines} lines now: take it out of LONG_FILES"));
        }
    }
    for (f, _) in LONG_FILES {
        if !root().join(f).exists() {
            problems.push(format!("{f} is gone: take it out of LONG_FILES"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every .rs file under `dir`, build outputs left out.
/// Files with a [`SOURCE_EXTENSIONS`] extension under `dir`.
fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() && name != "target" && name != "node_modules" && !name.starts_with('.') {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| SOURCE_EXTENSIONS.iter().any(|x| e == *x)) {
            out.push(path);
        }
    }
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() && name != "target" && !name.starts_with('.') {
            rs_files(&path, out);
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

type Module = Vec<String>;

/// The module a file under `src` is: `a/b.rs` → a::b, `a/mod.rs` → a, lib.rs → the root.
fn module_of(src: &Path, file: &Path) -> Module {
    let mut parts: Module = file
        .strip_prefix(src)
        .unwrap()
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") || parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The cycles among the modules of one crate: each as its modules (full
/// paths, sorted), with the other members each one uses and the files
/// that use them.
fn cycles(src: &Path) -> Vec<Vec<(String, Vec<String>)>> {
    let mut files = Vec::new();
    rs_files(src, &mut files);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(src, f)).collect();
    // Sibling → siblings it uses, per parent module; and the files behind each edge.
    let mut graphs: BTreeMap<Module, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let mut files_of: BTreeMap<(Module, String, String), BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = module_of(src, file);
        for to in references(&from, &std::fs::read_to_string(file).unwrap(), &modules) {
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common == from.len() || common == to.len() {
                continue; // one contains the other
            }
            let parent = from[..common].to_vec();
            let graph = graphs.entry(parent.clone()).or_default();
            graph.entry(from[common].clone()).or_default().insert(to[common].clone());
            let name = file.strip_prefix(src).unwrap().to_string_lossy().into_owned();
            files_of
                .entry((parent, from[common].clone(), to[common].clone()))
                .or_default()
                .insert(name);
        }
    }
    let mut out = Vec::new();
    for (parent, graph) in &graphs {
        for component in strongly_connected(graph) {
            let full = |m: &str| parent.iter().map(String::as_str).chain([m]).collect::<Vec<_>>().join("::");
            out.push(
                component
                    .iter()
                    .map(|m| {
                        let used = graph[m]
                            .iter()
                            .filter(|t| component.contains(t))
                            .map(|t| {
                                let by = &files_of[&(parent.clone(), m.clone(), t.clone())];
                                format!("{} in {}", full(t), by.iter().cloned().collect::<Vec<_>>().join(", "))
                            })
                            .collect();
                        (full(m), used)
                    })
                    .collect(),
            );
        }
    }
    out
}

/// The groups of two or more nodes that reach each other (Tarjan's algorithm), each sorted.
fn strongly_connected(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w.as_str()) {
                visit(s, w);
                let low = s.low[v].min(s.low[w.as_str()]);
                s.low.insert(v, low);
            } else if s.stack.contains(&w.as_str()) {
                let low = s.low[v].min(s.index[w.as_str()]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let at = s.stack.iter().position(|x| *x == v).unwrap();
            let mut component: Vec<String> = s.stack.drain(at..).map(str::to_string).collect();
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The modules of `modules` (other than `from`) that the source of `from` names.
fn references(from: &Module, source: &str, modules: &BTreeSet<Module>) -> BTreeSet<Module> {
    let tokens = tokens(&strip(source));
    let mut out = BTreeSet::new();
    // Inline modules around the current token (`mod tests { … }`), with the brace depth they opened at.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let here: Module = from.iter().cloned().chain(inline.iter().map(|(m, _)| m.clone())).collect();
        let mut paths = Vec::new();
        match tokens[i].as_str() {
            "{" => depth += 1,
            "}" => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth -= 1;
            }
            "mod" if tokens.get(i + 2).is_some_and(|t| t == "{") => {
                inline.push((tokens[i + 1].clone(), depth + 1));
                depth += 1;
                i += 3;
                continue;
            }
            "use" => {
                let end = tokens[i..].iter().position(|t| t == ";").map_or(tokens.len(), |p| i + p);
                let mut at = 0;
                use_tree(&tokens[i + 1..end], &mut at, Vec::new(), &mut paths);
                i = end;
            }
            "crate" | "super" | "self" if tokens.get(i + 1).is_some_and(|t| t == "::") => {
                let mut path = vec![tokens[i].clone()];
                while tokens.get(i + 1).is_some_and(|t| t == "::") && tokens.get(i + 2).is_some_and(|t| is_word(t)) {
                    path.push(tokens[i + 2].clone());
                    i += 2;
                }
                paths.push(path);
            }
            _ => {}
        }
        for path in paths {
            if let Some(target) = resolve(&here, &path, modules).filter(|t| t != from) {
                out.insert(target);
            }
        }
        i += 1;
    }
    out
}

/// The module file a path names, seen from module `here`; None for a path
/// outside the crate (another crate, the standard library).
fn resolve(here: &Module, path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    let mut full: Module = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("super" | "self") => here.clone(),
        _ => return None,
    };
    let mut rest = &path[1..];
    if path[0] == "super" {
        full.pop();
    }
    while rest.first().is_some_and(|s| s == "super") {
        full.pop();
        rest = &rest[1..];
    }
    full.extend(rest.iter().filter(|s| *s != "self").cloned());
    (0..=full.len()).rev().map(|n| full[..n].to_vec()).find(|m| modules.contains(m))
}

/// Expands a `use` tree (`a::{b, c::{d, e as f}}`, `a::*`) into its paths.
fn use_tree(tokens: &[String], at: &mut usize, mut path: Vec<String>, out: &mut Vec<Vec<String>>) {
    while let Some(t) = tokens.get(*at) {
        match t.as_str() {
            "{" => {
                *at += 1;
                while tokens.get(*at).is_some_and(|t| t != "}") {
                    use_tree(tokens, at, path.clone(), out);
                    if tokens.get(*at).is_some_and(|t| t == ",") {
                        *at += 1;
                    }
                }
                *at += 1;
                return;
            }
            "," | "}" => break,
            "as" => *at += 2,
            _ => {
                if is_word(t) {
                    path.push(t.clone());
                }
                *at += 1;
            }
        }
    }
    out.push(path);
}

fn is_word(t: &str) -> bool {
    t.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Words, `::` and single characters; whitespace dropped.
fn tokens(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 2;
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

/// The source without comments, string and character literals (a path in
/// a doc comment or a message is no import).
fn strip(source: &str) -> String {
    let s: Vec<char> = source.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let at = |i: usize, text: &str| text.chars().enumerate().all(|(k, c)| s.get(i + k) == Some(&c));
    let word_before = |i: usize| i > 0 && (s[i - 1].is_alphanumeric() || s[i - 1] == '_');
    while i < s.len() {
        if at(i, "//") {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if at(i, "/*") {
            let mut depth = 0;
            loop {
                if at(i, "/*") {
                    depth += 1;
                    i += 2;
                } else if at(i, "*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else if i >= s.len() {
                    break;
                } else {
                    i += 1;
                }
            }
        } else if (s[i] == 'r' || at(i, "br")) && !word_before(i) && raw_string_start(&s, i).is_some() {
            // r"…", r#"…"#, br"…": no escapes, ends at the quote and as many #.
            let (open, hashes) = raw_string_start(&s, i).unwrap();
            let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            i = open + 1;
            while i < s.len() && !at(i, &close) {
                i += 1;
            }
            i += close.len();
            out.push_str("\"\"");
        } else if s[i] == '"' {
            i += 1;
            while i < s.len() && s[i] != '"' {
                i += if s[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if s[i] == '\'' && s.get(i + 1) == Some(&'\\') {
            i += 2;
            while i < s.len() && s[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if s[i] == '\'' && s.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push_str("' '");
        } else {
            // A lifetime's quote, or code.
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

/// Where a raw string starting at `i` (`r` or `br`) opens its quote, and its number of `#`.
fn raw_string_start(s: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = if s[i] == 'b' { i + 2 } else { i + 1 };
    let mut hashes = 0;
    while s.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (s.get(j) == Some(&'"')).then_some((j, hashes))
}

#[test]
fn the_scanner_reads_paths_as_rust_does() {
    let modules: BTreeSet<Module> = [vec![], vec!["a".into()], vec!["a".into(), "b".into()], vec!["c".into()]]
        .into_iter()
        .collect();
    let from: Module = vec!["a".into(), "b".into()];
    let source = r##"
        //! Mentions crate::c in a comment.
        use super::{self as parent, b::X};
        use crate::c::{self, Y};
        fn f() -> &'static str { let _ = 'x'; "crate::c in a string"; r#"crate::c"# }
        mod tests { use super::*; }
    "##;
    let found = references(&from, source, &modules);
    assert_eq!(found, [vec!["a".to_string()], vec!["c".to_string()]].into_iter().collect());
    let only_text = "/* crate::c */ fn g() { let _ = \"super::super::c\"; }";
    assert!(references(&from, only_text, &modules).is_empty());
}

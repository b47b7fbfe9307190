//! The best-known figures: data/best-known.json, one entry per algorithm
//! and microarchitecture, each with the line it is copied from. The table
//! is checked here ([`problems`]): an entry without a source, with an
//! algorithm outside the catalog, a microarchitecture outside
//! crates/cpu/data/microarchitectures.json, or a figure that its quoted
//! line does not contain, is an error.

use std::sync::OnceLock;

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct Entry {
    /// A catalog id (`cryptobench algorithms`).
    pub algorithm: String,
    /// An id of crates/cpu/data/microarchitectures.json.
    pub microarchitecture: String,
    /// The figure exactly as the source writes it.
    pub figure: String,
    /// "cpb" (cycles per byte) or "cycles/op".
    pub unit: String,
    /// The message size the source's table states ("large buffer").
    pub size: String,
    pub library: String,
    pub version: String,
    /// The code path that reaches it, in the source's words.
    pub path: String,
    pub source: Source,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Source {
    pub repository: String,
    pub commit: String,
    pub file: String,
    pub line: u32,
    /// The cited line(s), as written there.
    pub text: String,
}

impl Entry {
    /// The figure as a number.
    pub fn value(&self) -> Option<f64> {
        self.figure.parse().ok()
    }

    /// "github.com/dot-asm/cryptogams@9444b2d53bae x86_64/sha512-x86_64.pl:96".
    pub fn citation(&self) -> String {
        let s = &self.source;
        format!("{}@{} {}:{}", s.repository, s.commit.get(..12).unwrap_or(&s.commit), s.file, s.line)
    }
}

#[derive(Debug, Deserialize)]
struct Table {
    entries: Vec<Entry>,
}

/// Every entry of data/best-known.json.
pub fn entries() -> &'static [Entry] {
    static TABLE: OnceLock<Table> = OnceLock::new();
    &TABLE
        .get_or_init(|| serde_json::from_str(include_str!("../data/best-known.json")).expect("data/best-known.json is valid"))
        .entries
}

/// What is wrong with the entries, one line each; empty when all are sound.
pub fn problems(entries: &[Entry]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let at = format!("entry {} ({} on {})", i + 1, e.algorithm, e.microarchitecture);
        let s = &e.source;
        if [&s.repository, &s.commit, &s.file, &s.text].iter().any(|f| f.trim().is_empty()) || s.line == 0 {
            out.push(format!(
                "{at}: no source (repository, commit, file, line and the line's text are all needed)"
            ));
        }
        if cryptobench_core::catalog::get(&e.algorithm).is_err() {
            out.push(format!("{at}: unknown algorithm id '{}'", e.algorithm));
        }
        if cryptobench_cpu::microarch::find(&e.microarchitecture).is_none() {
            out.push(format!("{at}: unknown microarchitecture '{}'", e.microarchitecture));
        }
        if e.value().is_none_or(|v| v <= 0.0) {
            out.push(format!("{at}: figure '{}' is not a positive number", e.figure));
        }
        if !s.text.contains(&e.figure) {
            out.push(format!("{at}: the cited line does not contain the figure '{}'", e.figure));
        }
        if e.unit != "cpb" && e.unit != "cycles/op" {
            out.push(format!("{at}: unit '{}' (valid: cpb, cycles/op)", e.unit));
        }
        if e.size.trim().is_empty() || e.library.trim().is_empty() || e.path.trim().is_empty() {
            out.push(format!("{at}: size, library and path are needed"));
        }
    }
    out
}

/// The best (lowest) figure for an algorithm on a microarchitecture.
pub fn best_for(algorithm: &str, microarchitecture: &str) -> Option<&'static Entry> {
    entries()
        .iter()
        .filter(|e| e.algorithm == algorithm && e.microarchitecture == microarchitecture && e.unit == "cpb")
        .min_by(|a, b| a.value().unwrap_or(f64::INFINITY).total_cmp(&b.value().unwrap_or(f64::INFINITY)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sound_and_large_enough() {
        assert_eq!(problems(entries()), Vec::<String>::new());
        assert!(entries().len() >= 40, "{} entries", entries().len());
        let sha = best_for("sha256", "zen").unwrap();
        assert_eq!(sha.figure, "2.05");
        assert!(sha.citation().ends_with("x86_64/sha512-x86_64.pl:96"), "{}", sha.citation());
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
    }
}

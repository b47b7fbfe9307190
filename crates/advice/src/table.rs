//! The best-known figures: data/best-known.json, one entry per published
//! figure (algorithm, operation for public key, microarchitecture, source),
//! each with the text it is copied from. The table is checked here
//! ([`problems`]): an entry without a source, with an algorithm outside
//! the catalogs, a microarchitecture outside
//! crates/cpu/data/microarchitectures.json, or a figure that its quoted
//! text does not hold where the citation says, is an error.

use std::sync::OnceLock;

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct Entry {
    /// A catalog id (`cryptobench algorithms`), symmetric or public key.
    pub algorithm: String,
    /// Public key: the operation ("sign", "verify", "keygen", "derive",
    /// "encaps", "decaps"); symmetric entries have none (encrypt or hash).
    #[serde(default)]
    pub operation: Option<String>,
    /// An id of crates/cpu/data/microarchitectures.json.
    pub microarchitecture: String,
    /// The figure exactly as the source writes it (thousands separators included).
    pub figure: String,
    /// The source's unit: "cpb" (cycles per byte), "bits/cycle" or "cycles/op".
    pub unit: String,
    /// The message size the source states, in its words.
    pub size: String,
    /// That size in bytes, where the source gives one (none: "large buffer").
    #[serde(default)]
    pub message_bytes: Option<u64>,
    pub library: String,
    pub version: String,
    /// The code path, machine and clock behind the figure, in the source's words.
    pub path: String,
    pub source: Source,
}

/// Where a figure is published: a line of a file, or a cell of a table.
#[derive(Debug, Clone, Deserialize)]
pub struct Source {
    /// The repository or publication.
    pub repository: String,
    /// The commit, release or date of the text cited.
    pub commit: String,
    /// The file, or the page and the table's heading.
    pub file: String,
    /// The line the text starts at, where the source has lines.
    #[serde(default)]
    pub line: Option<u32>,
    /// The table cell, where the figure is one of a row's.
    #[serde(default)]
    pub cell: Option<Cell>,
    /// The cited text, as written there (a table cell: the row, after any heading line it needs).
    pub text: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Cell {
    /// The row's label, as written.
    pub row: String,
    /// The column's heading.
    pub column: String,
    /// Which of the row's figures (1-based) is this cell's.
    pub index: usize,
}

/// The figures of a table row, in order: with `|` separators, the cells
/// that start with a number; otherwise the whitespace-separated numbers,
/// less ranks written in parentheses ("26.1 (2)").
pub fn row_figures(row: &str) -> Vec<String> {
    fn number(t: &str) -> bool {
        let t = t.trim();
        !t.is_empty()
            && t.chars().next().is_some_and(|c| c.is_ascii_digit())
            && t.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '.')
    }
    let plain = strip_tags(row);
    if plain.contains('|') {
        plain
            .split('|')
            .filter_map(|c| c.split_whitespace().next())
            .filter(|t| number(t))
            .map(str::to_string)
            .collect()
    } else {
        plain.split_whitespace().filter(|t| number(t)).map(str::to_string).collect()
    }
}

fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut inside = false;
    for c in s.chars() {
        match c {
            '<' => inside = true,
            '>' if inside => inside = false,
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

impl Entry {
    /// The figure as a number (thousands separators dropped).
    pub fn value(&self) -> Option<f64> {
        self.figure.replace(',', "").parse().ok()
    }

    /// Whether the figure counts operations (public key) rather than bytes.
    pub fn per_operation(&self) -> bool {
        self.unit == "cycles/op"
    }

    /// Cycles per byte or per operation: the figure itself, or for bits
    /// per cycle the 8 / figure it means.
    pub fn cycles(&self) -> Option<f64> {
        let v = self.value().filter(|v| *v > 0.0)?;
        match self.unit.as_str() {
            "cpb" | "cycles/op" => Some(v),
            "bits/cycle" => Some(8.0 / v),
            _ => None,
        }
    }

    /// The figure in words: "0.307 cycles per byte (26.1 bits per cycle as published)".
    pub fn describe(&self) -> String {
        match self.unit.as_str() {
            "bits/cycle" => format!(
                "{} cycles per byte ({} bits per cycle as published)",
                crate::units::number(self.cycles().unwrap_or_default()),
                self.figure
            ),
            "cycles/op" => format!("{} cycles per operation", self.figure),
            _ => format!("{} cycles per byte", self.figure),
        }
    }

    /// "github.com/dot-asm/cryptogams@9444b2d53bae x86_64/sha512-x86_64.pl:96", or with
    /// a table cell "… RESULTS.txt:44, row 'AES-128-GCM encrypt', column 'EPYC 9534 / Genoa'".
    pub fn citation(&self) -> String {
        let s = &self.source;
        // A git commit is shortened to 12 digits; a release or date is kept whole.
        let hex = s.commit.len() == 40 && s.commit.chars().all(|c| c.is_ascii_hexdigit());
        let commit = if hex { &s.commit[..12] } else { s.commit.as_str() };
        let mut c = format!("{}@{commit} {}", s.repository, s.file);
        if let Some(line) = s.line {
            c.push_str(&format!(":{line}"));
        }
        if let Some(cell) = &s.cell {
            c.push_str(&format!(", row '{}', column '{}'", cell.row, cell.column));
        }
        c
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

/// The operations a public-key algorithm has, or None for a symmetric one.
fn operations(algorithm: &str) -> Option<Vec<String>> {
    cryptobench_core::pk::find(algorithm).map(|a| a.operations.iter().map(|o| o.short().to_string()).collect())
}

/// What is wrong with the entries, one line each; empty when all are sound.
pub fn problems(entries: &[Entry]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let at = format!("entry {} ({} on {})", i + 1, e.algorithm, e.microarchitecture);
        let s = &e.source;
        if [&s.repository, &s.commit, &s.file, &s.text].iter().any(|f| f.trim().is_empty())
            || (s.line.unwrap_or(0) == 0 && s.cell.is_none())
        {
            out.push(format!(
                "{at}: no source (repository, commit, file, the quoted text, and a line or a table cell are all needed)"
            ));
        }
        let symmetric = cryptobench_core::catalog::get(&e.algorithm).is_ok();
        match (symmetric, operations(&e.algorithm), &e.operation) {
            (true, _, None) => {}
            (true, _, Some(op)) => out.push(format!("{at}: operation '{op}' on a symmetric algorithm")),
            (false, None, _) => out.push(format!("{at}: unknown algorithm id '{}'", e.algorithm)),
            (false, Some(ops), op) => {
                if !op.as_ref().is_some_and(|op| ops.contains(op)) {
                    out.push(format!("{at}: operation {op:?} (valid: {})", ops.join(", ")));
                }
            }
        }
        if cryptobench_cpu::microarch::find(&e.microarchitecture).is_none() {
            out.push(format!("{at}: unknown microarchitecture '{}'", e.microarchitecture));
        }
        if e.value().is_none_or(|v| v <= 0.0) {
            out.push(format!("{at}: figure '{}' is not a positive number", e.figure));
        }
        if !s.text.contains(&e.figure) {
            out.push(format!("{at}: the cited text does not contain the figure '{}'", e.figure));
        }
        if let Some(cell) = &s.cell {
            // The row starts at the last line that names it (a heading line may come first; a row may wrap).
            let lines: Vec<&str> = s.text.lines().collect();
            let label = cell.row.rsplit(" / ").next().unwrap_or_default();
            let start = lines.iter().rposition(|l| strip_tags(l).contains(label)).unwrap_or(0);
            let row = lines[start.min(lines.len().saturating_sub(1))..].join(" ");
            let plain = strip_tags(&s.text);
            if !cell.row.split(" / ").all(|part| plain.contains(part)) {
                out.push(format!("{at}: the cited text is not the row '{}'", cell.row));
            }
            let figures = row_figures(&row);
            if cell.index == 0 || figures.get(cell.index - 1) != Some(&e.figure) {
                out.push(format!(
                    "{at}: figure {} of the row is {:?}, not '{}' (column '{}')",
                    cell.index,
                    figures.get(cell.index.wrapping_sub(1)),
                    e.figure,
                    cell.column
                ));
            }
        }
        let unit_fits = match e.unit.as_str() {
            "cpb" | "bits/cycle" => symmetric,
            "cycles/op" => !symmetric,
            _ => false,
        };
        if !unit_fits {
            out.push(format!(
                "{at}: unit '{}' (valid: cpb or bits/cycle for symmetric algorithms, cycles/op for public key)",
                e.unit
            ));
        }
        if e.size.trim().is_empty() || e.library.trim().is_empty() || e.path.trim().is_empty() {
            out.push(format!("{at}: size, library and path are needed"));
        }
    }
    out
}

/// Every published figure for an algorithm (and operation) on a
/// microarchitecture, lowest cycles first.
pub fn for_core(algorithm: &str, operation: Option<&str>, microarchitecture: &str) -> Vec<&'static Entry> {
    let mut found: Vec<&Entry> = entries()
        .iter()
        .filter(|e| e.algorithm == algorithm && e.microarchitecture == microarchitecture && e.operation.as_deref() == operation)
        .filter(|e| e.cycles().is_some())
        .collect();
    found.sort_by(|a, b| a.cycles().unwrap_or(f64::INFINITY).total_cmp(&b.cycles().unwrap_or(f64::INFINITY)));
    found
}

/// The best (lowest) figure for an algorithm (and operation) on a microarchitecture.
pub fn best_for(algorithm: &str, operation: Option<&str>, microarchitecture: &str) -> Option<&'static Entry> {
    for_core(algorithm, operation, microarchitecture).into_iter().next()
}

/// The independent sources of the table: publications, counted once
/// whatever their repositories (the aesbench series is one author's).
pub fn sources() -> Vec<String> {
    let mut out: Vec<String> = entries().iter().map(|e| publication(&e.source.repository)).collect();
    out.sort();
    out.dedup();
    out
}

/// The publication a repository belongs to: lelegard's aesbench, shabench,
/// rsabench, eccbench and pqcbench are one series.
fn publication(repository: &str) -> String {
    match repository.strip_prefix("github.com/lelegard/") {
        Some(_) => "github.com/lelegard (aesbench series)".into(),
        None => repository.to_string(),
    }
}

#[cfg(test)]
mod tests;

//! The named exceptions to equal work of a run's cells (docs/METHOD.md,
//! "Equal work"): one line per configuration and exception, naming the
//! cells it applies to, so that no figure includes work or allocations its
//! mode does not name without saying so.

use std::collections::BTreeMap;

use cryptobench_core::result::{CellOutcome, RunResult};

use crate::labels::Labels;

/// One exception of one configuration: its label, the cells ("aes-128-siv
/// enc message") it applies to, and its text ("extra work: …", "allocates: …").
pub struct Exception {
    pub label: String,
    pub cells: Vec<String>,
    pub text: String,
}

impl Exception {
    /// What kind of exception it is: "extra work", "allocates", "work on other threads".
    pub fn kind(&self) -> &str {
        self.text.split(':').next().unwrap_or(&self.text)
    }
}

/// "OpenSSL 3.0.22: aes-128-siv enc message, aes-256-siv dec message: extra work: …".
pub fn lines(run: &RunResult, labels: &Labels, pos: usize) -> Vec<String> {
    entries(run, labels, pos)
        .into_iter()
        .map(|e| format!("{}: {}: {}", e.label, e.cells.join(", "), e.text))
        .collect()
}

/// Every configuration's exceptions, in the order of the configurations.
pub fn entries(run: &RunResult, labels: &Labels, pos: usize) -> Vec<Exception> {
    let mut out = Vec::new();
    for c in &run.configurations {
        // Each exception's text → the cells (algorithm, operation, mode) it applies to, in order.
        let mut cells_of: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for cell in &c.cells {
            let CellOutcome::Measured(m) = &cell.outcome else { continue };
            let what = format!("{} {} {}", cell.spec.algorithm, cell.spec.operation.short(), cell.spec.mode_label());
            for line in m.exceptions.lines() {
                let cells = cells_of.entry(line).or_default();
                if !cells.contains(&what) {
                    cells.push(what.clone());
                }
            }
        }
        for (text, cells) in cells_of {
            out.push(Exception {
                label: labels.get(pos, c.index).to_string(),
                cells,
                text,
            });
        }
    }
    out
}

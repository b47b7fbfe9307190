//! The openssl-speed-like grid shared by table and Markdown: one row per
//! (algorithm, operation, mode, configuration), one column per size.

use cryptobench_core::result::{CellOutcome, ConfigurationResult, RunResult, VerificationOutcome};
use cryptobench_core::units::Unit;

use crate::cell_warnings::Flagged;
use crate::labels::Labels;
use crate::size_label;

pub use crate::cell_warnings::NOISY_MARK;

pub struct Grid {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Explanations of failures and unsupported cells.
    pub notes: Vec<String>,
    /// The cells marked with [`NOISY_MARK`], with their warnings
    /// (crates/report/src/cell_warnings.rs says how they are shown).
    pub flagged: Vec<Flagged>,
}

type RowKey = (String, &'static str, String);

fn row_keys(c: &ConfigurationResult) -> Vec<RowKey> {
    let mut keys: Vec<RowKey> = Vec::new();
    // Public-key cells have a table of their own (pk_table.rs).
    for cell in c.cells.iter().filter(|x| !x.spec.is_public_key()) {
        let key = (cell.spec.algorithm.clone(), cell.spec.operation.short(), cell.spec.mode_label());
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys
}

/// The grid of the run at position `pos` of a report whose configurations `labels` names.
pub fn build(run: &RunResult, unit: Unit, labels: &Labels, pos: usize) -> Grid {
    let many = run.configurations.len() > 1;
    let mut header: Vec<String> = vec!["algorithm".into(), "op".into(), "mode".into()];
    if many {
        header.push("config".into());
    }
    header.extend(run.settings.sizes.iter().map(|&s| size_label(s)));

    // Rows ordered by algorithm first so configurations sit side by side.
    let mut keys: Vec<RowKey> = Vec::new();
    for c in &run.configurations {
        for k in row_keys(c) {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut flagged = Vec::new();
    for key in &keys {
        for c in run.configurations.iter().filter(|c| !c.cells.is_empty()) {
            let mut row = vec![key.0.clone(), key.1.to_string(), key.2.clone()];
            let label = labels.get(pos, c.index);
            if many {
                row.push(label.to_string());
            }
            for &size in &run.settings.sizes {
                let cell = c.cells.iter().find(|x| {
                    x.spec.size == size && x.spec.algorithm == key.0 && x.spec.operation.short() == key.1 && x.spec.mode_label() == key.2
                });
                let where_ = || {
                    format!(
                        "{} {} {} {}{}",
                        key.0,
                        key.1,
                        key.2,
                        size_label(size),
                        if many { format!(" ({label})") } else { String::new() }
                    )
                };
                row.push(match cell.map(|x| &x.outcome) {
                    None => String::new(),
                    Some(CellOutcome::Measured(m)) => {
                        let figure = match unit {
                            Unit::Cpb => m.cycles_per_byte.map(Unit::format_cpb).unwrap_or_else(|| "no clock".into()),
                            _ => unit.format(m.summary.median),
                        };
                        if m.is_noisy() {
                            flagged.push(Flagged {
                                place: where_(),
                                warnings: m.warnings.clone(),
                            });
                            format!("{figure}{NOISY_MARK}")
                        } else {
                            figure
                        }
                    }
                    Some(CellOutcome::Failed { reason }) => {
                        notes.push(format!("FAILED {}: {reason}", where_()));
                        "FAILED".into()
                    }
                    Some(CellOutcome::Unsupported { reason }) => {
                        let note = format!(
                            "n/a {}{}: {reason}",
                            key.0,
                            if many { format!(" ({label})") } else { String::new() }
                        );
                        if !notes
                            .iter()
                            .any(|n: &String| n.ends_with(reason.as_str()) && n.starts_with(&format!("n/a {}", key.0)))
                        {
                            notes.push(note);
                        }
                        "n/a".into()
                    }
                });
            }
            rows.push(row);
        }
    }
    for c in &run.configurations {
        notes.extend(verification_note(c, labels.get(pos, c.index)));
    }
    Grid {
        header,
        rows,
        notes,
        flagged,
    }
}

/// One line per configuration: how many algorithms passed which checks.
fn verification_note(c: &ConfigurationResult, label: &str) -> Vec<String> {
    let passed: Vec<_> = c
        .verifications
        .iter()
        .filter_map(|v| match v.outcome {
            VerificationOutcome::Passed { checks } | VerificationOutcome::Defect { checks, .. } => Some(checks),
            _ => None,
        })
        .collect();
    let mut notes = Vec::new();
    if !passed.is_empty() {
        notes.push(format!(
            "{label}: verified before timing: {} algorithms, {} checks (published known answers, round trips, AEAD tamper rejection)",
            passed.len(),
            passed.iter().sum::<usize>()
        ));
    }
    for v in &c.verifications {
        match &v.outcome {
            VerificationOutcome::Failed { reason } => {
                notes.push(format!("{label}: VERIFICATION FAILED for {}: {reason}", v.algorithm))
            }
            VerificationOutcome::Defect { defects, .. } => notes.extend(defects.iter().map(|d| {
                format!(
                    "{DEFECT_MARK} {label}: DEFECT in {} {}: {}; breaks {}; input: {}{} (timed as the library runs it; `cryptobench verify` checks the library)",
                    d.algorithm,
                    d.operation.short(),
                    d.finding,
                    d.rule,
                    d.input,
                    d.known.as_ref().map(|k| format!("; known defect {}, {}", k.id, k.fixed)).unwrap_or_default()
                )
            })),
            _ => {}
        }
    }
    notes
}

/// Appended to a figure whose operation has a library defect, found before timing.
pub const DEFECT_MARK: &str = "!";

/// Whether the configuration's verification found a defect in `algorithm`'s `operation`.
pub fn has_defect(c: &ConfigurationResult, algorithm: &str, operation: cryptobench_core::Operation) -> bool {
    c.verifications.iter().any(|v| {
        v.algorithm == algorithm
            && matches!(&v.outcome, VerificationOutcome::Defect { defects, .. } if defects.iter().any(|d| d.operation == operation))
    })
}

impl Grid {
    /// The grid as a comfy table in `preset`, size columns right-aligned.
    pub fn to_table(&self, preset: &str, size_columns: usize) -> comfy_table::Table {
        let mut table = comfy_table::Table::new();
        table.load_preset(preset).set_header(self.header.clone());
        for row in &self.rows {
            table.add_row(row.clone());
        }
        for i in self.header.len().saturating_sub(size_columns)..self.header.len() {
            if let Some(col) = table.column_mut(i) {
                col.set_cell_alignment(comfy_table::CellAlignment::Right);
            }
        }
        table
    }

    /// The grid's notes followed by each configuration's clock and score lines.
    pub fn notes_with_derived(&self, run: &RunResult, labels: &Labels, pos: usize) -> Vec<String> {
        let mut notes = self.notes.clone();
        for c in &run.configurations {
            let label = labels.get(pos, c.index);
            notes.extend(crate::derived::clock_line(c, label));
            notes.extend(crate::derived::score_line(c, label));
        }
        notes
    }
}

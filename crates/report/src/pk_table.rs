//! Public-key figures (crates/core/src/pk.rs) as `openssl speed` prints
//! them: one row per algorithm (and signed length, and configuration), one
//! column per operation in operations per second ("sign/s verify/s"),
//! followed by the time one operation takes. Table and Markdown share it.

use cryptobench_core::pk;
use cryptobench_core::result::{CellOutcome, ConfigurationResult, RunResult};
pub use cryptobench_core::units::format_ops;
use cryptobench_core::Operation;

use crate::cell_warnings::Flagged;
use crate::grid::{has_defect, DEFECT_MARK, NOISY_MARK};
use crate::labels::Labels;

/// Column order, as openssl speed orders them.
const ORDER: [Operation; 8] = [
    Operation::Keygen,
    Operation::Sign,
    Operation::Verify,
    Operation::Encrypt,
    Operation::Decrypt,
    Operation::Encaps,
    Operation::Decaps,
    Operation::Derive,
];

pub struct PkGrid {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub notes: Vec<String>,
    /// The cells marked with [`NOISY_MARK`], with their warnings.
    pub flagged: Vec<Flagged>,
    /// Columns holding figures (right-aligned), counted from the right.
    pub figure_columns: usize,
}

/// Time per operation, in the unit that keeps it short.
pub fn format_time(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{:.1} µs", seconds * 1e6)
    }
}

/// What a row's sign and verify calls sign: "digest 32 B" or "message 20 B";
/// only the length for an id this build's catalog does not know.
fn signed(alg: Option<&pk::PkAlgorithmSpec>, size: Option<usize>) -> String {
    match (alg, size) {
        (Some(alg), Some(n)) if alg.signs() && alg.message_sized => format!("message {n} B"),
        (Some(alg), Some(n)) if alg.signs() => format!("digest {n} B"),
        (Some(alg), Some(n)) if alg.is_rsa() => format!("plaintext {n} B"),
        (None, Some(n)) => format!("{n} B"),
        _ => "—".into(),
    }
}

/// Whether an operation's cells differ by the length they process. A
/// run's cells may name an algorithm this build's catalog does not know
/// (imported from a newer cryptobench): then a recorded length says so.
fn takes_message(alg: Option<&pk::PkAlgorithmSpec>, op: Operation, size: usize) -> bool {
    match alg {
        Some(alg) => alg.takes_message(op),
        None => size > 0,
    }
}

pub fn build(run: &RunResult, labels: &Labels, pos: usize) -> PkGrid {
    let many = run.configurations.len() > 1;
    let cells = || {
        run.configurations
            .iter()
            .flat_map(move |c| c.cells.iter().map(move |x| (c, x)))
            .filter(|(_, x)| x.spec.is_public_key())
    };
    let ops: Vec<Operation> = ORDER.into_iter().filter(|o| cells().any(|(_, x)| x.spec.operation == *o)).collect();
    // Rows: (algorithm, signed length) in order of appearance; keygen/derive/KEM cells (size 0) join the algorithm's row.
    let mut keys: Vec<(String, Option<usize>)> = Vec::new();
    for (_, x) in cells() {
        let alg = pk::find(&x.spec.algorithm);
        let size = takes_message(alg, x.spec.operation, x.spec.size).then_some(x.spec.size);
        let key = (x.spec.algorithm.clone(), size);
        if size.is_some() {
            keys.retain(|k| !(k.0 == key.0 && k.1.is_none()));
        }
        let covered = size.is_none() && keys.iter().any(|k| k.0 == key.0);
        if !keys.contains(&key) && !covered {
            keys.push(key);
        }
    }
    let mut header = vec!["algorithm".to_string(), "signs".to_string()];
    if many {
        header.push("config".into());
    }
    header.extend(ops.iter().map(|o| format!("{}/s", o.short())));
    header.extend(ops.iter().map(|o| o.short().to_string()));
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut flagged = Vec::new();
    for (id, size) in &keys {
        let alg = pk::find(id);
        let first_of_algorithm = keys.iter().find(|k| &k.0 == id).map(|k| k.1) == Some(*size);
        for c in run
            .configurations
            .iter()
            .filter(|c| c.cells.iter().any(|x| &x.spec.algorithm == id))
        {
            let label = labels.get(pos, c.index);
            let mut row = vec![id.clone(), signed(alg, *size)];
            if many {
                row.push(label.to_string());
            }
            let mut times = Vec::new();
            for op in &ops {
                let cell = c.cells.iter().find(|x| {
                    &x.spec.algorithm == id
                        && x.spec.operation == *op
                        && (if takes_message(alg, *op, x.spec.size) {
                            Some(x.spec.size) == *size
                        } else {
                            first_of_algorithm
                        })
                });
                let where_ = || format!("{id} {}{}", op.short(), if many { format!(" ({label})") } else { String::new() });
                match cell.map(|x| &x.outcome) {
                    None => {
                        row.push(String::new());
                        times.push(String::new());
                    }
                    Some(CellOutcome::Measured(m)) => {
                        let mark = if m.is_noisy() {
                            flagged.push(Flagged {
                                place: where_(),
                                warnings: m.warnings.clone(),
                            });
                            NOISY_MARK
                        } else {
                            ""
                        };
                        // A library defect in this operation, found before timing (noted below the table).
                        let defect = if has_defect(c, id, *op) { DEFECT_MARK } else { "" };
                        row.push(format!("{}{mark}{defect}", format_ops(m.summary.median)));
                        times.push(format_time(m.summary.seconds_per_call));
                    }
                    Some(CellOutcome::Failed { reason }) => {
                        notes.push(format!("FAILED {}: {reason}", where_()));
                        row.push("FAILED".into());
                        times.push(String::new());
                    }
                    Some(CellOutcome::Unsupported { reason }) => {
                        let note = format!("n/a {id}{}: {reason}", if many { format!(" ({label})") } else { String::new() });
                        if !notes.contains(&note) {
                            notes.push(note);
                        }
                        row.push("n/a".into());
                        times.push(String::new());
                    }
                }
            }
            row.extend(times);
            rows.push(row);
        }
    }
    notes.extend(nonce_notes(run, labels, pos));
    PkGrid {
        figure_columns: ops.len() * 2,
        header,
        rows,
        notes,
        flagged,
    }
}

/// How each configuration with measured ECDSA cells draws its nonces, as its
/// library declares it: RFC 6979 costs HMAC work per signature that random
/// nonces do not. (A configuration without ECDSA, whose cells are n/a, has none.)
fn nonce_notes(run: &RunResult, labels: &Labels, pos: usize) -> Vec<String> {
    run.configurations
        .iter()
        .filter(|c| measures_ecdsa(c))
        .map(|c| {
            let label = labels.get(pos, c.index);
            match c.backend.as_ref().and_then(|b| b.ecdsa_nonce) {
                Some(n) => format!("ECDSA {label}: {}", n.describe()),
                None => format!("ECDSA {label}: how it draws nonces is not recorded (a run of an older version)"),
            }
        })
        .collect()
}

/// Whether the configuration measured an ECDSA cell: then how it draws nonces matters.
pub(crate) fn measures_ecdsa(c: &ConfigurationResult) -> bool {
    c.cells
        .iter()
        .any(|x| pk::find(&x.spec.algorithm).is_some_and(|a| a.kind == pk::PkKind::Ecdsa) && matches!(x.outcome, CellOutcome::Measured(_)))
}

impl PkGrid {
    pub fn to_table(&self, preset: &str) -> comfy_table::Table {
        let mut table = comfy_table::Table::new();
        table.load_preset(preset).set_header(self.header.clone());
        for row in &self.rows {
            table.add_row(row.clone());
        }
        for i in self.header.len().saturating_sub(self.figure_columns)..self.header.len() {
            if let Some(col) = table.column_mut(i) {
                col.set_cell_alignment(comfy_table::CellAlignment::Right);
            }
        }
        table
    }
}

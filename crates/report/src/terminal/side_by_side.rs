//! The table of a run of several configurations where it fits the
//! terminal: one row per configuration, one column per algorithm and size
//! (public key: per operation, in operations per second), so that nineteen
//! libraries take nineteen rows, not nineteen per algorithm. A run whose
//! columns do not fit keeps the grid (a row per algorithm and configuration).
//!
//! ```text
//!                aes-128-gcm enc message    sha256 hash message           rsa2048
//!  config                   16 B  16 KiB           16 B  16 KiB     sign/s  verify/s
//!  OpenSSL 3.0.22          36.5~   3657~          84.9~   1476~    1434.1~    51122~
//! ```

use cryptobench_core::result::{CellOutcome, CellResult, ConfigurationResult, RunResult};
use cryptobench_core::units::{format_ops, Unit};

use crate::grid::{has_defect, DEFECT_MARK, NOISY_MARK};
use crate::labels::Labels;
use crate::size_label;
use crate::width::columns;

/// Between two columns of a group, and between two groups.
const GAP: usize = 2;
const GROUP_GAP: usize = 4;

/// Which cells a column shows.
type CellFilter = Box<dyn Fn(&CellResult) -> bool>;

/// Columns under one title: an algorithm, operation and mode's sizes, or a
/// public-key algorithm's operations.
struct Group {
    title: String,
    /// (column heading, which cells it shows).
    columns: Vec<(String, CellFilter)>,
    public_key: bool,
}

/// The table, or None where fewer than two configurations measured cells
/// or the table would be wider than `width`.
pub(super) fn render(run: &RunResult, unit: Unit, labels: &Labels, width: usize) -> Option<String> {
    let shown: Vec<&ConfigurationResult> = run.configurations.iter().filter(|c| !c.cells.is_empty()).collect();
    if shown.len() < 2 {
        return None;
    }
    let groups = groups(run);
    let label_width = shown.iter().map(|c| columns(labels.get(0, c.index))).max()?.max(columns("config"));
    let mut widths: Vec<Vec<usize>> = Vec::new();
    let mut rows: Vec<Vec<Vec<String>>> = Vec::new();
    for c in &shown {
        rows.push(
            groups
                .iter()
                .map(|g| g.columns.iter().map(|(_, shows)| figure(c, g, shows.as_ref(), unit)).collect())
                .collect(),
        );
    }
    for (gi, g) in groups.iter().enumerate() {
        let mut w: Vec<usize> = g
            .columns
            .iter()
            .enumerate()
            .map(|(ci, (heading, _))| rows.iter().map(|r| columns(&r[gi][ci])).max().unwrap_or(0).max(columns(heading)))
            .collect();
        // A title wider than its columns widens the first.
        let span: usize = w.iter().sum::<usize>() + GAP * (w.len() - 1);
        if columns(&g.title) > span {
            w[0] += columns(&g.title) - span;
        }
        widths.push(w);
    }
    let total = 1
        + label_width
        + widths
            .iter()
            .map(|w| GROUP_GAP + w.iter().sum::<usize>() + GAP * (w.len() - 1))
            .sum::<usize>();
    if total > width {
        return None;
    }
    let mut out = String::new();
    let mut titles = format!(" {:label_width$}", "");
    let mut headings = format!(" {:label_width$}", "config");
    for (g, w) in groups.iter().zip(&widths) {
        let span = w.iter().sum::<usize>() + GAP * (w.len() - 1);
        titles.push_str(&format!("{:GROUP_GAP$}{:>span$}", "", g.title));
        headings.push_str(&" ".repeat(GROUP_GAP));
        let cells: Vec<String> = g.columns.iter().zip(w).map(|((h, _), w)| format!("{h:>w$}")).collect();
        headings.push_str(&cells.join(&" ".repeat(GAP)));
    }
    for line in [titles, headings] {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for (c, row) in shown.iter().zip(&rows) {
        let mut line = format!(" {:label_width$}", labels.get(0, c.index));
        for (cells, w) in row.iter().zip(&widths) {
            line.push_str(&" ".repeat(GROUP_GAP));
            let cells: Vec<String> = cells.iter().zip(w).map(|(text, w)| format!("{text:>w$}")).collect();
            line.push_str(&cells.join(&" ".repeat(GAP)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    Some(out)
}

/// The groups in the order the run's cells first name them: symmetric
/// (algorithm, operation, mode) with the sizes measured of it, public-key
/// algorithms with their operations (and the signed length where an
/// operation was measured at several).
fn groups(run: &RunResult) -> Vec<Group> {
    let cells = || run.configurations.iter().flat_map(|c| &c.cells);
    let mut out: Vec<Group> = Vec::new();
    for x in cells() {
        let spec = x.spec.clone();
        let public_key = spec.is_public_key();
        let title = if public_key {
            spec.algorithm.clone()
        } else {
            format!("{} {} {}", spec.algorithm, spec.operation.short(), spec.mode_label())
        };
        let same_row = move |y: &CellResult| {
            y.spec.algorithm == spec.algorithm
                && y.spec.operation.short() == spec.operation.short()
                && y.spec.mode_label() == spec.mode_label()
        };
        let several_lengths = public_key && {
            let mut sizes: Vec<usize> = cells().filter(|y| same_row(y)).map(|y| y.spec.size).collect();
            sizes.sort_unstable();
            sizes.dedup();
            sizes.len() > 1
        };
        let (heading, size) = match (public_key, several_lengths) {
            (true, false) => (format!("{}/s", x.spec.operation.short()), None),
            (true, true) => (format!("{}/s {} B", x.spec.operation.short(), x.spec.size), Some(x.spec.size)),
            (false, _) => (size_label(x.spec.size), Some(x.spec.size)),
        };
        let at = match out.iter().position(|g| g.title == title) {
            Some(at) => at,
            None => {
                out.push(Group {
                    title,
                    columns: Vec::new(),
                    public_key,
                });
                out.len() - 1
            }
        };
        let group = &mut out[at];
        if group.columns.iter().any(|(h, _)| *h == heading) {
            continue;
        }
        group.columns.push((
            heading,
            Box::new(move |y: &CellResult| same_row(y) && size.is_none_or(|s| y.spec.size == s)),
        ));
    }
    // Sizes in the order of the run's sizes, whatever order the cells came in.
    for g in out.iter_mut().filter(|g| !g.public_key) {
        let order = |h: &str| run.settings.sizes.iter().position(|s| size_label(*s) == h);
        g.columns.sort_by_key(|(h, _)| order(h));
    }
    out
}

/// One configuration's figure in a column: its median (bytes in `unit`,
/// public key in operations per second), marked `~` where noisy and `!`
/// where the library has a defect in the operation; FAILED, n/a, or blank.
fn figure(c: &ConfigurationResult, g: &Group, shows: &dyn Fn(&CellResult) -> bool, unit: Unit) -> String {
    let Some(cell) = c.cells.iter().find(|x| shows(x)) else {
        return String::new();
    };
    match &cell.outcome {
        CellOutcome::Measured(m) => {
            let value = if g.public_key {
                format_ops(m.summary.median)
            } else if unit == Unit::Cpb {
                m.cycles_per_byte.map(Unit::format_cpb).unwrap_or_else(|| "no clock".into())
            } else {
                unit.format(m.summary.median)
            };
            let noisy = if m.is_noisy() { NOISY_MARK } else { "" };
            let defect = if g.public_key && has_defect(c, &cell.spec.algorithm, cell.spec.operation) {
                DEFECT_MARK
            } else {
                ""
            };
            format!("{value}{noisy}{defect}")
        }
        CellOutcome::Failed { .. } => "FAILED".into(),
        CellOutcome::Unsupported { .. } => "n/a".into(),
    }
}

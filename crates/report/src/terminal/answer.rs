//! What a run opens with on the terminal, answered by the rules the reports
//! answer by: with several configurations, per algorithm and operation
//! (public key included) the fastest at the largest and the smallest size,
//! its lead by the one decision rule ([`crate::winners`]) and its factor
//! over the slowest; with one configuration, whether the library uses the
//! CPU's crypto features ([`super::hardware`]); an audit's verdicts.

use comfy_table::presets::NOTHING;
use comfy_table::{CellAlignment, Table};
use cryptobench_core::result::{CellOutcome, ConfigurationResult, RunResult};
use cryptobench_core::units::{format_ops, Unit};

use super::{hardware, Page};
use crate::grid::NOISY_MARK;
use crate::labels::Labels;
use crate::shape::Shape;
use crate::size_label;
use crate::winners::{self, Contender, Lead, Standing, WinnerRow};

pub(super) fn write(page: &mut Page, run: &RunResult, labels: &Labels, unit: Unit) {
    let runs = [(String::new(), run)];
    // A configuration that measured nothing (unavailable, crashed at once) is no contender.
    let measured: Vec<&ConfigurationResult> = run
        .configurations
        .iter()
        .filter(|c| c.cells.iter().any(|x| matches!(x.outcome, CellOutcome::Measured(_))))
        .collect();
    let shape = match Shape::of(&runs) {
        Shape::Audit => Shape::Audit,
        _ if measured.len() > 1 => Shape::Comparison,
        _ => Shape::Single,
    };
    match shape {
        Shape::Audit => {
            let verdicts = super::audit_lines(run, labels);
            if !verdicts.is_empty() {
                page.blank();
                page.raw("is the acceleration used? (the audit's verdicts):");
                for line in verdicts {
                    page.cut(&format!("  {line}"));
                }
            }
        }
        Shape::Comparison => {
            let rows = winners::rows(&runs, labels);
            let line = hardware::several(run, labels);
            if rows.is_empty() && line.is_none() {
                return;
            }
            page.blank();
            if !rows.is_empty() {
                page.raw(
                    "which is fastest here (lead \"clear\": beyond the noise of every other, docs/METHOD.md \
                     \"What a report says first\"; × = fastest ÷ slowest):",
                );
                for line in fastest_table(&rows, unit, page.verbose).to_string().lines() {
                    page.raw(line.trim_end());
                }
            }
            if let Some(line) = line {
                page.cut(&line);
            }
        }
        Shape::Single => match measured.first().and_then(|c| hardware::single(c, labels.get(0, c.index))) {
            Some(line) => {
                page.blank();
                page.cut(&line);
            }
            None => return,
        },
    }
    page.blank();
}

/// One row per standing: the row's name on its first, the size (none for
/// public key), the fastest, its figure and unit, its lead and its factor
/// over the slowest; `--verbose` adds the slowest and the contenders the
/// lead could not be told from.
fn fastest_table(rows: &[WinnerRow], unit: Unit, verbose: bool) -> Table {
    let rate = if unit == Unit::Cpb { Unit::Mb } else { unit };
    let mut header = vec!["algorithm", "at", "fastest", "figure", "", "lead", "× slowest"];
    if verbose {
        header.extend(["slowest", "a tie, or cannot tell"]);
    }
    let mut table = Table::new();
    table.load_preset(NOTHING).set_header(header);
    for r in rows {
        let standings = [r.large.as_ref(), r.small.as_ref()];
        for (k, st) in standings.into_iter().flatten().enumerate() {
            let name = if k == 0 { r.name() } else { String::new() };
            let at = if r.public_key { String::new() } else { size_label(st.size) };
            let (value, value_unit) = figure(r, st.fastest(), rate);
            let mut cells = vec![name, at, st.fastest().label.clone(), value, value_unit, lead(st), factor(st)];
            if verbose {
                let slowest = if st.ranking.len() > 1 {
                    let (f, u) = figure(r, st.slowest(), rate);
                    format!("{} {f} {u}", st.slowest().label)
                } else {
                    "-".into()
                };
                cells.push(slowest);
                cells.push(st.tied.iter().chain(&st.untested).cloned().collect::<Vec<_>>().join(", "));
            }
            table.add_row(cells);
        }
    }
    for i in [3, 6] {
        if let Some(col) = table.column_mut(i) {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
    table
}

/// A contender's median, marked where noisy, and its unit.
fn figure(row: &WinnerRow, c: &Contender, rate: Unit) -> (String, String) {
    let mark = if c.noisy { NOISY_MARK } else { "" };
    if row.public_key {
        (format!("{}{mark}", format_ops(c.median)), "op/s".into())
    } else {
        (format!("{}{mark}", rate.format(c.median)), rate.label().into())
    }
}

/// "clear", "tie (3)" (the fastest and the two within ±2% of it), "cannot tell", "alone".
fn lead(st: &Standing) -> String {
    match st.lead {
        Lead::Clear => "clear".into(),
        Lead::Tie => format!("tie ({})", st.tied.len() + 1),
        Lead::Untested => "cannot tell".into(),
        Lead::Alone => "alone".into(),
    }
}

/// The fastest median over the slowest: "13.2×"; "-" where one was measured.
fn factor(st: &Standing) -> String {
    if st.ranking.len() < 2 {
        "-".into()
    } else {
        format!("{}×", crate::charts::bars::format_value(st.spread()))
    }
}

//! The build lab's table: builds of a library side by side (OpenSSL's
//! variants: version × compiler × assembly × -O), per algorithm and size the
//! factor of each against a baseline build, marked by the one rule of
//! `compare` (crates/core/src/decision.rs). One table for all algorithms, so
//! that a column reads as "what this build changes"; as text for a terminal,
//! Markdown, or a self-contained HTML page.

use comfy_table::presets::{ASCII_MARKDOWN, NOTHING};
use comfy_table::{CellAlignment, Table};
use cryptobench_core::cell::CellUnit;
use cryptobench_core::compare::{Comparison, Verdict};
use cryptobench_core::units::Unit;

use crate::compare::{SIGNIFICANT, UNTESTED};
use crate::escape::escape;
use crate::pk_table::format_ops;
use crate::size_label;

/// Where the table goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabFormat {
    Text,
    Markdown,
    Html,
}

/// The key of series `i` in column headers ("B" for the baseline, then "1", "2" …).
fn key(i: usize) -> String {
    if i == 0 {
        "B".into()
    } else {
        i.to_string()
    }
}

/// One cell's text: the baseline's figure, or a factor with its mark.
fn cell_text(c: &Comparison, row: usize, i: usize, unit: Unit) -> String {
    let r = &c.rows[row];
    let e = &r.entries[i];
    match e.verdict {
        Verdict::Baseline => e
            .median
            .map(|m| {
                if r.unit == CellUnit::Operations {
                    format!("{} op/s", format_ops(m))
                } else {
                    unit.format(m)
                }
            })
            .unwrap_or_else(|| "-".into()),
        Verdict::Different { ratio } => format!("{ratio:.2}× {SIGNIFICANT}"),
        Verdict::Same { ratio } => format!("{ratio:.2}×"),
        Verdict::Untested { ratio } => format!("{ratio:.2}× {UNTESTED}"),
        Verdict::Missing => "-".into(),
    }
}

/// The legend: each series' key and name, the baseline first.
fn legend(c: &Comparison) -> Vec<String> {
    c.series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let role = if i == 0 { " (baseline)" } else { "" };
            format!("{}: {}{role} — {}", key(i), s.name, s.description)
        })
        .collect()
}

fn explanation(unit: Unit) -> String {
    format!(
        "column B: the baseline's median ({}; public key: operations per second); columns 1, 2 …: their median / the baseline's; {SIGNIFICANT} = {}; {UNTESTED} = too few samples to test; - = not measured",
        unit.label(),
        cryptobench_core::decision::IN_WORDS
    )
}

/// (algorithm and operation, size) of each row.
fn row_names(c: &Comparison) -> Vec<(String, String)> {
    c.rows
        .iter()
        .map(|r| {
            let mut name = r.algorithm.clone();
            if r.operation.short() != "hash" {
                name.push(' ');
                name.push_str(r.operation.short());
            }
            if !r.mode.is_empty() {
                name.push(' ');
                name.push_str(&r.mode);
            }
            (name, size_label(r.size))
        })
        .collect()
}

/// The lab table of `c`, whose first series is the baseline.
pub fn render(c: &Comparison, unit: Unit, format: LabFormat) -> String {
    match format {
        LabFormat::Html => html(c, unit),
        LabFormat::Text | LabFormat::Markdown => text(c, unit, format == LabFormat::Markdown),
    }
}

fn text(c: &Comparison, unit: Unit, markdown: bool) -> String {
    let bullet = if markdown { "- " } else { "" };
    let mut out = String::new();
    for line in legend(c) {
        out.push_str(&format!("{bullet}{line}\n"));
    }
    out.push_str(&format!("{bullet}{}\n\n", explanation(unit)));
    let mut t = Table::new();
    t.load_preset(if markdown { ASCII_MARKDOWN } else { NOTHING });
    let mut header = vec!["algorithm".to_string(), "size".to_string()];
    header.extend((0..c.series.len()).map(key));
    t.set_header(header);
    let names = row_names(c);
    let mut last = String::new();
    for (row, (name, size)) in names.into_iter().enumerate() {
        // The algorithm once per group of sizes on a terminal; on every row in Markdown (sortable).
        let shown = if markdown || name != last { name.clone() } else { String::new() };
        last = name;
        let mut cells = vec![shown, size];
        cells.extend((0..c.series.len()).map(|i| cell_text(c, row, i, unit)));
        t.add_row(cells);
    }
    for i in 1..c.series.len() + 2 {
        if let Some(col) = t.column_mut(i) {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
    out.push_str(&t.to_string());
    out.push('\n');
    out
}

fn html(c: &Comparison, unit: Unit) -> String {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>cryptobench build lab</title>\n<style>\nbody{font-family:sans-serif;margin:2em}\ntable{border-collapse:collapse}\nth,td{border:1px solid #ccc;padding:.2em .6em;text-align:right}\nth:first-child,td:first-child{text-align:left}\ntd.faster{background:#e3f4e3}\ntd.slower{background:#f8e1e1}\n</style>\n</head>\n<body>\n<h1>Build lab</h1>\n<ul>\n",
    );
    for line in legend(c) {
        out.push_str(&format!("<li>{}</li>\n", escape(&line)));
    }
    out.push_str(&format!(
        "</ul>\n<p>{}</p>\n<table>\n<tr><th>algorithm</th><th>size</th>",
        escape(&explanation(unit))
    ));
    for i in 0..c.series.len() {
        out.push_str(&format!("<th title=\"{}\">{}</th>", escape(&c.series[i].name), key(i)));
    }
    out.push_str("</tr>\n");
    for (row, (name, size)) in row_names(c).into_iter().enumerate() {
        out.push_str(&format!("<tr><td>{}</td><td>{}</td>", escape(&name), escape(&size)));
        for i in 0..c.series.len() {
            let class = match c.rows[row].entries[i].verdict {
                Verdict::Different { ratio } if ratio > 1.0 => " class=\"faster\"",
                Verdict::Different { .. } => " class=\"slower\"",
                _ => "",
            };
            out.push_str(&format!("<td{class}>{}</td>", escape(&cell_text(c, row, i, unit))));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n</body>\n</html>\n");
    out
}

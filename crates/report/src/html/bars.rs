//! Bars at one size (16 KiB, else the largest measured) across every
//! configuration: throughput, and cycles per byte where the clock was
//! measured.

use cryptobench_core::result::{CellOutcome, RunResult};
use cryptobench_core::units::Unit;

use super::page::legend;
use super::sizes::{keys, matches, name, tooltip};
use crate::charts::bars::format_value;
use crate::charts::{horizontal_bars, Bar, BarChart, ChartError, Group};
use crate::grid::NOISY_MARK;
use crate::labels::Labels;
use crate::size_label;

/// 16 KiB where anything was measured at it, else the largest size measured.
fn bar_size(runs: &[(String, &RunResult)]) -> Option<usize> {
    let sizes = runs
        .iter()
        .flat_map(|(_, r)| r.configurations.iter().flat_map(|c| &c.cells))
        .filter(|x| matches!(x.outcome, CellOutcome::Measured(_)))
        .map(|x| x.spec.size);
    let all: Vec<usize> = sizes.collect();
    if all.contains(&super::BAR_SIZE) {
        Some(super::BAR_SIZE)
    } else {
        all.into_iter().max()
    }
}

/// One group per row key, one bar per configuration that measured it at
/// `size`; `value` gives the figure and its text, or None to leave it out.
fn groups(
    runs: &[(String, &RunResult)],
    labels: &Labels,
    size: usize,
    value: impl Fn(&str, &cryptobench_core::result::CellResult, &cryptobench_core::result::Measurement) -> Option<(f64, String, String)>,
) -> (Vec<Group>, Vec<(usize, String)>) {
    let all = keys(runs);
    let mut groups = Vec::new();
    let mut entries: Vec<(usize, String)> = Vec::new();
    for k in &all {
        let mut bars = Vec::new();
        for (pos, (_, run)) in runs.iter().enumerate() {
            for c in &run.configurations {
                let label = labels.get(pos, c.index);
                let found = c.cells.iter().find_map(|x| match &x.outcome {
                    CellOutcome::Measured(m) if x.spec.size == size && matches(x, k) => value(label, x, m),
                    _ => None,
                });
                if let Some((v, text, tip)) = found {
                    let style = labels.position(pos, c.index);
                    if !entries.iter().any(|(s, _)| *s == style) {
                        entries.push((style, label.to_string()));
                    }
                    bars.push(Bar {
                        style,
                        value: v,
                        text,
                        tooltip: tip,
                        second: None,
                    });
                }
            }
        }
        if !bars.is_empty() {
            groups.push(Group { name: name(k, &all), bars });
        }
    }
    entries.sort();
    (groups, entries)
}

/// The legend and the chart of throughput at 16 KiB, as a figure.
pub fn at_size_figure(runs: &[(String, &RunResult)], labels: &Labels, unit: Unit) -> Result<String, ChartError> {
    let Some(size) = bar_size(runs) else {
        return Ok(String::new());
    };
    let (groups, entries) = groups(runs, labels, size, |label, x, m| {
        Some((
            m.summary.median / unit.divisor(),
            format!("{}{}", unit.format(m.summary.median), if m.is_noisy() { NOISY_MARK } else { "" }),
            tooltip(label, x, m, unit),
        ))
    });
    if groups.is_empty() {
        return Ok(String::new());
    }
    let title = format!("Throughput at {} ({})", size_label(size), unit.label());
    let svg = horizontal_bars(&BarChart {
        title: &title,
        groups: &groups,
        x_desc: unit.label(),
        reference: None,
        class: "at-size",
        width: crate::charts::bars::WIDTH,
        log: false,
    })?;
    Ok(format!(
        "<figure id=\"at-size-chart\" class=\"bars\">{}{svg}<figcaption>Median throughput at {}, longer is faster; hover a bar for its \
         confidence interval and sample count.</figcaption></figure>\n",
        legend(&entries),
        size_label(size)
    ))
}

/// The bars at 16 KiB as a section of their own.
pub fn at_size(runs: &[(String, &RunResult)], labels: &Labels, unit: Unit) -> Result<String, ChartError> {
    let figure = at_size_figure(runs, labels, unit)?;
    if figure.is_empty() {
        return Ok(String::new());
    }
    Ok(format!(
        "<section id=\"at-size\"><h2>At {}</h2>\n{figure}</section>\n",
        size_label(bar_size(runs).unwrap_or(super::BAR_SIZE))
    ))
}

/// Cycles per byte at 16 KiB, where a clock was measured.
pub fn cycles(runs: &[(String, &RunResult)], labels: &Labels) -> Result<String, ChartError> {
    let Some(size) = bar_size(runs) else {
        return Ok(String::new());
    };
    let (groups, entries) = groups(runs, labels, size, |label, x, m| {
        let cpb = m.cycles_per_byte?;
        Some((cpb, format_value(cpb), tooltip(label, x, m, Unit::Mb)))
    });
    if groups.is_empty() {
        return Ok(String::new());
    }
    let title = format!("Cycles per byte at {}", size_label(size));
    let svg = horizontal_bars(&BarChart {
        title: &title,
        groups: &groups,
        x_desc: "core cycles per byte (shorter is faster)",
        reference: None,
        class: "cycles",
        width: crate::charts::bars::WIDTH,
        log: false,
    })?;
    Ok(format!(
        "<section id=\"cycles\"><h2>Cycles per byte at {}</h2>\n{}<figure class=\"bars\">{svg}<figcaption>At each configuration's core clock, \
         measured around its cells; shorter is faster. Only configurations whose clock was measured are shown.</figcaption></figure></section>\n",
        size_label(size),
        legend(&entries)
    ))
}

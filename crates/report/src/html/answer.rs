//! The first screen: what the runs say. An audit: the verdict table and
//! the factors as grouped bars. A comparison: the fastest configuration
//! per algorithm with the spread, beside the bars at 16 KiB. One
//! configuration: its headline figures with cycles per byte.

use cryptobench_core::result::RunResult;
use cryptobench_core::units::Unit;

use super::bars;
use super::page::{legend, swatch, Row, Table};
use crate::charts::{horizontal_bars, Bar, BarChart, ChartError, Group};
use crate::escape::escape;
use crate::labels::Labels;
use crate::shape::Shape;
use crate::verdicts::{self, tone, VerdictRow};
use crate::winners::{self, Lead, Standing};
use crate::{grid::NOISY_MARK, size_label};

pub fn render(shape: Shape, runs: &[(String, &RunResult)], labels: &Labels, unit: Unit) -> Result<String, ChartError> {
    match shape {
        Shape::Audit => audit(runs[0].1, labels),
        Shape::Comparison => comparison(runs, labels, unit),
        Shape::Single => single(runs, labels, unit),
    }
}

fn audit(run: &RunResult, labels: &Labels) -> Result<String, ChartError> {
    let rows = verdicts::rows(run, 0, labels);
    let several = run.audit.as_ref().is_some_and(|a| a.libraries.len() > 1);
    let mut s = String::from("<section id=\"answer\"><h2>Is the hardware acceleration used, and what is it worth?</h2>\n");
    for lib in run.audit.iter().flat_map(|a| &a.libraries) {
        for m in &lib.mismatches {
            s.push_str(&format!(
                "<p class=\"warn\">{}: {}</p>\n",
                escape(labels.get(0, lib.base_index)),
                escape(&m.message)
            ));
        }
    }
    let (large, small) = rows
        .first()
        .map(|r| (size_label(r.large_size), size_label(r.small_size)))
        .unwrap_or_default();
    let mut header: Vec<String> = Vec::new();
    if several {
        header.push("library".into());
    }
    header.extend([
        "algorithm".to_string(),
        "switched off".to_string(),
        format!("× at {large}"),
        format!("× at {small}"),
        "verdict".to_string(),
    ]);
    let first = usize::from(several);
    let table = Table {
        header,
        stack: true,
        left: (0..first + 2).chain([first + 4]).collect(),
        rows: rows
            .iter()
            .map(|r| {
                let mut cells = Vec::new();
                if several {
                    cells.push(escape(&r.library));
                }
                let position = r.off_index.map(|i| labels.position(0, i));
                cells.push(escape(r.algorithm));
                cells.push(format!(
                    "{}{}<small>{}</small>",
                    position.map(colour_dot).unwrap_or_default(),
                    escape(&r.switched_off),
                    escape(&r.features)
                ));
                cells.push(escape(&r.factor_large));
                cells.push(escape(&r.factor_small));
                cells.push(format!("<span class=\"badge {}\">{}</span>", tone(r.kind), escape(r.kind.short())));
                Row {
                    cells,
                    title: Some(format!("{} [{}]: {}", r.algorithm, r.switched_off, r.verdict.text)),
                }
            })
            .collect(),
    };
    s.push_str("<div class=\"answer two\"><div>\n");
    s.push_str(&table.render());
    s.push_str(&format!(
        "<p class=\"note\">× = throughput with everything on ÷ throughput with the family switched off, at {large} and at {small} \
         (above 1: the family speeds the algorithm up). {NOISY_MARK} = a figure behind it is noisy (see the tables). \
         Accelerated means at least 1.10× and beyond the noise; the full sentences are below.</p>\n"
    ));
    s.push_str("</div>\n");
    s.push_str(&factor_chart(&rows, labels, &large, &small)?);
    s.push_str("</div>\n");
    let mut words = String::from("<ul>");
    for r in &rows {
        words.push_str(&format!(
            "<li>{}{} [{}]: {}</li>",
            if several {
                format!("{}: ", escape(&r.library))
            } else {
                String::new()
            },
            escape(r.algorithm),
            escape(&r.switched_off),
            escape(&r.verdict.text)
        ));
    }
    words.push_str("</ul>\n");
    s.push_str(&super::page::collapsed("verdicts", "The verdicts in words", &words));
    s.push_str("</section>\n");
    Ok(s)
}

/// A coloured square in a configuration's colour.
fn colour_dot(style: usize) -> String {
    format!(
        "<span class=\"swatch\" style=\"background:{}\"></span>",
        crate::charts::style::hex(style)
    )
}

/// The factors at the largest size as grouped bars (one group per
/// algorithm, one bar per family switched off, in that configuration's
/// colour), the smallest size as a hollow diamond on each bar.
fn factor_chart(rows: &[VerdictRow], labels: &Labels, large: &str, small: &str) -> Result<String, ChartError> {
    let mut groups: Vec<Group> = Vec::new();
    let mut entries: Vec<(usize, String)> = Vec::new();
    for r in rows {
        let (Some(off), Some(value)) = (r.off_index, r.verdict.factor_large) else {
            continue;
        };
        let style = labels.position(0, off);
        if !entries.iter().any(|(s, _)| *s == style) {
            entries.push((style, r.off_label.clone()));
        }
        let bar = Bar {
            style,
            value,
            text: r.factor_large.clone(),
            tooltip: format!("{} with {}: {}", r.algorithm, r.off_label, r.verdict.text),
            second: r
                .verdict
                .factor_small
                .map(|f| (f, format!("{} with {}: {} at {small}", r.algorithm, r.off_label, r.factor_small))),
        };
        match groups.iter_mut().find(|g| g.name == r.algorithm) {
            Some(g) => g.bars.push(bar),
            None => groups.push(Group {
                name: r.algorithm.to_string(),
                bars: vec![bar],
            }),
        }
    }
    if groups.is_empty() {
        return Ok("<p>No factor was measured.</p>\n".into());
    }
    entries.sort();
    let svg = horizontal_bars(&BarChart {
        title: &format!("What switching a family off costs at {large}"),
        groups: &groups,
        x_desc: "factor: on ÷ off (×)",
        reference: Some((1.0, "1×: switching it off changes nothing")),
        class: "factors",
        width: 540,
        log: false,
    })?;
    Ok(format!(
        "<figure id=\"factor-chart\">{}{svg}<figcaption>Bars: the factor at {large}; ◇: at {small}; dashed rule: 1×, no effect. \
         Hover a bar for its verdict.</figcaption></figure>\n",
        legend(&entries)
    ))
}

fn comparison(runs: &[(String, &RunResult)], labels: &Labels, unit: Unit) -> Result<String, ChartError> {
    let rows = winners::rows(runs, labels);
    let mut s = String::from("<section id=\"answer\"><h2>Which is fastest?</h2>\n<div class=\"answer\"><div>\n");
    // Public-key rows (operations per second) stand in the first columns: one figure per operation.
    let (large, small) = match winners::sizes(&rows) {
        Some((l, s)) => (format!(" at {}", size_label(l)), s.map(|s| format!(" at {}", size_label(s)))),
        None => (String::new(), None),
    };
    let mut header = vec!["algorithm".to_string()];
    for size in std::iter::once(&large).chain(small.as_ref()) {
        header.extend([
            format!("fastest{size}"),
            unit.label().to_string(),
            "lead".to_string(),
            "spread".to_string(),
        ]);
    }
    let sizes = if small.is_some() { 2 } else { 1 };
    let table = Table {
        header,
        stack: true,
        left: (0..sizes).flat_map(|k| [0, 1 + 4 * k, 3 + 4 * k]).collect(),
        rows: rows
            .iter()
            .map(|r| {
                let mut cells = vec![escape(&r.name())];
                cells.extend(standing_cells(r, r.large.as_ref(), unit));
                if small.is_some() {
                    cells.extend(standing_cells(r, r.small.as_ref(), unit));
                }
                Row::new(cells)
            })
            .collect(),
    };
    s.push_str(&table.render());
    s.push_str(&format!(
        "<p class=\"note\">Fastest = the highest median throughput; public key (sign, verify, …): the most operations per \
         second (op/s), one figure per operation. Lead: \"clear\" = beyond the noise against every other \
         ({}: the rule of compare and the audit); \"tie\" = shown within ±2% of one or \
         more others, with how many (hover for their names); \"cannot tell\" = neither beyond the noise nor shown within ±2% of one or \
         more others, or too few samples or clean replicates to judge (hover for their names). Spread = fastest ÷ slowest (hover for the \
         slowest). {NOISY_MARK} = a noisy figure.</p>\n",
        cryptobench_core::decision::IN_WORDS
    ));
    s.push_str("</div>\n");
    s.push_str(&bars::at_size_figure(runs, labels, unit)?);
    s.push_str("</div></section>\n");
    Ok(s)
}

/// The "fastest", figure, "lead" and "spread" cells of one standing of `row`.
fn standing_cells(row: &winners::WinnerRow, standing: Option<&Standing>, unit: Unit) -> [String; 4] {
    let Some(st) = standing else {
        return ["-".into(), "-".into(), "-".into(), "-".into()];
    };
    let f = st.fastest();
    let figure = |c: &winners::Contender| format!("{}{}", row.figure(c, unit), if c.noisy { NOISY_MARK } else { "" });
    let untested = if st.untested.is_empty() {
        String::new()
    } else {
        format!("; cannot tell against: {}", st.untested.join(", "))
    };
    let lead = match st.lead {
        Lead::Clear => "clear".to_string(),
        Lead::Tie => format!(
            "<span title=\"within the noise: {}{}\">tie ({})</span>",
            escape(&st.tied.join(", ")),
            escape(&untested),
            st.tied.len() + 1
        ),
        Lead::Untested => format!(
            "<span title=\"cannot tell against: {}\">cannot tell</span>",
            escape(&st.untested.join(", "))
        ),
        Lead::Alone => "alone".into(),
    };
    let spread = if st.ranking.len() < 2 {
        "-".into()
    } else {
        let slow = st.slowest();
        format!(
            "<span title=\"slowest: {} {}\">{}×</span>",
            escape(&slow.label),
            figure(slow),
            crate::charts::bars::format_value(st.spread())
        )
    };
    [format!("{}{}", colour_dot(f.style), escape(&f.label)), figure(f), lead, spread]
}

fn single(runs: &[(String, &RunResult)], labels: &Labels, unit: Unit) -> Result<String, ChartError> {
    let run = runs[0].1;
    let mut s = String::from("<section id=\"answer\"><h2>Headline figures</h2>\n<div class=\"answer\"><div>\n");
    for c in &run.configurations {
        let rows = crate::headline::rows(c);
        if rows.is_empty() {
            s.push_str(&format!(
                "<p class=\"warn\">{}: nothing measured ({}).</p>\n",
                escape(labels.get(0, c.index)),
                escape(&crate::environment::status_text(c))
            ));
            continue;
        }
        let (small, large) = (
            rows.iter().find_map(|r| r.small.as_ref().map(|f| size_label(f.size))),
            rows.iter().find_map(|r| r.large.as_ref().map(|f| size_label(f.size))),
        );
        let mut header = vec!["algorithm".to_string()];
        for size in [&small, &large].into_iter().flatten() {
            header.push(format!("{size} ({})", unit.label()));
            header.push(format!("{size} cycles/B"));
        }
        header.push("per call".into());
        let table = Table {
            header,
            stack: true,
            left: vec![0],
            rows: rows
                .iter()
                .map(|r| {
                    let mut cells = vec![escape(&if r.operation == "hash" {
                        r.algorithm.to_string()
                    } else {
                        format!("{} {} {}", r.algorithm, r.operation, r.mode)
                    })];
                    for (wanted, f) in [(&small, &r.small), (&large, &r.large)] {
                        if wanted.is_none() {
                            continue;
                        }
                        match f {
                            Some(f) => {
                                cells.push(format!("{}{}", unit.format(f.median), if f.noisy { NOISY_MARK } else { "" }));
                                cells.push(f.cycles_per_byte.map(Unit::format_cpb).unwrap_or_else(|| "-".into()));
                            }
                            None => cells.extend(["-".to_string(), "-".to_string()]),
                        }
                    }
                    cells.push(r.fit.map(|o| format!("{:.0} ns", o.per_call_ns)).unwrap_or_else(|| "-".into()));
                    Row::new(cells)
                })
                .collect(),
        };
        s.push_str(&format!(
            "<p>{}{}</p>\n",
            swatch(labels.position(0, c.index)),
            escape(labels.get(0, c.index))
        ));
        s.push_str(&table.render());
    }
    s.push_str(&format!(
        "<p class=\"note\">Medians of the samples; cycles/B at the clock measured around the cells; per call = the fixed cost a \
         of the fitted model time = a + n / r∞. {NOISY_MARK} = a noisy figure.</p>\n"
    ));
    s.push_str("</div>\n");
    s.push_str(&bars::at_size_figure(runs, labels, unit)?);
    s.push_str("</div></section>\n");
    Ok(s)
}

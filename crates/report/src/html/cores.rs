//! Several cores in the report: the scaling of each library over thread
//! counts (a chart per row with the ideal line, then the table with every
//! worker's figure and each core's clock under load), and the core types
//! measured apart (a table with clock and score per MHz, bars at 16 KiB
//! per core type, and the score per MHz per core type).

use cryptobench_core::result::{CellOutcome, RunResult};
use cryptobench_core::units::Unit;

use super::page::{legend, Row, Table};
use crate::charts::bars::format_value;
use crate::charts::{horizontal_bars, throughput_by_threads, Bar, BarChart, ChartError, Group, ThreadPoint, ThreadSeries};
use crate::escape::escape;
use crate::labels::Labels;
use crate::multicore::{self, ScalingRow};
use crate::size_label;

/// Both sections for every run of the report that has them.
pub fn render(runs: &[(String, &RunResult)], labels: &Labels, unit: Unit) -> Result<String, ChartError> {
    let mut s = String::new();
    for (pos, (name, run)) in runs.iter().enumerate() {
        let of = if runs.len() > 1 {
            format!(" — {}", run.label.clone().unwrap_or_else(|| name.clone()))
        } else {
            String::new()
        };
        s.push_str(&scaling(run, pos, &of, labels, unit)?);
        s.push_str(&core_types(run, pos, &of, labels, unit)?);
    }
    Ok(s)
}

fn tooltip(library: &str, r: &ScalingRow, unit: Unit) -> String {
    let f = |v: f64| multicore::scaling_figure(r, unit, v);
    let mut t = format!(
        "{library}, {} worker{} on CPU{} {}: {}{} (95% interval {}–{})",
        r.threads,
        if r.threads == 1 { "" } else { "s" },
        if r.cpus.len() == 1 { "" } else { "s" },
        multicore::cryptobench_cpu_list(&r.cpus),
        f(r.median),
        if r.per_operation {
            String::new()
        } else {
            format!(" {}", unit.label())
        },
        f(r.interval[0]),
        f(r.interval[1])
    );
    if let Some(e) = r.efficiency {
        t.push_str(&format!(", efficiency {e:.2}"));
    }
    if r.workers.len() > 1 {
        let per: Vec<String> = r.workers.iter().map(|(c, m)| format!("CPU {c} {}", f(*m))).collect();
        t.push_str(&format!("; per worker: {}", per.join(", ")));
    }
    t
}

fn scaling(run: &RunResult, pos: usize, of: &str, labels: &Labels, unit: Unit) -> Result<String, ChartError> {
    let libraries = multicore::libraries(run);
    let rows: Vec<(usize, String, Vec<ScalingRow>)> = libraries
        .iter()
        .map(|l| {
            let style = labels.position(pos, l.configurations[0].index);
            (style, l.name.clone(), multicore::scaling_rows(l))
        })
        .filter(|(_, _, r)| !r.is_empty())
        .collect();
    if rows.is_empty() {
        return Ok(String::new());
    }
    let mut s = format!("<section id=\"scaling\"><h2>Scaling over cores{}</h2>\n", escape(of));
    for line in multicore::scaling_intro(run) {
        s.push_str(&format!("<p class=\"note\">{}</p>\n", escape(&line)));
    }
    let entries: Vec<(usize, String)> = rows.iter().map(|(st, n, _)| (*st, n.clone())).collect();
    s.push_str(&legend(&entries));
    let mut keys: Vec<(String, &'static str, String, usize, bool)> = Vec::new();
    for r in rows.iter().flat_map(|(_, _, r)| r) {
        let k = (r.algorithm.clone(), r.operation, r.mode.clone(), r.size, r.per_operation);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    s.push_str("<div class=\"multiples\">\n");
    for k in &keys {
        // Public key in operations per second; bytes in the report's unit.
        let (divisor, axis) = if k.4 { (1.0, "op/s") } else { (unit.divisor(), unit.label()) };
        let series: Vec<ThreadSeries> = rows
            .iter()
            .map(|(style, name, rs)| ThreadSeries {
                style: *style,
                label: name.clone(),
                points: rs
                    .iter()
                    .filter(|r| (r.algorithm.as_str(), r.operation, r.mode.as_str(), r.size) == (k.0.as_str(), k.1, k.2.as_str(), k.3))
                    .map(|r| ThreadPoint {
                        threads: r.threads,
                        value: r.median / divisor,
                        interval: (r.interval[0] / divisor, r.interval[1] / divisor),
                        tooltip: tooltip(name, r, unit),
                    })
                    .collect(),
            })
            .filter(|s| !s.points.is_empty())
            .collect();
        let title = format!("{} {} {}, {}", k.0, k.1, k.2, size_label(k.3));
        s.push_str(&format!(
            "<figure>{}</figure>\n",
            throughput_by_threads(&title, &series, &format!("aggregate {axis}"))?
        ));
    }
    s.push_str(
        "</div>\n<p class=\"note\">Points: the aggregate of the workers (sum of their medians) with its 95% interval; \
                grey dashed line: the ideal, the one-worker figure times the workers; hover a point for every worker's figure.</p>\n",
    );
    for (_, name, rs) in &rows {
        let header = multicore::scaling_header(unit);
        let table = Table {
            left: vec![0, 1, 2],
            stack: true,
            rows: rs
                .iter()
                .map(|r| Row::new(multicore::scaling_cells(r, unit).iter().map(|c| escape(c)).collect()))
                .collect(),
            header,
        };
        s.push_str(&format!("<h3>{}</h3>\n{}", escape(name), table.render()));
    }
    for line in multicore::clock_lines(run, labels, pos) {
        s.push_str(&format!("<p class=\"note\">{}</p>\n", escape(&line)));
    }
    s.push_str("</section>\n");
    Ok(s)
}

fn core_types(run: &RunResult, pos: usize, of: &str, labels: &Labels, unit: Unit) -> Result<String, ChartError> {
    let Some(intro) = multicore::core_types_intro(run) else {
        return Ok(String::new());
    };
    let rows = multicore::core_type_rows(run);
    let several = rows.iter().any(|r| r.library != rows[0].library);
    let mut s = format!(
        "<section id=\"core-types\"><h2>Core types{}</h2>\n<p class=\"note\">{}</p>\n",
        escape(of),
        escape(&intro)
    );
    let table = Table {
        header: multicore::core_type_header(several),
        left: if several { vec![0, 1] } else { vec![0] },
        stack: true,
        rows: rows
            .iter()
            .map(|r| Row::new(multicore::core_type_cells(r, several).iter().map(|c| escape(c)).collect()))
            .collect(),
    };
    s.push_str(&table.render());
    // Throughput at 16 KiB (else the largest size) per core type, one group per row.
    let placed: Vec<&cryptobench_core::result::ConfigurationResult> = run
        .configurations
        .iter()
        .filter(|c| c.placement.as_ref().is_some_and(|p| p.core_type.is_some()))
        .collect();
    let sizes: Vec<usize> = placed
        .iter()
        .flat_map(|c| &c.cells)
        .filter(|x| matches!(x.outcome, CellOutcome::Measured(_)))
        .map(|x| x.spec.size)
        .collect();
    let size = if sizes.contains(&multicore::SIZE) {
        Some(multicore::SIZE)
    } else {
        sizes.iter().copied().max()
    };
    if let (Some(size), true) = (size, rows.len() > 1) {
        let mut keys: Vec<(String, &'static str, String)> = Vec::new();
        for x in placed.iter().flat_map(|c| &c.cells) {
            let k = (x.spec.algorithm.clone(), x.spec.operation.short(), x.spec.mode_label());
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        let mut entries: Vec<(usize, String)> = Vec::new();
        let mut groups = Vec::new();
        for k in &keys {
            let mut bars = Vec::new();
            for c in &placed {
                let found = c.cells.iter().find_map(|x| match &x.outcome {
                    CellOutcome::Measured(m)
                        if x.spec.size == size
                            && x.spec.algorithm == k.0
                            && x.spec.operation.short() == k.1
                            && x.spec.mode_label() == k.2 =>
                    {
                        Some((x, m))
                    }
                    _ => None,
                });
                let Some((x, m)) = found else { continue };
                let style = labels.position(pos, c.index);
                let label = labels.get(pos, c.index);
                if !entries.iter().any(|(st, _)| *st == style) {
                    entries.push((style, label.to_string()));
                }
                bars.push(Bar {
                    style,
                    value: m.summary.median / unit.divisor(),
                    text: format!(
                        "{}{}",
                        unit.format(m.summary.median),
                        if m.is_noisy() { crate::grid::NOISY_MARK } else { "" }
                    ),
                    tooltip: super::sizes::tooltip(label, x, m, unit),
                    second: None,
                });
            }
            if !bars.is_empty() {
                let mut name = k.0.clone();
                if k.1 != "hash" {
                    name.push(' ');
                    name.push_str(k.1);
                }
                groups.push(Group { name, bars });
            }
        }
        if !groups.is_empty() {
            entries.sort();
            let title = format!("Throughput per core type at {} ({})", size_label(size), unit.label());
            let svg = horizontal_bars(&BarChart {
                title: &title,
                groups: &groups,
                x_desc: unit.label(),
                reference: None,
                class: "core-types",
                width: crate::charts::bars::WIDTH,
                log: false,
            })?;
            s.push_str(&format!(
                "<figure class=\"bars\">{}{svg}<figcaption>One worker pinned to a core of each type; longer is faster. \
                 Hover a bar for its interval and cycles per byte at that core's clock.</figcaption></figure>\n",
                legend(&entries)
            ));
        }
    }
    // The sbc-bench score per MHz per core type, where aes-256-cbc was measured.
    let scored: Vec<&multicore::CoreTypeRow> = rows.iter().filter(|r| r.score_per_mhz.is_some()).collect();
    if !scored.is_empty() {
        let groups: Vec<Group> = scored
            .iter()
            .map(|r| Group {
                name: if several {
                    format!("{} ({})", r.core_type, r.library)
                } else {
                    r.core_type.clone()
                },
                bars: vec![Bar {
                    style: labels.position(pos, r.index),
                    value: r.score_per_mhz.unwrap_or_default(),
                    text: format_value(r.score_per_mhz.unwrap_or_default()),
                    tooltip: format!(
                        "{}: {:.0}k at {} MHz = {:.0} per MHz{}",
                        r.core_type,
                        r.score_k.unwrap_or_default(),
                        r.mhz.map(|m| format!("{m:.0}")).unwrap_or("?".into()),
                        r.score_per_mhz.unwrap_or_default(),
                        r.nearest
                            .as_ref()
                            .map(|(c, v)| format!("; nearest reference class {c} ({v:.0} per MHz)"))
                            .unwrap_or_default()
                    ),
                    second: r
                        .nearest
                        .as_ref()
                        .map(|(c, v)| (*v, format!("reference class {c}: {v:.0} per MHz"))),
                }],
            })
            .collect();
        let svg = horizontal_bars(&BarChart {
            title: "sbc-bench score per MHz per core type",
            groups: &groups,
            x_desc: "aes-256-cbc 16 KiB, 1000s of bytes per second per MHz",
            reference: None,
            class: "core-scores",
            width: crate::charts::bars::WIDTH,
            log: false,
        })?;
        s.push_str(&format!(
            "<figure class=\"bars\">{svg}<figcaption>aes-256-cbc stream encryption at 16 KiB in 1000s of bytes per second, divided by the \
             clock measured on that core; the hollow diamond is the nearest reference class (crates/cpu/data/core-classes.json, \
             from sbc-bench).</figcaption></figure>\n"
        ));
    }
    s.push_str("</section>\n");
    Ok(s)
}

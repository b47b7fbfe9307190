//! Renders a [`Comparison`]: one table per algorithm (rows: sizes; columns:
//! each series' median and its ratio to the first), then a summary in words.

use comfy_table::presets::{ASCII_MARKDOWN, NOTHING};
use comfy_table::Table;
use cryptobench_core::cell::CellUnit;
use cryptobench_core::compare::{Comparison, Row, Verdict};
use cryptobench_core::units::Unit;

use crate::pk_table::format_ops;
use crate::size_label;

/// Marks a difference beyond the noise.
pub const SIGNIFICANT: &str = "*";
/// Marks a ratio that could not be tested (too few samples on a side).
pub const UNTESTED: &str = "?";

pub fn render(c: &Comparison, unit: Unit, markdown: bool) -> String {
    let mut out = String::new();
    for (i, s) in c.series.iter().enumerate() {
        let role = if i == 0 { " (baseline)" } else { "" };
        out.push_str(&format!(
            "{}{}: {}{role}\n",
            if markdown { "- " } else { "" },
            s.name,
            s.description
        ));
    }
    out.push_str(&format!(
        "{}figures: {}{}; ratio = median / baseline median; {SIGNIFICANT} = {}; {UNTESTED} = cannot tell: neither beyond the noise nor shown within ±2% (a tie), or too few samples (fewer than {:.0} effective) or clean replicates a side (imported figures have none)\n",
        if markdown { "- " } else { "" },
        unit.label(),
        if c.rows.iter().any(|r| r.unit == CellUnit::Operations) {
            " (public key: operations per second)"
        } else {
            ""
        },
        cryptobench_core::decision::IN_WORDS,
        cryptobench_core::decision::MIN_SAMPLES
    ));
    let mut groups: Vec<(&str, &str, &str)> = Vec::new();
    for r in &c.rows {
        let g = (r.algorithm.as_str(), r.operation.short(), r.mode.as_str());
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    for g in groups {
        out.push_str(&if markdown {
            format!("\n#### {} {} {}\n\n", g.0, g.1, g.2)
        } else {
            format!("\n{} {} {}\n", g.0, g.1, g.2)
        });
        let mut t = Table::new();
        t.load_preset(if markdown { ASCII_MARKDOWN } else { NOTHING });
        let mut header = vec!["size".to_string()];
        for (i, s) in c.series.iter().enumerate() {
            header.push(s.name.clone());
            if i > 0 {
                header.push("ratio".into());
            }
        }
        t.set_header(header);
        for r in c
            .rows
            .iter()
            .filter(|r| (r.algorithm.as_str(), r.operation.short(), r.mode.as_str()) == g)
        {
            let mut row = vec![size_label(r.size)];
            let public_key = r.unit == CellUnit::Operations;
            for e in &r.entries {
                row.push(
                    e.median
                        .map(|m| {
                            if public_key {
                                format!("{} op/s", format_ops(m))
                            } else {
                                unit.format(m)
                            }
                        })
                        .unwrap_or_else(|| "-".into()),
                );
                match e.verdict {
                    Verdict::Baseline => {}
                    Verdict::Different { ratio, .. } => row.push(format!("{ratio:.2}× {SIGNIFICANT}")),
                    Verdict::Same { ratio, .. } => row.push(format!("{ratio:.2}×")),
                    Verdict::Untested { ratio } => row.push(format!("{ratio:.2}× {UNTESTED}")),
                    Verdict::Missing => row.push("-".into()),
                }
            }
            t.add_row(row);
        }
        out.push_str(&t.to_string());
        out.push('\n');
    }
    out.push('\n');
    for line in summary(c) {
        out.push_str(&format!("{}{line}\n", if markdown { "- " } else { "" }));
    }
    out
}

/// One sentence per series against the baseline: per algorithm the verdict
/// at the largest size both measured; algorithms equal within the noise at
/// every size are named together.
pub fn summary(c: &Comparison) -> Vec<String> {
    let Some(base) = c.series.first() else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for (i, s) in c.series.iter().enumerate().skip(1) {
        let mut parts = Vec::new();
        let mut same = Vec::new();
        let mut groups: Vec<(&str, &str, &str)> = Vec::new();
        for r in &c.rows {
            let g = (r.algorithm.as_str(), r.operation.short(), r.mode.as_str());
            if !groups.contains(&g) {
                groups.push(g);
            }
        }
        for g in groups {
            let rows: Vec<&Row> = c
                .rows
                .iter()
                .filter(|r| (r.algorithm.as_str(), r.operation.short(), r.mode.as_str()) == g)
                .filter(|r| !matches!(r.entries[i].verdict, Verdict::Missing))
                .collect();
            let Some(largest) = rows.last() else { continue };
            let name = if g.1 == "hash" {
                g.0.to_string()
            } else {
                format!("{} {}", g.0, g.1)
            };
            if rows.iter().all(|r| matches!(r.entries[i].verdict, Verdict::Same { .. })) {
                same.push(name);
                continue;
            }
            let at = size_label(largest.size);
            parts.push(match largest.entries[i].verdict {
                Verdict::Different { ratio, .. } if ratio >= 1.0 => format!("{ratio:.2}× faster on {name} at {at}"),
                Verdict::Different { ratio, .. } => format!("{:.2}× slower on {name} at {at}", 1.0 / ratio),
                Verdict::Untested { ratio } if ratio >= 1.0 => {
                    format!("{ratio:.2}× faster on {name} at {at} (cannot tell: neither beyond the noise nor shown within ±2%, or too few samples)")
                }
                Verdict::Untested { ratio } => format!(
                    "{:.2}× slower on {name} at {at} (cannot tell: neither beyond the noise nor shown within ±2%, or too few samples)",
                    1.0 / ratio
                ),
                _ => {
                    let differs: Vec<String> = rows
                        .iter()
                        .filter_map(|r| match r.entries[i].verdict {
                            Verdict::Different { ratio, .. } => Some(format!("{ratio:.2}× at {}", size_label(r.size))),
                            _ => None,
                        })
                        .collect();
                    format!("equal within noise on {name} at {at} (but {})", differs.join(", "))
                }
            });
        }
        if !same.is_empty() {
            parts.push(format!("equal within noise on {}", same.join(", ")));
        }
        if parts.is_empty() {
            lines.push(format!("{} and {} have no cell in common.", s.name, base.name));
        } else {
            lines.push(format!("{} against {}: {}.", s.name, base.name, parts.join("; ")));
        }
    }
    lines
}

/// The comparison of `runs` with every series named by its label
/// ([`crate::labels`]) and described by its library, file and environment.
pub fn labelled(runs: &[(String, &cryptobench_core::result::RunResult)]) -> Comparison {
    let labels = crate::labels::Labels::for_runs(runs);
    let mut c = cryptobench_core::compare::compare(runs);
    for (series, label) in c.series.iter_mut().zip(labels.all()) {
        series.name = label.to_string();
    }
    c
}

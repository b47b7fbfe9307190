//! Throughput against message size: one log-log chart per algorithm with
//! every configuration on it, in a grid that reflows with the width; charts
//! of one algorithm class (ciphers, AEADs, digests) share their axes. Also
//! the rows' keys, names and tooltips the other charts share.

use cryptobench_core::catalog::{self, AlgorithmClass};
use cryptobench_core::result::{CellOutcome, CellResult, Measurement, RunResult};
use cryptobench_core::units::Unit;

use super::page::legend;
use crate::charts::{throughput_by_size, Axes, ChartError, Fit, SizePoint, SizeSeries};
use crate::labels::Labels;
use crate::size_label;

/// (algorithm, operation, mode): one chart, one group of bars.
pub type Key = (String, &'static str, String);

/// Every row key of the runs, in the order first measured.
pub fn keys(runs: &[(String, &RunResult)]) -> Vec<Key> {
    let mut keys: Vec<Key> = Vec::new();
    for (_, run) in runs {
        for c in &run.configurations {
            // Public-key figures are operations per second: html/pk.rs shows them.
            for x in c.cells.iter().filter(|x| !x.spec.is_public_key()) {
                let k = (x.spec.algorithm.clone(), x.spec.operation.short(), x.spec.mode_label());
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
    }
    keys
}

/// "aes-128-gcm enc", "sha256": the key as short as the report allows
/// (the mode only where an algorithm appears in several).
pub fn name(key: &Key, all: &[Key]) -> String {
    let modes = all.iter().filter(|k| k.0 == key.0 && k.1 == key.1).count();
    let mut n = key.0.clone();
    if key.1 != "hash" {
        n.push(' ');
        n.push_str(key.1);
    }
    if modes > 1 {
        n.push(' ');
        n.push_str(&key.2);
    }
    n
}

pub fn matches(x: &CellResult, key: &Key) -> bool {
    x.spec.algorithm == key.0 && x.spec.operation.short() == key.1 && x.spec.mode_label() == key.2
}

/// "OpenSSL 3.0.19 — aes-128-gcm enc message, 16 KiB: 4605 MB/s (fastest of 3
/// replicates, 75 samples, a repeat run within (nominal 95%) 4551–4650), 0.52
/// cycles/byte; noisy: …"
pub fn tooltip(label: &str, x: &CellResult, m: &Measurement, unit: Unit) -> String {
    let s = &m.summary;
    let mut t = format!(
        "{label} — {} {} {}, {}: {} {}",
        x.spec.algorithm,
        x.spec.operation.short(),
        x.spec.mode_label(),
        size_label(x.spec.size),
        unit.format(s.median),
        unit.label()
    );
    if m.samples.is_empty() {
        t.push_str(" (one figure imported, no samples)");
    } else {
        t.push_str(&format!(
            " ({}, {} {}–{})",
            s.figure_source(),
            s.interval_name(),
            unit.format(s.median_ci95[0]),
            unit.format(s.median_ci95[1])
        ));
    }
    if let Some(cpb) = m.cycles_per_byte {
        t.push_str(&format!(", {} cycles/byte", Unit::format_cpb(cpb)));
    }
    if m.is_noisy() {
        t.push_str(&format!("; read with care: {}", m.warnings.join("; ")));
    }
    t
}

fn class(algorithm: &str) -> Option<AlgorithmClass> {
    catalog::get(algorithm).ok().map(|a| a.class)
}

fn class_name(c: Option<AlgorithmClass>) -> &'static str {
    match c {
        Some(AlgorithmClass::Cipher) => "Ciphers",
        Some(AlgorithmClass::Aead) => "AEADs",
        Some(AlgorithmClass::Digest) => "Digests",
        Some(AlgorithmClass::Mac) => "MACs",
        None => "Other",
    }
}

/// The series of one chart: every configuration that measured the key.
pub fn series(runs: &[(String, &RunResult)], labels: &Labels, key: &Key, unit: Unit) -> Vec<SizeSeries> {
    let mut out = Vec::new();
    for (pos, (_, run)) in runs.iter().enumerate() {
        for c in &run.configurations {
            let label = labels.get(pos, c.index);
            let mut points: Vec<SizePoint> = c
                .cells
                .iter()
                .filter(|x| matches(x, key))
                .filter_map(|x| match &x.outcome {
                    CellOutcome::Measured(m) => Some(SizePoint {
                        size: x.spec.size,
                        value: m.summary.median / unit.divisor(),
                        tooltip: tooltip(label, x, m, unit),
                    }),
                    _ => None,
                })
                .collect();
            if points.is_empty() {
                continue;
            }
            points.sort_by_key(|p| p.size);
            let fit = c
                .overheads
                .iter()
                .find(|o| o.algorithm == key.0 && o.operation.short() == key.1 && o.mode == key.2)
                .filter(|o| o.per_call_ns >= 0.0 && o.asymptotic_bytes_per_s > 0.0)
                .map(|o| Fit {
                    per_call_s: o.per_call_ns / 1e9,
                    bytes_per_s: o.asymptotic_bytes_per_s,
                });
            out.push(SizeSeries {
                style: labels.position(pos, c.index),
                label: label.to_string(),
                points,
                fit,
            });
        }
    }
    out
}

pub fn render(runs: &[(String, &RunResult)], labels: &Labels, unit: Unit) -> Result<String, ChartError> {
    let keys = keys(runs);
    let charts: Vec<(Key, Vec<SizeSeries>)> = keys
        .iter()
        .map(|k| (k.clone(), series(runs, labels, k, unit)))
        .filter(|(_, s)| s.iter().any(|x| x.points.len() > 1))
        .collect();
    if charts.is_empty() {
        return Ok(String::new());
    }
    let mut s = String::from("<section id=\"sizes\"><h2>Throughput against message size</h2>\n");
    let mut entries: Vec<(usize, String)> = Vec::new();
    for x in charts.iter().flat_map(|(_, s)| s) {
        if !entries.iter().any(|(st, _)| *st == x.style) {
            entries.push((x.style, x.label.clone()));
        }
    }
    entries.sort();
    s.push_str(&legend(&entries));
    let any_fit = charts.iter().flat_map(|(_, s)| s).any(|x| x.fit.is_some());
    s.push_str(&format!(
        "<p class=\"note\">Both axes logarithmic; points: measured medians (hover for the confidence interval and the sample count); \
         {}. Charts of one class share their axes.</p>\n",
        if any_fit {
            "lines: each configuration's fitted model, time per call = a + n / r∞ (the cost per call a dominates small messages)"
        } else {
            "lines join the medians"
        }
    ));
    let mut classes: Vec<Option<AlgorithmClass>> = Vec::new();
    for (k, _) in &charts {
        let c = class(&k.0);
        if !classes.contains(&c) {
            classes.push(c);
        }
    }
    for c in classes {
        let in_class: Vec<&(Key, Vec<SizeSeries>)> = charts.iter().filter(|(k, _)| class(&k.0) == c).collect();
        let Some(axes) = Axes::of(in_class.iter().flat_map(|(_, s)| s)) else {
            continue;
        };
        s.push_str(&format!("<h3>{}</h3>\n<div class=\"multiples\">\n", class_name(c)));
        for (k, series) in in_class {
            let title = format!("{} {} {}", k.0, k.1, k.2);
            s.push_str(&format!(
                "<figure>{}</figure>\n",
                throughput_by_size(&title, series, axes, unit.label(), unit.divisor())?
            ));
        }
        s.push_str("</div>\n");
    }
    s.push_str("</section>\n");
    Ok(s)
}

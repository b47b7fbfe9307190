//! The notes under a run's table by default: one line per kind (cells not
//! measured, verification, library defects, clock, score, ECDSA nonces,
//! named exceptions, overhead model, binding cost), each with its counts
//! and its worst case. `--verbose` prints every note instead (the grid's
//! and the public-key table's notes, and the lists of super::full_lists).

use std::collections::BTreeMap;

use cryptobench_core::result::{CellOutcome, ConfigurationResult, RunResult, VerificationOutcome};
use cryptobench_core::units::Unit;

use crate::grid::DEFECT_MARK;
use crate::labels::Labels;
use crate::{derived, exceptions, size_label};

pub(super) fn lines(run: &RunResult, labels: &Labels, unit: Unit) -> Vec<String> {
    let mut out = Vec::new();
    out.extend(not_measured(run, labels));
    out.extend(verification(run, labels));
    out.extend(defects(run, labels));
    out.extend(clock(run, labels));
    out.extend(score(run, labels));
    out.extend(nonces(run, labels));
    out.extend(named_exceptions(run, labels));
    out.extend(overhead(run, labels, unit));
    out.extend(binding(run, labels));
    out
}

/// Configurations with something to say, each with its label.
fn labelled<'a>(run: &'a RunResult, labels: &'a Labels) -> impl Iterator<Item = (&'a ConfigurationResult, &'a str)> {
    run.configurations.iter().map(move |c| (c, labels.get(0, c.index)))
}

/// Names, joined: "A, B and 3 more" beyond `most`.
fn some_of(names: &[String], most: usize) -> String {
    if names.len() <= most {
        names.join(", ")
    } else {
        format!("{} and {} more", names[..most].join(", "), names.len() - most)
    }
}

/// n/a cells (what the library cannot do) by algorithm, and FAILED cells, with the first reason.
fn not_measured(run: &RunResult, labels: &Labels) -> Vec<String> {
    let mut unsupported: Vec<(String, Vec<String>)> = Vec::new();
    let mut first_reason: Option<String> = None;
    let mut failed: Vec<String> = Vec::new();
    for (c, label) in labelled(run, labels) {
        for x in &c.cells {
            match &x.outcome {
                CellOutcome::Unsupported { reason } => {
                    first_reason.get_or_insert_with(|| format!("{} ({label}): {reason}", x.spec.algorithm));
                    match unsupported.iter_mut().find(|(a, _)| *a == x.spec.algorithm) {
                        Some((_, who)) if who.iter().any(|w| w == label) => {}
                        Some((_, who)) => who.push(label.to_string()),
                        None => unsupported.push((x.spec.algorithm.clone(), vec![label.to_string()])),
                    }
                }
                CellOutcome::Failed { reason } => failed.push(format!(
                    "{} {} {} {} ({label}): {reason}",
                    x.spec.algorithm,
                    x.spec.operation.short(),
                    x.spec.mode_label(),
                    size_label(x.spec.size)
                )),
                CellOutcome::Measured(_) => {}
            }
        }
    }
    let mut out = Vec::new();
    let rows: usize = unsupported.iter().map(|(_, who)| who.len()).sum();
    match (rows, first_reason) {
        (1, Some(reason)) => out.push(format!("n/a {reason}")),
        (0, _) | (_, None) => {}
        (_, Some(_)) => out.push(format!(
            "n/a = the library cannot do it (`--verbose` says why): {}",
            unsupported
                .iter()
                .map(|(alg, who)| format!("{alg} in {}", some_of(who, 4)))
                .collect::<Vec<_>>()
                .join("; ")
        )),
    }
    match failed.as_slice() {
        [] => {}
        [one] => out.push(format!("FAILED {one}")),
        [first, ..] => out.push(format!("FAILED: {} cells were not timed; first {first}", failed.len())),
    }
    out
}

/// How many algorithms passed their checks before timing, in how many
/// configurations; the verifications that failed, the first named.
fn verification(run: &RunResult, labels: &Labels) -> Vec<String> {
    let mut checks: Vec<usize> = Vec::new();
    let mut algorithms: Vec<&str> = Vec::new();
    let mut configurations = 0;
    let mut failed: Vec<String> = Vec::new();
    for (c, label) in labelled(run, labels) {
        let before = checks.len();
        for v in &c.verifications {
            match &v.outcome {
                VerificationOutcome::Passed { checks: n } | VerificationOutcome::Defect { checks: n, .. } => {
                    checks.push(*n);
                    if !algorithms.contains(&v.algorithm.as_str()) {
                        algorithms.push(&v.algorithm);
                    }
                }
                VerificationOutcome::Failed { reason } => failed.push(format!("{label} {}: {reason}", v.algorithm)),
                VerificationOutcome::Unsupported { .. } => {}
            }
        }
        configurations += usize::from(checks.len() > before);
    }
    let mut out = Vec::new();
    if !checks.is_empty() {
        let total: usize = checks.iter().sum();
        let what = if configurations > 1 {
            format!(
                "{} algorithms in {configurations} configurations ({} pairs)",
                algorithms.len(),
                checks.len()
            )
        } else {
            format!("{} algorithms", checks.len())
        };
        out.push(format!(
            "verified before timing: {what}, {total} checks (published known answers, round trips, AEAD tamper rejection)"
        ));
    }
    if let Some(first) = failed.first() {
        out.push(format!(
            "VERIFICATION FAILED for {} algorithm{} (not timed): {first}",
            failed.len(),
            if failed.len() == 1 { "" } else { "s" }
        ));
    }
    out
}

/// The library defects found before timing, one finding with every
/// configuration that has it; the figures they concern are marked `!`.
fn defects(run: &RunResult, labels: &Labels) -> Option<String> {
    let mut findings: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for (c, label) in labelled(run, labels) {
        for v in &c.verifications {
            if let VerificationOutcome::Defect { defects, .. } = &v.outcome {
                for d in defects {
                    let what = format!("{} {}", d.algorithm, d.operation.short());
                    let who = findings.entry((what, d.finding.clone())).or_default();
                    if !who.iter().any(|w| w == label) {
                        who.push(label.to_string());
                    }
                }
            }
        }
    }
    if findings.is_empty() {
        return None;
    }
    let said: Vec<String> = findings
        .iter()
        .map(|((what, finding), who)| format!("{what} of {}: {finding}", some_of(who, 3)))
        .collect();
    Some(format!(
        "{DEFECT_MARK} DEFECT (timed as the library runs it; `cryptobench verify`): {}",
        said.join("; ")
    ))
}

/// The clock measured around the cells: one configuration's line, or the
/// range of several with the widest change from before to after.
fn clock(run: &RunResult, labels: &Labels) -> Option<String> {
    let clocked: Vec<(&ConfigurationResult, &str)> = labelled(run, labels).filter(|(c, _)| c.clock.is_some()).collect();
    if let [(c, label)] = clocked.as_slice() {
        return derived::clock_line(c, label).map(|l| format!("clock: {l}"));
    }
    let mut mhz: Vec<f64> = Vec::new();
    let mut widest: Option<(f64, String)> = None;
    let mut without: Vec<String> = Vec::new();
    for (c, label) in &clocked {
        let k = c.clock.as_ref()?;
        match (k.mhz(), &k.not_meaningful, k.before, k.after) {
            (_, Some(why), _, _) => without.push(format!("{label} ({why})")),
            (Some(m), None, before, after) => {
                mhz.push(m);
                if let (Some(b), Some(a)) = (before, after) {
                    let change = (b.mhz - a.mhz).abs() / b.mhz.max(a.mhz);
                    if widest.as_ref().is_none_or(|(w, _)| change > *w) {
                        widest = Some((change, format!("{label}: {:.0} → {:.0} MHz", b.mhz, a.mhz)));
                    }
                }
            }
            (None, None, _, _) => without.push(format!("{label} (not measurable here)")),
        }
    }
    if clocked.is_empty() {
        return None;
    }
    let mut line = String::from("clock: ");
    if !mhz.is_empty() {
        let lo = mhz.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = mhz.iter().copied().fold(0.0, f64::max);
        line.push_str(&format!(
            "{lo:.0}–{hi:.0} MHz measured around the cells of {} configurations (cycles per byte at each one's own)",
            mhz.len()
        ));
        if let Some((_, which)) = widest {
            line.push_str(&format!("; widest change {which}"));
        }
    }
    if !without.is_empty() {
        line.push_str(&format!(
            "{}no clock for {}",
            if mhz.is_empty() { "" } else { "; " },
            some_of(&without, 2)
        ));
    }
    Some(line)
}

/// The sbc-bench score: one configuration's line, or the highest and lowest of several.
fn score(run: &RunResult, labels: &Labels) -> Option<String> {
    let scored: Vec<(&ConfigurationResult, &str)> = labelled(run, labels).filter(|(c, _)| c.score.is_some()).collect();
    match scored.as_slice() {
        [] => None,
        [(c, label)] => derived::score_line(c, label),
        _ => {
            let value = |c: &ConfigurationResult| c.score.as_ref().map_or(0.0, |s| s.aes256cbc_16k_k);
            let high = scored.iter().max_by(|a, b| value(a.0).total_cmp(&value(b.0)))?;
            let low = scored.iter().min_by(|a, b| value(a.0).total_cmp(&value(b.0)))?;
            Some(format!(
                "sbc-bench score (aes-256-cbc 16 KiB, openssl speed's 1000s of bytes per second): {} configurations, from {:.0}k ({}) \
                 to {:.0}k ({}); `--verbose`: each, with its score per MHz",
                scored.len(),
                value(low.0),
                low.1,
                value(high.0),
                high.1
            ))
        }
    }
}

/// How each configuration that measured ECDSA draws its nonces, grouped by how.
fn nonces(run: &RunResult, labels: &Labels) -> Option<String> {
    let mut by_kind: Vec<(&str, Vec<String>)> = Vec::new();
    for (c, label) in labelled(run, labels).filter(|(c, _)| crate::pk_table::measures_ecdsa(c)) {
        let how = c
            .backend
            .as_ref()
            .and_then(|b| b.ecdsa_nonce)
            .map_or("not recorded (a run of an older version)", |n| n.describe());
        match by_kind.iter_mut().find(|(k, _)| *k == how) {
            Some((_, who)) => who.push(label.to_string()),
            None => by_kind.push((how, vec![label.to_string()])),
        }
    }
    if by_kind.is_empty() {
        return None;
    }
    let said: Vec<String> = by_kind.iter().map(|(how, who)| format!("{how} in {}", some_of(who, 3))).collect();
    Some(format!("ECDSA: {}", said.join("; ")))
}

/// How many named exceptions to equal work, of which kinds (the worst
/// first: extra work, then work on other threads, then allocations), and
/// the configurations with the worst kind.
fn named_exceptions(run: &RunResult, labels: &Labels) -> Option<String> {
    let all = exceptions::entries(run, labels, 0);
    if let [one] = all.as_slice() {
        return Some(format!(
            "named exception to equal work (docs/METHOD.md): {}: {}: {}",
            one.label,
            one.cells.join(", "),
            one.text
        ));
    }
    if all.is_empty() {
        return None;
    }
    let rank = |kind: &str| ["extra work", "work on other threads", "allocates"].iter().position(|k| *k == kind);
    // Each kind: how many exceptions, in which configurations.
    let mut kinds: Vec<(&str, usize, Vec<String>)> = Vec::new();
    for e in &all {
        match kinds.iter_mut().find(|(k, _, _)| *k == e.kind()) {
            Some((_, n, who)) => {
                *n += 1;
                if !who.contains(&e.label) {
                    who.push(e.label.clone());
                }
            }
            None => kinds.push((e.kind(), 1, vec![e.label.clone()])),
        }
    }
    kinds.sort_by_key(|(k, _, _)| rank(k).unwrap_or(usize::MAX));
    let mut configurations: Vec<&str> = all.iter().map(|e| e.label.as_str()).collect();
    configurations.dedup();
    let said: Vec<String> = kinds
        .iter()
        .enumerate()
        .map(|(i, (kind, n, who))| {
            if i == 0 {
                format!("{n} {kind} (in {})", some_of(who, 3))
            } else {
                format!("{n} {kind}")
            }
        })
        .collect();
    Some(format!(
        "named exceptions to equal work (docs/METHOD.md): {} in {} configuration{}: {}",
        all.len(),
        configurations.len(),
        if configurations.len() == 1 { "" } else { "s" },
        said.join(", ")
    ))
}

/// How many rows the overhead model was fitted to, and the range of the fixed cost per call.
fn overhead(run: &RunResult, labels: &Labels, unit: Unit) -> Option<String> {
    let fits: Vec<(String, f64)> = labelled(run, labels)
        .flat_map(|(c, label)| {
            c.overheads.iter().map(move |o| {
                let who = if run.configurations.len() > 1 {
                    format!(" ({label})")
                } else {
                    String::new()
                };
                (format!("{} {}{who}", o.algorithm, o.operation.short()), o.per_call_ns)
            })
        })
        .collect();
    if let [(_, _)] = fits.as_slice() {
        let c = run.configurations.iter().find(|c| !c.overheads.is_empty())?;
        return derived::overhead_lines(c, unit, labels.get(0, c.index))
            .pop()
            .map(|l| format!("overhead model, time per call = a + n / r∞: {l}"));
    }
    let low = fits.iter().min_by(|a, b| a.1.total_cmp(&b.1))?;
    let high = fits.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    Some(format!(
        "overhead model, time per call = a + n / r∞: {} rows, a from {:.0} ns ({}) to {:.0} ns ({})",
        fits.len(),
        low.1,
        low.0,
        high.1,
        high.0
    ))
}

/// How many runtime rows were set beside the C library they call, and the
/// one whose call costs the most over the library's (relative to it, so
/// that a public-key operation's microseconds do not hide a digest's).
fn binding(run: &RunResult, labels: &Labels) -> Option<String> {
    let rows: Vec<(&ConfigurationResult, &cryptobench_core::binding::BindingCost)> = run
        .configurations
        .iter()
        .flat_map(|c| c.bindings.iter().map(move |b| (c, b)))
        .collect();
    if rows.is_empty() {
        return None;
    }
    let mut line = format!("binding cost (each runtime against the C library it calls): {} rows", rows.len());
    let most = rows
        .iter()
        .filter_map(|(c, b)| Some((c, b, b.extra_per_call_ns()?, b.direct?, b.direct_per_call_ns.filter(|d| *d > 0.0)?)))
        .max_by(|a, b| (a.2 / a.4).total_cmp(&(b.2 / b.4)));
    match most {
        Some((c, b, extra, direct, direct_ns)) => line.push_str(&format!(
            "; the most, {} {} {}: {extra:+.0} ns per call over {}'s {direct_ns:.0} ns",
            labels.get(0, c.index),
            b.algorithm,
            b.operation.short(),
            labels.get(0, direct)
        )),
        None => line.push_str(", none with its C library in this run"),
    }
    Some(line)
}

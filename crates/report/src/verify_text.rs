//! The text of `cryptobench verify`: per backend and algorithm the checks
//! passed, failed, the library defects found and the checks skipped; each
//! defect with its rule and input, what failed and what was skipped; and
//! the same as JSON.

use std::path::PathBuf;

use comfy_table::presets::NOTHING;
use comfy_table::Table;
use cryptobench_core::checks::{algorithms_of, defects_of, tally, Availability, BackendChecks, CheckReport, Tally, VectorCase, VerifyJob};
use cryptobench_core::defect::Defect;
use cryptobench_core::result::VerificationOutcome;
use serde_json::json;

use crate::width::{columns, truncate, wrap_text, TERMINAL};

/// The table of `verify`: per backend and algorithm the checks passed,
/// failed and skipped, then what failed and what was skipped, and why;
/// within a terminal's width unless `verbose` ([`fit`]).
pub fn table(results: &[BackendChecks], job: &VerifyJob, unmapped: &[&VectorCase], files: &[PathBuf], verbose: bool) -> String {
    let text = full_table(results, job, unmapped, files);
    if verbose {
        text
    } else {
        fit(&text)
    }
}

/// Every line within [`TERMINAL`] columns: a defect's input (a long hex
/// string) cut, with where to read it whole; every other line wrapped.
fn fit(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let content = line.trim_start();
        if content.starts_with("input:") && columns(line) > TERMINAL {
            const WHOLE: &str = " (whole: --verbose, --format json)";
            out.push_str(&truncate(line, TERMINAL - columns(WHOLE)));
            out.push_str(WHOLE);
            out.push('\n');
        } else {
            out.push_str(&wrap_text(line, TERMINAL));
            out.push('\n');
        }
    }
    out
}

fn full_table(results: &[BackendChecks], job: &VerifyJob, unmapped: &[&VectorCase], files: &[PathBuf]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "seed {} (--seed {} repeats these inputs); message lengths {} to {} bytes\n",
        job.seed,
        job.seed,
        job.lengths.first().unwrap_or(&0),
        job.lengths.last().unwrap_or(&0)
    ));
    for f in files {
        out.push_str(&format!("vectors: {}\n", f.display()));
    }
    let mut table = Table::new();
    table
        .load_preset(NOTHING)
        .set_header(vec!["backend", "algorithm", "passed", "failed", "defects", "skipped"]);
    for c in results {
        for alg in algorithms_of(c) {
            let t = tally(c, &alg);
            table.add_row(vec![
                c.configuration.clone(),
                alg,
                t.passed.to_string(),
                if t.failed > 0 { format!("{} FAILED", t.failed) } else { "0".into() },
                if t.defects > 0 {
                    format!("{} DEFECT", t.defects)
                } else {
                    "0".into()
                },
                t.skipped.to_string(),
            ]);
        }
    }
    out.push_str(&format!("\n{table}\n"));
    for c in results {
        match &c.availability {
            Availability::Available => {}
            Availability::Unavailable { reason } => out.push_str(&format!("\n{}: unavailable: {reason}\n", c.configuration)),
            Availability::Crashed { reason } => out.push_str(&format!("\n{}: CRASHED: {reason}\n", c.configuration)),
        }
    }
    let mut failures = Vec::new();
    let mut skips = Vec::new();
    for c in results {
        for v in &c.verifications {
            if let VerificationOutcome::Failed { reason } = &v.outcome {
                failures.push(format!("{} {} known answers: {reason}", c.configuration, v.algorithm));
            }
        }
        for r in &c.reports {
            let kind = r.kind.map(|k| k.name()).unwrap_or("?");
            for f in &r.failures {
                failures.push(format!("{} {} {kind}: {f}", c.configuration, r.algorithm));
            }
            // One line per reason, with its count and the IV and tag lengths it covers.
            for g in &r.skip_groups {
                skips.push(format!("{} {} {kind}: {}", c.configuration, r.algorithm, g.describe()));
            }
        }
    }
    let mut no_backend = CheckReport::default();
    for case in unmapped {
        no_backend.skip(case.skip.clone().unwrap_or_else(|| "no catalog algorithm".into()));
    }
    for g in &no_backend.skip_groups {
        skips.push(format!("vectors no backend can take: {}", g.describe()));
    }
    let defects: Vec<(&str, &Defect)> = results
        .iter()
        .flat_map(|c| defects_of(c).into_iter().map(move |d| (c.configuration.as_str(), d)))
        .collect();
    if !defects.is_empty() {
        out.push_str("\nDEFECT (the library breaks a published rule; cryptobench's checks of it ran):\n");
        for (configuration, d) in &defects {
            out.push_str(&defect_lines(configuration, d));
        }
    }
    if !failures.is_empty() {
        out.push_str("\nFAILED:\n");
        for f in &failures {
            out.push_str(&format!("  {f}\n"));
        }
    }
    if !skips.is_empty() {
        out.push_str("\nskipped:\n");
        for s in &skips {
            out.push_str(&format!("  {s}\n"));
        }
    }
    let total = results
        .iter()
        .flat_map(|c| algorithms_of(c).into_iter().map(move |a| tally(c, &a)))
        .fold(Tally::default(), |sum, t| Tally {
            passed: sum.passed + t.passed,
            failed: sum.failed + t.failed,
            skipped: sum.skipped + t.skipped,
            defects: sum.defects + t.defects,
        });
    out.push_str(&format!(
        "\n{} checks passed, {} failed, {} library {} found, {} skipped\n",
        total.passed,
        total.failed,
        total.defects,
        if total.defects == 1 { "defect" } else { "defects" },
        total.skipped
    ));
    out
}

/// One defect: the library and what it does, the rule, the input, what is known of it.
fn defect_lines(configuration: &str, d: &Defect) -> String {
    let mut text = format!(
        "  {configuration} {} {}: {} {}\n    rule: {}\n    input: {}\n",
        d.algorithm,
        d.operation.short(),
        d.library,
        d.finding,
        d.rule,
        d.input
    );
    if let Some(k) = &d.known {
        text.push_str(&format!("    known: {} (in {}); {}\n", k.id, k.affected, k.fixed));
    }
    text
}

/// `verify --format json`: the tallies, every backend's reports, the seed and lengths.
pub fn json(results: &[BackendChecks], job: &VerifyJob, unmapped: &[&VectorCase]) -> String {
    let summary: Vec<_> = results
        .iter()
        .flat_map(|c| {
            algorithms_of(c)
                .into_iter()
                .map(move |a| json!({"configuration": c.configuration, "algorithm": a, "tally": tally(c, &a)}))
        })
        .collect();
    let defects: Vec<_> = results
        .iter()
        .flat_map(|c| {
            defects_of(c)
                .into_iter()
                .map(move |d| json!({"configuration": c.configuration, "defect": d}))
        })
        .collect();
    let doc = json!({
        "seed": job.seed,
        "lengths": job.lengths,
        "summary": summary,
        "defects": defects,
        "backends": results,
        "vectors_no_backend_can_take": unmapped.len(),
    });
    serde_json::to_string_pretty(&doc).expect("serialisable") + "\n"
}

//! `cryptobench verify`: every backend checks in its own worker (as for
//! measuring) the known answers, round trips and tamper rejection, the
//! one-shot outputs for seeded random inputs of many lengths, its streaming
//! API fed in random chunks, and test vector files; the orchestrator then
//! compares the outputs across backends and prints passed / failed / skipped
//! per backend and algorithm.

use std::process::ExitCode;

use anyhow::Result;
use comfy_table::presets::NOTHING;
use comfy_table::Table;
use cryptobench_backends::{cavp, vectors};
use cryptobench_core::checks::{VectorCase, VerifyJob};
use cryptobench_core::protocol::WorkerMessage;
use serde_json::json;

use crate::cli::{FormatArg, VerifyArgs};
use crate::exit::{usage, INCOMPLETE};
use crate::orchestrate::cross_check::{algorithms_of, compare_agreement, tally, Availability, BackendChecks};
use crate::orchestrate::plan::{algorithms, configurations};
use crate::orchestrate::worker_client::probe_job;
use crate::orchestrate::worker_client::{run_job, WorkerEnd};

/// Message lengths for agreement and chunked checks: empty, around block
/// and chunk boundaries, and up to a few MiB.
const LENGTHS: &[usize] = &[
    0,
    1,
    15,
    16,
    17,
    31,
    32,
    33,
    63,
    64,
    65,
    100,
    255,
    256,
    257,
    1000,
    1024,
    4096,
    4099,
    16384,
    65536,
    65537,
    1 << 20,
    (1 << 20) + 17,
    4 << 20,
];
const DEFAULT_MAX_LENGTH: usize = 4 << 20;

pub fn verify(args: &VerifyArgs) -> Result<ExitCode> {
    if !matches!(args.format, FormatArg::Table | FormatArg::Json) {
        return Err(usage(
            format!("--format {:?} is not available for `verify`; use table or json", args.format).to_lowercase(),
        ));
    }
    let named = !args.backends.is_empty() && !crate::orchestrate::plan::asks_for_all(&args.backends);
    let specs = if args.backends.is_empty() {
        // Every backend, each where --arch/--worker (given before any --backend) places it.
        configurations(&["all".to_string()], &args.placement)?
    } else {
        configurations(&args.backends, &args.placement)?
    };
    let all = vec!["all".to_string()];
    let (symmetric, public_key) = crate::orchestrate::plan_pk::split(if args.algos.is_empty() { &all } else { &args.algos })?;
    let algs = if symmetric.is_empty() {
        Vec::new()
    } else {
        algorithms(&symmetric, &[])?
    };
    let mut algorithm_ids: Vec<String> = algs.iter().map(|a| a.id.to_string()).collect();
    algorithm_ids.extend(public_key.iter().map(|a| a.id.to_string()));
    let mut cases: Vec<VectorCase> = Vec::new();
    let mut pk_cases: Vec<cryptobench_core::checks::PkVectorCase> = Vec::new();
    for path in &args.vectors {
        let text = std::fs::read_to_string(path).map_err(|e| usage(format!("--vectors {}: {e}", path.display())))?;
        let label = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if cryptobench_backends::pk_vectors::is_pk_file(&text) {
            let parsed =
                cryptobench_backends::pk_vectors::parse(&text, &label).map_err(|e| usage(format!("--vectors {}: {e}", path.display())))?;
            pk_cases.extend(
                parsed
                    .into_iter()
                    .filter(|c| c.algorithm.as_ref().is_none_or(|id| algorithm_ids.contains(id))),
            );
            continue;
        }
        let parsed = if cavp::looks_like_rsp(&text) {
            cavp::parse(&text, &label).map_err(|e| usage(format!("--vectors {}: {e}", path.display())))?
        } else {
            vectors::parse(&text, &label).map_err(|e| usage(format!("--vectors {}: {e}", path.display())))?
        };
        cases.extend(
            parsed
                .into_iter()
                .filter(|c| c.algorithm.as_ref().is_none_or(|id| algorithm_ids.contains(id))),
        );
    }
    let max = args.max_length.unwrap_or(DEFAULT_MAX_LENGTH);
    let seed = args.seed.unwrap_or_else(rand::random);
    let job = VerifyJob {
        algorithms: algorithm_ids.clone(),
        lengths: LENGTHS.iter().copied().filter(|&n| n <= max).collect(),
        seed,
        vectors: cases.clone(),
        pk_vectors: pk_cases,
    };

    let mut results = Vec::new();
    for spec in &specs {
        let mut worker_job = probe_job(spec, None);
        worker_job.probe_only = false;
        worker_job.verify = Some(job.clone());
        let mut checks = BackendChecks {
            configuration: spec.display(),
            availability: Availability::Available,
            backend: None,
            verifications: Vec::new(),
            reports: Vec::new(),
        };
        let end = run_job(&worker_job, args.workers.silence_limit(0), |m| match m {
            WorkerMessage::Hello { backend, .. } => checks.backend = Some(backend),
            WorkerMessage::Verified(v) => checks.verifications.push(v),
            WorkerMessage::Checked(r) => checks.reports.push(r),
            _ => {}
        })?;
        match end {
            WorkerEnd::Completed => {}
            WorkerEnd::Unavailable(reason) => checks.availability = Availability::Unavailable { reason },
            WorkerEnd::Crashed(reason) | WorkerEnd::TimedOut(reason) => checks.availability = Availability::Crashed { reason },
        }
        results.push(checks);
    }
    compare_agreement(&mut results);

    let unmapped: Vec<&VectorCase> = cases.iter().filter(|c| c.algorithm.is_none()).collect();
    let failed = results.iter().any(|c| {
        matches!(c.availability, Availability::Crashed { .. })
            || (named && matches!(c.availability, Availability::Unavailable { .. }))
            || algorithms_of(c).iter().any(|a| tally(c, a).failed > 0)
    });
    match args.format {
        FormatArg::Json => print_json(&results, &job, &unmapped),
        _ => print_table(&results, &job, &unmapped, &args.vectors),
    }
    Ok(if failed { ExitCode::from(INCOMPLETE) } else { ExitCode::SUCCESS })
}

fn print_table(results: &[BackendChecks], job: &VerifyJob, unmapped: &[&VectorCase], files: &[std::path::PathBuf]) {
    println!(
        "seed {} (--seed {} repeats these inputs); message lengths {} to {} bytes",
        job.seed,
        job.seed,
        job.lengths.first().unwrap_or(&0),
        job.lengths.last().unwrap_or(&0)
    );
    for f in files {
        println!("vectors: {}", f.display());
    }
    let mut table = Table::new();
    table
        .load_preset(NOTHING)
        .set_header(vec!["backend", "algorithm", "passed", "failed", "skipped"]);
    for c in results {
        for alg in algorithms_of(c) {
            let t = tally(c, &alg);
            table.add_row(vec![
                c.configuration.clone(),
                alg,
                t.passed.to_string(),
                if t.failed > 0 { format!("{} FAILED", t.failed) } else { "0".into() },
                t.skipped.to_string(),
            ]);
        }
    }
    println!("\n{table}");
    for c in results {
        match &c.availability {
            Availability::Available => {}
            Availability::Unavailable { reason } => println!("\n{}: unavailable: {reason}", c.configuration),
            Availability::Crashed { reason } => println!("\n{}: CRASHED: {reason}", c.configuration),
        }
    }
    let mut failures = Vec::new();
    let mut skips = Vec::new();
    for c in results {
        for v in &c.verifications {
            if let cryptobench_core::result::VerificationOutcome::Failed { reason } = &v.outcome {
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
    let mut no_backend = cryptobench_core::checks::CheckReport::default();
    for case in unmapped {
        no_backend.skip(case.skip.clone().unwrap_or_else(|| "no catalog algorithm".into()));
    }
    for g in &no_backend.skip_groups {
        skips.push(format!("vectors no backend can take: {}", g.describe()));
    }
    if !failures.is_empty() {
        println!("\nFAILED:");
        for f in &failures {
            println!("  {f}");
        }
    }
    if !skips.is_empty() {
        println!("\nskipped:");
        for s in &skips {
            println!("  {s}");
        }
    }
    let total = results
        .iter()
        .flat_map(|c| algorithms_of(c).into_iter().map(move |a| tally(c, &a)))
        .fold((0, 0, 0), |(p, f, s), t| (p + t.passed, f + t.failed, s + t.skipped));
    println!("\n{} checks passed, {} failed, {} skipped", total.0, total.1, total.2);
}

fn print_json(results: &[BackendChecks], job: &VerifyJob, unmapped: &[&VectorCase]) {
    let summary: Vec<_> = results
        .iter()
        .flat_map(|c| {
            algorithms_of(c)
                .into_iter()
                .map(move |a| json!({"configuration": c.configuration, "algorithm": a, "tally": tally(c, &a)}))
        })
        .collect();
    let doc = json!({
        "seed": job.seed,
        "lengths": job.lengths,
        "summary": summary,
        "backends": results,
        "vectors_no_backend_can_take": unmapped.len(),
    });
    println!("{}", serde_json::to_string_pretty(&doc).expect("serialisable"));
}

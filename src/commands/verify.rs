//! `cryptobench verify`: every backend checks in its own worker (as for
//! measuring) the known answers, round trips and tamper rejection, the
//! one-shot outputs for seeded random inputs of many lengths, its streaming
//! API fed in random chunks, and test vector files; the orchestrator then
//! compares the outputs across backends and prints passed / failed / skipped
//! per backend and algorithm.

use std::process::ExitCode;

use anyhow::Result;
use cryptobench_backends::checks::pk_vectors;
use cryptobench_backends::checks::{cavp, vectors};
use cryptobench_core::checks::{algorithms_of, defects_of, tally, Availability, BackendChecks, VectorCase, VerifyJob};
use cryptobench_core::protocol::WorkerMessage;
use cryptobench_report::verify_text;

use crate::cli::{FormatArg, VerifyArgs};
use crate::exit::{usage, DEFECTS, INCOMPLETE};
use crate::orchestrate::cross_check::compare_agreement;
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
        if pk_vectors::is_pk_file(&text) {
            let parsed = pk_vectors::parse(&text, &label).map_err(|e| usage(format!("--vectors {}: {e}", path.display())))?;
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
        FormatArg::Json => print!("{}", verify_text::json(&results, &job, &unmapped)),
        _ => print!("{}", verify_text::table(&results, &job, &unmapped, &args.vectors, args.verbose)),
    }
    let defects = results.iter().any(|c| !defects_of(c).is_empty());
    // 1 where a check failed or could not run; else 3 where a library has a
    // defect; else 0 (README, "Exit status"; `verify --help`).
    Ok(match (failed, defects) {
        (true, _) => ExitCode::from(INCOMPLETE),
        (false, true) => ExitCode::from(DEFECTS),
        (false, false) => ExitCode::SUCCESS,
    })
}

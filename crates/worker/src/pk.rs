//! The public-key side of `cryptobench worker` (crates/core/src/pk.rs):
//! which public-key algorithms the backend offers, verifying one before its
//! first cell, measuring cells, and `verify`'s checks.

use anyhow::Result;
use cryptobench_backends::checks::pk_agreement;
use cryptobench_backends::checks::pk_verify::{pk_of, verify_pk_algorithm};
use cryptobench_backends::{Backend, NamedWork};
use cryptobench_core::checks::VerifyJob;
use cryptobench_core::pk::{self, PkAlgorithmSpec, PK_CATALOG};
use cryptobench_core::protocol::{write_line, Job, WorkerMessage};
use cryptobench_core::result::{CellOutcome, Verification, VerificationOutcome};
use cryptobench_core::CellSpec;

use super::barrier::{Answers, CellGate};

/// The public-key ids the backend offers, for the worker's hello.
pub fn supported(backend: &dyn Backend) -> Vec<String> {
    PK_CATALOG
        .iter()
        .filter(|a| pk_of(backend, a).is_ok())
        .map(|a| a.id.to_string())
        .collect()
}

/// The public-key extra work the library names, per algorithm: one line per
/// group of operations ("verify: …"), as the hello carries it.
pub fn extra_work(backend: &dyn Backend) -> Vec<(String, String)> {
    let Some(pk) = backend.pk() else {
        return Vec::new();
    };
    PK_CATALOG
        .iter()
        .map(|a| (a.id.to_string(), NamedWork::lines(&pk.extra_work(a))))
        .filter(|(_, lines)| !lines.is_empty())
        .collect()
}

fn activity(out: &mut impl std::io::Write, what: String) -> std::io::Result<()> {
    write_line(out, &WorkerMessage::Activity { what })
}

/// Verifies `alg` once (the outcome is remembered in `verified`), then
/// measures the cell (the job's `position`-th) if it passed, in step
/// with the other workers when the job has barriers.
pub fn measure(
    backend: &dyn Backend,
    alg: &'static PkAlgorithmSpec,
    (position, cell): (usize, &CellSpec),
    job: &Job,
    verified: &mut Vec<(String, VerificationOutcome)>,
    out: &mut impl std::io::Write,
    answers: &mut Answers,
) -> Result<CellOutcome> {
    let outcome = match verified.iter().find(|(id, _)| id == alg.id) {
        Some((_, o)) => o.clone(),
        None => {
            activity(out, format!("verifying {}", alg.id))?;
            let o = verify_pk_algorithm(backend, alg);
            write_line(
                out,
                &WorkerMessage::Verified(Verification {
                    algorithm: alg.id.to_string(),
                    outcome: o.clone(),
                }),
            )?;
            verified.push((alg.id.to_string(), o.clone()));
            o
        }
    };
    Ok(match outcome {
        // A library defect is named with the cell (docs/METHOD.md, "Library defects"); the cell is timed.
        VerificationOutcome::Passed { .. } | VerificationOutcome::Defect { .. } => {
            activity(out, format!("measuring {}", cell.describe()))?;
            let floor = cryptobench_harness::pk_floor(job.replicates);
            if job.barrier {
                let mut gate = CellGate::new(&mut *out, answers, position);
                cryptobench_harness::run_pk_cell_gated(backend, alg, cell, &job.timing, floor, &mut gate)
            } else {
                cryptobench_harness::run_pk_cell_gated(backend, alg, cell, &job.timing, floor, &mut cryptobench_harness::Alone)
            }
        }
        VerificationOutcome::Failed { reason } => CellOutcome::Failed {
            reason: format!("verification failed, not timed: {reason}"),
        },
        VerificationOutcome::Unsupported { reason } => CellOutcome::Unsupported { reason },
    })
}

/// `verify` for a public-key id: the checks made before timing, then the
/// cross-library fingerprints. Returns false when `id` is not public key.
pub fn verify(backend: &dyn Backend, id: &str, job: &VerifyJob, out: &mut impl std::io::Write) -> Result<bool> {
    let Some(alg) = pk::find(id) else {
        return Ok(false);
    };
    activity(out, format!("verifying {id}"))?;
    let outcome = verify_pk_algorithm(backend, alg);
    let supported = !matches!(outcome, VerificationOutcome::Unsupported { .. });
    write_line(
        out,
        &WorkerMessage::Verified(Verification {
            algorithm: alg.id.to_string(),
            outcome,
        }),
    )?;
    if supported {
        activity(out, format!("cross-checking {id}"))?;
        write_line(out, &WorkerMessage::Checked(pk_agreement::agreement(backend, alg, job.seed)))?;
    }
    Ok(true)
}

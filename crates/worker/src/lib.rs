//! `cryptobench worker`: measures one configuration in its own process.
//! Loading the library happens here and nowhere else (see DESIGN: isolation
//! by process), after pinning, with the environment the orchestrator chose.

mod barrier;
mod pk;

use std::collections::BTreeMap;
use std::io::BufRead;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use cryptobench_backends::checks::verify::verify_algorithm;
use cryptobench_backends::checks::{agreement, vectors};
use cryptobench_backends::{libraries, open, Backend, NamedWork, Support};
use cryptobench_core::catalog;
use cryptobench_core::checks::VerifyJob;
use cryptobench_core::protocol::{read_job, write_line, BarrierPoint, ClockPhase, Job, WorkerMessage, PROTOCOL_VERSION};
use cryptobench_core::result::{CellOutcome, CellResult, TimingSettings, Verification, VerificationOutcome};
use cryptobench_core::CATALOG;

use self::barrier::{wait, Answers, CellGate};

/// Tells the orchestrator what starts now, so that a worker that falls
/// silent can be reported with what it was doing.
fn activity(out: &mut impl std::io::Write, what: impl Into<String>) -> std::io::Result<()> {
    write_line(out, &WorkerMessage::Activity { what: what.into() })
}

/// Reads the job, loads the library and answers: hello, then the
/// verifications and cells (or the checks of `verify`), then done.
pub fn serve() -> Result<ExitCode> {
    // The job is the first line (or all of stdin, without a newline); in a
    // job with barriers the orchestrator's answers follow on later lines.
    let mut stdin = std::io::stdin().lock();
    let mut text = String::new();
    stdin.read_line(&mut text).context("reading the job from stdin")?;
    let job = read_job(&text).context("the job on stdin is not valid; `cryptobench worker` is started by `cryptobench run`")?;
    if job.protocol != PROTOCOL_VERSION {
        bail!("job of protocol {} given to a worker of protocol {PROTOCOL_VERSION}", job.protocol);
    }
    let mut out = std::io::stdout().lock();
    if let Some(cpu) = job.pin_cpu {
        if let Err(e) = cryptobench_cpu::pin_to_cpu(cpu) {
            write_line(
                &mut out,
                &WorkerMessage::Unavailable {
                    protocol: PROTOCOL_VERSION,
                    reason: e.to_string(),
                },
            )?;
            return Ok(ExitCode::SUCCESS);
        }
    }
    let backend = match open(&job.configuration) {
        Ok(b) => b,
        Err(e) => {
            write_line(
                &mut out,
                &WorkerMessage::Unavailable {
                    protocol: PROTOCOL_VERSION,
                    reason: e.to_string(),
                },
            )?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    let symmetric: Vec<_> = CATALOG.iter().filter(|a| backend.support(a) == Support::Supported).collect();
    let mut extra_work: BTreeMap<String, String> = symmetric
        .iter()
        .map(|a| (a.id.to_string(), NamedWork::lines(&backend.extra_work(a))))
        .collect();
    let mut supported: Vec<String> = symmetric.iter().map(|a| a.id.to_string()).collect();
    supported.extend(pk::supported(backend.as_ref()));
    extra_work.extend(pk::extra_work(backend.as_ref()));
    extra_work.retain(|_, lines| !lines.is_empty());
    let mut info = backend.info();
    info.kind = libraries::find(&job.configuration.backend).map(|e| e.kind.name().to_string());
    info.ecdsa_nonce = backend.pk().and_then(|pk| pk.ecdsa_nonce());
    write_line(
        &mut out,
        &WorkerMessage::Hello {
            protocol: PROTOCOL_VERSION,
            backend: info,
            supported,
            platform: Some(cryptobench_cpu::worker_platform()),
            barrier: true,
            extra_work,
        },
    )?;
    if let Some(verify) = &job.verify {
        verify_all(backend.as_ref(), verify, &mut out)?;
    } else if !job.probe_only {
        // Under an emulator the add chains would time the emulator: no clock then.
        let emulated = cryptobench_cpu::emulation::detect().is_some();
        // With barriers, every worker measures its clock at the same time: under the load of the others.
        let clock = |out: &mut std::io::StdoutLock, answers: &mut Answers, phase, at: usize| -> Result<()> {
            if job.skip_clock.contains(&phase) {
                return Ok(());
            }
            let clock = if emulated {
                None
            } else {
                if job.barrier {
                    wait(out, answers, BarrierPoint::Clock, at, false).map_err(anyhow::Error::msg)?;
                }
                activity(out, "measuring the core clock")?;
                cryptobench_cpu::clock::measure_clock()
            };
            Ok(write_line(out, &WorkerMessage::Clock { phase, clock })?)
        };
        let mut answers = Answers {
            reader: &mut stdin,
            // stdin: the answers are waited for busily there (barrier.rs).
            fd: cfg!(unix).then_some(0),
        };
        clock(&mut out, &mut answers, ClockPhase::Before, 0)?;
        measure_all(backend.as_ref(), &job, &mut out, &mut answers)?;
        clock(&mut out, &mut answers, ClockPhase::After, job.cells.len())?;
    }
    write_line(&mut out, &WorkerMessage::Done)?;
    Ok(ExitCode::SUCCESS)
}

/// `cryptobench verify`: per algorithm the checks made before timing, then the
/// one-shot fingerprints for cross-backend agreement and the chunked
/// streaming check; then the test vectors of the job.
fn verify_all(backend: &dyn Backend, job: &VerifyJob, out: &mut impl std::io::Write) -> Result<()> {
    for id in &job.algorithms {
        if pk::verify(backend, id, job, out)? {
            continue;
        }
        let alg = catalog::get(id)?;
        activity(out, format!("verifying {id}"))?;
        let outcome = verify_algorithm(backend, alg);
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
            write_line(
                out,
                &WorkerMessage::Checked(agreement::agreement(backend, alg, &job.lengths, job.seed)),
            )?;
            write_line(
                out,
                &WorkerMessage::Checked(agreement::chunked(backend, alg, &job.lengths, job.seed)),
            )?;
        }
    }
    if !job.vectors.is_empty() {
        activity(out, format!("running {} test vectors", job.vectors.len()))?;
    }
    for report in vectors::run(backend, &job.vectors) {
        write_line(out, &WorkerMessage::Checked(report))?;
    }
    if !job.pk_vectors.is_empty() {
        activity(out, format!("running {} public-key test vectors", job.pk_vectors.len()))?;
    }
    for report in cryptobench_backends::checks::pk_vectors::run(backend, &job.pk_vectors) {
        write_line(out, &WorkerMessage::Checked(report))?;
    }
    Ok(())
}

/// Verifies each algorithm once, then measures its cells (or reports why not).
fn measure_all(backend: &dyn Backend, job: &Job, out: &mut impl std::io::Write, answers: &mut Answers) -> Result<()> {
    let mut verified: Vec<(String, VerificationOutcome)> = Vec::new();
    // Workers measuring together (--threads) stop each sample together: their cells keep --time each.
    let symmetric = job
        .cells
        .iter()
        .filter(|c| cryptobench_core::pk::find(&c.algorithm).is_none())
        .count();
    let mut budget = cryptobench_harness::RunBudget::new(Duration::from_nanos(job.timing.cell_budget_ns), symmetric);
    for (position, cell) in job.cells.iter().enumerate() {
        if let Some(alg) = cryptobench_core::pk::find(&cell.algorithm) {
            let result = pk::measure(backend, alg, (position, cell), job, &mut verified, out, answers)?;
            write_line(
                out,
                &WorkerMessage::Cell(CellResult {
                    spec: cell.clone(),
                    outcome: result,
                }),
            )?;
            continue;
        }
        let alg = catalog::get(&cell.algorithm)?;
        let outcome = match verified.iter().find(|(id, _)| id == alg.id) {
            Some((_, o)) => o.clone(),
            None => {
                activity(out, format!("verifying {}", alg.id))?;
                let o = verify_algorithm(backend, alg);
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
        let result = match outcome {
            // A library defect is named with the cell (docs/METHOD.md, "Library defects"); the cell is timed.
            VerificationOutcome::Passed { .. } | VerificationOutcome::Defect { .. } => {
                activity(out, format!("measuring {}", cell.describe()))?;
                if job.barrier {
                    let mut gate = CellGate::new(&mut *out, answers, position);
                    cryptobench_harness::run_cell_gated(backend, alg, cell, &job.timing, &mut gate)
                } else {
                    let timing = TimingSettings {
                        cell_budget_ns: budget.next_cell().as_nanos() as u64,
                        ..job.timing.clone()
                    };
                    let started = Instant::now();
                    let outcome = cryptobench_harness::run_cell(backend, alg, cell, &timing);
                    budget.record(started.elapsed());
                    outcome
                }
            }
            VerificationOutcome::Failed { reason } => CellOutcome::Failed {
                reason: format!("verification failed, not timed: {reason}"),
            },
            VerificationOutcome::Unsupported { reason } => CellOutcome::Unsupported { reason },
        };
        write_line(
            out,
            &WorkerMessage::Cell(CellResult {
                spec: cell.clone(),
                outcome: result,
            }),
        )?;
    }
    Ok(())
}

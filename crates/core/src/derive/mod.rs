//! Figures derived from measured ones after a run: cycles per byte at the
//! measured clock, the overhead model per row, sbc-bench's score per MHz,
//! and each runtime's rows against the C library underneath ([`binding`]).
//! Nothing here measures; everything is recomputable from the samples. The
//! reference classes of cores a score is held against are a table of
//! crates/cpu: the caller names them in [`ClockScore`] afterwards.

pub mod binding;
pub mod pk_binding;

use crate::overhead::fit;
use crate::result::{CellOutcome, ClockScore, ConfigurationClock, ConfigurationResult, OverheadFit, RunResult};
use crate::Operation;

/// Fills every configuration's derived figures. An emulated worker gets no
/// clock, cycles per byte or score: they would describe the emulator (the
/// reason is recorded instead).
pub fn derive(run: &mut RunResult) {
    for c in &mut run.configurations {
        c.overheads = overheads(c);
        if let Some(emulator) = c.platform.as_ref().and_then(|p| p.emulated_by.clone()) {
            c.clock = Some(ConfigurationClock {
                not_meaningful: Some(format!(
                    "the worker runs under {emulator}: a clock measured there, and cycles per byte or a score per MHz \
                     counted from it, would describe the emulator, not a CPU"
                )),
                ..Default::default()
            });
            c.score = None;
            continue;
        }
        if c.placement.as_ref().is_some_and(|p| p.threads > 1) {
            // Several cores: each worker at its own clock; the score is a one-core figure.
            group_cycles_per_byte(c);
            c.score = None;
            continue;
        }
        cycles_per_byte(c);
        c.score = score(c);
    }
    scaling_efficiency(run);
}

/// Several workers: each worker's cycles per byte at the clock it measured
/// on its core, and for the aggregate the cycles of all those cores per byte
/// of all their output, Σ clock / Σ throughput.
fn group_cycles_per_byte(c: &mut ConfigurationResult) {
    let Some(p) = &c.placement else { return };
    let mhz: Vec<Option<f64>> = p.clocks.iter().map(|k| k.mhz()).collect();
    for cell in &mut c.cells {
        let CellOutcome::Measured(m) = &mut cell.outcome else { continue };
        let Some(a) = &mut m.aggregate else { continue };
        for (w, clock) in a.workers.iter_mut().zip(&mhz) {
            w.cycles_per_byte = clock.filter(|_| w.summary.median > 0.0).map(|f| f * 1e6 / w.summary.median);
        }
        let all: Option<f64> = mhz.iter().take(a.workers.len()).copied().sum();
        m.cycles_per_byte = all
            .filter(|_| m.summary.median > 0.0 && mhz.len() >= a.workers.len())
            .map(|f| f * 1e6 / m.summary.median);
    }
}

/// Per aggregated cell: its median over (workers × the same cell's median
/// with one worker of the same library in this run).
/// A library's one-worker medians per cell.
type Base = (crate::result::ConfigurationSpec, Vec<(crate::CellSpec, f64)>);

fn scaling_efficiency(run: &mut RunResult) {
    let base: Vec<Base> = run
        .configurations
        .iter()
        .filter(|c| c.placement.as_ref().is_some_and(|p| p.threads == 1 && p.core_type.is_none()))
        .map(|c| {
            let medians = c
                .cells
                .iter()
                .filter_map(|x| match &x.outcome {
                    CellOutcome::Measured(m) => Some((x.spec.clone(), m.summary.median)),
                    _ => None,
                })
                .collect();
            (c.spec.clone(), medians)
        })
        .collect();
    for c in &mut run.configurations {
        let Some(threads) = c.placement.as_ref().map(|p| p.threads).filter(|&t| t > 1) else {
            continue;
        };
        let Some((_, medians)) = base.iter().find(|(spec, _)| *spec == c.spec) else {
            continue;
        };
        for cell in &mut c.cells {
            let CellOutcome::Measured(m) = &mut cell.outcome else { continue };
            let one = medians
                .iter()
                .find(|(spec, _)| *spec == cell.spec)
                .map(|x| x.1)
                .filter(|&v| v > 0.0);
            if let Some(a) = &mut m.aggregate {
                a.scaling_efficiency = one.map(|one| m.summary.median / (threads as f64 * one));
            }
        }
    }
    binding::derive(run);
    pk_binding::derive(run);
}

fn cycles_per_byte(c: &mut ConfigurationResult) {
    let Some(mhz) = c.clock.as_ref().and_then(|k| k.mhz()) else {
        return;
    };
    // Public-key figures are operations per second: cycles per byte would mean nothing.
    for cell in c.cells.iter_mut().filter(|x| !x.spec.is_public_key()) {
        if let CellOutcome::Measured(m) = &mut cell.outcome {
            m.cycles_per_byte = (m.summary.median > 0.0).then(|| mhz * 1e6 / m.summary.median);
        }
    }
}

fn overheads(c: &ConfigurationResult) -> Vec<OverheadFit> {
    let mut rows: Vec<(String, Operation, String)> = Vec::new();
    for cell in c.cells.iter().filter(|x| !x.spec.is_public_key()) {
        let key = (cell.spec.algorithm.clone(), cell.spec.operation, cell.spec.mode_label());
        if !rows.contains(&key) {
            rows.push(key);
        }
    }
    rows.into_iter()
        .filter_map(|(algorithm, operation, mode)| {
            let points: Vec<(usize, f64)> = c
                .cells
                .iter()
                .filter(|x| x.spec.algorithm == algorithm && x.spec.operation == operation && x.spec.mode_label() == mode)
                .filter_map(|x| match &x.outcome {
                    CellOutcome::Measured(m) => Some((x.spec.size, m.summary.seconds_per_call)),
                    _ => None,
                })
                .collect();
            let f = fit(&points)?;
            Some(OverheadFit {
                algorithm,
                operation,
                mode,
                per_call_ns: f.per_call_s * 1e9,
                asymptotic_bytes_per_s: f.asymptotic_bytes_per_s,
                half_peak_bytes: f.half_peak_bytes,
                sizes: points.iter().map(|p| p.0).collect(),
            })
        })
        .collect()
}

/// The sbc-bench metric, where aes-256-cbc encryption at 16 KiB was
/// measured in stream mode (openssl speed's semantics): the score and, at
/// the measured clock, the score per MHz. The classes are left to the caller.
fn score(c: &ConfigurationResult) -> Option<ClockScore> {
    let median = c.cells.iter().find_map(|x| match &x.outcome {
        CellOutcome::Measured(m)
            if x.spec.algorithm == "aes-256-cbc"
                && x.spec.size == 16384
                && x.spec.operation == Operation::Encrypt
                && x.spec.mode == crate::Mode::Stream =>
        {
            Some(m.summary.median)
        }
        _ => None,
    })?;
    let score_k = median / 1000.0;
    let mhz = c.clock.as_ref().and_then(|k| k.mhz());
    Some(ClockScore {
        aes256cbc_16k_k: score_k,
        mhz,
        score_per_mhz: mhz.map(|m| score_k / m),
        nearest_class: None,
        nearest_class_score_per_mhz: None,
        core_class: None,
        clock_estimate_mhz: None,
    })
}

//! Public-key cells: the same timing loop and statistics as every other
//! cell (a sample is N operations; figures are operations per second), on
//! keys generated once from the run's seed outside the timing, with at
//! least [`cryptobench_core::stopping::PK_MIN_SAMPLES`] samples within a
//! cap ([`crate::PK_FLOOR`]) however slow one call is.

use cryptobench_backends::checks::pk_verify::{check_pk_primitive, pk_of};
use cryptobench_backends::pk::keys::{keys_for, RUN_SEED};
use cryptobench_backends::{Backend, BackendError};
use cryptobench_core::pk::PkAlgorithmSpec;
use cryptobench_core::result::{CellOutcome, TimingSettings};
use cryptobench_core::{CellSpec, Operation};

use crate::{measure_units_gated, AlignedBuffer, Alone, Gate, SampleFloor, PK_FLOOR};

/// How much longer than its other cells a long-running cell may sample.
pub const LONG_CELL_FACTOR: u64 = 20;

/// Timing for cells whose single call takes long and varies widely (RSA
/// key generation: a prime search of random length): the same sample
/// target and stop rule, a budget [`LONG_CELL_FACTOR`] times as long, so
/// that the median of many key generations, not of three, is reported.
pub fn long_cell_timing(timing: &TimingSettings) -> TimingSettings {
    TimingSettings {
        cell_budget_ns: timing.cell_budget_ns.saturating_mul(LONG_CELL_FACTOR),
        ..timing.clone()
    }
}

/// Prepares, checks and measures one public-key cell. The algorithm must
/// already have passed `verify_pk_algorithm` on this backend.
pub fn run_pk_cell(backend: &dyn Backend, alg: &PkAlgorithmSpec, cell: &CellSpec, timing: &TimingSettings) -> CellOutcome {
    run_pk_cell_gated(backend, alg, cell, timing, PK_FLOOR, &mut Alone)
}

/// [`run_pk_cell`], meeting the other workers of the same cell at `gate`
/// (`run --threads`: every worker's sample k starts together, as for
/// symmetric cells). Only a cell that is timed meets them: one that is n/a
/// or fails its check does so in every worker alike (the same library).
pub fn run_pk_cell_gated(
    backend: &dyn Backend,
    alg: &PkAlgorithmSpec,
    cell: &CellSpec,
    timing: &TimingSettings,
    floor: SampleFloor,
    gate: &mut dyn Gate,
) -> CellOutcome {
    let pk = match pk_of(backend, alg) {
        Ok(pk) => pk,
        Err(reason) => return CellOutcome::Unsupported { reason },
    };
    if !alg.operations.contains(&cell.operation) {
        return CellOutcome::Unsupported {
            reason: format!("{} has no {} operation", alg.id, cell.operation.short()),
        };
    }
    let keys = keys_for(alg, RUN_SEED);
    let mut buffer = AlignedBuffer::random(cell.size);
    let mut primitive = match pk.prepare_pk(cell, alg, &keys, buffer.as_slice()) {
        Ok(p) => p,
        Err(e @ BackendError::Unsupported(_)) => return CellOutcome::Unsupported { reason: e.to_string() },
        Err(e) => {
            return CellOutcome::Failed {
                reason: format!("preparing the cell failed: {e}"),
            }
        }
    };
    if let Err(reason) = check_pk_primitive(pk, cell, alg, &keys, primitive.as_mut(), buffer.as_slice()) {
        return CellOutcome::Failed { reason };
    }
    let timing = if cell.operation == Operation::Keygen && alg.long_keygen {
        long_cell_timing(timing)
    } else {
        timing.clone()
    };
    match measure_units_gated(
        primitive.as_mut(),
        buffer.as_mut_slice(),
        &timing,
        cell.units_per_call(),
        floor,
        gate,
    ) {
        Ok(m) => CellOutcome::Measured(m),
        Err(e) => CellOutcome::Failed {
            reason: format!("failed while timed: {e}"),
        },
    }
}

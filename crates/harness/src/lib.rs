//! The one timing loop: every backend and algorithm is measured by the same
//! code. [`run_cell`] prepares a cell outside the timing, checks the timed
//! path against the verified one, then [`measure`]s it: calibrate the
//! iteration count to the sample length, warm up, and take samples until the
//! median is precise enough or the cell's budget is spent.

mod budget;
mod buffer;
pub mod layout;
mod measure;
mod pk;

pub use budget::RunBudget;
pub use buffer::AlignedBuffer;
pub use measure::{
    measure, measure_gated, measure_units, measure_units_gated, pk_floor, quick_timing, shared_core_warning, standard_timing, warnings,
    Alone, Gate, SampleFloor, PK_FLOOR, SYMMETRIC_FLOOR,
};
pub use pk::{long_cell_timing, run_pk_cell, run_pk_cell_gated};

use cryptobench_backends::checks::verify::check_primitive;
use cryptobench_backends::{Backend, CellInputs};
use cryptobench_core::result::{CellOutcome, TimingSettings};
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec};
use rand::RngCore;

/// Random key material of the right lengths.
fn random_inputs(alg: &AlgorithmSpec, aad_len: usize) -> CellInputs {
    let mut rng = rand::rng();
    let mut bytes = |n: usize| {
        let mut v = vec![0u8; n];
        rng.fill_bytes(&mut v);
        v
    };
    CellInputs {
        key: bytes(alg.key_len),
        iv: bytes(alg.iv_len),
        aad: if alg.class == AlgorithmClass::Aead {
            bytes(aad_len)
        } else {
            Vec::new()
        },
    }
}

/// Prepares, checks and measures one cell. The algorithm must already have
/// passed verification on this backend.
pub fn run_cell(backend: &dyn Backend, alg: &AlgorithmSpec, cell: &CellSpec, timing: &TimingSettings) -> CellOutcome {
    run_cell_gated(backend, alg, cell, timing, &mut Alone)
}

/// [`run_cell`], meeting the other workers of the same cell at `gate`
/// (only a cell that is timed meets them: one that cannot be prepared or
/// checked fails or is n/a in every worker alike).
pub fn run_cell_gated(
    backend: &dyn Backend,
    alg: &AlgorithmSpec,
    cell: &CellSpec,
    timing: &TimingSettings,
    gate: &mut dyn Gate,
) -> CellOutcome {
    if let Some(problem) = alg.size_problem(cell.size) {
        return CellOutcome::Unsupported { reason: problem };
    }
    let layout = match layout::Layout::from_env() {
        Ok(l) => l,
        Err(reason) => return CellOutcome::Failed { reason },
    };
    let inputs = random_inputs(alg, cell.aad);
    let mut buffer = AlignedBuffer::random_at(cell.size, layout.page_offset);
    // Kept until the cell is measured: it moves the library's context on (layout.rs).
    let pad = std::hint::black_box(vec![0u8; layout.heap_pad]);
    let mut primitive = match backend.prepare(cell, alg, &inputs, buffer.as_slice()) {
        Ok(p) => p,
        // The library cannot do this mode (e.g. a one-shot AEAD API asked to stream): n/a, not a failure.
        Err(e @ cryptobench_backends::BackendError::Unsupported(_)) => return CellOutcome::Unsupported { reason: e.to_string() },
        Err(e) => {
            return CellOutcome::Failed {
                reason: format!("preparing the cell failed: {e}"),
            }
        }
    };
    if let Err(reason) = check_primitive(backend, cell, alg, &inputs, primitive.as_mut(), buffer.as_slice()) {
        return CellOutcome::Failed { reason };
    }
    match measure_gated(primitive.as_mut(), buffer.as_mut_slice(), timing, gate) {
        Ok(mut m) => {
            // What only the primitive knows of its samples (a runtime's driver: docs/METHOD.md, "Runtimes").
            m.exceptions.keys_every_message = primitive.keys_every_message();
            m.exceptions.cpu = primitive.cpu_times(m.samples.len());
            m.buffer_page_offset = Some(layout::page_offset_of(buffer.as_slice().as_ptr()));
            drop(pad);
            CellOutcome::Measured(m)
        }
        Err(e) => CellOutcome::Failed {
            reason: format!("failed while timed: {e}"),
        },
    }
}

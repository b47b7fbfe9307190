//! Gathering the replicates of a run: the same cell measured by several
//! fresh workers, in rounds whose order of configurations and cells is
//! random (schedule.rs). Each replicate is kept whole (its summary and
//! warnings); the cell's figure and interval are made from all of them once
//! the run is over (replicate_figures.rs), because the spread of one cell's
//! replicates is judged against the run's other cells.

use cryptobench_core::result::{CellOutcome, CellResult, Measurement, Replicate, TimingSettings};

/// Adds one replicate of a cell, measured `sequence`-th in the run, to the
/// cells gathered so far.
pub fn add_replicate(cells: &mut Vec<CellResult>, new: CellResult, at: (usize, usize), timing: &TimingSettings) {
    let (replicate, sequence) = at;
    let size = new.spec.units_per_call();
    let Some(existing) = cells.iter_mut().find(|c| c.spec == new.spec) else {
        let mut first = new;
        if let CellOutcome::Measured(m) = &mut first.outcome {
            m.replicates = vec![record(m, replicate, sequence)];
        }
        cells.push(first);
        return;
    };
    existing.outcome = match (
        std::mem::replace(&mut existing.outcome, CellOutcome::Unsupported { reason: String::new() }),
        new.outcome,
    ) {
        (CellOutcome::Measured(a), CellOutcome::Measured(b)) => CellOutcome::Measured(append(a, b, size, at, timing)),
        // A failure in any replicate stands: the figure cannot be trusted.
        (CellOutcome::Failed { reason }, _) | (_, CellOutcome::Failed { reason }) => CellOutcome::Failed { reason },
        (kept, _) => kept,
    };
}

/// The replicate a worker's measurement of a cell stands for.
fn record(m: &Measurement, replicate: usize, sequence: usize) -> Replicate {
    Replicate {
        replicate,
        sequence,
        summary: m.summary,
        warnings: m.warnings.clone(),
        buffer_page_offset: m.buffer_page_offset,
        dropped: None,
    }
}

/// The replicates so far with one more: its samples after theirs.
fn append(mut a: Measurement, b: Measurement, size: usize, at: (usize, usize), timing: &TimingSettings) -> Measurement {
    let added = record(&b, at.0, at.1);
    // Several workers: each worker's samples with its own (the same CPU in every replicate).
    if let (Some(x), Some(y)) = (&a.aggregate, &b.aggregate) {
        let said = (a.implementation.clone().or(b.implementation.clone()), a.exceptions.clone());
        if let Some(mut pooled) = super::group_cells::pool(x, y, size, said, timing) {
            pooled.replicates = std::mem::take(&mut a.replicates);
            pooled.replicates.push(added);
            return pooled;
        }
        return a;
    }
    a.samples.extend_from_slice(&b.samples);
    // CPU times add up over the replicates where every one has them.
    a.exceptions.cpu = a.exceptions.cpu.zip(b.exceptions.cpu).map(|(x, y)| x.plus(y));
    let fold = |hex: &str| u64::from_str_radix(hex, 16).unwrap_or(0);
    a.checksum = format!("{:016x}", fold(&a.checksum).rotate_left(1) ^ fold(&b.checksum));
    a.implementation = a.implementation.or(b.implementation);
    a.replicates.push(added);
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::stats::{summarize, Sample};
    use cryptobench_core::{CellSpec, Mode, Operation};

    fn cell(outcome: CellOutcome) -> CellResult {
        CellResult {
            spec: CellSpec {
                algorithm: "sha256".into(),
                operation: Operation::Digest,
                mode: Mode::Message,
                rekey: false,
                size: 64,
                aad: 13,
                unit: cryptobench_core::cell::CellUnit::Bytes,
            },
            outcome,
        }
    }

    fn measured(wall: u64, n: usize, warnings: &[&str]) -> CellOutcome {
        let samples = vec![
            Sample {
                iterations: 100,
                wall_ns: wall,
                cpu_ns: None
            };
            n
        ];
        CellOutcome::Measured(Measurement {
            summary: summarize(&samples, 64).unwrap(),
            samples,
            warnings: warnings.iter().map(|w| w.to_string()).collect(),
            checksum: "00000000000000ff".into(),
            implementation: None,
            exceptions: Default::default(),
            cycles_per_byte: None,
            aggregate: None,
            replicates: Vec::new(),
            buffer_page_offset: None,
        })
    }

    fn timing() -> TimingSettings {
        cryptobench_harness::standard_timing()
    }

    #[test]
    fn each_replicate_is_kept_with_its_samples_after_the_others() {
        let mut cells = Vec::new();
        add_replicate(&mut cells, cell(measured(1000, 4, &["level shift: x"])), (1, 7), &timing());
        add_replicate(&mut cells, cell(measured(2000, 5, &[])), (2, 70), &timing());
        let CellOutcome::Measured(m) = &cells[0].outcome else { panic!() };
        assert_eq!(cells.len(), 1);
        assert_eq!(m.samples.len(), 9);
        assert_eq!(m.samples[4].wall_ns, 2000, "the second replicate's samples follow the first's");
        let kept: Vec<(usize, usize, usize)> = m.replicates.iter().map(|r| (r.replicate, r.sequence, r.summary.samples)).collect();
        assert_eq!(kept, vec![(1, 7, 4), (2, 70, 5)]);
        assert_eq!(m.replicates[0].warnings, vec!["level shift: x".to_string()]);
        assert!((m.replicates[1].summary.median - 64.0 * 100.0 / 2e-6).abs() < 1.0);
    }

    #[test]
    fn a_failure_in_any_replicate_stands() {
        let mut cells = Vec::new();
        add_replicate(&mut cells, cell(measured(1000, 4, &[])), (1, 0), &timing());
        add_replicate(&mut cells, cell(CellOutcome::Failed { reason: "tag".into() }), (2, 1), &timing());
        add_replicate(&mut cells, cell(measured(1000, 4, &[])), (3, 2), &timing());
        assert!(matches!(cells[0].outcome, CellOutcome::Failed { .. }));
    }
}

//! The cells of several workers that measured together (`run --threads`)
//! become one cell each: measured by all → their aggregate
//! (crates/core/src/aggregate.rs) with every worker's measurement kept;
//! failed in any → failed, naming the CPU; otherwise n/a.

use std::collections::VecDeque;

use cryptobench_core::aggregate;
use cryptobench_core::cores::{Aggregate, WorkerMeasurement};
use cryptobench_core::result::{CellOutcome, CellResult, Exceptions, Measurement, TimingSettings};
use cryptobench_core::stats::summarize;

/// Cells received from each worker, waiting for the others.
pub struct GroupCells {
    cpus: Vec<usize>,
    pending: Vec<VecDeque<CellResult>>,
}

impl GroupCells {
    pub fn new(cpus: Vec<usize>) -> GroupCells {
        GroupCells {
            pending: vec![VecDeque::new(); cpus.len()],
            cpus,
        }
    }

    /// Adds worker `w`'s next cell; returns the aggregated cell once every worker has sent it.
    pub fn add(&mut self, w: usize, cell: CellResult, timing: &TimingSettings) -> Option<CellResult> {
        self.pending[w].push_back(cell);
        if self.pending.iter().any(VecDeque::is_empty) {
            return None;
        }
        let cells: Vec<CellResult> = self.pending.iter_mut().map(|q| q.pop_front().expect("not empty")).collect();
        Some(aggregate_cell(cells, &self.cpus, timing))
    }
}

/// One cell from the same cell of every worker (in placement order).
pub fn aggregate_cell(cells: Vec<CellResult>, cpus: &[usize], timing: &TimingSettings) -> CellResult {
    let spec = cells[0].spec.clone();
    if let Some((cpu, other)) = cells.iter().zip(cpus).find(|(c, _)| c.spec != spec).map(|(c, cpu)| (cpu, c)) {
        return CellResult {
            spec: spec.clone(),
            outcome: CellOutcome::Failed {
                reason: format!(
                    "the workers fell out of step: CPU {cpu} sent {} while the first sent {}",
                    other.spec.describe(),
                    spec.describe()
                ),
            },
        };
    }
    if let Some((cpu, reason)) = cells.iter().zip(cpus).find_map(|(c, cpu)| match &c.outcome {
        CellOutcome::Failed { reason } => Some((cpu, reason.clone())),
        _ => None,
    }) {
        return CellResult {
            spec,
            outcome: CellOutcome::Failed {
                reason: format!("on CPU {cpu}: {reason}"),
            },
        };
    }
    let mut workers = Vec::new();
    let mut said: Option<Said> = None;
    for (c, &cpu) in cells.iter().zip(cpus) {
        match &c.outcome {
            CellOutcome::Measured(m) => {
                said = said.or_else(|| Some((m.implementation.clone(), m.exceptions.clone())));
                workers.push(WorkerMeasurement {
                    cpu,
                    summary: m.summary,
                    samples: m.samples.clone(),
                    warnings: m.warnings.clone(),
                    checksum: m.checksum.clone(),
                    cycles_per_byte: None,
                });
            }
            other => {
                return CellResult {
                    spec,
                    outcome: other.clone(),
                }
            }
        }
    }
    // Operations per second for public key (one unit per call), bytes per second otherwise.
    let outcome = match measurement(workers, spec.units_per_call(), said.unwrap_or_default(), timing) {
        Some(m) => CellOutcome::Measured(m),
        None => CellOutcome::Failed {
            reason: "a worker returned no samples".into(),
        },
    };
    CellResult { spec, outcome }
}

/// What the library said of a cell besides its figures: the code path and
/// the named exceptions (the same in every worker).
pub type Said = (Option<String>, Exceptions);

/// The aggregate measurement of these workers' measurements of one cell.
pub fn measurement(workers: Vec<WorkerMeasurement>, size: usize, said: Said, timing: &TimingSettings) -> Option<Measurement> {
    let (implementation, exceptions) = said;
    let summary = aggregate::summarize(&workers, size)?;
    let fold = |hex: &str| u64::from_str_radix(hex, 16).unwrap_or(0);
    let checksum = workers.iter().fold(0u64, |acc, w| acc.rotate_left(7) ^ fold(&w.checksum));
    Some(Measurement {
        warnings: cryptobench_harness::warnings(&summary, timing),
        summary,
        samples: Vec::new(),
        checksum: format!("{checksum:016x}"),
        implementation,
        exceptions,
        cycles_per_byte: None,
        aggregate: Some(Aggregate {
            workers,
            scaling_efficiency: None,
        }),
        replicates: Vec::new(),
        buffer_page_offset: None,
    })
}

/// Pools two rounds of the same aggregated cell: each worker's samples
/// with its own (the same CPU in every round), then aggregated again.
pub fn pool(a: &Aggregate, b: &Aggregate, size: usize, said: Said, timing: &TimingSettings) -> Option<Measurement> {
    if a.workers.len() != b.workers.len() {
        return None;
    }
    let workers = a
        .workers
        .iter()
        .zip(&b.workers)
        .map(|(x, y)| {
            let mut samples = x.samples.clone();
            samples.extend(y.samples.iter().copied());
            let summary = summarize(&samples, size)?;
            Some(WorkerMeasurement {
                cpu: x.cpu,
                warnings: cryptobench_harness::warnings(&summary, timing),
                summary,
                samples,
                checksum: x.checksum.clone(),
                cycles_per_byte: None,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    measurement(workers, size, said, timing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::stats::Sample;
    use cryptobench_core::{CellSpec, Mode, Operation};

    fn timing() -> TimingSettings {
        TimingSettings {
            sample_target_ns: 1,
            cell_budget_ns: 1,
            min_samples: 5,
            target_relative_ci: 0.5,
            warmup_ns: 0,
        }
    }

    fn cell(outcome: CellOutcome) -> CellResult {
        CellResult {
            spec: CellSpec {
                algorithm: "sha256".into(),
                operation: Operation::Digest,
                mode: Mode::Message,
                rekey: false,
                size: 1024,
                aad: 13,
                unit: cryptobench_core::cell::CellUnit::Bytes,
            },
            outcome,
        }
    }

    fn measured(wall: u64) -> CellOutcome {
        let samples = vec![
            Sample {
                iterations: 1000,
                wall_ns: wall,
                cpu_ns: None,
            };
            8
        ];
        CellOutcome::Measured(Measurement {
            summary: summarize(&samples, 1024).unwrap(),
            samples,
            warnings: vec![],
            checksum: "00000000000000ff".into(),
            implementation: None,
            exceptions: Default::default(),
            cycles_per_byte: None,
            aggregate: None,
            replicates: Vec::new(),
            buffer_page_offset: None,
        })
    }

    #[test]
    fn cells_are_aggregated_once_every_worker_sent_them() {
        let mut g = GroupCells::new(vec![0, 1]);
        assert!(g.add(0, cell(measured(1_000_000)), &timing()).is_none());
        assert!(g.add(0, cell(measured(1_000_000)), &timing()).is_none());
        let first = g.add(1, cell(measured(2_000_000)), &timing()).unwrap();
        let CellOutcome::Measured(m) = first.outcome else { panic!() };
        let a = m.aggregate.as_ref().unwrap();
        assert_eq!(a.workers.iter().map(|w| w.cpu).collect::<Vec<_>>(), vec![0, 1]);
        assert!((m.summary.median - (1.024e9 + 0.512e9)).abs() < 1.0, "{}", m.summary.median);
        assert!(m.samples.is_empty());
        assert_eq!(m.throughputs(1024).len(), 8);
        let pooled = pool(a, a, 1024, Default::default(), &timing()).unwrap();
        assert_eq!(pooled.aggregate.unwrap().workers[1].samples.len(), 16);
    }

    #[test]
    fn a_failure_on_any_cpu_fails_the_cell_and_names_the_cpu() {
        let c = aggregate_cell(
            vec![cell(measured(1000)), cell(CellOutcome::Failed { reason: "tag".into() })],
            &[2, 3],
            &timing(),
        );
        match c.outcome {
            CellOutcome::Failed { reason } => assert_eq!(reason, "on CPU 3: tag"),
            _ => panic!(),
        }
    }
}

//! Pooling the rounds of a run: the same cell measured in several
//! interleaved rounds (config A, B, C, A, B, C, …) becomes one cell whose
//! samples are all the rounds' samples. Interleaving spreads slow drifts of
//! the machine (frequency, neighbours) evenly over the configurations that
//! are compared, instead of letting one configuration meet them all.

use cryptobench_core::result::{CellOutcome, CellResult, Measurement, TimingSettings};
use cryptobench_core::stats::summarize;

/// Adds one round's cell to the cells gathered so far.
pub fn add_round(cells: &mut Vec<CellResult>, new: CellResult, timing: &TimingSettings) {
    let Some(existing) = cells.iter_mut().find(|c| c.spec == new.spec) else {
        cells.push(new);
        return;
    };
    existing.outcome = match (
        std::mem::replace(&mut existing.outcome, CellOutcome::Unsupported { reason: String::new() }),
        new.outcome,
    ) {
        (CellOutcome::Measured(a), CellOutcome::Measured(b)) => CellOutcome::Measured(pool(a, b, existing.spec.units_per_call(), timing)),
        // A failure in any round stands: the figure cannot be trusted.
        (CellOutcome::Failed { reason }, _) | (_, CellOutcome::Failed { reason }) => CellOutcome::Failed { reason },
        (kept, _) => kept,
    };
}

/// How a warning about one round's sampling begins once rounds are pooled.
const ROUND: &str = "in a round: ";

fn pool(a: Measurement, b: Measurement, size: usize, timing: &TimingSettings) -> Measurement {
    // Several workers: each pools with its own (the same CPU in every round).
    if let (Some(x), Some(y)) = (&a.aggregate, &b.aggregate) {
        let said = (a.implementation.clone().or(b.implementation.clone()), a.exceptions.clone());
        return super::group_cells::pool(x, y, size, said, timing).unwrap_or(a);
    }
    let mut samples = a.samples.clone();
    samples.extend_from_slice(&b.samples);
    // CPU times add up over the rounds where every round has them.
    let mut exceptions = a.exceptions.clone();
    exceptions.cpu = exceptions.cpu.zip(b.exceptions.cpu).map(|(x, y)| x.plus(y));
    let summary = summarize(&samples, size).expect("both rounds have samples");
    let fold = |hex: &str| u64::from_str_radix(hex, 16).unwrap_or(0);
    // The warnings judged on a summary are judged again on the pooled one;
    // those about one round's sampling (unsteady warm-up, a level shift, a
    // public-key cell stopped at its cap) are kept, said of "a round".
    let mut warnings = cryptobench_harness::warnings(&summary, timing);
    for round in [&a, &b] {
        let judged_on_summary = cryptobench_harness::warnings(&round.summary, timing);
        for w in round.warnings.iter().filter(|w| !judged_on_summary.contains(w)) {
            let w = if w.starts_with(ROUND) { w.clone() } else { format!("{ROUND}{w}") };
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
    }
    Measurement {
        warnings,
        summary,
        samples,
        checksum: format!("{:016x}", fold(&a.checksum).rotate_left(1) ^ fold(&b.checksum)),
        implementation: a.implementation.or(b.implementation),
        exceptions,
        cycles_per_byte: None,
        aggregate: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::stats::Sample;
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

    fn measured(wall: u64, n: usize) -> CellOutcome {
        measured_saying(wall, n, &[])
    }

    /// A round's cell with the warnings the harness judges on its summary, and `more`.
    fn measured_saying(wall: u64, n: usize, more: &[&str]) -> CellOutcome {
        let samples = vec![
            Sample {
                iterations: 100,
                wall_ns: wall,
                cpu_ns: None
            };
            n
        ];
        let summary = summarize(&samples, 64).unwrap();
        let mut warnings = cryptobench_harness::warnings(&summary, &timing());
        warnings.extend(more.iter().map(|w| w.to_string()));
        CellOutcome::Measured(Measurement {
            summary,
            samples,
            warnings,
            checksum: "00000000000000ff".into(),
            implementation: None,
            exceptions: Default::default(),
            cycles_per_byte: None,
            aggregate: None,
        })
    }

    fn timing() -> TimingSettings {
        TimingSettings {
            sample_target_ns: 1,
            cell_budget_ns: 1,
            min_samples: 5,
            target_relative_ci: 0.5,
            warmup_ns: 0,
        }
    }

    #[test]
    fn rounds_pool_their_samples_and_are_judged_again() {
        let mut cells = vec![cell(measured(1000, 4))];
        add_round(&mut cells, cell(measured(1000, 4)), &timing());
        let CellOutcome::Measured(m) = &cells[0].outcome else { panic!() };
        assert_eq!(m.samples.len(), 8);
        assert_eq!(m.summary.samples, 8);
        assert!(m.warnings.is_empty(), "{:?}", m.warnings);
        assert_eq!(cells.len(), 1);
    }

    #[test]
    fn warnings_about_one_rounds_sampling_are_kept_once() {
        let shift = "level shift: 12% slower from sample 9 of 30";
        let mut cells = vec![cell(measured_saying(1000, 4, &[shift]))];
        assert!(matches!(&cells[0].outcome, CellOutcome::Measured(m) if m.warnings.iter().any(|w| w.starts_with("only 4"))));
        add_round(&mut cells, cell(measured(1000, 4)), &timing());
        add_round(
            &mut cells,
            cell(measured_saying(1000, 4, &["unsteady warm-up: still changing"])),
            &timing(),
        );
        let CellOutcome::Measured(m) = &cells[0].outcome else { panic!() };
        assert_eq!(
            m.warnings,
            vec![
                format!("in a round: {shift}"),
                "in a round: unsteady warm-up: still changing".to_string()
            ],
            "the few-samples warning is judged again on 12 samples; the others are kept"
        );
    }

    #[test]
    fn a_failure_in_any_round_stands() {
        let mut cells = vec![cell(measured(1000, 4))];
        add_round(&mut cells, cell(CellOutcome::Failed { reason: "tag".into() }), &timing());
        assert!(matches!(cells[0].outcome, CellOutcome::Failed { .. }));
    }
}

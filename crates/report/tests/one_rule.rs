//! One pair of cells gets one verdict everywhere: `compare`, the report's
//! on/off factors, "Which is fastest?" and the audit's verdict all decide
//! "different" by the one rule (cryptobench_core::decision). Each case is a
//! run with the same library twice, the second under a capability mask,
//! so that all four read the same two cells.

mod common;

use common::{gcm_cell, run_of};
use cryptobench_core::audit::VerdictKind;
use cryptobench_core::compare::{compare, Verdict};
use cryptobench_core::result::{CellOutcome, RunResult};
use cryptobench_core::verdict::rules::measured;
use cryptobench_report::factors::factors;
use cryptobench_report::labels::Labels;
use cryptobench_report::winners::{rows, Lead};

/// The library unmasked (configuration 1) and masked (configuration 2).
fn run(on: &[f64], off: &[f64]) -> RunResult {
    run_of(
        r#"{"index":1,"spec":{"backend":"openssl","library":null},"backend":null,"status":"completed","verifications":[],"cells":[]},
          {"index":2,"spec":{"backend":"openssl","library":null,"env":{"OPENSSL_ia32cap":"~0x200000000000000"}},"backend":null,"status":"completed","verifications":[],"cells":[]}"#,
        vec![gcm_cell(on), gcm_cell(off)],
    )
}

/// "Different" as each of the four places decides it.
fn four_verdicts(r: &RunResult) -> [bool; 4] {
    let c = compare(&[("run".into(), r)]);
    let by_compare = matches!(c.rows[0].entries[1].verdict, Verdict::Different { .. });
    let f = factors(r);
    let by_factors = f[0].beyond_noise == Some(true);
    let w = rows(&[(String::new(), r)], &Labels::for_run(r));
    let by_fastest = w[0].large.as_ref().unwrap().lead == Lead::Clear;
    let summary = |i: usize| match &r.configurations[i].cells[0].outcome {
        CellOutcome::Measured(m) => m.summary,
        _ => unreachable!(),
    };
    let (kind, _) = measured(Some(&summary(0)), Some(&summary(1)), "AES-NI", "");
    let by_audit = matches!(kind, VerdictKind::Accelerated | VerdictKind::SmallGain | VerdictKind::FasterWithout);
    [by_compare, by_factors, by_fastest, by_audit]
}

/// 30 samples around `level` ns, spread ±`spread` in a fixed pattern.
fn steady(level: f64, spread: f64) -> Vec<f64> {
    (0..30)
        .map(|i| level * (1.0 + spread * (((i * 7) % 11) as f64 / 5.0 - 1.0)))
        .collect()
}

/// 30 samples whose level drifts in long waves: successive samples are
/// strongly correlated, so they are worth far fewer independent ones.
fn drifting(level: f64, phase: f64) -> Vec<f64> {
    (0..30).map(|i| level * (1.0 + 0.03 * ((i as f64 / 6.0 + phase).sin()))).collect()
}

#[test]
fn a_clear_difference_is_different_in_all_four() {
    let r = run(&steady(1.0e6, 0.003), &steady(1.3e6, 0.003));
    assert_eq!(four_verdicts(&r), [true; 4]);
}

#[test]
fn correlated_samples_a_little_apart_are_within_the_noise_in_all_four() {
    // Raw samples would separate (every wave of one sits a little below the
    // other's), but the correlated series are worth few samples each.
    let r = run(&drifting(1.0e6, 0.0), &drifting(1.02e6, 0.4));
    assert_eq!(four_verdicts(&r), [false; 4]);
}

#[test]
fn a_consistent_shift_under_one_percent_is_within_the_noise_in_all_four() {
    let r = run(&steady(1.0e6, 0.0005), &steady(1.005e6, 0.0005));
    assert_eq!(four_verdicts(&r), [false; 4]);
}

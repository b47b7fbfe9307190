//! A primitive that times its own loop (a runtime's driver) gives the
//! harness its own figures, and one that asks for a longer warm-up gets it
//! without losing sampling time.

use std::time::{Duration, Instant};

use cryptobench_backends::{BackendError, Primitive};
use cryptobench_core::result::TimingSettings;
use cryptobench_harness::measure;

/// Sleeps a little per run and reports 1 µs per iteration, measured
/// "inside"; with `alternate`, every other run reports 1.2 µs, so that the
/// median never gets precise and the budget ends the sampling.
struct Reports {
    warmup_ns: u64,
    alternate: bool,
    runs: u64,
    last: Option<(u64, Option<u64>)>,
}

impl Primitive for Reports {
    fn run(&mut self, iterations: u64, _buf: &mut [u8]) -> Result<(), BackendError> {
        std::thread::sleep(Duration::from_micros(50));
        self.runs += 1;
        let per_call = if self.alternate && self.runs.is_multiple_of(2) {
            1_200
        } else {
            1_000
        };
        // The warm-up doubles its calls per run while runs stay short (this one's do): saturate.
        self.last = Some((iterations.saturating_mul(per_call), Some(iterations.saturating_mul(900))));
        Ok(())
    }
    fn inside_timing(&self) -> Option<(u64, Option<u64>)> {
        self.last
    }
    fn min_warmup_ns(&self) -> u64 {
        self.warmup_ns
    }
}

fn timing() -> TimingSettings {
    TimingSettings {
        sample_target_ns: 1_000_000,
        cell_budget_ns: 100_000_000,
        min_samples: 5,
        target_relative_ci: 0.01,
        warmup_ns: 1_000_000,
    }
}

#[test]
fn samples_carry_the_time_measured_inside() {
    let mut p = Reports {
        warmup_ns: 0,
        alternate: false,
        runs: 0,
        last: None,
    };
    let m = measure(&mut p, &mut [0u8; 16], &timing()).unwrap();
    for s in &m.samples {
        assert_eq!(s.wall_ns, s.iterations * 1_000, "the inside wall time, not the harness's clock");
        assert_eq!(s.cpu_ns, Some(s.iterations * 900));
    }
    // 1 µs per call inside: calibration aims at 1 ms samples.
    assert!(m.samples[0].iterations >= 1_000, "{}", m.samples[0].iterations);
}

#[test]
fn a_longer_warm_up_is_honoured_and_does_not_eat_the_samples() {
    let mut p = Reports {
        warmup_ns: 150_000_000,
        alternate: true,
        runs: 0,
        last: None,
    };
    let started = Instant::now();
    let m = measure(&mut p, &mut [0u8; 16], &timing()).unwrap();
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(240),
        "warm-up and sampling took {took:?}, less than 150 + 100 ms"
    );
    // The 100 ms budget counts from after the extra warm-up: not just the 3 samples of a spent budget.
    assert!(m.samples.len() > 10, "{} samples", m.samples.len());
}

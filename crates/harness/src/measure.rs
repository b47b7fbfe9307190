use std::time::{Duration, Instant};

use cryptobench_backends::{BackendError, Primitive};
use cryptobench_core::result::{Exceptions, Measurement, TimingSettings};
use cryptobench_core::stats::{summarize, Sample, Summary};
use cryptobench_core::steady;
use cryptobench_core::stopping::StopRule;
use cryptobench_cpu::thread_cpu_time_ns;

/// Defaults of `run` (crates/core/src/stopping.rs, where the coverage test
/// reads them too): 2 ms samples, stop at ±1% (95% CI of the median) after
/// at least 10 samples, or when the cell's share of the run's budget (0.235 s
/// per cell on average) is spent.
pub fn standard_timing() -> TimingSettings {
    use cryptobench_core::stopping as d;
    TimingSettings {
        sample_target_ns: d::DEFAULT_SAMPLE_NS,
        cell_budget_ns: d::DEFAULT_CELL_BUDGET_NS,
        min_samples: d::DEFAULT_MIN_SAMPLES,
        target_relative_ci: d::DEFAULT_TARGET,
        warmup_ns: d::DEFAULT_WARMUP_NS,
    }
}

/// `--quick`: a first look in seconds, figures flagged where imprecise.
pub fn quick_timing() -> TimingSettings {
    TimingSettings {
        sample_target_ns: 2_000_000,
        cell_budget_ns: 40_000_000,
        min_samples: 10,
        target_relative_ci: 0.02,
        warmup_ns: 4_000_000,
    }
}

/// How few samples a cell may end with when its budget is spent, and the
/// time after which it ends with what it has: the budget of a cell whose
/// calls are slow then follows from the calibrated time per sample
/// (`samples` of them) rather than from `--time` alone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleFloor {
    pub samples: usize,
    pub cap: Duration,
}

/// Symmetric cells: three samples, no cap beyond the budget.
pub const SYMMETRIC_FLOOR: SampleFloor = SampleFloor {
    samples: 3,
    cap: Duration::MAX,
};

/// Public-key cells ([`cryptobench_core::stopping::PK_MIN_SAMPLES`] within
/// [`cryptobench_core::stopping::PK_CELL_CAP_NS`]).
pub const PK_FLOOR: SampleFloor = SampleFloor {
    samples: cryptobench_core::stopping::PK_MIN_SAMPLES,
    cap: Duration::from_nanos(cryptobench_core::stopping::PK_CELL_CAP_NS),
};

/// The public-key floor of one of `replicates` replicates: the cell's
/// samples and cap shared among them, but at least
/// [`cryptobench_core::stopping::PK_MIN_REPLICATE_SAMPLES`] samples each
/// (a replicate's own median needs a few), so that replicates do not make
/// a run of slow operations R times as long.
pub fn pk_floor(replicates: usize) -> SampleFloor {
    use cryptobench_core::stopping::{pk_replicate_cap_ns, pk_replicate_samples};
    SampleFloor {
        samples: pk_replicate_samples(replicates),
        cap: Duration::from_nanos(pk_replicate_cap_ns(replicates)),
    }
}

/// Never more samples than this, whatever the budget.
const MAX_SAMPLES: usize = 100_000;
/// A figure from fewer samples than this carries a warning.
const FEW_SAMPLES: usize = 6;
/// Below this share of CPU time over wall time the core was shared.
const SHARED_CORE: f64 = 0.9;

fn timed(primitive: &mut dyn Primitive, iterations: u64, buf: &mut [u8]) -> Result<Sample, BackendError> {
    let cpu0 = thread_cpu_time_ns();
    let t0 = Instant::now();
    primitive.run(iterations, buf)?;
    let wall = t0.elapsed();
    let cpu = cpu0.and_then(|c0| thread_cpu_time_ns().map(|c1| c1.saturating_sub(c0)));
    // A runtime's driver times its own loop; the pipe to it is no part of the sample.
    let (wall_ns, cpu_ns) = primitive.inside_timing().unwrap_or((wall.as_nanos().max(1) as u64, cpu));
    Ok(Sample {
        iterations,
        wall_ns,
        cpu_ns,
    })
}

/// Finds the iteration count whose run lasts about `target`: grow until a
/// run is long enough to time (≥ 1/10 of the target), then scale.
fn calibrate(primitive: &mut dyn Primitive, buf: &mut [u8], target: Duration) -> Result<u64, BackendError> {
    let mut iterations = 1u64;
    loop {
        let s = timed(primitive, iterations, buf)?;
        let wall = s.wall_ns as f64;
        let target_ns = target.as_nanos() as f64;
        if wall * 10.0 >= target_ns {
            return Ok(((iterations as f64 * target_ns / wall).ceil() as u64).max(1));
        }
        let factor = (target_ns / 5.0 / wall).clamp(2.0, 100.0);
        iterations = (iterations as f64 * factor).ceil() as u64;
    }
}

/// Folds the buffer's ends and the operation's output into a checksum, so
/// the work cannot be optimised away and a result can be told apart.
fn fold(checksum: u64, buf: &[u8], output: Option<&[u8]>) -> u64 {
    let head = buf.iter().take(8);
    let tail = buf.iter().skip(buf.len().saturating_sub(8));
    head.chain(tail).chain(output.unwrap_or(&[])).fold(checksum, |acc, &b| {
        (acc.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Why a figure should be read with care, judged on its summary (so it
/// can be judged again when samples of several rounds are pooled).
pub fn warnings(summary: &Summary, timing: &TimingSettings) -> Vec<String> {
    let mut warnings = Vec::new();
    if summary.median_ci95_relative > timing.target_relative_ci {
        // Say when correlation between successive samples is what keeps the interval wide.
        let worth = summary
            .effective_samples
            .filter(|&e| e < 0.8 * summary.samples as f64)
            .map(|e| format!(", worth {e:.0} independent ones (successive samples are correlated)"))
            .unwrap_or_default();
        warnings.push(format!(
            "imprecise: the nominal 95% CI of the median is ±{:.1}% after {} samples{worth} (target ±{:.1}%); give it more --time or a quieter machine",
            summary.median_ci95_relative * 100.0,
            summary.samples,
            timing.target_relative_ci * 100.0
        ));
    }
    if summary.samples < timing.min_samples.min(FEW_SAMPLES) {
        warnings.push(format!("only {} samples fit in the cell budget; raise --time", summary.samples));
    }
    warnings.extend(shared_core_warning(summary));
    warnings
}

/// The thread got less than 90% of the wall time on its CPU over the samples.
pub fn shared_core_warning(summary: &Summary) -> Option<String> {
    summary.cpu_share.filter(|&s| s < SHARED_CORE).map(|share| {
        format!(
            "shared core: the worker got {:.0}% of the wall time on its CPU; stop other load or pin with --cpu",
            share * 100.0
        )
    })
}

/// Length of one warm-up run once the calls per run stop growing: long
/// against the clock's resolution, short enough that the windows
/// [`steady::settled`] compares span a few milliseconds.
const WARMUP_RUN: Duration = Duration::from_millis(1);

/// The longest a warm-up waits for steady throughput beyond its minimum;
/// a cell still changing then is sampled anyway and says so.
const WARMUP_CAP: Duration = Duration::from_millis(200);

/// Runs the primitive untimed, in runs that grow from one call to about
/// [`WARMUP_RUN`], so that caches, branch predictors, a JIT and the clock
/// governor settle before the calls per sample are calibrated (a cold
/// calibration would size the samples on the slowest calls). It lasts at
/// least `minimum` and then until the throughput of the runs is steady
/// ([`steady::settled`]), at most [`WARMUP_CAP`] longer. Returns true when
/// it ended unsteady: enough runs to judge, and still changing. (Calls so
/// slow that two windows of runs do not fit in the cap are not judged.)
fn warm_up(primitive: &mut dyn Primitive, buf: &mut [u8], minimum: Duration) -> Result<bool, BackendError> {
    let start = Instant::now();
    let mut iterations = 1u64;
    // Calls per nanosecond of the runs since the calls per run last changed.
    let mut rates = Vec::new();
    loop {
        let t0 = Instant::now();
        primitive.run(iterations, buf)?;
        let took = t0.elapsed();
        let elapsed = start.elapsed();
        if took < WARMUP_RUN {
            iterations = iterations.saturating_mul(2);
            rates.clear();
        } else {
            rates.push(iterations as f64 / took.as_nanos().max(1) as f64);
        }
        if elapsed >= minimum && steady::settled(&rates) {
            return Ok(false);
        }
        if elapsed >= minimum + WARMUP_CAP {
            return Ok(rates.len() >= 2 * steady::STEADY_WINDOW);
        }
    }
}

/// What a change of level inside a cell's samples is reported as: the
/// median then mixes two speeds, and neither is the cell's.
fn level_shift_warning(shift: &steady::LevelShift, samples: usize) -> String {
    format!(
        "level shift: throughput changed by {:+.0}% at sample {} of {}; the median mixes both levels — rerun the cell or quiet the machine",
        shift.relative() * 100.0,
        shift.at + 1,
        samples
    )
}

/// Where a measurement meets the other workers measuring the same cell at
/// the same time (`run --threads`): before the warm-up, so that all warm up
/// and calibrate under the same load, and before every sample, so that
/// sample k of every worker starts together. The stop rule is each worker's
/// own; a worker that would stop goes on while any other still samples.
pub trait Gate {
    /// Waits for the others before the warm-up.
    fn start(&mut self) -> Result<(), String>;
    /// Before each sample: `done` says whether this worker's own stop rule
    /// has been met; returns whether to take another sample.
    fn next(&mut self, done: bool) -> Result<bool, String>;
}

/// One worker alone: no waiting, and sampling stops when its own rule says so.
pub struct Alone;

impl Gate for Alone {
    fn start(&mut self) -> Result<(), String> {
        Ok(())
    }

    fn next(&mut self, done: bool) -> Result<bool, String> {
        Ok(!done)
    }
}

fn broken(e: String) -> BackendError {
    BackendError::Invalid(format!("the barrier with the other workers broke: {e}"))
}

/// Times a prepared primitive over `buf` as the settings say: warm up,
/// calibrate the calls per sample, then sample until the stop rule
/// (crates/core/src/stopping.rs) or the budget ends it.
pub fn measure(primitive: &mut dyn Primitive, buf: &mut [u8], timing: &TimingSettings) -> Result<Measurement, BackendError> {
    measure_gated(primitive, buf, timing, &mut Alone)
}

/// [`measure`], meeting other workers at `gate`.
pub fn measure_gated(
    primitive: &mut dyn Primitive,
    buf: &mut [u8],
    timing: &TimingSettings,
    gate: &mut dyn Gate,
) -> Result<Measurement, BackendError> {
    let size = buf.len();
    measure_units_gated(primitive, buf, timing, size, SYMMETRIC_FLOOR, gate)
}

/// As [`measure`], with what one call counts for in the figures: its bytes
/// (symmetric cells) or 1 (public-key cells, figures in operations per
/// second; `CellSpec::units_per_call`). The statistics are the same.
pub fn measure_units(
    primitive: &mut dyn Primitive,
    buf: &mut [u8],
    timing: &TimingSettings,
    units_per_call: usize,
    floor: SampleFloor,
) -> Result<Measurement, BackendError> {
    measure_units_gated(primitive, buf, timing, units_per_call, floor, &mut Alone)
}

/// [`measure_units`], meeting other workers at `gate` (`run --threads`).
pub fn measure_units_gated(
    primitive: &mut dyn Primitive,
    buf: &mut [u8],
    timing: &TimingSettings,
    units_per_call: usize,
    floor: SampleFloor,
    gate: &mut dyn Gate,
) -> Result<Measurement, BackendError> {
    gate.start().map_err(broken)?;
    let started = Instant::now();
    // A JIT runtime may ask for a longer warm-up; its extra time does not shorten the sampling.
    let warmup_ns = timing.warmup_ns.max(primitive.min_warmup_ns());
    let budget = Duration::from_nanos(timing.cell_budget_ns + (warmup_ns - timing.warmup_ns));
    let warm_started = Instant::now();
    let unsteady = warm_up(primitive, buf, Duration::from_nanos(warmup_ns))?;
    // Waiting for steady throughput beyond the minimum does not shorten the sampling either.
    let budget = budget + warm_started.elapsed().saturating_sub(Duration::from_nanos(warmup_ns));
    let iterations = calibrate(primitive, buf, Duration::from_nanos(timing.sample_target_ns))?;
    let rule = StopRule {
        min_samples: timing.min_samples,
        target_relative_ci: timing.target_relative_ci,
    };
    let mut next_look = rule.first_look();
    let size = units_per_call;
    let mut samples = Vec::new();
    let mut checksum = 0xcbf2_9ce4_8422_2325u64;
    // Once this worker's own rule is met it stays met; alone, that ends the sampling.
    let mut done = false;
    while gate.next(done).map_err(broken)? {
        let sample = timed(primitive, iterations, buf)?;
        samples.push(sample);
        checksum = fold(checksum, buf, primitive.last_output()?.as_deref());
        let mut precise = false;
        if samples.len() >= next_look {
            let series: Vec<f64> = samples.iter().map(|s| s.throughput(size)).collect();
            precise = rule.precise(&series);
            next_look = StopRule::next_look(samples.len());
        }
        let elapsed = started.elapsed();
        let spent = (elapsed >= budget && samples.len() >= floor.samples) || (elapsed >= floor.cap && samples.len() >= 3);
        done = done || precise || spent || samples.len() >= MAX_SAMPLES;
    }
    let summary = summarize(&samples, size).ok_or_else(|| broken("told to stop before the first sample".into()))?;
    let mut warnings = warnings(&summary, timing);
    if samples.len() < floor.samples && floor.cap < Duration::MAX {
        warnings.push(format!(
            "only {} samples (at least {} wanted) within the cap of {:.0} s per cell; a call takes {:.2} s",
            samples.len(),
            floor.samples,
            floor.cap.as_secs_f64(),
            summary.seconds_per_call
        ));
    }
    if unsteady {
        warnings.push(format!(
            "unsteady warm-up: throughput still changed by more than {:.0}% after {} ms of warm-up",
            steady::STEADY_TOLERANCE * 100.0,
            (Duration::from_nanos(warmup_ns) + WARMUP_CAP).as_millis()
        ));
    }
    let series: Vec<f64> = samples.iter().map(|s| s.throughput(size)).collect();
    if let Some(shift) = steady::level_shift(&series) {
        warnings.push(level_shift_warning(&shift, samples.len()));
    }
    Ok(Measurement {
        summary,
        samples,
        warnings,
        checksum: format!("{:016x}", std::hint::black_box(checksum)),
        implementation: primitive.implementation(),
        exceptions: Exceptions {
            extra_work: primitive.extra_work(),
            allocates: primitive.allocates().map(|a| a.why.to_string()),
            ..Exceptions::default()
        },
        cycles_per_byte: None,
        aggregate: None,
        replicates: Vec::new(),
        buffer_page_offset: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A primitive whose cost is a fixed amount of arithmetic per call.
    struct Spin(u64);
    impl Primitive for Spin {
        fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
            for _ in 0..iterations * 200 {
                self.0 = std::hint::black_box(self.0.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
            buf[0] = self.0 as u8;
            Ok(())
        }
    }

    struct Broken;
    impl Primitive for Broken {
        fn run(&mut self, _: u64, _: &mut [u8]) -> Result<(), BackendError> {
            Err(BackendError::AuthenticationFailed)
        }
    }

    #[test]
    fn samples_are_calibrated_and_summarised() {
        let timing = TimingSettings {
            sample_target_ns: 1_000_000,
            cell_budget_ns: 200_000_000,
            min_samples: 5,
            target_relative_ci: 0.5,
            warmup_ns: 0,
        };
        let m = measure(&mut Spin(1), &mut [0u8; 64], &timing).unwrap();
        assert!(m.samples.len() >= 5);
        assert!(m
            .samples
            .iter()
            .all(|s| s.iterations == m.samples[0].iterations && s.iterations > 1));
        assert_eq!(m.summary.samples, m.samples.len());
        assert_eq!(m.checksum.len(), 16);
    }

    #[test]
    fn a_failing_primitive_is_an_error_not_a_figure() {
        assert!(measure(&mut Broken, &mut [0u8; 16], &quick_timing()).is_err());
    }

    /// Holds every worker to a fixed number of samples, as the orchestrator
    /// does while another worker still samples.
    struct Fixed(usize, usize);
    impl Gate for Fixed {
        fn start(&mut self) -> Result<(), String> {
            self.1 = 0;
            Ok(())
        }
        fn next(&mut self, _done: bool) -> Result<bool, String> {
            self.1 += 1;
            Ok(self.1 <= self.0)
        }
    }

    #[test]
    fn a_gate_decides_how_many_samples_are_taken() {
        let timing = TimingSettings {
            sample_target_ns: 200_000,
            cell_budget_ns: 1,
            min_samples: 3,
            target_relative_ci: 0.5,
            warmup_ns: 0,
        };
        // Alone the budget (1 ns) stops it after 3 samples; held by the gate it takes 7.
        assert_eq!(measure(&mut Spin(1), &mut [0u8; 64], &timing).unwrap().samples.len(), 3);
        let m = measure_gated(&mut Spin(1), &mut [0u8; 64], &timing, &mut Fixed(7, 0)).unwrap();
        assert_eq!(m.samples.len(), 7);
        assert!(measure_gated(&mut Spin(1), &mut [0u8; 64], &timing, &mut Fixed(0, 0)).is_err());
    }

    #[test]
    fn fold_depends_on_the_data() {
        assert_ne!(fold(1, &[1, 2, 3], None), fold(1, &[1, 2, 4], None));
        assert_ne!(fold(1, &[1], Some(&[9])), fold(1, &[1], None));
    }
}

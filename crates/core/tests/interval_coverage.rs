//! Is the stated 95% interval of the median as wide as the data need, and
//! no wider? Simulated: series with a known median, sampled under the
//! harness's stop rule (crates/core/src/stopping.rs: the default target,
//! minimum and looks) up to a cap, the interval reported at the stop.
//! Per case (cap × ρ × σ) it must
//!
//! - on independent data (ρ = 0), cover the true median in 94%–96.5% of
//!   the runs (a 95% interval that covered far more would be wider than it
//!   says, one that covered less would be narrower) and be on average at
//!   most 1.15 times as wide as the exact order-statistic interval for
//!   independent samples computed from the same samples, and
//! - on correlated data (ρ = 0.5, 0.8), cover in at least
//!   [`DEPENDENT_FLOOR`] of the runs (88.5% at ρ = 0.5, 84% at 0.8) and
//!   at most 96.5%.
//!
//! The caps are the samples the default run's budget holds for a cell
//! ([`cryptobench_core::stopping::DEFAULT_CELL_SAMPLES`], 107 at 2 ms
//! samples) and 28, what a cell holds that gets a quarter of that time
//! (or the 10 ms samples of earlier versions held).
//!
//! The series are x_t = exp(σ·z_t) with z an AR(1) process of lag-1
//! correlation ρ and unit variance: log-normal (skewed, as timings are),
//! with median exactly exp(0) = 1 whatever ρ and σ, since exp is monotone.
//! Fixed seeds keep the test repeatable (SEED=n tries another; TRIALS=n
//! another number of runs per case).

use cryptobench_core::stats::{median_confidence_interval, summarize, Sample};
use cryptobench_core::stopping::{StopRule, DEFAULT_CELL_SAMPLES, DEFAULT_MIN_SAMPLES, DEFAULT_TARGET};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Runs per case: the coverage estimate's standard error is then
/// √(0.95·0.05/3000) = 0.4 points.
const TRIALS: usize = 3000;
const SEED: u64 = 20261123;
/// The least coverage asked of correlated series, per lag-1 correlation
/// ρ. It is below 94% because it is what the estimator achieves: from 28
/// samples the lag-1 correlation is known to ±0.15 or so, and the
/// shrinkage that keeps independent samples at their exact interval
/// shrinks a true 0.5 too (docs/METHOD.md gives the table). Each floor is
/// about four standard errors (0.4 points at 3000 trials) below the least
/// coverage measured at the fixed seed (90.3% at ρ = 0.5, 85.6% at
/// ρ = 0.8), so a regression of two points fails.
const DEPENDENT_FLOOR: [(f64, f64); 2] = [(0.5, 0.885), (0.8, 0.84)];

fn floor_at(rho: f64) -> f64 {
    if rho == 0.0 {
        return 0.94;
    }
    DEPENDENT_FLOOR
        .iter()
        .find(|(r, _)| *r == rho)
        .map(|(_, floor)| *floor)
        .expect("a floor for every correlation the test simulates")
}

fn standard_normal(rng: &mut StdRng) -> f64 {
    // Box–Muller.
    let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

fn series(rng: &mut StdRng, rho: f64, sigma: f64, n: usize) -> Vec<f64> {
    let mut z = standard_normal(rng);
    let scale = (1.0 - rho * rho).sqrt();
    (0..n)
        .map(|_| {
            let x = (sigma * z).exp();
            z = rho * z + scale * standard_normal(rng);
            x
        })
        .collect()
}

/// A sample whose throughput for 1-byte messages is `x` (10^6 calls in 10^15/x ns).
fn sample(x: f64) -> Sample {
    Sample {
        iterations: 1_000_000,
        wall_ns: (1e15 / x).round() as u64,
        cpu_ns: None,
    }
}

struct Outcome {
    covered: bool,
    width: f64,
    exact_width: f64,
    taken: usize,
}

/// One run under the stop rule, at most `cap` samples.
fn trial(rng: &mut StdRng, rule: StopRule, rho: f64, sigma: f64, cap: usize) -> Outcome {
    let xs = series(rng, rho, sigma, cap);
    let samples: Vec<Sample> = xs.iter().copied().map(sample).collect();
    let mut n = rule.first_look().min(cap);
    loop {
        let s = summarize(&samples[..n], 1).unwrap();
        if rule.precise(&xs[..n]) || n >= cap {
            let mut sorted: Vec<f64> = samples[..n].iter().map(|x| x.throughput(1)).collect();
            sorted.sort_by(f64::total_cmp);
            let exact = median_confidence_interval(&sorted, 0.95);
            return Outcome {
                covered: s.median_ci95[0] <= 1.0 && 1.0 <= s.median_ci95[1],
                width: s.median_ci95[1] - s.median_ci95[0],
                exact_width: exact[1] - exact[0],
                taken: n,
            };
        }
        n = StopRule::next_look(n).min(cap);
    }
}

struct Case {
    coverage: f64,
    width_ratio: f64,
    mean_samples: f64,
}

fn case(cap: usize, rho: f64, sigma: f64) -> Case {
    let rule = StopRule {
        min_samples: DEFAULT_MIN_SAMPLES,
        target_relative_ci: DEFAULT_TARGET * cryptobench_core::stopping::STOP_SHARE,
    };
    let seed: u64 = std::env::var("SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(SEED);
    let trials: usize = std::env::var("TRIALS").ok().and_then(|s| s.parse().ok()).unwrap_or(TRIALS);
    // One stream per case, so that a case's figures do not depend on which others ran.
    let mut rng = StdRng::seed_from_u64(seed ^ (cap as u64) << 32 ^ ((rho * 10.0) as u64) << 16 ^ (sigma * 1000.0) as u64);
    let (mut covered, mut width, mut exact, mut taken) = (0usize, 0.0, 0.0, 0usize);
    for _ in 0..trials {
        let o = trial(&mut rng, rule, rho, sigma, cap);
        covered += usize::from(o.covered);
        width += o.width;
        exact += o.exact_width;
        taken += o.taken;
    }
    Case {
        coverage: covered as f64 / trials as f64,
        width_ratio: width / exact,
        mean_samples: taken as f64 / trials as f64,
    }
}

/// The table of docs/METHOD.md for one cap; failures are collected, not
/// stopped at, so that one run shows every case.
fn check(cap: usize) {
    let mut failures = Vec::new();
    eprintln!("| cap | ρ | σ | coverage | width / exact independent | samples (mean) |");
    for rho in [0.0, 0.5, 0.8] {
        for sigma in [0.01, 0.02, 0.05] {
            let c = case(cap, rho, sigma);
            eprintln!(
                "| {cap} | {rho} | {}% | {:.1}% | {:.2} | {:.0} |",
                sigma * 100.0,
                c.coverage * 100.0,
                c.width_ratio,
                c.mean_samples
            );
            let floor = floor_at(rho);
            if !(floor..=0.965).contains(&c.coverage) {
                failures.push(format!("ρ {rho} σ {sigma}: coverage {:.3} outside {floor}–0.965", c.coverage));
            }
            if rho == 0.0 && c.width_ratio > 1.15 {
                failures.push(format!(
                    "ρ 0 σ {sigma}: {:.3} times as wide as the exact independent interval (at most 1.15)",
                    c.width_ratio
                ));
            }
        }
    }
    assert!(failures.is_empty(), "cap {cap}: {failures:#?}");
}

#[test]
fn at_the_default_budget() {
    check(DEFAULT_CELL_SAMPLES);
}

#[test]
fn at_28_samples() {
    check(28);
}

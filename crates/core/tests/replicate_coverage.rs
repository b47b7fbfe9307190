//! Does a figure without `~` repeat? Simulated runs of the default shape
//! (30 cells, 5 replicates of 13 samples each, the replicates of all cells
//! interleaved in a random order over a run of 20 s), each cell's figure and
//! interval made by crates/core/src/replicates.rs from the replicates'
//! medians and their own dependence-aware intervals, exactly as `run` makes
//! them; then an independent next run of the same cells. Per scenario the
//! interval must cover the next run's figure in at least [`FLOOR`] of the
//! cases, and where there is neither layout nor interference it must be no
//! wider than the data need: on average at most [`MOST_WIDTH`] times the
//! half-width that covers 95% of the next runs' figures of that cell (the
//! oracle, known here from the simulation itself).
//!
//! What a replicate sees (docs/METHOD.md, "Replicates"):
//! - **within a replicate** AR(1) noise, lag-1 correlation 0.3, log-normal,
//!   its size σ_c different for every cell (0.2%–3%, log-uniform: 16 B cells
//!   are noisier than 16 KiB ones, one library than another);
//! - **layout**: a level of its own per process, exp(λ·N(0,1));
//! - **interference**: episodes of a neighbour (exponential durations,
//!   on for 2 s on average, off for 20 s), during which every cell runs at
//!   0.6^β_c of its speed (β_c in 0.2–1: AES-GCM slows more than AES-CBC, as
//!   measured here): a noise that only slows, and hits all cells measured
//!   in the same seconds.
//!
//! `cargo test -p cryptobench-core --test replicate_coverage -- --nocapture`
//! prints the table docs/METHOD.md quotes. SEED=n tries another seed.

use cryptobench_core::dependent_ci::median_interval;
use cryptobench_core::replicates::{combine, prior, CellReplicates};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

const CELLS: usize = 30;
/// The default run's replicates (src/orchestrate/plan.rs) and what a
/// replicate of its budget holds: 0.235 s / 5 = 47 ms, 20 ms of it warm-up,
/// samples of 2 ms.
const REPLICATES: usize = 5;
const SAMPLES: usize = 13;
const RUN_SECONDS: f64 = 20.0;
/// Pairs of runs per scenario: 200 × 30 cells = 6000 figures, a coverage
/// estimate within about ±0.4 points.
const PAIRS: usize = 200;
const SEED: u64 = 20261129;
/// The least coverage of the next run's figure asked in every scenario.
const FLOOR: f64 = 0.90;
/// The widest the interval may be, on average over the cells, against the
/// oracle's, without layout or interference.
const MOST_WIDTH: f64 = 1.25;

#[derive(Debug, Clone, Copy)]
struct Scenario {
    name: &'static str,
    /// λ: the standard deviation of a process's ln level.
    layout: f64,
    /// The speed during an episode (1: no interference).
    slow: f64,
}

/// The cells' fixed traits: their own noise and their sensitivity to a neighbour.
struct Cells {
    sigma: Vec<f64>,
    sensitivity: Vec<f64>,
}

fn standard_normal(rng: &mut StdRng) -> f64 {
    let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

fn exponential(rng: &mut StdRng, mean: f64) -> f64 {
    -mean * rng.random::<f64>().max(f64::MIN_POSITIVE).ln()
}

/// The neighbour's episodes over one run, as (start, end) seconds.
fn episodes(rng: &mut StdRng) -> Vec<(f64, f64)> {
    let (on, off) = (2.0, 20.0);
    let mut t = 0.0;
    let mut busy = rng.random::<f64>() < on / (on + off);
    let mut out = Vec::new();
    while t < RUN_SECONDS {
        let d = exponential(rng, if busy { on } else { off });
        if busy {
            out.push((t, t + d));
        }
        t += d;
        busy = !busy;
    }
    out
}

/// One replicate's samples, measured from `start` for `length` seconds.
fn replicate(rng: &mut StdRng, s: Scenario, sigma: f64, slowed_to: f64, busy: &[(f64, f64)], (start, length): (f64, f64)) -> Vec<f64> {
    let level = (s.layout * standard_normal(rng)).exp();
    let rho: f64 = 0.3;
    let mut z = standard_normal(rng);
    (0..SAMPLES)
        .map(|i| {
            let t = start + length * (i as f64 + 0.5) / SAMPLES as f64;
            let hit = busy.iter().any(|&(a, b)| t >= a && t < b);
            let x = level * (sigma * z).exp() * if hit { slowed_to } else { 1.0 };
            z = rho * z + (1.0 - rho * rho).sqrt() * standard_normal(rng);
            x
        })
        .collect()
}

/// One run: every cell's replicates, in rounds of a random order.
fn run(rng: &mut StdRng, s: Scenario, cells: &Cells) -> Vec<CellReplicates> {
    let busy = if s.slow < 1.0 { episodes(rng) } else { Vec::new() };
    let slot = RUN_SECONDS / (REPLICATES * CELLS) as f64;
    let mut out = vec![CellReplicates::default(); CELLS];
    for r in 0..REPLICATES {
        let mut order: Vec<usize> = (0..CELLS).collect();
        order.shuffle(rng);
        for (position, &c) in order.iter().enumerate() {
            let start = (r * CELLS + position) as f64 * slot;
            let slowed_to = s.slow.powf(cells.sensitivity[c]);
            let series = replicate(rng, s, cells.sigma[c], slowed_to, &busy, (start, slot));
            let mut sorted = series.clone();
            sorted.sort_by(f64::total_cmp);
            let median = cryptobench_core::stats::quantile(&sorted, 0.5);
            let within = median_interval(&series, &sorted, 0.95);
            out[c].medians.push(median);
            out[c].within.push((within.hi - within.lo) / 2.0 / median);
        }
    }
    out
}

/// Each cell's (ln figure, ln half-width) of one run.
fn figures(run: &[CellReplicates]) -> Vec<(f64, f64)> {
    let (p, outlying) = prior(run);
    run.iter()
        .zip(outlying)
        .map(|(c, out)| {
            let x = combine(c, p, out, 0.95).expect("five replicates");
            (x.figure.ln(), (x.interval[1] / x.figure).ln())
        })
        .collect()
}

struct Outcome {
    coverage: f64,
    width_over_oracle: f64,
    unflagged: f64,
}

fn scenario(s: Scenario, seed: u64) -> Outcome {
    let mut rng = StdRng::seed_from_u64(seed);
    let cells = Cells {
        sigma: (0..CELLS)
            .map(|_| (0.002f64.ln() + rng.random::<f64>() * (0.03f64 / 0.002).ln()).exp())
            .collect(),
        sensitivity: (0..CELLS).map(|_| 0.2 + 0.8 * rng.random::<f64>()).collect(),
    };
    let mut covered = 0usize;
    let mut unflagged = 0usize;
    let mut half = vec![0.0; CELLS];
    let mut differences: Vec<Vec<f64>> = vec![Vec::new(); CELLS];
    for _ in 0..PAIRS {
        let this = figures(&run(&mut rng, s, &cells));
        let next = figures(&run(&mut rng, s, &cells));
        for c in 0..CELLS {
            let d = next[c].0 - this[c].0;
            covered += usize::from(d.abs() <= this[c].1);
            unflagged += usize::from(this[c].1 <= 0.01f64.ln_1p());
            half[c] += this[c].1 / PAIRS as f64;
            differences[c].push(d.abs());
        }
    }
    // The oracle: per cell, the half-width that covers 95% of the next runs.
    let oracle: Vec<f64> = differences
        .iter_mut()
        .map(|d| {
            d.sort_by(f64::total_cmp);
            d[(0.95 * d.len() as f64) as usize - 1]
        })
        .collect();
    let total = (PAIRS * CELLS) as f64;
    Outcome {
        coverage: covered as f64 / total,
        width_over_oracle: half.iter().zip(&oracle).map(|(h, o)| h / o).sum::<f64>() / CELLS as f64,
        unflagged: unflagged as f64 / total,
    }
}

#[test]
fn intervals_from_replicates_cover_the_next_runs_figure() {
    let seed = std::env::var("SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(SEED);
    let scenarios = [
        Scenario {
            name: "neither",
            layout: 0.0,
            slow: 1.0,
        },
        Scenario {
            name: "layout 0.5%",
            layout: 0.005,
            slow: 1.0,
        },
        Scenario {
            name: "interference",
            layout: 0.0,
            slow: 0.6,
        },
        Scenario {
            name: "layout 0.5% and interference",
            layout: 0.005,
            slow: 0.6,
        },
    ];
    println!("| scenario | next run's figure covered | width / oracle | unflagged at ±1% |");
    println!("|---|---|---|---|");
    let mut failures = Vec::new();
    for (i, s) in scenarios.iter().enumerate() {
        let o = scenario(*s, seed + i as u64);
        println!(
            "| {} | {:.1}% | {:.2} | {:.0}% |",
            s.name,
            o.coverage * 100.0,
            o.width_over_oracle,
            o.unflagged * 100.0
        );
        if o.coverage < FLOOR {
            failures.push(format!("{}: coverage {:.3} < {FLOOR}", s.name, o.coverage));
        }
        if s.layout == 0.0 && s.slow == 1.0 && o.width_over_oracle > MOST_WIDTH {
            failures.push(format!("{}: {:.2} times as wide as it must be", s.name, o.width_over_oracle));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

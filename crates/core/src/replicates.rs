//! A cell's figure and the promise it carries, from its replicates: the
//! same cell measured in several fresh worker processes, one per round, the
//! cells of a round in a random order (docs/METHOD.md, "Replicates").
//!
//! Samples inside one worker are not independent of each other, and none of
//! them knows what another process and another few seconds bring: another
//! memory layout, a neighbour on the core's vector units, another vCPU
//! (T. Mytkowicz, A. Diwan, M. Hauswirth and P. F. Sweeney, "Producing wrong
//! data without doing anything obviously wrong!", ASPLOS 2009). So the
//! replicate, not the sample, is the independent unit (as pyperf's worker
//! processes), and everything below works on the replicates' medians,
//! y = ln(median), all cells of a run together:
//!
//! 1. **Clean replicates.** A neighbour only ever slows a deterministic loop
//!    down, and it slows everything measured while it runs. Each replicate's
//!    residual e = y − (its cell's calm level: the median of the cell's
//!    faster half) is set beside the residuals of the other cells measured
//!    around it ([`WINDOW`] neighbours in the run's order) and in the same
//!    worker process. Where either median lies more than the promise
//!    ([`HOST_SLOWER`] of it) below the run's calm level (the
//!    [`CALM_QUANTILE`] of those medians over the run), the host was slower
//!    than it can be in that replicate: it is dropped from the figure and
//!    the spread, and kept in the record with the reason (a process settles
//!    into a state; detect a slowed one and drop it, do not average it:
//!    E. Barrett, C. F. Bolz-Tereick, R. Killick, S. Mount and L. Tratt,
//!    "Virtual machine warmup blows hot and cold", OOPSLA 2017).
//! 2. **The figure** is the fastest clean replicate's median: under noise
//!    that only slows, the fastest is the least disturbed and the one the
//!    next run reproduces (J. Chen and J. Revels, "Robust benchmarking in
//!    noisy environments", 2016; Python's `timeit` says the same of its
//!    repeats).
//! 3. **The spread** comes from the faster half of the clean replicates
//!    only: the slower half may still hold replicates slowed by a little or
//!    by one process's state, and the faster half does not. It is the slope
//!    of the k largest y on their expected normal order statistics (a
//!    censored normal sample: A. K. Gupta, "Estimation of the mean and
//!    standard deviation of a normal population from a censored sample",
//!    Biometrika 39, 1952; the scores by G. Blom, "Statistical estimates and
//!    transformed beta-variables", 1958). A slowed replicate can make it
//!    larger only by being among the fastest, which it is not.
//! 4. **Pooled across cells, additively.** What moves a replicate is a
//!    process's own level (layout, the vCPU it got), about the same amount
//!    for every cell of the run, plus the cell's own noise inside a
//!    replicate, which its samples show (cv²·π/(2n) for the median of n
//!    samples, the median's asymptotic variance). So σ²_c = σ²_p + v_c, σ²_p
//!    estimated from all cells of the run (a random-effects model of levels:
//!    T. Kalibera and R. Jones, "Rigorous benchmarking in reasonable time",
//!    ISMM 2013), and each cell's own estimate moderated toward it with
//!    [`PRIOR_WEIGHT`] degrees of freedom (the empirical-Bayes moderation of
//!    G. K. Smyth, Statistical Applications in Genetics and Molecular
//!    Biology 3(1), 2004, with the prior's weight fixed by the simulation in
//!    crates/core/tests/replicate_coverage.rs).
//! 5. **The promise**: two runs' figures, each the largest of n clean
//!    replicates, differ in ln with a variance of 2·c_n·s̃² (c_n the variance
//!    of the largest of n standard normals, [`crate::special::normal_max_variance`]),
//!    so the next run's figure falls within figure·exp(±t_{df, 97.5%}·s̃·√(2c_n)).
//!    A cell whose promise is wider than the run's target (±2% by default) is
//!    flagged "imprecise"; one left with fewer than [`MIN_CLEAN`] clean
//!    replicates "replicates disagree". The share of unflagged figures that
//!    an independent repeat reproduces within 2% is the gate of
//!    crates/core/tests/replicate_coverage.rs.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

use crate::special::normal_max_variance;

/// What the replicates of a cell say together; set on the cell's summary
/// when its figure combines several.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReplicateStats {
    /// How many clean replicates the figure and its spread come from.
    pub count: usize,
    /// How many were measured (clean and dropped); absent in older runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<usize>,
    /// (largest − smallest clean replicate median) / figure.
    pub spread: f64,
    /// s̃: the standard deviation of one clean replicate's ln(median),
    /// moderated toward the run's σ²_p + this cell's own noise.
    pub log_sd: f64,
    /// Degrees of freedom of `log_sd` (capped at [`MAX_DF`]).
    pub degrees_of_freedom: f64,
    /// Standard error of ln(figure): s̃·√c_n (c_n for the largest of n).
    pub log_standard_error: f64,
    /// Fewer than [`MIN_CLEAN`] clean replicates remained.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub too_few_clean: bool,
}

/// One replicate as the combination sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observation {
    /// The replicate's median (figures: larger is faster).
    pub median: f64,
    /// The coefficient of variation of its samples and how many there were.
    pub cv: f64,
    pub samples: usize,
    /// Its place in the run's order of measurement.
    pub sequence: usize,
    /// The worker process that measured it (its round and configuration).
    pub process: usize,
}

impl Observation {
    /// v: the variance of ln(median) its own samples show, cv²·π/(2n).
    fn within(&self) -> f64 {
        if self.samples == 0 || !self.cv.is_finite() {
            return LEAST_WITHIN;
        }
        (self.cv.powi(2) * std::f64::consts::FRAC_PI_2 / self.samples as f64).max(LEAST_WITHIN)
    }
}

/// The replicates of one cell.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CellReplicates {
    pub replicates: Vec<Observation>,
}

/// Why a replicate was left out of its cell's figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Dropped {
    /// The other cells measured around it ran this much slower (relative)
    /// than the run's calm level.
    HostSlower(f64),
    /// The other cells its worker process measured ran this much slower.
    ProcessSlower(f64),
}

impl std::fmt::Display for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Dropped::HostSlower(by) => write!(
                f,
                "measured while the host ran {:.1}% slower than its calm level (the cells measured around it)",
                by * 100.0
            ),
            Dropped::ProcessSlower(by) => write!(
                f,
                "its worker process ran {:.1}% slower than the run's calm level (the other cells it measured)",
                by * 100.0
            ),
        }
    }
}

/// The smallest within-replicate variance (ln scale) a cell is given:
/// ±0.01%, below what a timer and a shared cache allow.
const LEAST_WITHIN: f64 = 2.6e-9;

/// Degrees of freedom beyond which t is the normal distribution.
pub const MAX_DF: f64 = 1e6;

/// Other cells' replicates measured around a replicate over which the
/// host's speed at that moment is judged (its median residual): about
/// 0.2 s of the default run.
pub const WINDOW: usize = 15;

/// The run's calm level: this quantile of the medians of [`WINDOW`] and of
/// the worker processes. Up to four fifths of a run may be busy and the
/// calm level is still one measured in calm moments.
pub const CALM_QUANTILE: f64 = 0.8;

/// A replicate measured while the host ran this much (ln) below its calm
/// level is dropped: with a promise of ±2%, a replicate 2% slow cannot
/// stand for the figure. A median of fifteen residuals moves by a fifth of
/// their spread, so in a calm run this drops next to nothing.
pub const HOST_SLOWER: f64 = 0.02;

/// Fewest clean replicates from which a spread is taken; fewer are flagged
/// ("replicates disagree").
pub const MIN_CLEAN: usize = 3;

/// The weight, in degrees of freedom, of the run's pooled variance against
/// a cell's own (chosen in crates/core/tests/replicate_coverage.rs: lower
/// lets cells' luck through, higher lets a cell noisier than its samples
/// say borrow a narrow promise).
pub const PRIOR_WEIGHT: f64 = 8.0;

/// The combined figure of one cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Combined {
    pub figure: f64,
    /// Where the next run's figure falls, at the level asked.
    pub interval: [f64; 2],
    pub stats: ReplicateStats,
    /// Per replicate, in the order given: why it was left out, if it was.
    pub dropped: Vec<Option<Dropped>>,
}

impl Combined {
    /// The promise: the interval's half-width, relative to the figure.
    pub fn relative_half_width(&self) -> f64 {
        (self.interval[1] - self.interval[0]) / 2.0 / self.figure
    }

    /// Whether the figure keeps its promise of ±`target`: precise enough and
    /// from enough clean replicates.
    pub fn keeps(&self, target: f64) -> bool {
        !self.stats.too_few_clean && self.relative_half_width() <= target
    }
}

/// The run as the combination saw it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RunModel {
    /// σ²_p: the variance of a process's level, shared by the run's cells.
    pub process_variance: f64,
    /// Replicates dropped and measured.
    pub dropped: usize,
    pub replicates: usize,
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn quantile(values: &[f64], q: f64) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    // The nearest rank: a level judged over hundreds of windows needs no interpolation.
    v[((v.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize]
}

/// ln of each positive median, and the cell's calm level (the median of
/// its faster half); None for a cell without two positive medians.
fn logs(cell: &CellReplicates) -> Option<(Vec<f64>, f64)> {
    let ys: Vec<f64> = cell
        .replicates
        .iter()
        .map(|r| if r.median > 0.0 { r.median.ln() } else { f64::NAN })
        .collect();
    let mut finite: Vec<f64> = ys.iter().copied().filter(|y| y.is_finite()).collect();
    if finite.len() < 2 {
        return None;
    }
    finite.sort_by(|a, b| b.total_cmp(a));
    let level = median(&finite[..finite.len().div_ceil(2)]);
    Some((ys, level))
}

/// Per cell and replicate: why it is dropped, if it is.
fn clean(cells: &[CellReplicates]) -> Vec<Vec<Option<Dropped>>> {
    // (sequence, cell, replicate, residual, process)
    let mut timeline = Vec::new();
    for (c, cell) in cells.iter().enumerate() {
        if let Some((ys, level)) = logs(cell) {
            for (i, (r, y)) in cell.replicates.iter().zip(&ys).enumerate() {
                if y.is_finite() {
                    timeline.push((r.sequence, c, i, y - level, r.process));
                }
            }
        }
    }
    let mut out: Vec<Vec<Option<Dropped>>> = cells.iter().map(|c| vec![None; c.replicates.len()]).collect();
    if timeline.len() <= WINDOW {
        return out;
    }
    timeline.sort_by_key(|p| p.0);
    let n = timeline.len();
    // The host around each replicate: the median of the WINDOW nearest other cells' residuals.
    let around: Vec<f64> = (0..n)
        .map(|i| {
            let lo = i.saturating_sub(WINDOW / 2 + 1).min(n - WINDOW - 1);
            let others: Vec<f64> = timeline[lo..lo + WINDOW + 1]
                .iter()
                .filter(|p| p.1 != timeline[i].1)
                .take(WINDOW)
                .map(|p| p.3)
                .collect();
            median(&others)
        })
        .collect();
    // Each process: the median residual of the cells it measured (other than the one judged, in a process of many).
    let mut by_process: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
    for p in &timeline {
        by_process.entry(p.4).or_default().push(p.3);
    }
    let process_level: std::collections::BTreeMap<usize, f64> = by_process
        .iter()
        .filter(|(_, v)| v.len() >= WINDOW)
        .map(|(k, v)| (*k, median(v)))
        .collect();
    let calm_around = quantile(&around, CALM_QUANTILE);
    let calm_process = quantile(&process_level.values().copied().collect::<Vec<_>>(), CALM_QUANTILE);
    for (i, p) in timeline.iter().enumerate() {
        let host = calm_around - around[i];
        let process = process_level.get(&p.4).map_or(0.0, |l| calm_process - l);
        out[p.1][p.2] = if process > HOST_SLOWER && process >= host {
            Some(Dropped::ProcessSlower(1.0 - (-process).exp()))
        } else if host > HOST_SLOWER {
            Some(Dropped::HostSlower(1.0 - (-host).exp()))
        } else {
            None
        };
    }
    out
}

/// Blom's approximation of the expected i-th largest of n standard normals (i from 1).
fn normal_score(i: usize, n: usize) -> f64 {
    Normal::standard().inverse_cdf(((n - i) as f64 + 1.0 - 0.375) / (n as f64 + 0.25))
}

/// A cell's own estimate of σ from its clean ys (sorted fastest first):
/// the slope of the k largest on their normal scores, with k − 1 degrees of freedom.
fn censored_sd(sorted: &[f64]) -> (f64, f64) {
    let n = sorted.len();
    let k = n.div_ceil(2).max(2).min(n);
    let scores: Vec<f64> = (1..=k).map(|i| normal_score(i, n)).collect();
    let (ma, my) = (scores.iter().sum::<f64>() / k as f64, sorted[..k].iter().sum::<f64>() / k as f64);
    let sxy: f64 = scores.iter().zip(sorted).map(|(a, y)| (a - ma) * (y - my)).sum();
    let sxx: f64 = scores.iter().map(|a| (a - ma).powi(2)).sum();
    ((sxy / sxx).max(0.0), (k - 1) as f64)
}

/// A cell's own view: clean ys fastest first, v̄, own σ̂², its degrees of freedom.
type Own = (Vec<f64>, f64, f64, f64);

/// Every cell's figure and promise at `level` (None for a cell of fewer
/// than two replicates), and what the run showed.
pub fn combine_run(cells: &[CellReplicates], level: f64) -> (Vec<Option<Combined>>, RunModel) {
    let dropped = clean(cells);
    let own: Vec<Option<Own>> = cells
        .iter()
        .zip(&dropped)
        .map(|(cell, dropped)| {
            let (ys, _) = logs(cell)?;
            let kept: Vec<(f64, f64)> = ys
                .iter()
                .zip(&cell.replicates)
                .zip(dropped)
                .filter(|((y, _), d)| y.is_finite() && d.is_none())
                .map(|((y, r), _)| (*y, r.within()))
                .collect();
            let mut clean: Vec<f64> = kept.iter().map(|k| k.0).collect();
            clean.sort_by(|a, b| b.total_cmp(a));
            let v = kept.iter().map(|k| k.1).sum::<f64>() / kept.len().max(1) as f64;
            if clean.len() < 2 {
                return Some((clean, v, f64::NAN, 0.0));
            }
            let (sd, d) = censored_sd(&clean);
            Some((clean, v, sd * sd, d))
        })
        .collect();
    let excess: Vec<f64> = own.iter().flatten().filter(|o| o.2.is_finite()).map(|o| o.2 - o.1).collect();
    let process_variance = pooled(&excess);
    let combined = cells
        .iter()
        .zip(&own)
        .zip(&dropped)
        .map(|((cell, own), dropped)| {
            let (clean, v, s2, d) = own.as_ref()?;
            figure(cell, clean, (*v, *s2, *d), process_variance, dropped, level)
        })
        .collect();
    let model = RunModel {
        process_variance,
        dropped: dropped.iter().flatten().filter(|d| d.is_some()).count(),
        replicates: cells.iter().map(|c| c.replicates.len()).sum(),
    };
    (combined, model)
}

/// σ²_p from the cells' σ̂²_c − v_c: their mean, each held at most to the
/// 90th percentile (a few cells whose replicates spread far beyond the rest
/// do not widen everyone), and never below zero.
fn pooled(excess: &[f64]) -> f64 {
    if excess.is_empty() {
        return 0.0;
    }
    let cap = quantile(excess, 0.9);
    (excess.iter().map(|e| e.min(cap)).sum::<f64>() / excess.len() as f64).max(0.0)
}

fn figure(
    cell: &CellReplicates,
    clean: &[f64],
    (v, s2, d): (f64, f64, f64),
    process_variance: f64,
    dropped: &[Option<Dropped>],
    level: f64,
) -> Option<Combined> {
    let measured = cell.replicates.iter().filter(|r| r.median > 0.0).count();
    if measured < 2 {
        return None;
    }
    // With no clean replicate at all the fastest measured one stands, flagged.
    let all_fastest = cell.replicates.iter().map(|r| r.median).fold(f64::NEG_INFINITY, f64::max);
    let figure = clean.first().map_or(all_fastest, |y| {
        // The clean replicate's median itself, not exp(ln(it)), which can differ in the last bit.
        cell.replicates
            .iter()
            .map(|r| r.median)
            .filter(|m| *m > 0.0)
            .min_by(|a, b| (a.ln() - y).abs().total_cmp(&(b.ln() - y).abs()))
            .unwrap_or(all_fastest)
    });
    let n = clean.len().max(1);
    let model = process_variance + v;
    let (posterior, df) = if s2.is_finite() {
        ((PRIOR_WEIGHT * model + d * s2) / (PRIOR_WEIGHT + d), PRIOR_WEIGHT + d)
    } else {
        (model, PRIOR_WEIGHT)
    };
    let log_sd = posterior.sqrt();
    let log_standard_error = log_sd * normal_max_variance(n).sqrt();
    let t = StudentsT::new(0.0, 1.0, df.min(MAX_DF)).ok()?.inverse_cdf(0.5 + level / 2.0);
    let half = t * log_standard_error * std::f64::consts::SQRT_2;
    let centre = figure.ln();
    let spread = match (clean.first(), clean.last()) {
        (Some(hi), Some(lo)) => (hi.exp() - lo.exp()) / figure,
        _ => 0.0,
    };
    Some(Combined {
        figure,
        interval: [(centre - half).exp(), (centre + half).exp()],
        stats: ReplicateStats {
            count: clean.len(),
            measured: Some(measured),
            spread,
            log_sd,
            degrees_of_freedom: df.min(MAX_DF),
            log_standard_error,
            too_few_clean: clean.len() < MIN_CLEAN,
        },
        dropped: dropped.to_vec(),
    })
}

//! A cell's figure and interval from its replicates: the same cell measured
//! in several fresh worker processes, interleaved with the other cells and
//! configurations (docs/METHOD.md, "Replicates").
//!
//! Samples inside one worker are not independent of each other, and none
//! of them knows what another process and another few seconds bring: another
//! memory layout, a neighbour on the core's vector units, another vCPU
//! (T. Mytkowicz, A. Diwan, M. Hauswirth and P. F. Sweeney, "Producing wrong
//! data without doing anything obviously wrong!", ASPLOS 2009; C. Curtsinger
//! and E. D. Berger, "STABILIZER: statistically sound performance
//! evaluation", ASPLOS 2013). So the replicate, not the sample, is the
//! independent unit (as pyperf's worker processes), and the figure and its
//! interval are built from the replicates' medians y_r = ln(median_r):
//!
//! 1. **The figure** is the fastest replicate's median. A neighbour on the
//!    machine's cores only ever slows a deterministic loop down, never speeds
//!    it up, so of several measurements the fastest is the one least
//!    disturbed and the one the next run reproduces (J. Chen and J. Revels,
//!    "Robust benchmarking in noisy environments", 2016, the estimator of
//!    Julia's BenchmarkTools; Python's `timeit` documentation says the
//!    same of its repeats). Measured on a shared 2-vCPU guest, four default
//!    runs of five replicates: the fastest of three replicates repeated
//!    within 2% for 46% of the cells of 1 KiB and more, their median for 30%
//!    (90th percentile of the differences 17.6% against 37.7%; docs/METHOD.md).
//!    Inside a replicate the figure stays the median of its samples.
//! 2. **The spread** of one cell's y_r has few degrees of freedom (r − 1),
//!    but every cell of the run was measured on the same machine in the same
//!    minutes. The cells' variances are therefore moderated toward a prior
//!    estimated from all of them, the empirical-Bayes estimator of
//!    G. K. Smyth ("Linear models and empirical Bayes methods for assessing
//!    differential expression in microarray experiments", Statistical
//!    Applications in Genetics and Molecular Biology 3(1), 2004, §6.2):
//!    z_g ~ z₀·χ²_{d₀}/d₀ a priori, the posterior
//!    z̃_g = (d₀·z₀ + d_g·z_g)/(d₀ + d_g) with d₀ + d_g degrees of freedom.
//!    What is moderated is not s²_g itself but its ratio to the cell's own
//!    noise, z_g = s²_g/v_g, v_g the median over its replicates of the
//!    variance of a replicate's median that its own samples show (from the
//!    replicate's dependence-aware interval, crates/core/src/dependent_ci.rs):
//!    cells of a run differ in noise by an order of magnitude (16 B against
//!    16 KiB, one library against another), and a prior of s² alone would
//!    pull the quiet cells' intervals wide and the noisy cells' narrow (as
//!    limma-trend lets the prior follow a covariate). How far the cells'
//!    ratios differ decides d₀ (alike: large d₀, each cell gains the run's
//!    degrees of freedom; very unlike: d₀ near 0, each cell stands on its
//!    own replicates).
//! 3. **Robustness**: a cell whose replicates disagree far beyond the others
//!    (s²_g above the 99th percentile of s²₀·F(d_g, d₀)) would lower d₀ for
//!    every cell. As in B. Phipson, S. Lee, I. J. Majewski, W. S. Alexander
//!    and G. K. Smyth ("Robust hyperparameter estimation protects against
//!    hypervariable genes and improves power to detect differential
//!    expression", Annals of Applied Statistics 10(2), 2016), such cells are
//!    left out of the prior, which is estimated once more without them, and
//!    they keep their own spread alone (d₀ = 0 for them): wide, and said.
//! 4. **The interval** is where a repeat run's figure falls: the figures
//!    of two runs of r replicates each differ in ln by a variance of
//!    2·c_r·s̃² (c_r the variance of the largest of r standard normal
//!    samples, [`crate::special::normal_max_variance`]), so
//!    figure·exp(±t_{d₀+d, 97.5%}·s̃·√(2·c_r)). A replicate slowed by a
//!    neighbour widens s̃ and so the interval: the cell is flagged although
//!    its fastest replicate is likely right, since the run cannot tell. It
//!    answers what a figure without `~` promises: that the next run repeats
//!    it. Its coverage of an independent next run is simulated in
//!    crates/core/tests/replicate_coverage.rs.
//!
//! A run with too few cells to estimate a prior ([`MIN_CELLS_FOR_PRIOR`])
//! gives each cell its own spread alone.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ChiSquared, ContinuousCDF, FisherSnedecor, StudentsT};
use statrs::function::gamma::digamma;

use crate::special::{normal_max_variance, trigamma, trigamma_inverse};

/// What the replicates of a cell say together; set on the cell's summary
/// when its figure combines several.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReplicateStats {
    /// How many replicates (fresh worker processes) the figure combines.
    pub count: usize,
    /// (largest − smallest replicate median) / figure.
    pub spread: f64,
    /// s̃: the standard deviation of one replicate's ln(median), moderated
    /// toward the run's prior.
    pub log_sd: f64,
    /// Degrees of freedom of `log_sd` (d₀ + r − 1; capped at [`MAX_DF`]).
    pub degrees_of_freedom: f64,
    /// Standard error of ln(figure): s̃·√c_r (c_r for the largest of r).
    pub log_standard_error: f64,
    /// The cell's replicates disagreed far beyond the run's other cells, so
    /// its spread was left out of the prior and stands alone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disagree_beyond_the_run: bool,
}

/// The prior of the cells' variance ratios: z_g ~ z₀·χ²_{d₀}/d₀.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prior {
    pub d0: f64,
    pub z0: f64,
}

/// What one cell's replicates said, each on its own.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CellReplicates {
    /// Each replicate's median.
    pub medians: Vec<f64>,
    /// Each replicate's own 95% interval's half-width relative to its median.
    pub within: Vec<f64>,
}

impl CellReplicates {
    /// (ln of the positive medians, v: the median over the replicates of the
    /// variance of a replicate's ln(median) its own interval shows, at least
    /// [`LEAST_WITHIN`]).
    fn logs(&self) -> (Vec<f64>, f64) {
        let ys = self.medians.iter().filter(|m| **m > 0.0).map(|m| m.ln()).collect();
        let z = statrs::distribution::Normal::standard().inverse_cdf(0.975);
        let variances: Vec<f64> = self.within.iter().filter(|h| h.is_finite()).map(|h| (h / z).powi(2)).collect();
        let v = if variances.is_empty() {
            LEAST_WITHIN
        } else {
            median(&variances).max(LEAST_WITHIN)
        };
        (ys, v)
    }
}

/// The smallest within-replicate variance (ln scale) a cell is given: a
/// replicate's interval of ±0.01%, below what a timer and a shared cache allow.
const LEAST_WITHIN: f64 = 2.6e-9;

/// Fewest cells of two or more replicates from which a prior is estimated:
/// its d₀ rests on the variance of the cells' ln s² (Smyth's moment
/// estimator), which a handful of cells cannot give.
pub const MIN_CELLS_FOR_PRIOR: usize = 6;

/// Degrees of freedom beyond which t is the normal distribution: where the
/// cells' variances are all alike d₀ is infinite.
pub const MAX_DF: f64 = 1e6;

/// The quantile of s²_g/s²₀ beyond which a cell's replicates disagree
/// beyond the run's (Phipson et al. 2016 flag such "hypervariable" cases).
const HYPERVARIABLE: f64 = 0.99;

/// A variance below this (relative, on the ln scale: replicates alike to
/// 1e-7) is taken as this: ln of zero has no place in the moment estimator.
const LEAST_VARIANCE: f64 = 1e-14;

/// The combined figure of one cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Combined {
    pub figure: f64,
    /// The interval of a repeat run's figure at the level asked.
    pub interval: [f64; 2],
    pub stats: ReplicateStats,
}

/// Sample variance (n − 1) and its degrees of freedom.
fn variance(ys: &[f64]) -> (f64, f64) {
    let n = ys.len() as f64;
    let mean = ys.iter().sum::<f64>() / n;
    let ss: f64 = ys.iter().map(|y| (y - mean).powi(2)).sum();
    ((ss / (n - 1.0)).max(LEAST_VARIANCE), n - 1.0)
}

/// Smyth's moment estimator of (d₀, z₀) from cells' (z_g, d_g).
fn moments(cells: &[(f64, f64)]) -> Option<Prior> {
    if cells.len() < MIN_CELLS_FOR_PRIOR {
        return None;
    }
    let g = cells.len() as f64;
    let e: Vec<f64> = cells.iter().map(|&(s2, d)| s2.ln() - digamma(d / 2.0) + (d / 2.0).ln()).collect();
    let mean = e.iter().sum::<f64>() / g;
    let spread = e.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (g - 1.0);
    let expected = cells.iter().map(|&(_, d)| trigamma(d / 2.0)).sum::<f64>() / g;
    let excess = spread - expected;
    if excess > 0.0 {
        let d0 = 2.0 * trigamma_inverse(excess);
        Some(Prior {
            d0,
            z0: (mean + digamma(d0 / 2.0) - (d0 / 2.0).ln()).exp(),
        })
    } else {
        Some(Prior {
            d0: f64::INFINITY,
            z0: mean.exp(),
        })
    }
}

/// Whether a ratio z with d degrees of freedom lies beyond the prior's
/// [`HYPERVARIABLE`] quantile.
fn hypervariable(z: f64, d: f64, prior: Prior) -> bool {
    let ratio = z / prior.z0;
    let limit = if prior.d0 > MAX_DF {
        ChiSquared::new(d).map(|c| c.inverse_cdf(HYPERVARIABLE) / d).ok()
    } else {
        FisherSnedecor::new(d, prior.d0).map(|f| f.inverse_cdf(HYPERVARIABLE)).ok()
    };
    limit.is_some_and(|l| ratio > l)
}

/// The prior from the replicates of a run's cells (cells of fewer than
/// two replicates are ignored), robust to cells whose replicates disagree
/// far beyond the others; and, per cell, whether it was such a cell.
pub fn prior(cells: &[CellReplicates]) -> (Option<Prior>, Vec<bool>) {
    let variances: Vec<Option<(f64, f64)>> = cells
        .iter()
        .map(|c| {
            let (ys, v) = c.logs();
            (ys.len() >= 2).then(|| {
                let (s2, d) = variance(&ys);
                (s2 / v, d)
            })
        })
        .collect();
    let all: Vec<(f64, f64)> = variances.iter().flatten().copied().collect();
    let Some(first) = moments(&all) else {
        return (None, vec![false; cells.len()]);
    };
    let outlying: Vec<bool> = variances
        .iter()
        .map(|v| v.is_some_and(|(s2, d)| hypervariable(s2, d, first)))
        .collect();
    let kept: Vec<(f64, f64)> = variances
        .iter()
        .zip(&outlying)
        .filter(|(_, out)| !**out)
        .filter_map(|(v, _)| *v)
        .collect();
    (moments(&kept).or(Some(first)), outlying)
}

/// Median of unsorted values.
fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The figure of one cell from its replicates (two or more), with the
/// interval of a repeat run's figure at `level`; `prior` from [`prior`],
/// `outlying` that cell's flag from it.
pub fn combine(cell: &CellReplicates, prior: Option<Prior>, outlying: bool, level: f64) -> Option<Combined> {
    let (ys, v) = cell.logs();
    if ys.len() < 2 {
        return None;
    }
    let r = ys.len();
    let (s2, d) = variance(&ys);
    let (posterior, df) = match prior.filter(|_| !outlying) {
        Some(p) if p.d0 > MAX_DF => (p.z0 * v, MAX_DF),
        Some(p) => ((p.d0 * p.z0 + d * s2 / v) / (p.d0 + d) * v, (p.d0 + d).min(MAX_DF)),
        None => (s2, d),
    };
    let log_sd = posterior.sqrt();
    let log_standard_error = log_sd * normal_max_variance(r).sqrt();
    let t = StudentsT::new(0.0, 1.0, df).map(|t| t.inverse_cdf(0.5 + level / 2.0)).ok()?;
    let centre = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let half = t * log_standard_error * std::f64::consts::SQRT_2;
    // The fastest replicate's median itself, not exp(ln(it)), which can differ in the last bit.
    let figure = cell.medians.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = ys
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &y| (a.min(y), b.max(y)));
    Some(Combined {
        figure,
        interval: [(centre - half).exp(), (centre + half).exp()],
        stats: ReplicateStats {
            count: r,
            spread: (hi.exp() - lo.exp()) / figure,
            log_sd,
            degrees_of_freedom: df,
            log_standard_error,
            disagree_beyond_the_run: outlying && prior.is_some(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell of these replicate medians, each replicate's own interval ±`within`.
    fn cell(medians: &[f64], within: f64) -> CellReplicates {
        CellReplicates {
            medians: medians.to_vec(),
            within: vec![within; medians.len()],
        }
    }

    #[test]
    fn alike_cells_pool_their_degrees_of_freedom() {
        // Twelve cells whose three replicates spread as their own samples say:
        // the prior's d₀ is large, and each cell's t has far more than its own
        // two degrees of freedom.
        let cells: Vec<CellReplicates> = (0..12)
            .map(|i| {
                let k = 1.0 + 0.1 * f64::from(i % 3);
                cell(&[100.0, 100.0 * (1.0 + 0.004 * k), 100.0 * (1.0 - 0.004 * k)], 0.008)
            })
            .collect();
        let (p, outlying) = prior(&cells);
        let p = p.unwrap();
        assert!(p.d0 > 20.0, "{p:?}");
        assert!(outlying.iter().all(|o| !o));
        let c = combine(&cells[0], Some(p), false, 0.95).unwrap();
        assert!(c.stats.degrees_of_freedom > 20.0);
        assert!(
            (c.figure - 100.0 * (1.0 + 0.004)).abs() < 1e-9,
            "the fastest replicate: {}",
            c.figure
        );
        assert!(c.interval[0] < 100.0 && c.interval[1] > 100.0);
    }

    #[test]
    fn a_quiet_cell_and_a_noisy_one_are_each_held_to_their_own_noise() {
        // Half the cells ten times noisier than the others, in their samples and
        // between replicates alike: each keeps an interval of its own size.
        let cells: Vec<CellReplicates> = (0..12)
            .map(|i| {
                let scale = if i % 2 == 0 { 0.001 } else { 0.01 };
                let k = 1.0 + 0.2 * f64::from(i % 5);
                cell(&[100.0, 100.0 * (1.0 + scale * k), 100.0 * (1.0 - scale * k)], 2.0 * scale)
            })
            .collect();
        let (p, _) = prior(&cells);
        let half = |c: &CellReplicates| {
            let x = combine(c, p, false, 0.95).unwrap();
            (x.interval[1] / x.figure).ln()
        };
        let (quiet, noisy) = (half(&cells[0]), half(&cells[1]));
        assert!(noisy > 5.0 * quiet, "{quiet} {noisy}");
    }

    #[test]
    fn a_cell_far_beyond_the_others_stands_alone_and_does_not_widen_them() {
        let mut cells: Vec<CellReplicates> = (0..12)
            .map(|i| cell(&[100.0, 100.4 + 0.01 * f64::from(i), 99.6 - 0.01 * f64::from(i)], 0.008))
            .collect();
        cells.push(cell(&[100.0, 60.0, 100.3], 0.008));
        let (p, outlying) = prior(&cells);
        assert_eq!(outlying.iter().filter(|o| **o).count(), 1);
        assert!(outlying[12]);
        let quiet = combine(&cells[0], p, outlying[0], 0.95).unwrap();
        let loud = combine(&cells[12], p, outlying[12], 0.95).unwrap();
        assert!(loud.stats.disagree_beyond_the_run && !quiet.stats.disagree_beyond_the_run);
        assert!((loud.figure - 100.3).abs() < 1e-9, "the slowed replicate does not move the figure");
        assert!(loud.interval[1] / loud.interval[0] > 1.5);
        let relative = |c: &Combined| (c.interval[1] - c.interval[0]) / 2.0 / c.figure;
        assert!(relative(&quiet) < 0.02, "{}", relative(&quiet));
    }

    #[test]
    fn too_few_cells_leave_each_to_its_own_replicates() {
        let cells = vec![cell(&[100.0, 101.0, 99.0], 0.005); 3];
        let (p, _) = prior(&cells);
        assert!(p.is_none());
        let c = combine(&cells[0], None, false, 0.95).unwrap();
        assert_eq!(c.stats.degrees_of_freedom, 2.0);
        // t(2) = 4.303 × sd 0.01 × √(2 × 0.5595).
        let half = (c.interval[1] / c.figure).ln();
        assert!((half - 4.303 * 0.01 * (2.0f64 * 0.5595).sqrt()).abs() < 2e-4, "{half}");
    }

    #[test]
    fn one_replicate_makes_no_combined_figure() {
        assert!(combine(&cell(&[100.0], 0.01), None, false, 0.95).is_none());
    }
}

//! Statistics over a cell's samples.
//!
//! The central figure is the median throughput, which a few interrupted
//! samples on a shared machine do not move. Its confidence interval starts
//! from the distribution-free one from order statistics: for n independent
//! samples the interval [x(j), x(n+1-j)] covers the median with probability
//! 1 - 2·P(B ≤ j-1), B ~ Binomial(n, 1/2) (J.-Y. Le Boudec, *Performance
//! Evaluation of Computer and Communication Systems*, EPFL Press 2010,
//! Theorem 2.1; W. J. Conover, *Practical Nonparametric Statistics*, 3rd
//! ed., §3.2). It assumes nothing about the shape of the timing
//! distribution, which is skewed in practice; because successive samples are
//! not independent, it is then widened by their autocorrelation
//! ([`crate::dependent_ci`]). The mean is total bytes over total time, as
//! `openssl speed` computes its figure.

use serde::{Deserialize, Serialize};

/// One timed sample: `iterations` calls that took `wall_ns` (monotonic clock)
/// and `cpu_ns` of the thread's CPU time where the OS reports it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Sample {
    pub iterations: u64,
    pub wall_ns: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ns: Option<u64>,
}

impl Sample {
    /// Bytes per second for messages of `size` bytes.
    pub fn throughput(&self, size: usize) -> f64 {
        (self.iterations as f64 * size as f64) / (self.wall_ns.max(1) as f64 * 1e-9)
    }
}

/// Summary of a cell's samples; throughputs in bytes per second.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Summary {
    pub samples: usize,
    pub median: f64,
    pub q1: f64,
    pub q3: f64,
    pub min: f64,
    pub max: f64,
    /// Total bytes over total time of all samples (what `openssl speed` reports).
    pub mean: f64,
    /// Coefficient of variation (standard deviation / mean) of the sample throughputs.
    pub cv: f64,
    /// 95% confidence interval of the median: order statistics, widened for
    /// the autocorrelation of the samples (crates/core/src/dependent_ci.rs).
    pub median_ci95: [f64; 2],
    /// Half the width of that interval relative to the median.
    pub median_ci95_relative: f64,
    /// Thread CPU time over wall time, summed over samples; well below 1 means
    /// the core was shared with something else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_share: Option<f64>,
    /// Seconds per call at the median (what one message costs).
    pub seconds_per_call: f64,
    /// Lag-1 autocorrelation of the samples' ranks (bias-corrected, ≥ 0)
    /// the interval allowed for; absent in runs of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lag1_autocorrelation: Option<f64>,
    /// What the samples are worth as independent ones, n/τ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effective_samples: Option<f64>,
    /// Set when the figure combines replicates (fresh workers): `median`
    /// is then the fastest replicate's median and `median_ci95` the interval
    /// of a repeat run's figure (crates/core/src/replicates.rs); the
    /// quartiles, extremes, mean and CV describe all their samples pooled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicates: Option<crate::replicates::ReplicateStats>,
}

/// Confidence level used throughout.
pub const CONFIDENCE: f64 = 0.95;

impl Summary {
    /// Where the figure comes from, for a reader: "fastest of 3 replicates,
    /// 75 samples" or "median of 28 samples".
    pub fn figure_source(&self) -> String {
        match &self.replicates {
            Some(r) => format!("fastest of {} replicates, {} samples", r.count, self.samples),
            None => format!("median of {} samples", self.samples),
        }
    }

    /// What its interval is, for a reader: where a repeat run's figure
    /// falls (replicates) or the median's confidence interval (one worker's
    /// samples). Both are nominal 95%: their coverage is simulated, not
    /// exact (docs/METHOD.md, "Timing" and "Replicates").
    pub fn interval_name(&self) -> &'static str {
        if self.replicates.is_some() {
            "a repeat run within (nominal 95%)"
        } else {
            "nominal 95% CI"
        }
    }
}

/// Summarises samples of messages of `size` bytes, in the order they were
/// taken (the interval depends on it). Returns None for no samples.
pub fn summarize(samples: &[Sample], size: usize) -> Option<Summary> {
    if samples.is_empty() {
        return None;
    }
    let series: Vec<f64> = samples.iter().map(|s| s.throughput(size)).collect();
    let mut xs = series.clone();
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    let per_sample_mean = xs.iter().sum::<f64>() / n as f64;
    let var = if n > 1 {
        xs.iter().map(|x| (x - per_sample_mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let total_bytes: f64 = samples.iter().map(|s| s.iterations as f64 * size as f64).sum();
    let total_seconds: f64 = samples.iter().map(|s| s.wall_ns.max(1) as f64 * 1e-9).sum();
    let mean = total_bytes / total_seconds;
    let median = quantile(&xs, 0.5);
    let dependent = crate::dependent_ci::median_interval(&series, &xs, CONFIDENCE);
    let [lo, hi] = [dependent.lo.min(median), dependent.hi.max(median)];
    let cpu_share = {
        let cpu: Option<u64> = samples.iter().map(|s| s.cpu_ns).sum();
        let wall: u64 = samples.iter().map(|s| s.wall_ns).sum();
        cpu.map(|c| c as f64 / wall.max(1) as f64)
    };
    Some(Summary {
        samples: n,
        median,
        q1: quantile(&xs, 0.25),
        q3: quantile(&xs, 0.75),
        min: xs[0],
        max: xs[n - 1],
        mean,
        cv: if per_sample_mean > 0.0 { var.sqrt() / per_sample_mean } else { 0.0 },
        median_ci95: [lo, hi],
        median_ci95_relative: if median > 0.0 { (hi - lo) / 2.0 / median } else { f64::INFINITY },
        cpu_share,
        seconds_per_call: if median > 0.0 { size as f64 / median } else { f64::INFINITY },
        lag1_autocorrelation: Some(dependent.lag1),
        effective_samples: Some(dependent.effective_samples),
        replicates: None,
    })
}

/// Quantile of sorted data by linear interpolation between closest ranks
/// (Hyndman & Fan 1996, definition 7; the default of R and NumPy).
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    let n = sorted.len();
    if n == 1 {
        return sorted[0];
    }
    let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// The order-statistic confidence interval of the median of sorted data.
/// With too few samples for the requested level (n < 6 at 95%) it is the
/// whole range, which the caller sees as "not yet precise".
pub fn median_confidence_interval(sorted: &[f64], level: f64) -> [f64; 2] {
    let n = sorted.len();
    let j = lower_rank(n, level);
    match j {
        Some(j) => [sorted[j - 1], sorted[n - j]],
        None => [sorted[0], sorted[n - 1]],
    }
}

/// Largest 1-based rank j ≥ 1 with P(B ≤ j-1) ≤ (1-level)/2, B ~ Bin(n, 1/2).
fn lower_rank(n: usize, level: f64) -> Option<usize> {
    let alpha_half = (1.0 - level) / 2.0;
    // Cumulative binomial probabilities computed in log space to stay exact for large n.
    let ln_half_n = n as f64 * 0.5f64.ln();
    let mut ln_binom = 0.0f64; // ln C(n, 0)
    let mut cdf = 0.0f64;
    let mut best = None;
    for i in 0..n {
        cdf += (ln_binom + ln_half_n).exp(); // adds P(B = i)
        if cdf > alpha_half {
            break;
        }
        best = Some(i + 1); // P(B ≤ (i+1)-1) ≤ alpha/2, so rank i+1 qualifies
        ln_binom += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
    }
    best.filter(|&j| j <= n / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(walls: &[u64]) -> Vec<Sample> {
        walls
            .iter()
            .map(|&w| Sample {
                iterations: 1000,
                wall_ns: w,
                cpu_ns: Some(w),
            })
            .collect()
    }

    #[test]
    fn quartiles_by_interpolation() {
        let xs = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&xs, 0.5), 2.5);
        assert_eq!(quantile(&xs, 0.25), 1.75);
        assert_eq!(quantile(&[7.0], 0.9), 7.0);
    }

    #[test]
    fn median_ci_ranks_match_published_tables() {
        // Le Boudec, Table A.1 (95%): n=6 -> ranks 1..6, n=10 -> 2..9, n=20 -> 6..15, n=50 -> 18..33.
        for (n, j) in [(6, 1), (10, 2), (20, 6), (50, 18)] {
            assert_eq!(lower_rank(n, 0.95), Some(j), "n={n}");
        }
        assert_eq!(lower_rank(5, 0.95), None);
    }

    #[test]
    fn summary_of_constant_samples_is_exact() {
        let s = summarize(&samples(&[1_000_000; 12]), 1000).unwrap();
        assert_eq!(s.samples, 12);
        assert!((s.median - 1e9).abs() < 1e-3);
        assert_eq!(s.cv, 0.0);
        assert_eq!(s.median_ci95_relative, 0.0);
        assert_eq!(s.cpu_share, Some(1.0));
        assert!((s.seconds_per_call - 1e-6).abs() < 1e-15);
    }

    #[test]
    fn one_outlier_does_not_move_the_median() {
        let mut walls = vec![1_000_000u64; 11];
        walls[3] = 5_000_000; // an interrupted sample
        let s = summarize(&samples(&walls), 1000).unwrap();
        assert!((s.median - 1e9).abs() < 1e-3);
        assert!(s.min < s.median && s.cv > 0.0);
    }

    #[test]
    fn the_mean_is_total_bytes_over_total_time() {
        // 1000 calls of 1000 B in 1 ms and in 3 ms: 2e6 B in 4 ms = 5e8 B/s, not the mean of 1e9 and 3.3e8.
        let s = summarize(&samples(&[1_000_000, 3_000_000]), 1000).unwrap();
        assert!((s.mean - 5e8).abs() < 1.0, "{}", s.mean);
    }

    #[test]
    fn empty_has_no_summary() {
        assert!(summarize(&[], 16).is_none());
    }

    #[test]
    fn a_drifting_series_gets_a_wider_interval_than_a_shuffled_one() {
        // The same values, once in a slow drift, once interleaved: only the order differs.
        let drift: Vec<f64> = (0..60).map(|i| 100.0 + f64::from(i) * 0.1).collect();
        let mut shuffled = Vec::new();
        for i in 0..30 {
            shuffled.push(drift[i]);
            shuffled.push(drift[59 - i]);
        }
        let width = |s: &[f64]| {
            let mut sorted = s.to_vec();
            sorted.sort_by(f64::total_cmp);
            let i = crate::dependent_ci::median_interval(s, &sorted, 0.95);
            i.hi - i.lo
        };
        assert!(width(&drift) > 1.5 * width(&shuffled), "{} vs {}", width(&drift), width(&shuffled));
    }
}

//! The aggregate of a cell measured by N workers at once, each on its own
//! core (`run --threads`), as `openssl speed -multi` sums its children.
//!
//! - **Figure**: the sum of the workers' medians. Each median is the
//!   robust figure of one core; their sum is what the N cores deliver
//!   together. The mean is the sum of the workers' means (total bytes over
//!   total time per worker), which is what `openssl speed -multi` prints.
//! - **Interval**: each worker's median interval is computed at the level
//!   1 − 0.05/N (the same order-statistic interval, widened for correlated
//!   samples, as every cell: [`crate::dependent_ci`]); by Boole's
//!   inequality all N intervals then hold together with probability at
//!   least 95%, and whenever they all hold, the sum of their lower bounds
//!   is below the sum of the medians and the sum of their upper bounds
//!   above it. So [Σ lower, Σ upper] is a 95% interval for the aggregate
//!   that assumes nothing about how the workers' samples depend on each
//!   other (O. J. Dunn, "Multiple comparisons among means", Journal of the
//!   American Statistical Association 56(293), 1961; R. G. Miller,
//!   *Simultaneous Statistical Inference*, 2nd ed., Springer 1981, §1.2).
//!   It is conservative: with independent workers the true coverage is higher.
//! - **Spread over time**: sample k of every worker started at the same
//!   barrier, so Σ_w x_{w,k} is the throughput of the N cores together in
//!   the k-th interval. Quartiles, extremes and the coefficient of
//!   variation of the aggregate are those of this series; it is also what
//!   `compare` tests two aggregates on.

use crate::cores::WorkerMeasurement;
use crate::dependent_ci;
use crate::stats::{quantile, Summary, CONFIDENCE};

/// The per-sample aggregate: for each k below the shortest worker's sample
/// count, the sum of the workers' k-th sample throughputs.
pub fn aligned_sums(workers: &[WorkerMeasurement], size: usize) -> Vec<f64> {
    let n = workers.iter().map(|w| w.samples.len()).min().unwrap_or(0);
    (0..n)
        .map(|k| workers.iter().map(|w| w.samples[k].throughput(size)).sum())
        .collect()
}

/// The `level` interval of one worker's median (order statistics, widened
/// for autocorrelation as for every cell).
fn worker_interval(w: &WorkerMeasurement, size: usize, level: f64) -> [f64; 2] {
    let series: Vec<f64> = w.samples.iter().map(|s| s.throughput(size)).collect();
    if series.is_empty() {
        return w.summary.median_ci95;
    }
    let mut sorted = series.clone();
    sorted.sort_by(f64::total_cmp);
    let d = dependent_ci::median_interval(&series, &sorted, level);
    [d.lo, d.hi]
}

/// The summary of N workers' measurements of one cell of `size` bytes
/// (the rules above); None without workers or samples.
pub fn summarize(workers: &[WorkerMeasurement], size: usize) -> Option<Summary> {
    if workers.is_empty() || workers.iter().any(|w| w.samples.is_empty()) {
        return None;
    }
    let n = workers.len() as f64;
    let level = 1.0 - (1.0 - CONFIDENCE) / n;
    let median: f64 = workers.iter().map(|w| w.summary.median).sum();
    let (lo, hi) = workers.iter().fold((0.0, 0.0), |(lo, hi), w| {
        let [l, h] = worker_interval(w, size, level);
        (lo + l, hi + h)
    });
    let sums = aligned_sums(workers, size);
    let mut sorted = sums.clone();
    sorted.sort_by(f64::total_cmp);
    let count = sorted.len();
    let mean_of_sums = sorted.iter().sum::<f64>() / count as f64;
    let var = if count > 1 {
        sorted.iter().map(|x| (x - mean_of_sums).powi(2)).sum::<f64>() / (count - 1) as f64
    } else {
        0.0
    };
    let cpu_share = workers
        .iter()
        .map(|w| w.summary.cpu_share)
        .collect::<Option<Vec<f64>>>()
        .map(|shares| shares.into_iter().fold(f64::INFINITY, f64::min));
    Some(Summary {
        samples: count,
        median,
        q1: quantile(&sorted, 0.25),
        q3: quantile(&sorted, 0.75),
        min: sorted[0],
        max: sorted[count - 1],
        mean: workers.iter().map(|w| w.summary.mean).sum(),
        cv: if mean_of_sums > 0.0 { var.sqrt() / mean_of_sums } else { 0.0 },
        median_ci95: [lo.min(median), hi.max(median)],
        median_ci95_relative: if median > 0.0 {
            (hi.max(median) - lo.min(median)) / 2.0 / median
        } else {
            f64::INFINITY
        },
        cpu_share,
        seconds_per_call: if median > 0.0 { size as f64 / median } else { f64::INFINITY },
        lag1_autocorrelation: None,
        effective_samples: None,
        replicates: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{summarize as one, Sample};

    fn worker(cpu: usize, walls: &[u64]) -> WorkerMeasurement {
        let samples: Vec<Sample> = walls
            .iter()
            .map(|&w| Sample {
                iterations: 1000,
                wall_ns: w,
                cpu_ns: Some(w),
            })
            .collect();
        WorkerMeasurement {
            cpu,
            summary: one(&samples, 1024).unwrap(),
            samples,
            warnings: vec![],
            checksum: String::new(),
            cycles_per_byte: None,
        }
    }

    #[test]
    fn the_figure_is_the_sum_of_the_medians_and_the_mean_the_sum_of_the_means() {
        let a = worker(0, &(0..40).map(|i| 1_000_000 + (i % 7) * 3_000).collect::<Vec<_>>());
        let b = worker(1, &(0..40).map(|i| 2_000_000 + (i % 5) * 9_000).collect::<Vec<_>>());
        let s = summarize(&[a.clone(), b.clone()], 1024).unwrap();
        assert_eq!(s.median, a.summary.median + b.summary.median);
        assert!((s.mean - (a.summary.mean + b.summary.mean)).abs() < 1e-6 * s.mean);
        assert_eq!(s.samples, 40);
        assert!(s.median_ci95[0] <= s.median && s.median <= s.median_ci95[1]);
        assert_eq!(s.cpu_share, Some(1.0));
        assert!((s.seconds_per_call - 1024.0 / s.median).abs() < 1e-15);
    }

    #[test]
    fn the_interval_is_wider_than_the_sum_of_95_percent_intervals() {
        // Simultaneous intervals at 1 − 0.05/N are wider than each at 95%.
        let walls: Vec<u64> = (0..60).map(|i| 1_000_000 + ((i * 7919) % 101) * 1_000).collect();
        let ws = vec![worker(0, &walls), worker(1, &walls), worker(2, &walls)];
        let s = summarize(&ws, 1024).unwrap();
        let lo95: f64 = ws.iter().map(|w| w.summary.median_ci95[0]).sum();
        let hi95: f64 = ws.iter().map(|w| w.summary.median_ci95[1]).sum();
        assert!(s.median_ci95[0] <= lo95 && s.median_ci95[1] >= hi95, "{s:?} vs {lo95}..{hi95}");
    }

    #[test]
    fn aligned_sums_add_sample_k_of_every_worker_up_to_the_shortest() {
        let a = worker(0, &[1_000_000, 2_000_000, 1_000_000]);
        let b = worker(1, &[1_000_000, 1_000_000]);
        let sums = aligned_sums(&[a, b], 1000);
        assert_eq!(sums.len(), 2);
        assert!((sums[0] - 2e9).abs() < 1.0 && (sums[1] - 1.5e9).abs() < 1.0, "{sums:?}");
    }

    #[test]
    fn nothing_to_sum_is_none() {
        assert!(summarize(&[], 16).is_none());
        let mut empty = worker(0, &[1000]);
        empty.samples.clear();
        assert!(summarize(&[empty], 16).is_none());
    }
}

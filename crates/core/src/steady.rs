//! Whether throughput is steady: when a warm-up may end, and whether a
//! cell's samples moved from one level to another while it was sampled.
//!
//! A cell's first samples can run at a different speed from its last: the
//! clock governor ramps, a neighbour starts or stops, the first cell of a
//! worker pays for page faults and a cold instruction cache. A warm-up of
//! fixed length may end before that settles, and a median over samples
//! from two levels is neither level. So the harness warms up until
//! [`settled`] says the throughput has stopped changing, and a cell whose
//! samples show a [`level_shift`] carries a warning naming both levels.
//! Both judge series in the order they were taken and assume nothing about
//! the noise's shape (medians and ranks only).

use crate::stats::quantile;

/// How far apart (relative) the medians of the two latest windows of the
/// warm-up may be for the throughput to count as steady: twice the default
/// run's ±1% target (a drift smaller than that is what the samples'
/// interval is there to absorb).
pub const STEADY_TOLERANCE: f64 = 0.02;

/// Runs in each of the two windows [`settled`] compares.
pub const STEADY_WINDOW: usize = 5;

/// The smallest change between two levels reported as a level shift: the
/// agreement asked of a cell and its repetition (3%) — a smaller one is
/// within what reruns of a cell differ by on a quiet machine.
pub const LEVEL_SHIFT: f64 = 0.03;

/// How cleanly the two levels must separate: the probability that a sample
/// of one segment exceeds one of the other (the Mann–Whitney U over the
/// product of the segment sizes) must be at least this, or at most 1 minus
/// it. Noise around one level gives about ½; two levels with little
/// overlap give near 0 or 1.
pub const SEPARATION: f64 = 0.95;

/// The fewest samples each side of a shift must hold (and at least a fifth
/// of the series): one or two slow samples are an interruption, which the
/// median already ignores, not a new level.
pub const MIN_SEGMENT: usize = 5;

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    quantile(&sorted, 0.5)
}

/// Whether the throughputs of equally long warm-up runs, in order, have
/// settled: the median of the last [`STEADY_WINDOW`] runs is within
/// [`STEADY_TOLERANCE`] of the median of the [`STEADY_WINDOW`] before them.
/// False while fewer than two windows exist.
pub fn settled(rates: &[f64]) -> bool {
    let n = rates.len();
    if n < 2 * STEADY_WINDOW {
        return false;
    }
    let last = median(&rates[n - STEADY_WINDOW..]);
    let before = median(&rates[n - 2 * STEADY_WINDOW..n - STEADY_WINDOW]);
    before > 0.0 && ((last - before) / before).abs() <= STEADY_TOLERANCE
}

/// A change of level inside a series of sample throughputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LevelShift {
    /// Index of the first sample of the new level.
    pub at: usize,
    /// Median throughput before it.
    pub before: f64,
    /// Median throughput from it on.
    pub after: f64,
}

impl LevelShift {
    /// The change, relative to the level before: +0.3 is 30% faster after.
    pub fn relative(&self) -> f64 {
        self.after / self.before - 1.0
    }
}

/// P(a sample of `b` exceeds one of `a`), ties counting half.
fn superiority(a: &[f64], b: &[f64]) -> f64 {
    let mut wins = 0.0;
    for &x in a {
        for &y in b {
            wins += if y > x {
                1.0
            } else if y == x {
                0.5
            } else {
                0.0
            };
        }
    }
    wins / (a.len() * b.len()) as f64
}

/// The clearest split of `series` (in sampling order) into two levels, if
/// it is one: both sides at least [`MIN_SEGMENT`] samples and a fifth of
/// the series, medians at least [`LEVEL_SHIFT`] apart, and the two sides
/// separated as [`SEPARATION`] says. Of the splits that qualify, the one
/// with the largest |U − |a|·|b|/2| is returned, U being the Mann–Whitney
/// statistic of the two sides: Pettitt's change point (A. N. Pettitt, "A
/// non-parametric approach to the change-point problem", Applied
/// Statistics 28(2), 1979), which at a clean step is the step itself.
pub fn level_shift(series: &[f64]) -> Option<LevelShift> {
    let n = series.len();
    let min = MIN_SEGMENT.max(n.div_ceil(5));
    if n < 2 * min {
        return None;
    }
    let mut best: Option<(f64, LevelShift)> = None;
    for at in min..=n - min {
        let (a, b) = series.split_at(at);
        let shift = LevelShift {
            at,
            before: median(a),
            after: median(b),
        };
        if !(shift.before > 0.0 && shift.relative().abs() >= LEVEL_SHIFT) {
            continue;
        }
        let p = superiority(a, b);
        if p < SEPARATION && p > 1.0 - SEPARATION {
            continue;
        }
        let score = (p - 0.5).abs() * (a.len() * b.len()) as f64;
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, shift));
        }
    }
    best.map(|(_, shift)| shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic noise in [-1, 1) (a linear congruential generator; the
    /// tests need repeatable series, not good randomness).
    fn noise(seed: u64, n: usize) -> Vec<f64> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
            })
            .collect()
    }

    #[test]
    fn a_ramp_is_not_settled_and_its_plateau_is() {
        // Throughput climbing 5% per run, then flat with ±1% noise.
        let mut rates: Vec<f64> = (0..12).map(|i| 500.0 * 1.05f64.powi(i)).collect();
        assert!(!settled(&rates));
        let top = rates[11];
        for e in noise(7, 10) {
            rates.push(top * (1.0 + 0.01 * e));
        }
        assert!(settled(&rates));
        // Too few runs to compare two windows.
        assert!(!settled(&rates[..9]));
    }

    #[test]
    fn a_jump_between_the_windows_is_not_settled() {
        let mut rates = vec![480.0; 5];
        rates.extend([860.0; 5]);
        assert!(!settled(&rates));
        rates.extend([860.0; 5]);
        assert!(settled(&rates));
    }

    #[test]
    fn the_first_cell_running_slow_then_fast_is_a_level_shift() {
        // 12 samples at ~481 MB/s, then 16 at ~860 (±2% noise): the sha512 first-cell case.
        let e = noise(3, 28);
        let series: Vec<f64> = (0..28)
            .map(|i| (if i < 12 { 481.0 } else { 860.0 }) * (1.0 + 0.02 * e[i]))
            .collect();
        let s = level_shift(&series).expect("a shift of +79%");
        assert_eq!(s.at, 12);
        assert!((s.relative() - 860.0 / 481.0 + 1.0).abs() < 0.05, "{s:?}");
        // And downwards.
        let down: Vec<f64> = series.iter().rev().copied().collect();
        assert!(level_shift(&down).unwrap().relative() < -0.4);
    }

    #[test]
    fn noise_around_one_level_is_no_shift() {
        for seed in 0..50 {
            // ±5% uniform noise, wider than the smallest shift reported.
            let series: Vec<f64> = noise(seed, 40).into_iter().map(|e| 1000.0 * (1.0 + 0.05 * e)).collect();
            assert_eq!(level_shift(&series), None, "seed {seed}");
        }
    }

    #[test]
    fn a_small_or_brief_change_is_no_shift() {
        // 2% apart: below LEVEL_SHIFT.
        let small: Vec<f64> = (0..30).map(|i| if i < 15 { 1000.0 } else { 1020.0 }).collect();
        assert_eq!(level_shift(&small), None);
        // Three slow samples: an interruption, not a level.
        let mut brief = vec![1000.0; 30];
        brief[10..13].copy_from_slice(&[600.0; 3]);
        assert_eq!(level_shift(&brief), None);
        // Too few samples to tell.
        assert_eq!(level_shift(&[1.0, 1.0, 1.0, 2.0, 2.0, 2.0]), None);
    }
}

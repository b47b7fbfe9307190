//! The one rule by which cryptobench calls two figures *different*: the
//! rule of `compare`, of the report's on/off factors, of "Which is
//! fastest?" and of the audit's verdicts. Before it, those four decided
//! four ways (three by a Mann–Whitney test of the raw samples, which treats
//! successive samples as independent: at lag-1 correlation 0.5 such tests
//! cover only 76.5% in this project's simulation; the audit by its
//! intervals), and one pair could get opposite verdicts in one report.
//!
//! Two medians differ *beyond the noise* when
//! 1. their 95% confidence intervals do not overlap. The intervals are the
//!    dependence-aware ones every cell carries (order statistics widened for
//!    the samples' autocorrelation, crates/core/src/dependent_ci.rs), so
//!    correlated samples are judged by what they are worth. Non-overlap of
//!    two 95% intervals implies a difference at better than the 5% level
//!    (N. Schenker and J. F. Gentleman, "On judging the significance of
//!    differences by examining the overlap between confidence intervals",
//!    The American Statistician 55(3), 2001): the rule is conservative;
//! 2. and the medians are more than [`MIN_EFFECT`] apart: a smaller shift,
//!    however consistent, is not reproduced on another boot (as benchstat).
//!
//! With fewer than [`MIN_SAMPLES`] samples on a side (figures imported from
//! `openssl speed` keep one mean) nothing is decided.

use crate::stats::Summary;

/// Smallest relative difference of medians called a difference.
pub const MIN_EFFECT: f64 = 0.01;

/// Fewest samples per side for a decision: the exact 95% interval of a
/// median needs six independent samples to exist at all; below four the
/// interval is the data's range and says nothing.
pub const MIN_SAMPLES: usize = 4;

/// What the rule says about `other` against `base`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Beyond the noise (both conditions above).
    Different,
    /// Within the noise.
    Same,
    /// Too few samples on a side to tell.
    Undecided,
}

/// The rule, on two cells' summaries.
pub fn decide(base: &Summary, other: &Summary) -> Decision {
    if base.samples < MIN_SAMPLES || other.samples < MIN_SAMPLES {
        return Decision::Undecided;
    }
    let apart = intervals_apart(base, other);
    let effect = (other.median / base.median - 1.0).abs();
    if apart && effect > MIN_EFFECT {
        Decision::Different
    } else {
        Decision::Same
    }
}

/// Condition 1 alone: the two 95% intervals of the median do not overlap.
pub fn intervals_apart(a: &Summary, b: &Summary) -> bool {
    a.median_ci95[0] > b.median_ci95[1] || b.median_ci95[0] > a.median_ci95[1]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(median: f64, half: f64, samples: usize) -> Summary {
        Summary {
            samples,
            median,
            q1: median,
            q3: median,
            min: median - half,
            max: median + half,
            mean: median,
            cv: 0.0,
            median_ci95: [median - half, median + half],
            median_ci95_relative: half / median,
            cpu_share: None,
            seconds_per_call: 1.0 / median,
            lag1_autocorrelation: None,
            effective_samples: None,
        }
    }

    #[test]
    fn separated_intervals_more_than_one_percent_apart_differ() {
        assert_eq!(decide(&cell(100.0, 1.0, 20), &cell(110.0, 1.0, 20)), Decision::Different);
        assert_eq!(decide(&cell(110.0, 1.0, 20), &cell(100.0, 1.0, 20)), Decision::Different);
    }

    #[test]
    fn overlapping_intervals_are_the_same_however_far_the_medians() {
        assert_eq!(decide(&cell(100.0, 6.0, 20), &cell(110.0, 6.0, 20)), Decision::Same);
    }

    #[test]
    fn a_consistent_shift_below_one_percent_is_not_a_difference() {
        assert_eq!(decide(&cell(100.0, 0.01, 20), &cell(100.5, 0.01, 20)), Decision::Same);
    }

    #[test]
    fn too_few_samples_decide_nothing() {
        assert_eq!(decide(&cell(100.0, 0.0, 1), &cell(200.0, 0.0, 30)), Decision::Undecided);
    }
}

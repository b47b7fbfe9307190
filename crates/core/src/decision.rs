//! The one rule by which cryptobench calls two figures *different*: the
//! rule of `compare`, of the report's on/off factors, of "Which is
//! fastest?" and of the audit's verdicts. Before it, those four decided
//! four ways (three by a Mann–Whitney test of the raw samples, which treats
//! successive samples as independent: at lag-1 correlation 0.5 such tests
//! cover only 76.5% in this project's simulation; the audit by its
//! intervals), and one pair could get opposite verdicts in one report.
//!
//! Two figures differ *beyond the noise* when
//! 1. **figures of replicates** (both sides measured in several fresh
//!    workers, crates/core/src/replicates.rs): their ln ratio is beyond
//!    Welch's two-sample t test at the 5% level, |ln(b/a)| >
//!    t_{ν, 97.5%}·√(se_a² + se_b²), se the standard error of each
//!    ln(figure) and ν by Welch–Satterthwaite from their degrees of freedom
//!    (B. L. Welch, "The generalization of 'Student's' problem when several
//!    different population variances are involved", Biometrika 34, 1947).
//!    The replicates are the independent units, so the test is as wide as
//!    what another process and another minute bring;
//!    **figures of one worker each** (`--replicates 1`, older runs, one side
//!    of each): their 95% intervals do not overlap. The intervals are the
//!    dependence-aware ones every such cell carries (order statistics
//!    widened for the samples' autocorrelation, crates/core/src/dependent_ci.rs).
//!    Non-overlap of two 95% intervals implies a difference at better than
//!    the 5% level (N. Schenker and J. F. Gentleman, "On judging the
//!    significance of differences by examining the overlap between
//!    confidence intervals", The American Statistician 55(3), 2001): the
//!    rule is conservative;
//! 2. and the figures are more than [`MIN_EFFECT`] apart: a smaller shift,
//!    however consistent, is not reproduced on another boot (as benchstat).
//!
//! Nothing is decided below [`MIN_SAMPLES`] effective samples on a side
//! (figures imported from `openssl speed` keep one mean), nor from one
//! replicate against a figure of replicates' when the one has fewer.

use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::stats::Summary;

/// The rule in words, for the legends of the tables that mark its verdicts.
pub const IN_WORDS: &str = "beyond the noise: figures of replicates apart by Welch's test on their replicates (5% level), \
     figures of one worker by 95% intervals apart; and more than 1% apart";

/// Smallest relative difference of medians called a difference.
pub const MIN_EFFECT: f64 = 0.01;

/// Fewest effective samples per side for a decision on one worker's
/// samples: below six no order-statistic interval of a median reaches 95%
/// (the range of five independent samples covers 93.75%), so the interval
/// is then just the data's range.
pub const MIN_SAMPLES: f64 = 6.0;

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

/// The samples a one-worker summary is worth as independent ones.
fn effective(s: &Summary) -> f64 {
    s.effective_samples.unwrap_or(s.samples as f64).min(s.samples as f64)
}

/// The rule, on two cells' summaries.
pub fn decide(base: &Summary, other: &Summary) -> Decision {
    let apart = match (&base.replicates, &other.replicates) {
        (Some(a), Some(b)) => welch_apart(a, b, base.median, other.median),
        _ => {
            let few = |s: &Summary| s.replicates.is_none() && effective(s) < MIN_SAMPLES;
            if few(base) || few(other) {
                return Decision::Undecided;
            }
            intervals_apart(base, other)
        }
    };
    let effect = (other.median / base.median - 1.0).abs();
    if apart && effect > MIN_EFFECT {
        Decision::Different
    } else {
        Decision::Same
    }
}

/// Condition 1 for two figures of replicates: Welch's test on ln(figure).
pub fn welch_apart(a: &crate::replicates::ReplicateStats, b: &crate::replicates::ReplicateStats, ma: f64, mb: f64) -> bool {
    let (va, vb) = (a.log_standard_error.powi(2), b.log_standard_error.powi(2));
    let se = (va + vb).sqrt();
    if se == 0.0 {
        return ma != mb;
    }
    let df = (va + vb).powi(2) / (va.powi(2) / a.degrees_of_freedom + vb.powi(2) / b.degrees_of_freedom);
    let t = StudentsT::new(0.0, 1.0, df.max(1.0))
        .map(|t| t.inverse_cdf(0.975))
        .unwrap_or(f64::INFINITY);
    (mb / ma).ln().abs() > t * se
}

/// Condition 1 for one-worker figures: the two 95% intervals of the median do not overlap.
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
            replicates: None,
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
        // Four or five samples: their interval is the data's range, which says nothing at 95%.
        assert_eq!(decide(&cell(100.0, 1.0, 5), &cell(200.0, 1.0, 30)), Decision::Undecided);
        // Twenty samples worth five independent ones likewise.
        let mut correlated = cell(100.0, 1.0, 20);
        correlated.effective_samples = Some(5.0);
        assert_eq!(decide(&correlated, &cell(200.0, 1.0, 30)), Decision::Undecided);
    }

    fn replicated(median: f64, se: f64, df: f64) -> Summary {
        let mut s = cell(median, 0.0, 75);
        s.replicates = Some(crate::replicates::ReplicateStats {
            count: 3,
            spread: 0.0,
            log_sd: se / 0.67,
            degrees_of_freedom: df,
            log_standard_error: se,
            disagree_beyond_the_run: false,
        });
        s
    }

    #[test]
    fn figures_of_replicates_are_judged_by_their_standard_errors() {
        // 3% apart with standard errors of 0.5%: t ≈ 1.96 × 0.71% = 1.4% < 3%.
        assert_eq!(
            decide(&replicated(100.0, 0.005, 60.0), &replicated(103.0, 0.005, 60.0)),
            Decision::Different
        );
        // The same 3% with standard errors of 2%: within the noise.
        assert_eq!(
            decide(&replicated(100.0, 0.02, 60.0), &replicated(103.0, 0.02, 60.0)),
            Decision::Same
        );
        // Few degrees of freedom widen it: 3% apart, se 0.8% each; two degrees of freedom
        // a side give Welch's ν = 4, t = 2.78 → 3.1%; two hundred a side t = 1.97 → 2.2%.
        assert_eq!(
            decide(&replicated(100.0, 0.008, 2.0), &replicated(103.0, 0.008, 2.0)),
            Decision::Same
        );
        assert_eq!(
            decide(&replicated(100.0, 0.008, 200.0), &replicated(103.0, 0.008, 200.0)),
            Decision::Different
        );
    }
}

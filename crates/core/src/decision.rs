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
//! Two figures are *the same* (a tie) only when the whole 95% interval of
//! their difference lies within ±[`EQUIVALENCE`] (a test of equivalence,
//! not the absence of a difference: D. J. Schuirmann, "A comparison of the
//! two one-sided tests procedure and the power approach for assessing the
//! equivalence of average bioavailability", J. Pharmacokinetics and
//! Biopharmaceutics 15, 1987). Everything else is *cannot tell*: a
//! difference neither beyond the noise nor shown to be small, a side left
//! with too few clean replicates (crates/core/src/replicates.rs), a side of
//! fewer than [`MIN_SAMPLES`] samples (figures imported from `openssl
//! speed` keep one mean; the one-worker rule applies only to sides without
//! replicates, whose `effective_samples` the worker set).

use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::stats::Summary;

/// The rule in words, for the legends of the tables that mark its verdicts.
pub const IN_WORDS: &str = "beyond the noise: figures of replicates apart by Welch's test on their replicates (5% level), \
     figures of one worker by 95% intervals apart; and more than 1% apart";

/// Smallest relative difference of medians called a difference.
pub const MIN_EFFECT: f64 = 0.01;

/// The widest the 95% interval of a difference may reach, either way, for
/// two figures to be called the same: the default promise of an unflagged
/// figure (crates/core/src/stopping.rs, DEFAULT_TARGET).
pub const EQUIVALENCE: f64 = crate::stopping::DEFAULT_TARGET;

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
    /// The same: the difference's 95% interval lies within ±[`EQUIVALENCE`].
    Same,
    /// Cannot tell: neither beyond the noise nor shown to be within ±[`EQUIVALENCE`],
    /// or a side too few samples or clean replicates to judge.
    Undecided,
}

/// The samples a one-worker summary is worth as independent ones.
fn effective(s: &Summary) -> f64 {
    s.effective_samples.unwrap_or(s.samples as f64).min(s.samples as f64)
}

/// Whether a side is too thin to judge at all: too few clean replicates,
/// or one worker's figure of fewer than [`MIN_SAMPLES`] effective samples.
pub fn too_few(s: &Summary) -> bool {
    match &s.replicates {
        Some(r) => r.too_few_clean,
        None => effective(s) < MIN_SAMPLES,
    }
}

/// The rule, on two cells' summaries.
pub fn decide(base: &Summary, other: &Summary) -> Decision {
    if too_few(base) || too_few(other) {
        return Decision::Undecided;
    }
    let d = (other.median / base.median).ln();
    let (apart, half) = match (&base.replicates, &other.replicates) {
        (Some(a), Some(b)) => {
            let half = welch_half_width(a, b);
            (d.abs() > half, half)
        }
        _ => (intervals_apart(base, other), relative_ln(base) + relative_ln(other)),
    };
    if apart && d.abs() > MIN_EFFECT.ln_1p() {
        Decision::Different
    } else if d.abs() + half <= EQUIVALENCE.ln_1p() {
        Decision::Same
    } else {
        Decision::Undecided
    }
}

/// A figure's interval's half-width on the ln scale (the wider side).
fn relative_ln(s: &Summary) -> f64 {
    if s.median <= 0.0 || s.median_ci95[0] <= 0.0 {
        return f64::INFINITY;
    }
    (s.median / s.median_ci95[0]).ln().max((s.median_ci95[1] / s.median).ln())
}

/// Welch's 95% half-width of ln(b/a) for two figures of replicates.
pub fn welch_half_width(a: &crate::replicates::ReplicateStats, b: &crate::replicates::ReplicateStats) -> f64 {
    let (va, vb) = (a.log_standard_error.powi(2), b.log_standard_error.powi(2));
    let se = (va + vb).sqrt();
    if se == 0.0 {
        return 0.0;
    }
    let df = (va + vb).powi(2) / (va.powi(2) / a.degrees_of_freedom + vb.powi(2) / b.degrees_of_freedom);
    StudentsT::new(0.0, 1.0, df.max(1.0))
        .map(|t| t.inverse_cdf(0.975))
        .unwrap_or(f64::INFINITY)
        * se
}

/// Condition 1 for two figures of replicates: Welch's test on ln(figure).
pub fn welch_apart(a: &crate::replicates::ReplicateStats, b: &crate::replicates::ReplicateStats, ma: f64, mb: f64) -> bool {
    let half = welch_half_width(a, b);
    if half == 0.0 {
        return ma != mb;
    }
    (mb / ma).ln().abs() > half
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
    fn overlapping_wide_intervals_cannot_tell_and_narrow_ones_tie() {
        // 10% apart, intervals ±6%: neither apart nor shown within ±2%.
        assert_eq!(decide(&cell(100.0, 6.0, 20), &cell(110.0, 6.0, 20)), Decision::Undecided);
        // 0.5% apart, intervals ±0.5%: the difference lies within ±1.5%, a tie.
        assert_eq!(decide(&cell(100.0, 0.5, 20), &cell(100.5, 0.5, 20)), Decision::Same);
        // The same medians, intervals ±1.5%: the difference could be 3%.
        assert_eq!(decide(&cell(100.0, 1.5, 20), &cell(100.0, 1.5, 20)), Decision::Undecided);
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
            measured: None,
            too_few_clean: false,
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
        // The same 3% with standard errors of 2%: within the noise, and so cannot tell (never a tie).
        assert_eq!(
            decide(&replicated(100.0, 0.02, 60.0), &replicated(103.0, 0.02, 60.0)),
            Decision::Undecided
        );
        // 0.3% apart with standard errors of 0.3%: the difference's interval lies within ±1.2%, a tie.
        assert_eq!(
            decide(&replicated(100.0, 0.003, 60.0), &replicated(100.3, 0.003, 60.0)),
            Decision::Same
        );
        // Few degrees of freedom widen it: 3% apart, se 0.8% each; two degrees of freedom
        // a side give Welch's ν = 4, t = 2.78 → 3.1%; two hundred a side t = 1.97 → 2.2%.
        assert_eq!(
            decide(&replicated(100.0, 0.008, 2.0), &replicated(103.0, 0.008, 2.0)),
            Decision::Undecided
        );
        assert_eq!(
            decide(&replicated(100.0, 0.008, 200.0), &replicated(103.0, 0.008, 200.0)),
            Decision::Different
        );
    }

    #[test]
    fn a_side_with_too_few_clean_replicates_cannot_tell() {
        let mut slowed = replicated(100.0, 0.001, 60.0);
        slowed.replicates.as_mut().unwrap().too_few_clean = true;
        assert_eq!(decide(&slowed, &replicated(150.0, 0.001, 60.0)), Decision::Undecided);
    }
}

//! A confidence interval for the median that holds when successive samples
//! are not independent, and is no wider than the data need.
//!
//! Timing samples taken one after another are autocorrelated: the clock
//! drifts, a neighbour comes and goes. The order-statistic interval of
//! [`crate::stats::median_confidence_interval`] assumes independence; on an
//! AR(1) series with lag-1 correlation 0.5 its nominal 95% covers the true
//! median in only about 77% of runs (simulated; docs/METHOD.md).
//!
//! Whether x_t lies below the median is what a median's interval is about:
//! the count S of samples below the true median has mean n/2 and, for a
//! dependent series, variance τ·n/4, where τ is the integrated
//! autocorrelation time of the indicator 1{x_t ≤ median} (the long-run
//! variance of a sample quantile is that indicator's over the squared
//! density: P. K. Sen, "On the Bahadur representation of sample quantiles
//! for sequences of φ-mixing random variables", Journal of Multivariate
//! Analysis 2(1), 1972; C. Doss, J. Flegal, G. Jones and R. Neath, "Markov
//! chain Monte Carlo estimation of quantiles", Electronic Journal of
//! Statistics 8(2), 2014). The series is worth n/τ independent samples.
//!
//! One estimator of τ, with one parameter:
//!
//! 1. The dependence is read on the **normal scores of the ranks**
//!    (z_t = Φ⁻¹((r_t − 3/8)/(n + 1/4)), G. Blom, *Statistical Estimates and
//!    Transformed Beta-Variables*, Wiley 1958): a Gaussian copula, so that
//!    the skew of timings and an outlier do not move it. ρ̂ is their lag-1
//!    autocorrelation, corrected for its small-sample bias by + (1 + 4ρ̂)/n
//!    (F. H. C. Marriott and J. A. Pope, "Bias in the estimation of
//!    autocorrelations", Biometrika 41, 1954), then **shrunk toward 0** by
//!    the positive-part James–Stein factor 1 − v/ρ̂², v = (1 − ρ̂²)/n being
//!    the estimate's variance (M. S. Bartlett, "On the theoretical
//!    specification and sampling properties of autocorrelated time-series",
//!    JRSS Supplement 8, 1946): an estimate within about one standard error
//!    of 0 counts as independence, so independent samples keep the
//!    independent interval.
//! 2. Under a Gaussian-copula AR(1) with that ρ, the indicators of two
//!    samples k apart are correlated by (2/π)·arcsin(ρ^k) (the orthant
//!    probability of a bivariate normal, W. F. Sheppard, "On the application
//!    of the theory of error to cases of normal distribution and normal
//!    correlation", Phil. Trans. R. Soc. A 192, 1899), so the variance of S
//!    over n samples is exactly n/4 times
//!    τ = 1 + 2 Σ_{k=1}^{n−1} (1 − k/n)·(2/π)·arcsin(ρ^k).
//! 3. The interval takes the **exact order-statistic ranks** of the sign
//!    test at the effective sample size m = n/τ: the rank j whose interval
//!    [x(j), x(m+1−j)] covers with probability 1 − 2·P(B ≤ j − 1),
//!    B ~ Binomial(m, ½), interpolated between the two integer ranks around
//!    the level so that the coverage is the level and not the next one up
//!    (T. P. Hettmansperger and S. J. Sheather, "Confidence intervals based
//!    on interpolated order statistics", Statistics & Probability Letters
//!    4(2), 1986), and between the two integers around a fractional m. The
//!    rank found among m effective samples is mapped to the n samples by
//!    the count it stands for: position ½ + (j − ½)·τ, between order
//!    statistics by linear interpolation.
//!
//! How well this covers, and how wide it is against the exact interval of
//! independent samples, is simulated in crates/core/tests/interval_coverage.rs
//! and tabled in docs/METHOD.md.

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// The interval and what it was derived from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DependentInterval {
    pub lo: f64,
    pub hi: f64,
    /// ρ: the lag-1 autocorrelation of the ranks' normal scores, corrected
    /// for bias, shrunk toward 0 and clamped to [0, [`MAX_LAG1`]].
    pub lag1: f64,
    /// Samples the series is worth, n/τ.
    pub effective_samples: f64,
}

/// The largest lag-1 correlation allowed for: beyond it a series is a drift,
/// not noise around a level, and n/τ would be below one sample anyway.
pub const MAX_LAG1: f64 = 0.98;

/// Lag-1 autocorrelation of `values` (mean-centred); 0 for a constant series.
pub fn lag1_autocorrelation(values: &[f64]) -> f64 {
    let n = values.len();
    if n < 3 {
        return 0.0;
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    let denom: f64 = values.iter().map(|v| (v - mean).powi(2)).sum();
    if denom == 0.0 {
        return 0.0;
    }
    values.windows(2).map(|w| (w[0] - mean) * (w[1] - mean)).sum::<f64>() / denom
}

/// Ranks (1-based, ties averaged) of `values`, in their original order.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut out = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = rank;
        }
        i = j + 1;
    }
    out
}

/// Blom's normal scores of the ranks of `values`, in their original order.
fn normal_scores(values: &[f64]) -> Vec<f64> {
    let n = values.len() as f64;
    let normal = Normal::standard();
    ranks(values)
        .into_iter()
        .map(|r| normal.inverse_cdf((r - 0.375) / (n + 0.25)))
        .collect()
}

/// The bias-corrected lag-1 autocorrelation of the ranks' normal scores and its variance.
fn corrected_lag1(series: &[f64]) -> (f64, f64) {
    let n = series.len() as f64;
    let raw = lag1_autocorrelation(&normal_scores(series));
    let corrected = (raw + (1.0 + 4.0 * raw) / n).clamp(0.0, MAX_LAG1);
    (corrected, (1.0 - corrected * corrected) / n)
}

/// ρ of the series (step 1 above): bias-corrected, shrunk, in [0, MAX_LAG1].
pub fn copula_lag1(series: &[f64]) -> f64 {
    let (corrected, variance) = corrected_lag1(series);
    if corrected == 0.0 {
        return 0.0;
    }
    let shrunk = corrected * (1.0 - variance / (corrected * corrected)).max(0.0);
    shrunk.clamp(0.0, MAX_LAG1)
}

/// How many standard errors above its bias-corrected estimate the lag-1
/// correlation is taken when deciding whether to stop
/// ([`cautious_relative_half_width`]).
pub const STOP_CAUTION: f64 = 2.0;

/// Half the width of the `level` interval relative to the median, at a
/// pessimistic ρ: the bias-corrected estimate plus [`STOP_CAUTION`]
/// standard errors, not shrunk. The stop rule judges precision on this and
/// reports [`median_interval`]: a series too short to tell whether its
/// samples are correlated (ρ̂'s standard error is 0.3 at 10 samples) then
/// does not stop on an interval narrow only because the correlation was
/// not seen — the optional stopping that otherwise cuts the coverage of
/// correlated series to 70–85% (simulated: crates/core/tests/interval_coverage.rs).
pub fn cautious_relative_half_width(series: &[f64], level: f64) -> f64 {
    if series.len() < 2 {
        return f64::INFINITY;
    }
    let mut sorted = series.to_vec();
    sorted.sort_by(f64::total_cmp);
    // The median by linear interpolation (as stats::quantile at ½).
    let median = at_position(&sorted, (sorted.len() as f64 + 1.0) / 2.0);
    if median <= 0.0 {
        return f64::INFINITY;
    }
    let (corrected, variance) = corrected_lag1(series);
    let rho = (corrected + STOP_CAUTION * variance.sqrt()).clamp(0.0, MAX_LAG1);
    let d = interval_at_lag1(&sorted, level, rho);
    if d.effective_samples < MIN_EFFECTIVE_TO_STOP {
        return f64::INFINITY;
    }
    (d.hi.max(median) - d.lo.min(median)) / 2.0 / median
}

/// Below this many effective samples no order-statistic interval reaches
/// 95% (the range of five independent samples covers the median with
/// probability 1 − 2·2⁻⁵ = 93.75%): the interval is then the range of the
/// data, narrow or not, and no reason to stop.
pub const MIN_EFFECTIVE_TO_STOP: f64 = 6.0;

/// τ of the indicator 1{x ≤ median} over `n` samples of a Gaussian-copula
/// AR(1) series with lag-1 correlation `rho` (step 2 above): Var(S) = τ·n/4.
pub fn indicator_tau(rho: f64, n: usize) -> f64 {
    let mut sum = 0.0;
    let mut power = 1.0;
    for k in 1..n {
        power *= rho;
        // Past this the remaining terms add less than 10⁻⁹ to τ.
        if power < 1e-12 {
            break;
        }
        sum += (1.0 - k as f64 / n as f64) * std::f64::consts::FRAC_2_PI * power.asin();
    }
    1.0 + 2.0 * sum
}

/// dτ/dρ of [`indicator_tau`].
fn indicator_tau_slope(rho: f64, n: usize) -> f64 {
    let mut sum = 0.0;
    for k in 1..n {
        let power = rho.powi(k as i32 - 1);
        if power < 1e-12 {
            break;
        }
        let rk = power * rho;
        sum += (1.0 - k as f64 / n as f64) * std::f64::consts::FRAC_2_PI * k as f64 * power / (1.0 - rk * rk).sqrt();
    }
    2.0 * sum
}

/// Degrees of freedom of the variance estimate τ̂·n/4 (Satterthwaite:
/// 2τ²/Var(τ̂), Var(τ̂) by the delta method from Var(ρ̂) = (1 − ρ²)/n).
fn degrees_of_freedom(rho: f64, n: usize) -> f64 {
    let tau = indicator_tau(rho, n);
    let slope = indicator_tau_slope(rho, n);
    let var_rho = (1.0 - rho * rho) / n as f64;
    2.0 * tau * tau / (slope * slope * var_rho).max(1e-12)
}

/// 1 − 2·P(B ≤ j − 1), B ~ Binomial(m, ½), for j = 0..=m/2 + 1: the coverage
/// of [x(j), x(m+1−j)] among m independent samples (1 for j = 0, the whole line).
fn coverages(m: usize) -> Vec<f64> {
    // Cumulative probabilities in log space, exact for large m too.
    let ln_half_m = m as f64 * 0.5f64.ln();
    let mut ln_binom = 0.0f64; // ln C(m, 0)
    let mut cdf = 0.0f64;
    let mut out = vec![1.0];
    for i in 0..=m / 2 {
        cdf += (ln_binom + ln_half_m).exp(); // adds P(B = i)
        out.push((1.0 - 2.0 * cdf).max(0.0));
        ln_binom += ((m - i) as f64).ln() - ((i + 1) as f64).ln();
    }
    out
}

/// The lower rank among `m` independent samples whose interval covers with
/// probability `level`, interpolated between the integer ranks around it
/// (0 stands for "no bound": below x(1)).
fn interpolated_rank(m: usize, level: f64) -> f64 {
    let c = coverages(m.max(1));
    let j = c.iter().rposition(|&p| p >= level).unwrap_or(0);
    match c.get(j + 1) {
        Some(&next) if c[j] > next && j >= 1 => {
            let i = (c[j] - level) / (c[j] - next);
            let (jf, mf) = (j as f64, m as f64);
            j as f64 + (mf - jf) * i / (jf + (mf - 2.0 * jf) * i)
        }
        Some(&next) if c[j] > next => (c[j] - level) / (c[j] - next),
        _ => j as f64,
    }
}

/// (j − ½)/m for a real effective sample size m ≥ 1, by linear
/// interpolation between the integers around it.
fn lower_fraction(m: f64, level: f64) -> f64 {
    let m = m.max(1.0);
    let at = |k: usize| (interpolated_rank(k, level) - 0.5) / k as f64;
    let (lo, hi) = (m.floor() as usize, m.ceil() as usize);
    if lo == hi {
        return at(lo);
    }
    let w = m - lo as f64;
    (1.0 - w) * at(lo) + w * at(hi)
}

/// The value at 1-based fractional position `pos` of sorted data, linearly
/// interpolated between neighbours and clamped to the extremes.
fn at_position(sorted: &[f64], pos: f64) -> f64 {
    let n = sorted.len();
    let pos = pos.clamp(1.0, n as f64);
    let i = pos.floor() as usize;
    let w = pos - i as f64;
    if i >= n {
        return sorted[n - 1];
    }
    sorted[i - 1] + w * (sorted[i] - sorted[i - 1])
}

/// The `level` confidence interval of the median of `series` (in the order
/// the samples were taken; `sorted` holds the same values in order).
pub fn median_interval(series: &[f64], sorted: &[f64], level: f64) -> DependentInterval {
    let n = series.len();
    assert!(n > 0 && sorted.len() == n, "an interval needs the samples");
    if n == 1 {
        return DependentInterval {
            lo: sorted[0],
            hi: sorted[0],
            lag1: 0.0,
            effective_samples: 1.0,
        };
    }
    interval_at_lag1(sorted, level, copula_lag1(series))
}

/// The interval of [`median_interval`] for a given lag-1 correlation `rho`
/// of the normal scores (what the simulation compares the estimate with).
pub fn interval_at_lag1(sorted: &[f64], level: f64, rho: f64) -> DependentInterval {
    let n = sorted.len();
    let tau = indicator_tau(rho, n);
    let mut m = n as f64 / tau;
    // τ is estimated, not known: as a t interval does for an estimated
    // variance, ask for the level at the estimate's degrees of freedom.
    let z = Normal::standard().inverse_cdf(0.5 + level / 2.0);
    if let Ok(t) = StudentsT::new(0.0, 1.0, degrees_of_freedom(rho, n)) {
        m *= (z / t.inverse_cdf(0.5 + level / 2.0)).powi(2);
    }
    let pos = 0.5 + lower_fraction(m, level) * n as f64;
    DependentInterval {
        lo: at_position(sorted, pos),
        hi: at_position(sorted, n as f64 + 1.0 - pos),
        lag1: rho,
        effective_samples: m,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_average_ties() {
        assert_eq!(ranks(&[10.0, 30.0, 20.0, 30.0]), vec![1.0, 3.5, 2.0, 3.5]);
    }

    #[test]
    fn lag1_of_a_trend_is_high_and_of_an_alternation_negative() {
        let trend: Vec<f64> = (0..50).map(f64::from).collect();
        assert!(lag1_autocorrelation(&trend) > 0.9);
        assert!(copula_lag1(&trend) > 0.9);
        let alt: Vec<f64> = (0..50).map(|i| if i % 2 == 0 { 1.0 } else { -1.0 }).collect();
        assert!(lag1_autocorrelation(&alt) < -0.9);
        assert_eq!(copula_lag1(&alt), 0.0);
        assert_eq!(lag1_autocorrelation(&[3.0; 10]), 0.0);
        assert_eq!(copula_lag1(&[3.0; 10]), 0.0);
    }

    #[test]
    fn tau_is_one_without_correlation_and_matches_the_series_sum() {
        assert_eq!(indicator_tau(0.0, 50), 1.0);
        // ρ = 0.5 over a long series: 1 + 2·Σ (2/π)·arcsin(0.5^k) = 1.7747… (summed here by hand to k = 40).
        let by_hand = 1.0 + 2.0 * (1..40).map(|k| std::f64::consts::FRAC_2_PI * 0.5f64.powi(k).asin()).sum::<f64>();
        assert!((indicator_tau(0.5, 1_000_000) - by_hand).abs() < 1e-5);
        // Over few samples the far lags weigh less (Bartlett's 1 − k/n).
        assert!(indicator_tau(0.9, 10) < indicator_tau(0.9, 1000));
    }

    #[test]
    fn integer_ranks_are_the_exact_ones_at_their_coverage() {
        // Le Boudec, Table A.1 (95%): n = 20 → rank 6 (coverage 95.86%), n = 50 → 18.
        let c = coverages(20);
        assert!((c[6] - 0.9586).abs() < 1e-4 && c[7] < 0.95, "{:?}", &c[5..8]);
        let j = interpolated_rank(20, 0.95);
        assert!(j > 6.0 && j < 7.0, "{j}");
        assert!((interpolated_rank(20, c[6]) - 6.0).abs() < 1e-12);
        let j = interpolated_rank(50, 0.95);
        assert!(j > 18.0 && j < 19.0, "{j}");
        // Five samples cannot bound the median at 95% (the range covers 93.75%).
        assert!(interpolated_rank(5, 0.95) < 1.0);
    }

    #[test]
    fn independent_samples_keep_about_the_independent_interval() {
        // Alternating around the median: no positive correlation, τ = 1; the
        // degrees of freedom of τ̂ (about 27 at n = 20) leave m = 20·(1.96/t₂₇)² ≈ 18.
        let series: Vec<f64> = (0..20)
            .map(|i| if i % 2 == 0 { 100.0 + i as f64 } else { 100.0 - i as f64 })
            .collect();
        let mut sorted = series.clone();
        sorted.sort_by(f64::total_cmp);
        let d = median_interval(&series, &sorted, 0.95);
        assert_eq!(d.lag1, 0.0);
        assert!(d.effective_samples > 17.0 && d.effective_samples < 20.0, "{d:?}");
        // Within a rank of the exact interval (ranks 6 and 15 at n = 20).
        assert!(
            d.lo >= sorted[4] && d.lo <= sorted[6] && d.hi <= sorted[15] && d.hi >= sorted[13],
            "{d:?} {sorted:?}"
        );
    }

    #[test]
    fn positions_interpolate_and_clamp() {
        let xs = [1.0, 2.0, 4.0];
        assert_eq!(at_position(&xs, 0.2), 1.0);
        assert_eq!(at_position(&xs, 2.5), 3.0);
        assert_eq!(at_position(&xs, 9.0), 4.0);
    }
}

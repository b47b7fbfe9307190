//! Special functions the replicate statistics need and statrs lacks: the
//! trigamma function and its inverse (for the empirical-Bayes prior of
//! crates/core/src/replicates.rs), and the variances of the median and of
//! the largest of r standard normal samples (for the standard error of a
//! figure made of replicates).

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

use statrs::distribution::{Continuous, ContinuousCDF, Normal};

/// ψ′(x), the trigamma function, for x > 0: the recurrence
/// ψ′(x) = ψ′(x + 1) + 1/x² up to x ≥ 10, then the asymptotic series
/// ψ′(x) ≈ 1/x + 1/(2x²) + 1/(6x³) − 1/(30x⁵) + 1/(42x⁷) − 1/(30x⁹)
/// (M. Abramowitz and I. A. Stegun, *Handbook of Mathematical Functions*,
/// 6.4.12; B. E. Schneider, "Algorithm AS 121: Trigamma function", Applied
/// Statistics 27(1), 1978, uses the same two steps). Relative error below
/// 1e-10 for x > 0.
pub fn trigamma(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return f64::NAN;
    }
    let mut x = x;
    let mut sum = 0.0;
    while x < 10.0 {
        sum += 1.0 / (x * x);
        x += 1.0;
    }
    let y = 1.0 / (x * x);
    sum + 1.0 / x + y / 2.0 + (1.0 / 6.0 - y * (1.0 / 30.0 - y * (1.0 / 42.0 - y / 30.0))) * y / x
}

/// ψ″(x), the tetragamma function, for the Newton steps of
/// [`trigamma_inverse`]: the same recurrence and series differentiated
/// (Abramowitz and Stegun 6.4.13).
fn tetragamma(x: f64) -> f64 {
    let mut x = x;
    let mut sum = 0.0;
    while x < 10.0 {
        sum -= 2.0 / (x * x * x);
        x += 1.0;
    }
    let y = 1.0 / (x * x);
    sum - y - y / x - (0.5 - y * (1.0 / 6.0 - y * (1.0 / 6.0 - y * 3.0 / 10.0))) * y * y
}

/// x with ψ′(x) = y, for y > 0, by Newton's method on 1/ψ′ from
/// x₀ = ½ + 1/y, which converges monotonically (G. K. Smyth, "Linear models
/// and empirical Bayes methods for assessing differential expression in
/// microarray experiments", Statistical Applications in Genetics and
/// Molecular Biology 3(1), 2004, §6.2 and limma's `trigammaInverse`).
pub fn trigamma_inverse(y: f64) -> f64 {
    if y.is_nan() || y <= 0.0 {
        return f64::NAN;
    }
    // Both ends as limma takes them: ψ′(x) ≈ 1/x for large x and 1/x² for small x.
    if y > 1e7 {
        return 1.0 / y.sqrt();
    }
    if y < 1e-6 {
        return 1.0 / y;
    }
    let mut x = 0.5 + 1.0 / y;
    for _ in 0..50 {
        let tri = trigamma(x);
        let step = tri * (1.0 - tri / y) / tetragamma(x);
        x += step;
        if -step / x < 1e-8 {
            break;
        }
    }
    x
}

/// Var(median of r independent standard normal samples): the factor by
/// which the variance of one replicate's figure shrinks when r are
/// combined by their median (the mean's would be 1/r). Exact values by
/// numerical integration of the order statistics' densities — the (k+1)-th
/// of 2k+1 for odd r, the mean of the k-th and (k+1)-th of 2k for even r
/// (H. A. David and H. N. Nagaraja, *Order Statistics*, 3rd ed., Wiley
/// 2003, §2.1–2.2) —, cached per r. r = 3 gives 0.4487 (against 1/3 for a
/// mean), r = 5 0.2868 (D. Teichroew, "Tables of expected values of order
/// statistics and products of order statistics for samples of size twenty
/// and less from the normal distribution", Annals of Mathematical
/// Statistics 27(2), 1956, gives the moments these reproduce).
pub fn normal_median_variance(r: usize) -> f64 {
    static CACHE: OnceLock<Mutex<BTreeMap<usize, f64>>> = OnceLock::new();
    match r {
        0 => f64::NAN,
        1 => 1.0,
        2 => 0.5,
        // Beyond this the asymptotic π/(2r) (David and Nagaraja §10.2), within 1% there.
        r if r > INTEGRATED_UP_TO => std::f64::consts::PI / (2.0 * r as f64),
        r => *CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(r)
            .or_insert_with(|| median_variance_by_integration(r)),
    }
}

/// The largest replicate count whose median variance is integrated.
const INTEGRATED_UP_TO: usize = 200;

/// Var(largest of r independent standard normal samples): the factor by
/// which the variance of one replicate's figure shrinks when the fastest of
/// r is taken (r = 2: 1 − 1/π = 0.6817; r = 3: 0.5595; r = 5: 0.4475, as
/// Teichroew 1956 tabulates). By numerical integration of the largest
/// order statistic's density r·Φ^(r−1)·φ (David and Nagaraja §2.1).
pub fn normal_max_variance(r: usize) -> f64 {
    if r == 0 {
        return f64::NAN;
    }
    let normal = Normal::standard();
    let n = (2.0 * GRID_HALF_WIDTH / GRID_STEP) as usize;
    let (mut m1, mut m2) = (0.0, 0.0);
    for i in 0..=n {
        let x = -GRID_HALF_WIDTH + i as f64 * GRID_STEP;
        let density = r as f64 * normal.cdf(x).powi(r as i32 - 1) * normal.pdf(x) * GRID_STEP;
        m1 += x * density;
        m2 += x * x * density;
    }
    m2 - m1 * m1
}

/// The integration grid: ±8 standard deviations in steps of 1/64.
const GRID_HALF_WIDTH: f64 = 8.0;
const GRID_STEP: f64 = 1.0 / 64.0;

fn median_variance_by_integration(r: usize) -> f64 {
    if r < 3 {
        return [f64::NAN, 1.0, 0.5][r];
    }
    let normal = Normal::standard();
    let points: Vec<(f64, f64, f64)> = {
        let n = (2.0 * GRID_HALF_WIDTH / GRID_STEP) as usize;
        (0..=n)
            .map(|i| {
                let x = -GRID_HALF_WIDTH + i as f64 * GRID_STEP;
                (x, normal.cdf(x), normal.pdf(x))
            })
            .collect()
    };
    let ln_factorial = |n: usize| statrs::function::gamma::ln_gamma(n as f64 + 1.0);
    if r % 2 == 1 {
        // The (k+1)-th of 2k+1: density r!/(k!·k!)·Φ^k·(1−Φ)^k·φ; its mean is 0.
        let k = r / 2;
        let c = (ln_factorial(r) - 2.0 * ln_factorial(k)).exp();
        return points
            .iter()
            .map(|&(x, cdf, pdf)| x * x * c * (cdf * (1.0 - cdf)).powi(k as i32) * pdf * GRID_STEP)
            .sum();
    }
    // The k-th and (k+1)-th of 2k, jointly: r!/((k−1)!·(k−1)!)·Φ(x)^(k−1)·(1−Φ(y))^(k−1)·φ(x)·φ(y)
    // for x < y; the median is their mean, whose mean is 0.
    let k = r / 2;
    let c = (ln_factorial(r) - 2.0 * ln_factorial(k - 1)).exp();
    let mut sum = 0.0;
    for (i, &(x, fx, px)) in points.iter().enumerate() {
        let left = c * fx.powi(k as i32 - 1) * px;
        if left == 0.0 {
            continue;
        }
        // The trapezoidal rule over x ≤ y: the diagonal with half its weight.
        for (j, &(y, fy, py)) in points[i..].iter().enumerate() {
            let m = (x + y) / 2.0;
            let weight = if j == 0 { 0.5 } else { 1.0 };
            sum += weight * m * m * left * (1.0 - fy).powi(k as i32 - 1) * py;
        }
    }
    sum * GRID_STEP * GRID_STEP
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trigamma_matches_known_values() {
        // ψ′(1) = π²/6, ψ′(1/2) = π²/2, ψ′(2) = π²/6 − 1.
        let pi2 = std::f64::consts::PI.powi(2);
        assert!((trigamma(1.0) - pi2 / 6.0).abs() < 1e-10);
        assert!((trigamma(0.5) - pi2 / 2.0).abs() < 1e-10);
        assert!((trigamma(2.0) - (pi2 / 6.0 - 1.0)).abs() < 1e-10);
        assert!((trigamma(100.0) - 0.010050166663333571).abs() < 1e-12);
    }

    #[test]
    fn trigamma_inverse_inverts() {
        for x in [0.01, 0.3, 1.0, 2.5, 17.0, 400.0] {
            let back = trigamma_inverse(trigamma(x));
            assert!((back - x).abs() / x < 1e-6, "{x} → {back}");
        }
    }

    #[test]
    fn largest_variances_match_order_statistics_tables() {
        assert!((normal_max_variance(1) - 1.0).abs() < 1e-6);
        assert!((normal_max_variance(2) - (1.0 - 1.0 / std::f64::consts::PI)).abs() < 1e-6);
        assert!((normal_max_variance(3) - 0.5595).abs() < 1e-4, "{}", normal_max_variance(3));
        assert!((normal_max_variance(5) - 0.4475).abs() < 1e-4, "{}", normal_max_variance(5));
    }

    #[test]
    fn median_variances_match_order_statistics_tables() {
        // Teichroew (1956): Var(X(2:3)) = 0.4487, Var(X(3:5)) = 0.2868; for
        // r = 4, (Var X(2:4) + Var X(3:4) + 2 Cov)/4 with Var = 0.3605, Cov = 0.2359.
        assert!((normal_median_variance(3) - 0.4487).abs() < 1e-4, "{}", normal_median_variance(3));
        assert!((normal_median_variance(5) - 0.2868).abs() < 1e-4, "{}", normal_median_variance(5));
        assert!(
            (normal_median_variance(4) - (0.3605 + 0.2359) / 2.0).abs() < 1e-3,
            "{}",
            normal_median_variance(4)
        );
        // Every median is worse than the mean of as many, and better than one sample.
        for r in (3..40).chain([99, 100]) {
            let v = normal_median_variance(r);
            assert!(v > 1.0 / r as f64 && v < 1.0, "r={r}: {v}");
        }
        // The integration and the asymptotic formula meet.
        let integrated = normal_median_variance(INTEGRATED_UP_TO - 1);
        let asymptotic = normal_median_variance(INTEGRATED_UP_TO + 1) * (INTEGRATED_UP_TO + 1) as f64 / (INTEGRATED_UP_TO - 1) as f64;
        assert!((integrated / asymptotic - 1.0).abs() < 0.01, "{integrated} {asymptotic}");
    }
}

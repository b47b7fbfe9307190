//! The Mann–Whitney U test (Wilcoxon rank-sum test): are two sets of samples
//! drawn from the same distribution? It uses ranks only, so it assumes no
//! shape of the timing distribution (skewed, with outliers from interrupts),
//! which is why benchstat (golang.org/x/perf/cmd/benchstat) uses it to tell a
//! real difference from noise, and why `compare` does.
//!
//! H. B. Mann and D. R. Whitney, "On a test of whether one of two random
//! variables is stochastically larger than the other", Annals of
//! Mathematical Statistics 18(1), 1947. Without ties and with at most
//! [`EXACT_LIMIT`] samples per side the p-value is exact, from the count of
//! rank arrangements (the recurrence of Mann & Whitney §2); otherwise it uses
//! the normal approximation with tie correction and continuity correction
//! (W. J. Conover, *Practical Nonparametric Statistics*, 3rd ed., §5.1).

/// Largest sample count per side for which the exact distribution is computed.
pub const EXACT_LIMIT: usize = 50;

/// Two-sided p-value of the hypothesis that `a` and `b` come from the same
/// distribution; None when either side is empty.
pub fn p_value(a: &[f64], b: &[f64]) -> Option<f64> {
    let (m, n) = (a.len(), b.len());
    if m == 0 || n == 0 {
        return None;
    }
    let mut all: Vec<(f64, usize)> = a.iter().map(|&x| (x, 0)).chain(b.iter().map(|&x| (x, 1))).collect();
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    // Mid-ranks for ties; tie groups kept for the variance correction.
    let mut ranks = vec![0.0; all.len()];
    let mut ties = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let mut j = i;
        while j + 1 < all.len() && all[j + 1].0 == all[i].0 {
            j += 1;
        }
        let mid = (i + j) as f64 / 2.0 + 1.0;
        ranks[i..=j].iter_mut().for_each(|r| *r = mid);
        if j > i {
            ties.push((j - i + 1) as f64);
        }
        i = j + 1;
    }
    let rank_sum_a: f64 = all.iter().zip(&ranks).filter(|(x, _)| x.1 == 0).map(|(_, r)| r).sum();
    let u_a = rank_sum_a - (m * (m + 1)) as f64 / 2.0;
    let u = u_a.min((m * n) as f64 - u_a);
    if ties.is_empty() && m <= EXACT_LIMIT && n <= EXACT_LIMIT {
        return Some(exact_two_sided(u as usize, m, n));
    }
    let mean = (m * n) as f64 / 2.0;
    let total = (m + n) as f64;
    let tie_term: f64 = ties.iter().map(|t| t * t * t - t).sum::<f64>() / (total * (total - 1.0));
    let var = (m * n) as f64 / 12.0 * ((total + 1.0) - tie_term);
    if var <= 0.0 {
        return Some(1.0); // every value equal
    }
    let z = ((mean - u).abs() - 0.5).max(0.0) / var.sqrt();
    Some((2.0 * normal_upper_tail(z)).min(1.0))
}

/// P(U ≤ u) · 2 under the null hypothesis, from the number of arrangements
/// of m and n samples with each U (Mann & Whitney's recurrence
/// c(u; m, n) = c(u − n; m − 1, n) + c(u; m, n − 1)).
fn exact_two_sided(u: usize, m: usize, n: usize) -> f64 {
    let max_u = m * n;
    // counts[i][j][k]: arrangements of i and j samples with U = k; only two layers of i are kept.
    let mut prev: Vec<Vec<f64>> = (0..=n).map(|_| vec![0.0; max_u + 1]).collect();
    for row in prev.iter_mut() {
        row[0] = 1.0; // i = 0: U is 0
    }
    for i in 1..=m {
        let mut cur: Vec<Vec<f64>> = (0..=n).map(|_| vec![0.0; max_u + 1]).collect();
        cur[0][0] = 1.0; // j = 0
        for j in 1..=n {
            for k in 0..=i * j {
                let a = if k >= j { prev[j][k - j] } else { 0.0 };
                cur[j][k] = a + cur[j - 1][k];
            }
        }
        prev = cur;
    }
    let counts = &prev[n];
    let total: f64 = counts.iter().sum();
    let lower: f64 = counts[..=u.min(max_u)].iter().sum();
    (2.0 * lower / total).min(1.0)
}

/// P(Z > z) for a standard normal Z, by the complementary error function
/// (W. J. Cody's rational approximation as given in Numerical Recipes, 3rd
/// ed., §6.2.2, `erfc`, relative error below 1.2e-7).
fn normal_upper_tail(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07 + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_values_match_published_tables() {
        // m = n = 3, complete separation: U = 0, P(U ≤ 0) = 1/20, two-sided 0.1
        // (Mann & Whitney 1947, Table I: m=3, n=3, U=0 → .050).
        let p = p_value(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]).unwrap();
        assert!((p - 0.1).abs() < 1e-12, "{p}");
        // m = n = 4, U = 1: P(U ≤ 1) = 2/70 (Table I: m=4, n=4, U=1 → .029).
        let p = p_value(&[1.0, 2.0, 3.0, 5.0], &[4.0, 6.0, 7.0, 8.0]).unwrap();
        assert!((p - 4.0 / 70.0).abs() < 1e-12, "{p}");
    }

    #[test]
    fn identical_and_interleaved_samples_are_not_different() {
        assert_eq!(p_value(&[5.0; 10], &[5.0; 10]), Some(1.0));
        let a: Vec<f64> = (0..20).map(|i| (2 * i) as f64).collect();
        let b: Vec<f64> = (0..20).map(|i| (2 * i + 1) as f64).collect();
        assert!(p_value(&a, &b).unwrap() > 0.5);
    }

    #[test]
    fn separated_samples_are_different_and_the_test_is_symmetric() {
        let a: Vec<f64> = (0..12).map(|i| 100.0 + i as f64).collect();
        let b: Vec<f64> = (0..12).map(|i| 200.0 + i as f64).collect();
        let p = p_value(&a, &b).unwrap();
        assert!(p < 1e-5, "{p}");
        assert_eq!(p_value(&b, &a), Some(p));
    }

    #[test]
    fn normal_approximation_with_ties_agrees_with_exact_roughly() {
        // Large samples with ties go through the approximation.
        let a: Vec<f64> = (0..60).map(|i| (i / 2) as f64).collect();
        let b: Vec<f64> = (0..60).map(|i| (i / 2) as f64 + 40.0).collect();
        assert!(p_value(&a, &b).unwrap() < 1e-6);
        assert!(p_value(&a, &a).unwrap() > 0.99);
        assert!((normal_upper_tail(1.959_964) - 0.025).abs() < 1e-6);
    }

    #[test]
    fn empty_sides_have_no_test() {
        assert_eq!(p_value(&[], &[1.0]), None);
    }
}

//! The overhead model: the time of one call on an n-byte message is
//! t(n) = a + n/r∞, with a the fixed cost per call and r∞ the asymptotic
//! throughput; n½ = a·r∞ is the size at which half of r∞ is reached
//! (R. W. Hockney and C. R. Jesshope, *Parallel Computers 2*, Adam Hilger
//! 1988, §1.3.3: the (r∞, n½) characterisation).
//!
//! Fitted by weighted least squares with weights 1/t², i.e. minimising the
//! *relative* residuals: call times span three or more decades over the
//! default sizes and an unweighted fit would ignore the small sizes, which
//! are the ones that determine a.

/// Fitted parameters; None when fewer than two distinct sizes or a
/// degenerate fit (no positive throughput).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    pub per_call_s: f64,
    pub asymptotic_bytes_per_s: f64,
    pub half_peak_bytes: f64,
}

/// Fits (size in bytes, seconds per call) points.
pub fn fit(points: &[(usize, f64)]) -> Option<Fit> {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .filter(|(_, t)| *t > 0.0 && t.is_finite())
        .map(|&(n, t)| (n as f64, t))
        .collect();
    let distinct = {
        let mut sizes: Vec<u64> = pts.iter().map(|p| p.0 as u64).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes.len()
    };
    if distinct < 2 {
        return None;
    }
    let (mut s, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &(n, t) in &pts {
        let w = 1.0 / (t * t);
        s += w;
        sx += w * n;
        sy += w * t;
        sxx += w * n * n;
        sxy += w * n * t;
    }
    let denom = s * sxx - sx * sx;
    if denom <= 0.0 {
        return None;
    }
    let b = (s * sxy - sx * sy) / denom;
    let a = (sy - b * sx) / s;
    if b <= 0.0 {
        return None;
    }
    Some(Fit {
        per_call_s: a,
        asymptotic_bytes_per_s: 1.0 / b,
        half_peak_bytes: a / b,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_exact_parameters() {
        // a = 200 ns per call, r∞ = 4 GB/s → n½ = 800 bytes.
        let pts: Vec<(usize, f64)> = [16, 64, 256, 1024, 8192, 16384]
            .iter()
            .map(|&n| (n, 200e-9 + n as f64 / 4e9))
            .collect();
        let f = fit(&pts).unwrap();
        assert!((f.per_call_s - 200e-9).abs() < 1e-12, "{f:?}");
        assert!((f.asymptotic_bytes_per_s / 4e9 - 1.0).abs() < 1e-9, "{f:?}");
        assert!((f.half_peak_bytes - 800.0).abs() < 1e-3, "{f:?}");
    }

    #[test]
    fn noise_of_a_few_percent_keeps_the_fit_close() {
        let noise = [1.03, 0.98, 1.02, 0.97, 1.01, 0.99];
        let pts: Vec<(usize, f64)> = [16, 64, 256, 1024, 8192, 16384]
            .iter()
            .zip(noise)
            .map(|(&n, e)| (n, (50e-9 + n as f64 / 1e9) * e))
            .collect();
        let f = fit(&pts).unwrap();
        assert!((f.per_call_s / 50e-9 - 1.0).abs() < 0.15, "{f:?}");
        assert!((f.asymptotic_bytes_per_s / 1e9 - 1.0).abs() < 0.05, "{f:?}");
    }

    #[test]
    fn needs_two_sizes_and_a_positive_slope() {
        assert!(fit(&[(16, 1e-7)]).is_none());
        assert!(fit(&[(16, 1e-7), (16, 1.1e-7)]).is_none());
        assert!(fit(&[(16, 2e-7), (1024, 1e-7)]).is_none());
    }
}

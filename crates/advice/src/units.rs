//! Figures in words, in the unit of their cell: bytes per second for
//! symmetric cells, operations per second for public key (never "MB/s"
//! for an operation), with as many digits as the figure needs, so that an
//! interval is never printed as "0–0".

use cryptobench_core::cell::CellUnit;
use cryptobench_core::stats::Summary;

/// Three significant digits, thousands grouped: 0.0123, 1.23, 123, 12,345.
pub fn number(x: f64) -> String {
    if !x.is_finite() {
        return "n/a".into();
    }
    if x.abs() >= 1000.0 {
        let digits = format!("{:.0}", x.abs());
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        return if x < 0.0 { format!("-{grouped}") } else { grouped };
    }
    let decimals = if x == 0.0 {
        0
    } else {
        (2 - x.abs().log10().floor() as i32).max(0) as usize
    };
    format!("{x:.decimals$}")
}

/// A rate: "1.23 GB/s", "456 MB/s", "12.3 kB/s" (decimal prefixes, as the
/// tables print them) or "12,345 operations per second".
pub fn rate(per_second: f64, unit: CellUnit) -> String {
    match unit {
        CellUnit::Operations => format!("{} operations per second", number(per_second)),
        CellUnit::Bytes => {
            let (scale, name) = [(1e9, "GB/s"), (1e6, "MB/s"), (1e3, "kB/s")]
                .into_iter()
                .find(|(s, _)| per_second >= *s)
                .unwrap_or((1.0, "B/s"));
            format!("{} {name}", number(per_second / scale))
        }
    }
}

/// "12,345 operations per second (a repeat run within (nominal 95%) 12,300–12,400)".
pub fn rate_with_interval(s: &Summary, unit: CellUnit) -> String {
    let [lo, hi] = s.median_ci95;
    let scaled = |x: f64| match unit {
        CellUnit::Operations => number(x),
        CellUnit::Bytes => rate(x, unit),
    };
    format!("{} ({} {}–{})", rate(s.median, unit), s.interval_name(), scaled(lo), scaled(hi))
}

/// "cycles per byte" or "cycles per operation".
pub fn cycles_name(unit: CellUnit) -> &'static str {
    match unit {
        CellUnit::Bytes => "cycles per byte",
        CellUnit::Operations => "cycles per operation",
    }
}

/// A cycle count in its unit: "0.32 cycles per byte", "70,915 cycles per operation".
pub fn cycles(c: f64, unit: CellUnit) -> String {
    format!("{} {}", number(c), cycles_name(unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_keep_their_digits_and_units() {
        assert_eq!(number(0.3249), "0.325");
        assert_eq!(number(2.05), "2.05");
        assert_eq!(number(123.4), "123");
        assert_eq!(number(70915.2), "70,915");
        assert_eq!(number(1234567.0), "1,234,567");
        assert_eq!(rate(2.5e9, CellUnit::Bytes), "2.50 GB/s");
        assert_eq!(rate(45_300.0, CellUnit::Operations), "45,300 operations per second");
        // A slow operation's interval is not rounded to nothing.
        assert_eq!(number(0.42), "0.420");
    }
}

//! Throughput units. `k` is `openssl speed`'s "1000s of bytes per second
//! processed", so its tables can be compared figure for figure; public-key
//! figures are operations per second ([`format_ops`]).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// 10^6 bytes per second.
    #[default]
    Mb,
    /// 10^3 bytes per second, as `openssl speed` prints (suffix "k").
    K,
    /// 10^9 bytes per second.
    Gb,
    /// Core cycles per byte at the measured clock (lower is faster).
    Cpb,
}

impl Unit {
    pub fn divisor(self) -> f64 {
        match self {
            Unit::Mb => 1e6,
            Unit::K => 1e3,
            Unit::Gb => 1e9,
            Unit::Cpb => 1.0,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Unit::Mb => "MB/s",
            Unit::K => "1000s of bytes/s",
            Unit::Gb => "GB/s",
            Unit::Cpb => "cycles/byte",
        }
    }

    /// Formats a cycles-per-byte figure.
    pub fn format_cpb(cpb: f64) -> String {
        if cpb >= 100.0 {
            format!("{cpb:.0}")
        } else if cpb >= 10.0 {
            format!("{cpb:.1}")
        } else {
            format!("{cpb:.2}")
        }
    }

    /// Formats bytes per second in this unit, with as many decimals as `openssl speed` uses.
    pub fn format(self, bytes_per_second: f64) -> String {
        let v = bytes_per_second / self.divisor();
        match self {
            Unit::K => format!("{v:.2}k"),
            Unit::Mb | Unit::Gb | Unit::Cpb => {
                if v >= 100.0 {
                    format!("{v:.0}")
                } else if v >= 10.0 {
                    format!("{v:.1}")
                } else {
                    format!("{v:.2}")
                }
            }
        }
    }
}

/// Operations per second as openssl speed prints them (`%8.1f`), thousands without decimals.
pub fn format_ops(ops: f64) -> String {
    if ops >= 10_000.0 {
        format!("{ops:.0}")
    } else {
        format!("{ops:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_openssl_speed() {
        assert_eq!(Unit::K.format(339_123_456.0), "339123.46k");
        assert_eq!(Unit::Mb.format(4_834_000_000.0), "4834");
        assert_eq!(Unit::Mb.format(52_345_678.0), "52.3");
        assert_eq!(Unit::Gb.format(4_834_000_000.0), "4.83");
    }
}

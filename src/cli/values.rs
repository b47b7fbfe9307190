//! The values flags take: sizes, durations, and the choices of format,
//! unit, operation and mode, each parsed or listed for clap.

use clap::ValueEnum;
use cryptobench_core::sizes::parse_size_list;

#[derive(Debug, Clone)]
pub struct Sizes(pub Vec<usize>);

pub fn parse_sizes(text: &str) -> Result<Sizes, String> {
    parse_size_list(text).map(Sizes).map_err(|e| e.to_string())
}

/// Seconds as `0.5`, `500ms` or `2s`; between 1 ms and one hour.
/// A worker timeout: seconds (or with an ms/s suffix), from 1 ms to a day.
pub fn parse_timeout(text: &str) -> Result<f64, String> {
    let seconds = seconds(text)?;
    if !(0.001..=86_400.0).contains(&seconds) {
        return Err(format!("'{}' is outside 1 ms to 86400 s", text.trim()));
    }
    Ok(seconds)
}

/// A precision target: "1%", "0.5%" or a bare percentage "2", as a fraction; 0.1% to 50%.
pub fn parse_target(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let percent: f64 = t
        .strip_suffix('%')
        .unwrap_or(t)
        .trim()
        .parse()
        .map_err(|_| format!("'{t}' is not a percentage: give the half-width of the 95% interval, such as 1%, 0.5% or 2"))?;
    if !(0.1..=50.0).contains(&percent) {
        return Err(format!("'{t}' is outside 0.1% to 50%"));
    }
    Ok(percent / 100.0)
}

pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let seconds = seconds(text)?;
    if !(0.001..=3600.0).contains(&seconds) {
        return Err(format!("'{}' is outside 1 ms to 3600 s per cell", text.trim()));
    }
    Ok(seconds)
}

/// "0.5", "2s", "500ms" as seconds.
fn seconds(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else {
        (t, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("'{t}' is not a duration: give seconds such as 0.5, 2s or 500ms"))?;
    let seconds = value * scale;
    if !seconds.is_finite() {
        return Err(format!("'{t}' is not a finite duration"));
    }
    Ok(seconds)
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpArg {
    Enc,
    Dec,
    /// Public key: one signature.
    Sign,
    /// One signature verification.
    Verify,
    /// One key pair generated (RSA's takes long: its cells get a longer budget).
    Keygen,
    /// One ML-KEM encapsulation.
    Encaps,
    /// One ML-KEM decapsulation.
    Decaps,
    /// One Diffie–Hellman shared secret.
    Derive,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeArg {
    Stream,
    Message,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatArg {
    Table,
    Json,
    Csv,
    Markdown,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitArg {
    Mb,
    K,
    Gb,
    Cpb,
}

pub fn parse_one_size(text: &str) -> Result<usize, String> {
    match parse_size_list(text).map_err(|e| e.to_string())?.as_slice() {
        [one] => Ok(*one),
        _ => Err(format!("'{text}' is not one size; give e.g. 65536, 64k or 4m")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_accept_units_and_reject_nonsense() {
        assert_eq!(parse_seconds("0.5").unwrap(), 0.5);
        assert_eq!(parse_seconds("250ms").unwrap(), 0.25);
        assert_eq!(parse_seconds("2s").unwrap(), 2.0);
        for bad in ["", "abc", "-1", "0", "NaN", "inf", "1e9", "5 minutes"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }
}

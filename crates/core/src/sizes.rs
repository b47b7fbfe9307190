//! Message sizes: the defaults of `openssl speed` and parsing of user lists.

/// `openssl speed`'s sizes (apps/speed.c `lengths_list`), so figures line up with its output.
pub const DEFAULT_SIZES: &[usize] = &[16, 64, 256, 1024, 8192, 16384];

/// "16 B", "1 KiB", "1000 B": how sizes head the columns.
pub fn size_label(size: usize) -> String {
    if size >= 1024 && size.is_multiple_of(1024 * 1024) {
        format!("{} MiB", size / (1024 * 1024))
    } else if size >= 1024 && size.is_multiple_of(1024) {
        format!("{} KiB", size / 1024)
    } else {
        format!("{size} B")
    }
}

/// Largest message accepted: large enough for any cache study, small enough to allocate.
pub const MAX_SIZE: usize = 256 * 1024 * 1024;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SizeError {
    #[error("'{0}' is not a size: give a whole number of bytes, optionally with k/KiB (1024) or m/MiB (1048576), e.g. 16,1024,16k")]
    NotANumber(String),
    #[error("size 0 measures nothing: give a size of at least 1 byte")]
    Zero,
    #[error("size '{0}' is larger than the maximum of 256 MiB")]
    TooLarge(String),
    #[error("no sizes given: list at least one, e.g. --sizes 16,1024,16384")]
    Empty,
}

/// Parses one size: `16`, `1024`, `16k`, `16KiB`, `1m`, `1MiB`.
pub fn parse_size(text: &str) -> Result<usize, SizeError> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let (digits, factor) = if let Some(d) = lower.strip_suffix("kib").or_else(|| lower.strip_suffix('k')) {
        (d, 1024)
    } else if let Some(d) = lower.strip_suffix("mib").or_else(|| lower.strip_suffix('m')) {
        (d, 1024 * 1024)
    } else {
        (lower.as_str(), 1)
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SizeError::NotANumber(t.to_string()));
    }
    let n: usize = digits.parse().map_err(|_| SizeError::TooLarge(t.to_string()))?;
    let size = n.checked_mul(factor).ok_or_else(|| SizeError::TooLarge(t.to_string()))?;
    match size {
        0 => Err(SizeError::Zero),
        s if s > MAX_SIZE => Err(SizeError::TooLarge(t.to_string())),
        s => Ok(s),
    }
}

/// Parses a comma separated list, keeping the user's order and dropping repeats.
pub fn parse_size_list(text: &str) -> Result<Vec<usize>, SizeError> {
    let mut sizes = Vec::new();
    for part in text.split(',').filter(|p| !p.trim().is_empty()) {
        let size = parse_size(part)?;
        if !sizes.contains(&size) {
            sizes.push(size);
        }
    }
    if sizes.is_empty() {
        return Err(SizeError::Empty);
    }
    Ok(sizes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_plain_and_suffixed_sizes() {
        assert_eq!(parse_size_list("16,1024, 16k,1MiB").unwrap(), vec![16, 1024, 16384, 1 << 20]);
        assert_eq!(parse_size_list("64,64").unwrap(), vec![64]);
    }

    #[test]
    fn rejects_nonsense() {
        assert_eq!(parse_size("0"), Err(SizeError::Zero));
        assert!(matches!(parse_size("-16"), Err(SizeError::NotANumber(_))));
        assert!(matches!(parse_size("abc"), Err(SizeError::NotANumber(_))));
        assert!(matches!(parse_size("1.5k"), Err(SizeError::NotANumber(_))));
        assert!(matches!(parse_size("99999999999999999999999"), Err(SizeError::TooLarge(_))));
        assert!(matches!(parse_size("1024m"), Err(SizeError::TooLarge(_))));
        assert_eq!(parse_size_list(" , "), Err(SizeError::Empty));
    }
}

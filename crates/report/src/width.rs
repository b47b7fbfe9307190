//! The width of what cryptobench prints for a terminal: no line wider than
//! [`TERMINAL`] columns by default (`run`, `backends`, `algorithms`,
//! `verify`). A line that is too long is wrapped where its words allow, or
//! cut with "…" where `--verbose` (or JSON) has the whole text.

/// The widest line printed by default, in columns (characters; every
/// character cryptobench prints is one column wide: "—", "±", "µ", "×").
pub const TERMINAL: usize = 160;

/// How many columns `text` takes.
pub fn columns(text: &str) -> usize {
    text.chars().count()
}

/// How far back from the width a cut looks for a space, so as not to cut a word.
const WORD: usize = 24;

/// `line` cut to `width` columns at a space where one is near (else mid-word), the cut marked with "…".
pub fn truncate(line: &str, width: usize) -> String {
    if columns(line) <= width {
        return line.to_string();
    }
    let kept: Vec<char> = line.chars().take(width.saturating_sub(1)).collect();
    let at_space = kept.iter().rposition(|c| *c == ' ').filter(|&i| i + WORD >= kept.len() && i > 0);
    let mut cut: String = kept[..at_space.unwrap_or(kept.len())].iter().collect();
    cut.truncate(cut.trim_end_matches([' ', ',', ';', ':', '(', '—']).len());
    cut.push('…');
    cut
}

/// `line` broken at spaces into lines of at most `width` columns, every
/// line after the first starting with `indent`; a word longer than a whole
/// line (a path, a hex string) is broken where the line ends.
pub fn wrap(line: &str, width: usize, indent: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let room = |out: &Vec<String>| {
        if out.is_empty() {
            width
        } else {
            width.saturating_sub(columns(indent)).max(1)
        }
    };
    for word in line.split(' ') {
        let sep = usize::from(!current.is_empty());
        if columns(&current) + sep + columns(word) <= room(&out) {
            if sep == 1 {
                current.push(' ');
            }
            current.push_str(word);
            continue;
        }
        if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        let mut rest: Vec<char> = word.chars().collect();
        while rest.len() > room(&out) {
            let tail = rest.split_off(room(&out));
            out.push(rest.into_iter().collect());
            rest = tail;
        }
        current = rest.into_iter().collect();
    }
    if !current.is_empty() || out.is_empty() {
        out.push(current);
    }
    out.into_iter()
        .enumerate()
        .map(|(i, l)| if i == 0 { l } else { format!("{indent}{l}") })
        .collect()
}

/// Every line of `text` wrapped to `width` ([`wrap`]), continuation lines
/// indented two columns more than the line they continue.
pub fn wrap_text(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let lead = line.len() - line.trim_start().len();
        let indent = " ".repeat(lead + 2);
        for part in wrap(line, width, &indent) {
            out.push_str(&part);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_line_is_left_alone() {
        assert_eq!(truncate("OpenSSL 3.0.22", 160), "OpenSSL 3.0.22");
        assert_eq!(wrap("OpenSSL 3.0.22", 160, "  "), vec!["OpenSSL 3.0.22".to_string()]);
    }

    #[test]
    fn a_long_line_is_cut_with_a_mark_within_the_width() {
        let cut = truncate(&"abcdefghij".repeat(10), 20);
        assert_eq!(columns(&cut), 20, "{cut}");
        assert!(cut.ends_with('…'));
        // At a space where one is near, not inside a word.
        assert_eq!(
            truncate("a quieter machine (and more --time) tightens", 30),
            "a quieter machine (and more…"
        );
        // Multi-byte characters count once each.
        assert_eq!(columns(&truncate(&"±µ×—".repeat(50), 30)), 30);
    }

    #[test]
    fn wrapping_keeps_every_word_and_stays_within_the_width() {
        let line = format!("{} {} end", "word ".repeat(60).trim_end(), "0123456789".repeat(8));
        let lines = wrap(&line, 40, "    ");
        assert!(lines.iter().all(|l| columns(l) <= 40), "{lines:#?}");
        assert!(lines[1..].iter().all(|l| l.starts_with("    ")));
        let joined: String = lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
        assert_eq!(joined.replace(' ', ""), line.replace(' ', ""));
    }
}

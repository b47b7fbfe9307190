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

/// `line` broken at spaces into lines of at most `width` columns, the first
/// keeping the line's own indentation, every later one starting with
/// `indent`; a word longer than a whole line (a path, a hex string) is
/// broken where the line ends. A line that fits is returned as it is.
pub fn wrap(line: &str, width: usize, indent: &str) -> Vec<String> {
    if columns(line) <= width {
        return vec![line.to_string()];
    }
    let body = line.trim_start_matches(' ');
    let lead = &line[..line.len() - body.len()];
    let prefix = |first: bool| if first { lead } else { indent };
    let room = |first: bool| width.saturating_sub(columns(prefix(first))).max(1);
    let mut out: Vec<String> = Vec::new();
    // The words of the line being filled, without its prefix.
    let mut current = String::new();
    for word in body.split(' ').filter(|w| !w.is_empty()) {
        let needed = if current.is_empty() {
            columns(word)
        } else {
            columns(&current) + 1 + columns(word)
        };
        if needed <= room(out.is_empty()) {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
            continue;
        }
        if !current.is_empty() {
            out.push(format!("{}{current}", prefix(out.is_empty())));
            current.clear();
        }
        let mut rest: Vec<char> = word.chars().collect();
        while rest.len() > room(out.is_empty()) {
            let tail = rest.split_off(room(out.is_empty()));
            out.push(format!("{}{}", prefix(out.is_empty()), rest.iter().collect::<String>()));
            rest = tail;
        }
        current = rest.into_iter().collect();
    }
    if !current.is_empty() || out.is_empty() {
        out.push(format!("{}{current}", prefix(out.is_empty())));
    }
    out
}

/// Every line of `text` wrapped to `width` ([`wrap`]), continuation lines
/// indented two columns more than the line they continue; blank lines and
/// the line ends kept.
pub fn wrap_text(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.split('\n') {
        let lead = line.len() - line.trim_start().len();
        let indent = " ".repeat(lead + 2);
        for part in wrap(line, width, &indent) {
            out.push_str(&part);
            out.push('\n');
        }
    }
    // As many line ends as `text` had: split gave one line more than it ends.
    out.pop();
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
        // The line's own indentation stays; blank lines and line ends too.
        let indented = format!("    {line}");
        assert!(wrap(&indented, 40, "      ")[0].starts_with("    word"));
        let text = format!("a\n\n{line}\n");
        let wrapped = wrap_text(&text, 40);
        assert!(wrapped.starts_with("a\n\nword") && wrapped.ends_with("end\n"), "{wrapped}");
    }
}

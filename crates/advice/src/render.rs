//! The advice as terminal text and as Markdown (HTML: crates/report).

use crate::Advice;

/// Plain text, one block per algorithm (and public-key operation).
pub fn text(advice: &Advice) -> String {
    let mut s = format!("Core: {}\n", advice.core);
    if let Some(why) = &advice.withheld {
        s.push_str(&format!("No advice: {why}.\n"));
    }
    for a in &advice.algorithms {
        s.push_str(&format!("\n{}\n", a.title()));
        match &a.best {
            Some(b) => s.push_str(&format!("  best here: {b}\n")),
            None => s.push_str("  nothing measured without a mask or an emulator\n"),
        }
        if advice.withheld.is_none() && a.best.is_some() && a.sentences.is_empty() {
            s.push_str(
                "  no advice: nothing measured here is faster beyond the noise, and no published figure for this core to hold it against (no advice is better than invented advice)\n",
            );
        }
        for x in &a.sentences {
            s.push_str(&format!("  - {}\n      ({})\n", x.text, x.backing));
        }
    }
    s
}

/// Markdown: a heading, the core, one list per algorithm.
pub fn markdown(advice: &Advice) -> String {
    let mut s = format!("## Advice\n\nCore: {}\n", advice.core);
    if let Some(why) = &advice.withheld {
        s.push_str(&format!("\nNo advice: {why}.\n"));
        return s;
    }
    for a in advice.algorithms.iter().filter(|a| a.best.is_some()) {
        s.push_str(&format!(
            "\n**{}** — best here: {}\n\n",
            a.title(),
            a.best.as_deref().unwrap_or_default()
        ));
        if a.sentences.is_empty() {
            s.push_str("- no advice: nothing faster beyond the noise, no published figure for this core\n");
        }
        for x in &a.sentences {
            s.push_str(&format!("- {} _({})_\n", x.text, x.backing));
        }
    }
    s
}

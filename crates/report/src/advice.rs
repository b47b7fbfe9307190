//! The "Advice" section that opens a report when a run has enough for it
//! (crates/advice: a faster library measured here, the distance from the
//! best known for the core, a build that looks wrong), in Markdown and HTML.

use cryptobench_advice::{advise, Advice};
use cryptobench_core::result::RunResult;

use crate::escape::escape;

/// The advice of each run that has some, with the run's name.
fn advised(runs: &[(String, &RunResult)]) -> Vec<(String, Advice)> {
    runs.iter()
        .map(|(name, run)| (name.clone(), advise(run, None)))
        .filter(|(_, a)| a.has_content())
        .collect()
}

/// Markdown, empty when no run has advice.
pub fn markdown(runs: &[(String, &RunResult)]) -> String {
    let advised = advised(runs);
    let several = advised.len() > 1;
    let mut out = String::new();
    for (name, advice) in advised {
        let mut text = cryptobench_advice::render::markdown(&advice);
        if several {
            text = text.replacen("## Advice", &format!("## Advice: {name}"), 1);
        }
        out.push_str(&text);
        out.push('\n');
    }
    out
}

/// HTML, empty when no run has advice.
pub fn html(runs: &[(String, &RunResult)]) -> String {
    let advised = advised(runs);
    let several = advised.len() > 1;
    let mut out = String::new();
    for (name, advice) in advised {
        let title = if several { format!("Advice: {name}") } else { "Advice".into() };
        out.push_str(&format!("<section id=\"advice\"><h2>{}</h2>\n", escape(&title)));
        out.push_str(&format!("<p>Core: {}</p>\n", escape(&advice.core)));

        // Only what has advice, so that the answer below still starts on the first screen.
        for a in advice.algorithms.iter().filter(|a| a.best.is_some() && !a.sentences.is_empty()) {
            out.push_str(&format!(
                "<p><b>{}</b>: best here {}</p>\n<ul>\n",
                escape(&a.title()),
                escape(a.best.as_deref().unwrap_or_default())
            ));
            for s in &a.sentences {
                out.push_str(&format!("<li>{} <small>({})</small></li>\n", escape(&s.text), escape(&s.backing)));
            }
            out.push_str("</ul>\n");
        }
        let quiet: Vec<String> = advice
            .algorithms
            .iter()
            .filter(|a| a.best.is_some() && a.sentences.is_empty())
            .map(|a| a.title())
            .collect();
        if !quiet.is_empty() {
            out.push_str(&format!(
                "<p>No advice for {}: nothing faster beyond the noise, no published figure for this core.</p>\n",
                escape(&quiet.join(", "))
            ));
        }
        out.push_str("</section>\n");
    }
    out
}

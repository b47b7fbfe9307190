//! `cryptobench report --format markdown`: the answer first (an audit's
//! verdicts, a comparison's fastest configuration per algorithm, one
//! configuration's headline figures), then every run's tables, the
//! comparison cell by cell and the on/off factors; configurations named by
//! their labels, as in the HTML report and the terminal.

use cryptobench_core::result::RunResult;
use cryptobench_core::units::Unit;

use crate::factors::factors;
use crate::grid::NOISY_MARK;
use crate::labels::Labels;
use crate::shape::{self, Shape};
use crate::winners::{Lead, Standing};
use crate::{size_label, verdicts, winners};

/// A Markdown table cell: pipes escaped.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut s = format!("| {} |\n", header.iter().map(|h| cell(h)).collect::<Vec<_>>().join(" | "));
    s.push_str(&format!("|{}\n", header.iter().map(|_| "---|").collect::<String>()));
    for r in rows {
        s.push_str(&format!("| {} |\n", r.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | ")));
    }
    s
}

pub fn render(runs: &[(String, RunResult)], unit: Unit, detail: crate::Detail) -> String {
    let named: Vec<(String, &RunResult)> = runs.iter().map(|(n, r)| (n.clone(), r)).collect();
    let labels = Labels::for_runs(&named);
    let shape = Shape::of(&named);
    let rate = if unit == Unit::Cpb { Unit::Mb } else { unit };
    let mut out = format!("# {}\n\n", shape::title(shape, &named, &labels));
    for line in shape::subtitle(&named) {
        out.push_str(&format!("- {line}\n"));
    }
    out.push('\n');
    out.push_str(&crate::advice::markdown(&named));
    out.push_str(&match shape {
        Shape::Audit => audit(&runs[0].1, &labels),
        Shape::Comparison => comparison(&named, &labels, rate),
        Shape::Single => single(&named, &labels, rate),
    });
    for (name, run) in runs {
        out.push_str(&format!("## {}\n\n", run.label.as_deref().unwrap_or(name)));
        out.push_str(&crate::markdown::render(run, unit, detail));
        out.push('\n');
    }
    let c = crate::compare::labelled(&named);
    if c.series.len() > 1 && !c.rows.is_empty() {
        out.push_str("## Cell by cell\n\n");
        out.push_str(&crate::compare::render(&c, unit, true));
        out.push('\n');
    }
    out.push_str("## Capability masks: on/off factors\n\n");
    let mut rows = Vec::new();
    for (pos, (_, run)) in named.iter().enumerate() {
        for f in factors(run) {
            rows.push(vec![
                format!("{} {} {}", f.algorithm, f.operation, f.mode),
                size_label(f.size),
                labels.get(pos, f.base).to_string(),
                labels.get(pos, f.masked).to_string(),
                format!("`{}`", f.mask),
                unit.format(f.on),
                unit.format(f.off),
                f.label(),
            ]);
        }
    }
    if rows.is_empty() {
        out.push_str("No configuration in these runs was measured with a capability mask, so there are no on/off factors.\n");
    } else {
        out.push_str("factor = median without the mask / median with it; * = beyond the noise, ? = too few samples to tell.\n\n");
        let header: Vec<String> = ["cell", "size", "without the mask", "with the mask", "mask", "on", "off", "factor"]
            .iter()
            .map(|h| h.to_string())
            .collect();
        out.push_str(&table(&header, &rows));
    }
    out
}

fn audit(run: &RunResult, labels: &Labels) -> String {
    let rows = verdicts::rows(run, 0, labels);
    let Some(first) = rows.first() else {
        return "The audit has no verdict.\n\n".into();
    };
    let several = run.audit.as_ref().is_some_and(|a| a.libraries.len() > 1);
    let mut out = String::from("## Is the hardware acceleration used?\n\n");
    for lib in run.audit.iter().flat_map(|a| &a.libraries) {
        for m in &lib.mismatches {
            out.push_str(&format!("- **warning** ({}): {}\n", labels.get(0, lib.base_index), m.message));
        }
    }
    let mut header = Vec::new();
    if several {
        header.push("library".to_string());
    }
    header.extend([
        "algorithm".to_string(),
        "switched off".to_string(),
        format!("× at {}", size_label(first.large_size)),
        format!("× at {}", size_label(first.small_size)),
        "verdict".to_string(),
    ]);
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut row = Vec::new();
            if several {
                row.push(r.library.clone());
            }
            row.extend([
                r.algorithm.to_string(),
                format!("{} ({})", r.switched_off, r.features),
                r.factor_large.clone(),
                r.factor_small.clone(),
                r.kind.short().to_string(),
            ]);
            row
        })
        .collect();
    out.push_str(&table(&header, &body));
    out.push_str(&format!(
        "\n× = throughput with everything on ÷ with the family switched off; {NOISY_MARK} = a noisy figure behind it.\n\n"
    ));
    for r in &rows {
        out.push_str(&format!("- {} [{}]: {}\n", r.algorithm, r.switched_off, r.verdict.text));
    }
    out.push('\n');
    out
}

fn standing(row: &winners::WinnerRow, st: Option<&Standing>, unit: Unit) -> [String; 2] {
    let Some(st) = st else {
        return ["-".into(), "-".into()];
    };
    let f = st.fastest();
    let mark = |noisy: bool| if noisy { NOISY_MARK } else { "" };
    let untested = |sep: &str| {
        if st.untested.is_empty() {
            String::new()
        } else {
            format!("{sep}cannot tell against {}", st.untested.join(", "))
        }
    };
    let lead = match st.lead {
        Lead::Clear => String::new(),
        Lead::Tie => format!(" (tie with {}{})", st.tied.join(", "), untested("; ")),
        Lead::Untested => format!(" ({})", untested("")),
        Lead::Alone => " (only one measured)".into(),
    };
    let fastest = format!("{}: {}{}{lead}", f.label, row.figure(f, unit), mark(f.noisy));
    let spread = if st.ranking.len() < 2 {
        "-".into()
    } else {
        let s = st.slowest();
        format!(
            "{:.2}× (slowest: {} {}{})",
            st.spread(),
            s.label,
            row.figure(s, unit),
            mark(s.noisy)
        )
    };
    [fastest, spread]
}

fn comparison(runs: &[(String, &RunResult)], labels: &Labels, unit: Unit) -> String {
    let rows = winners::rows(runs, labels);
    if rows.is_empty() {
        return String::new();
    }
    // Public-key rows (operations per second) stand in the first columns: one figure per operation.
    let (large, small) = match winners::sizes(&rows) {
        Some((l, s)) => (format!(" at {} ({})", size_label(l), unit.label()), s),
        None => (" (op/s)".to_string(), None),
    };
    let mut header = vec!["algorithm".to_string(), format!("fastest{large}"), "spread".to_string()];
    if let Some(small) = small {
        header.extend([format!("fastest at {} ({})", size_label(small), unit.label()), "spread".to_string()]);
    }
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut row = vec![r.name()];
            row.extend(standing(r, r.large.as_ref(), unit));
            if small.is_some() {
                row.extend(standing(r, r.small.as_ref(), unit));
            }
            row
        })
        .collect();
    let mut out = String::from("## Which is fastest?\n\n");
    out.push_str(&table(&header, &body));
    out.push_str(&format!(
        "\ntie = shown within ±2% of one or more others; cannot tell = neither that nor {}; spread = fastest ÷ slowest; public key: operations per second \
         (op/s), one figure per operation; {NOISY_MARK} = a noisy figure.\n\n",
        cryptobench_core::decision::IN_WORDS
    ));
    out
}

fn single(runs: &[(String, &RunResult)], labels: &Labels, unit: Unit) -> String {
    let mut out = String::from("## Headline figures\n\n");
    for c in &runs[0].1.configurations {
        let rows = crate::headline::rows(c);
        out.push_str(&format!("{}\n\n", labels.get(0, c.index)));
        if rows.is_empty() {
            out.push_str(&format!("nothing measured ({})\n\n", crate::environment::status_text(c)));
            continue;
        }
        let header: Vec<String> = [
            "algorithm".to_string(),
            "size".to_string(),
            unit.label().to_string(),
            "cycles/byte".to_string(),
            "per call".to_string(),
        ]
        .to_vec();
        let mut body = Vec::new();
        for r in &rows {
            for f in [&r.small, &r.large].into_iter().flatten() {
                body.push(vec![
                    format!("{} {} {}", r.algorithm, r.operation, r.mode),
                    size_label(f.size),
                    format!("{}{}", unit.format(f.median), if f.noisy { NOISY_MARK } else { "" }),
                    f.cycles_per_byte.map(Unit::format_cpb).unwrap_or_else(|| "-".into()),
                    r.fit.map(|o| format!("{:.0} ns", o.per_call_ns)).unwrap_or_else(|| "-".into()),
                ]);
            }
        }
        out.push_str(&table(&header, &body));
        out.push('\n');
    }
    out
}

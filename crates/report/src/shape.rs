//! What a report is about, which decides how it answers: an audit, a
//! comparison of several configurations, or one configuration; and the
//! title and the lines under it that every report format starts with.

use cryptobench_core::result::RunResult;

use crate::environment::host_line;
use crate::labels::Labels;

/// What a report is about, which decides its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One run of `cryptobench audit`: verdicts and factors first.
    Audit,
    /// Several configurations (libraries, builds, runs): the winner per algorithm and the spread.
    Comparison,
    /// One configuration: its headline figures.
    Single,
}

impl Shape {
    pub fn of(runs: &[(String, &RunResult)]) -> Shape {
        let configurations: usize = runs.iter().map(|(_, r)| r.configurations.len()).sum();
        match runs {
            [(_, run)] if run.audit.is_some() => Shape::Audit,
            _ if configurations > 1 => Shape::Comparison,
            _ => Shape::Single,
        }
    }
}

pub fn title(shape: Shape, runs: &[(String, &RunResult)], labels: &Labels) -> String {
    match shape {
        Shape::Audit => {
            let run = runs[0].1;
            let libraries: Vec<&str> = run
                .audit
                .iter()
                .flat_map(|a| &a.libraries)
                .map(|l| labels.get(0, l.base_index))
                .collect();
            format!("Acceleration audit of {}", libraries.join(", "))
        }
        Shape::Comparison if runs.len() > 1 => format!(
            "Comparison of {} runs: {}",
            runs.len(),
            runs.iter()
                .map(|(n, r)| r.label.clone().unwrap_or_else(|| n.clone()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Shape::Comparison => format!(
            "Comparison of {} configurations on {}",
            labels.all().count(),
            runs[0].1.host.cpu_model.as_deref().unwrap_or("an unknown CPU")
        ),
        Shape::Single => format!(
            "{} on {}",
            labels.all().next().unwrap_or("?"),
            runs[0].1.host.cpu_model.as_deref().unwrap_or("an unknown CPU")
        ),
    }
}

/// Where and when: one line per distinct host, one for the run(s).
pub fn subtitle(runs: &[(String, &RunResult)]) -> Vec<String> {
    let mut hosts: Vec<String> = Vec::new();
    for (_, r) in runs {
        let h = host_line(r);
        if !hosts.contains(&h) {
            hosts.push(h);
        }
    }
    let when: Vec<String> = runs
        .iter()
        .map(|(n, r)| {
            let date = r
                .started_at
                .replace('T', " ")
                .trim_end_matches('Z')
                .chars()
                .take(16)
                .collect::<String>();
            if runs.len() > 1 {
                format!("{} ({date} UTC)", r.label.clone().unwrap_or_else(|| n.clone()))
            } else {
                format!("measured {date} UTC")
            }
        })
        .collect();
    let mut lines: Vec<String> = hosts.into_iter().map(|h| format!("host: {h}")).collect();
    lines.push(format!("{}{}", if runs.len() > 1 { "runs: " } else { "" }, when.join("; ")));
    lines
}

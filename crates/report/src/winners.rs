//! The answer of a comparison of libraries, builds or runs: per algorithm
//! and operation, public key included, at the largest and the smallest
//! size (a public-key operation: at the length it signs, or once), which
//! configuration is fastest,
//! whether its lead over every other is beyond the noise (the project's one
//! rule, cryptobench_core::decision: dependence-aware intervals apart and
//! more than 1% apart), and the spread from the slowest to the fastest.
//!
//! The lead is judged against every other contender, not the runner-up
//! alone: a slower contender whose interval is wide may still overlap the
//! fastest, and then the fastest is not clearly ahead of it.

use cryptobench_core::decision::{decide, Decision};
use cryptobench_core::result::{CellOutcome, RunResult};
use cryptobench_core::stats::Summary;
use cryptobench_core::units::{format_ops, Unit};

use crate::labels::Labels;

/// Where 16 KiB and 16 B are measured, the sizes the answer is given at.
pub const LARGE: usize = 16384;
pub const SMALL: usize = 16;

/// One configuration's figure for a cell.
#[derive(Debug, Clone)]
pub struct Contender {
    /// Position in the report (colour, marker).
    pub style: usize,
    pub label: String,
    pub median: f64,
    pub noisy: bool,
    summary: Summary,
}

/// How sure the lead is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lead {
    /// Beyond the noise against every other contender.
    Clear,
    /// Within the noise of one or more others (named in `tied`).
    Tie,
    /// Within the noise of none, but too few samples to test one or more
    /// others (named in `untested`; e.g. imported figures).
    Untested,
    /// Only one configuration measured this cell.
    Alone,
}

#[derive(Debug, Clone)]
pub struct Standing {
    pub size: usize,
    /// Fastest first.
    pub ranking: Vec<Contender>,
    pub lead: Lead,
    /// Others within the noise of the fastest.
    pub tied: Vec<String>,
    /// Others with too few samples to be tested against the fastest.
    pub untested: Vec<String>,
}

impl Standing {
    pub fn fastest(&self) -> &Contender {
        &self.ranking[0]
    }

    pub fn slowest(&self) -> &Contender {
        self.ranking.last().expect("a standing has a contender")
    }

    /// Fastest over slowest median.
    pub fn spread(&self) -> f64 {
        self.fastest().median / self.slowest().median
    }
}

pub struct WinnerRow {
    pub algorithm: String,
    pub operation: &'static str,
    pub mode: String,
    /// A public-key operation: figures in operations per second, not bytes.
    pub public_key: bool,
    pub large: Option<Standing>,
    pub small: Option<Standing>,
}

type Key = (String, &'static str, String);

impl WinnerRow {
    /// "aes-128-gcm enc message", "sha256" (a digest has one operation and mode), "rsa2048 sign".
    pub fn name(&self) -> String {
        if self.operation == "hash" {
            self.algorithm.clone()
        } else if self.public_key {
            format!("{} {}", self.algorithm, self.operation)
        } else {
            format!("{} {} {}", self.algorithm, self.operation, self.mode)
        }
    }

    /// A contender's figure in its unit: `unit` for bytes, operations per second for public key.
    pub fn figure(&self, c: &Contender, unit: Unit) -> String {
        if self.public_key {
            format!("{} op/s", format_ops(c.median))
        } else {
            unit.format(c.median)
        }
    }
}

/// The largest and smallest size the symmetric rows are answered at (the
/// first row's), for headers; None where every row is public key.
pub fn sizes(rows: &[WinnerRow]) -> Option<(usize, Option<usize>)> {
    rows.iter()
        .filter(|r| !r.public_key)
        .find_map(|r| Some((r.large.as_ref()?.size, r.small.as_ref().map(|s| s.size))))
}

/// Per algorithm, operation and mode of the runs: the standings at the largest and smallest size.
pub fn rows(runs: &[(String, &RunResult)], labels: &Labels) -> Vec<WinnerRow> {
    let mut keys: Vec<(Key, bool)> = Vec::new();
    for (_, run) in runs {
        for c in &run.configurations {
            for x in &c.cells {
                let k = (x.spec.algorithm.clone(), x.spec.operation.short(), x.spec.mode_label());
                if !keys.iter().any(|(known, _)| *known == k) {
                    keys.push((k, x.spec.is_public_key()));
                }
            }
        }
    }
    keys.into_iter()
        .filter_map(|(key, public_key)| {
            let sizes: Vec<usize> = measured_sizes(runs, &key);
            let large = if sizes.contains(&LARGE) { LARGE } else { *sizes.iter().max()? };
            let small = if sizes.contains(&SMALL) { SMALL } else { *sizes.iter().min()? };
            Some(WinnerRow {
                large: standing(runs, labels, &key, large),
                small: (small != large).then(|| standing(runs, labels, &key, small)).flatten(),
                algorithm: key.0,
                operation: key.1,
                mode: key.2,
                public_key,
            })
        })
        .collect()
}

fn measured_sizes(runs: &[(String, &RunResult)], key: &Key) -> Vec<usize> {
    let mut sizes: Vec<usize> = runs
        .iter()
        .flat_map(|(_, r)| r.configurations.iter().flat_map(|c| &c.cells))
        .filter(|x| matches!(x.outcome, CellOutcome::Measured(_)))
        .filter(|x| x.spec.algorithm == key.0 && x.spec.operation.short() == key.1 && x.spec.mode_label() == key.2)
        .map(|x| x.spec.size)
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

fn standing(runs: &[(String, &RunResult)], labels: &Labels, key: &Key, size: usize) -> Option<Standing> {
    let mut ranking: Vec<Contender> = Vec::new();
    for (pos, (_, run)) in runs.iter().enumerate() {
        for c in &run.configurations {
            let found = c.cells.iter().find_map(|x| match &x.outcome {
                CellOutcome::Measured(m)
                    if x.spec.size == size
                        && x.spec.algorithm == key.0
                        && x.spec.operation.short() == key.1
                        && x.spec.mode_label() == key.2 =>
                {
                    Some(m)
                }
                _ => None,
            });
            if let Some(m) = found {
                ranking.push(Contender {
                    style: labels.position(pos, c.index),
                    label: labels.get(pos, c.index).to_string(),
                    median: m.summary.median,
                    noisy: m.is_noisy(),
                    summary: m.summary,
                });
            }
        }
    }
    if ranking.is_empty() {
        return None;
    }
    ranking.sort_by(|a, b| b.median.total_cmp(&a.median));
    let (lead, tied, untested) = judge_lead(&ranking);
    Some(Standing {
        size,
        ranking,
        lead,
        tied,
        untested,
    })
}

/// The fastest (`ranking[0]`) against every other by the one rule: clear
/// only when every other is decided different; a tie when any is within
/// the noise; untested when none is within the noise but some could not
/// be decided. Returns the lead, the tied and the untested labels.
fn judge_lead(ranking: &[Contender]) -> (Lead, Vec<String>, Vec<String>) {
    let Some((first, others)) = ranking.split_first() else {
        return (Lead::Alone, Vec::new(), Vec::new());
    };
    let named = |wanted: Decision| -> Vec<String> {
        others
            .iter()
            .filter(|c| decide(&first.summary, &c.summary) == wanted)
            .map(|c| c.label.clone())
            .collect()
    };
    let (tied, untested) = (named(Decision::Same), named(Decision::Undecided));
    let lead = if others.is_empty() {
        Lead::Alone
    } else if !tied.is_empty() {
        Lead::Tie
    } else if !untested.is_empty() {
        Lead::Untested
    } else {
        Lead::Clear
    };
    (lead, tied, untested)
}

//! The warnings of the cells under a table, for a person to read: by
//! default one line per kind of warning, with how many cells have it, the
//! range of what it measures and the worst cases ("12 of 66 cells
//! imprecise (±1.1–3.4%, target ±1.0%), worst md5 16 B ±3.4%; `--time 3.5`
//! tightens"); with [`Detail::EveryCell`] (`--verbose`) one line per cell.
//! The JSON output keeps every warning of every cell as it was recorded.

use cryptobench_core::result::{CellOutcome, RunResult, RunSettings};

/// Appended to a figure that comes with a warning.
pub const NOISY_MARK: &str = "~";

/// How many warning lines a table gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Detail {
    /// One line per kind of warning.
    #[default]
    Summary,
    /// One line per flagged cell, with all its warnings (`--verbose`).
    EveryCell,
}

/// A cell shown with the noise mark: where it is in the tables and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Flagged {
    /// "md5 hash message 16 B (OpenSSL 3.0.19)".
    pub place: String,
    pub warnings: Vec<String>,
}

/// Worst cases named per kind.
const WORST: usize = 2;

/// The longest time per cell suggested to tighten imprecise cells: beyond
/// it, a default suite would take many minutes.
const MOST_SECONDS: f64 = 10.0;

/// The lines under a run's tables for its flagged cells.
pub fn lines(run: &RunResult, flagged: &[Flagged], detail: Detail) -> Vec<String> {
    if detail == Detail::EveryCell {
        return flagged
            .iter()
            .map(|f| format!("{NOISY_MARK} {}: {}", f.place, f.warnings.join("; ")))
            .collect();
    }
    let mut out = summary(run, flagged, None);
    if flagged.len() > 1 {
        out.push(format!(
            "({} flagged cells: `--verbose` lists each with its warnings; `--format json` keeps every warning)",
            flagged.len()
        ));
    }
    out
}

/// One line per kind of warning, naming the [`WORST`] cases; within
/// `width` columns where given, a line that would be wider names only the
/// worst case, and is wrapped where that is still too wide.
pub fn summary(run: &RunResult, flagged: &[Flagged], width: Option<usize>) -> Vec<String> {
    let measured = run
        .configurations
        .iter()
        .flat_map(|c| &c.cells)
        .filter(|x| matches!(x.outcome, CellOutcome::Measured(_)))
        .count();
    let mut kinds: Vec<(Kind, Vec<(&str, &str)>)> = Vec::new();
    for f in flagged {
        for w in &f.warnings {
            let kind = Kind::of(w);
            match kinds.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, cases)) => cases.push((f.place.as_str(), w.as_str())),
                None => kinds.push((kind, vec![(f.place.as_str(), w.as_str())])),
            }
        }
    }
    let mut out = Vec::new();
    for (kind, cases) in &kinds {
        let mut texts: Vec<&str> = Vec::new();
        for (_, w) in cases {
            if !texts.contains(w) {
                texts.push(w);
            }
        }
        // A kind of few wordings (an import's caveats) keeps each wording whole.
        let groups: Vec<Vec<(&str, &str)>> = if matches!(kind, Kind::Other(_)) && texts.len() <= WORST + 1 {
            texts
                .iter()
                .map(|t| cases.iter().filter(|c| c.1 == *t).copied().collect())
                .collect()
        } else {
            vec![cases.clone()]
        };
        for group in groups {
            let line = format!("{NOISY_MARK} {}", kind.line(&group, measured, &run.settings, WORST));
            match width.filter(|w| crate::width::columns(&line) > *w) {
                None => out.push(line),
                Some(w) => {
                    let line = format!("{NOISY_MARK} {}", kind.line(&group, measured, &run.settings, 1));
                    out.extend(crate::width::wrap(&line, w, "  "));
                }
            }
        }
    }
    out
}

/// What a warning is about, read from the words the measurement wrote
/// (crates/harness/src/measure.rs): a kind it knows, or the words before
/// its first colon.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// "imprecise: the nominal 95% CI of the median is ±3.4% after 20 samples …",
    /// or "imprecise: a repeat run's figure would fall within ±3.4% …" (replicates).
    Imprecise,
    /// "only 4 samples fit in the cell budget; raise --time".
    FewSamples,
    /// "shared core: the worker got 61% of the wall time on its CPU; …".
    SharedCore,
    /// "replicates disagree: their medians span 7.3% (…)".
    Disagree,
    Other(String),
}

impl Kind {
    fn of(warning: &str) -> Kind {
        if warning.starts_with("imprecise") {
            Kind::Imprecise
        } else if warning.starts_with("only ") && warning.contains(" samples") {
            Kind::FewSamples
        } else if warning.starts_with("shared core") {
            Kind::SharedCore
        } else if warning.starts_with("replicates disagree") {
            Kind::Disagree
        } else {
            let head = warning.split([':', ';']).next().unwrap_or(warning).trim();
            Kind::Other(head.to_string())
        }
    }

    /// The figure a warning of this kind states, where it states one, and
    /// whether a larger one is worse.
    fn figure(&self, warning: &str) -> Option<(f64, bool)> {
        match self {
            Kind::Imprecise => number_after(warning, "±").map(|v| (v, true)),
            Kind::FewSamples => number_after(warning, "only ").map(|v| (v, false)),
            Kind::SharedCore => number_after(warning, "got ").map(|v| (v, false)),
            Kind::Disagree => number_after(warning, "span ").map(|v| (v, true)),
            Kind::Other(_) => None,
        }
    }

    fn line(&self, cases: &[(&str, &str)], measured: usize, settings: &RunSettings, named: usize) -> String {
        let timing = &settings.timing;
        let count = format!("{} of {measured} cells", distinct_places(cases));
        let mut figured: Vec<(f64, &str, &str)> = cases
            .iter()
            .filter_map(|(place, w)| self.figure(w).map(|(v, _)| (v, *place, *w)))
            .collect();
        let larger_is_worse = cases.iter().find_map(|(_, w)| self.figure(w)).is_some_and(|(_, l)| l);
        figured.sort_by(|a, b| {
            if larger_is_worse {
                b.0.total_cmp(&a.0)
            } else {
                a.0.total_cmp(&b.0)
            }
        });
        let range = || {
            let lo = figured.iter().map(|f| f.0).fold(f64::INFINITY, f64::min);
            let hi = figured.iter().map(|f| f.0).fold(f64::NEG_INFINITY, f64::max);
            (lo, hi)
        };
        let worst = |fmt: &dyn Fn(f64) -> String| {
            figured
                .iter()
                .take(named)
                .map(|(v, place, _)| format!("{place} {}", fmt(*v)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        // The measurement's own advice: what follows its last semicolon.
        let advice = |w: &str| w.rsplit_once("; ").map(|(_, a)| a.to_string());
        match self {
            Kind::Imprecise if !figured.is_empty() => {
                let (lo, hi) = range();
                let target = number_after(figured[0].2, "target ±").unwrap_or(timing.target_relative_ci * 100.0);
                format!(
                    "{count} imprecise ({}, target ±{target:.1}%), worst {}; {}",
                    span(lo, hi, "±", "%", 1),
                    worst(&|v| format!("±{v:.1}%")),
                    tighter(hi, target, settings)
                )
            }
            Kind::Disagree if !figured.is_empty() => {
                let (lo, hi) = range();
                format!(
                    "{count} whose replicates disagree (their medians span {}), worst {}: the machine changed between them \
                     (a neighbour, the memory layout); rerun or quiet the machine",
                    span(lo, hi, "", "%", 1),
                    worst(&|v| format!("{v:.1}%"))
                )
            }
            Kind::FewSamples if !figured.is_empty() => {
                let (lo, hi) = range();
                format!(
                    "{count} with only {} samples, fewest {}; {}",
                    span(lo, hi, "", "", 0),
                    worst(&|v| format!("({v:.0})")),
                    advice(figured[0].2).unwrap_or_else(|| "raise --time".into())
                )
            }
            Kind::SharedCore if !figured.is_empty() => {
                let (lo, hi) = range();
                format!(
                    "{count} on a shared core (the worker got {} of the wall time), worst {}; {}",
                    span(lo, hi, "", "%", 0),
                    worst(&|v| format!("{v:.0}%")),
                    advice(figured[0].2).unwrap_or_else(|| "stop other load or pin with --cpu".into())
                )
            }
            _ => {
                let (place, first) = cases[0];
                if cases.iter().all(|(_, w)| *w == first) {
                    let mut places: Vec<&str> = cases.iter().take(named).map(|c| c.0).collect();
                    places.dedup();
                    let more = distinct_places(cases).saturating_sub(places.len());
                    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                    format!("{count}: {first} — {}{more}", places.join(", "))
                } else {
                    format!("{count}: {}, e.g. {place}: {first}", self.name())
                }
            }
        }
    }

    fn name(&self) -> &str {
        match self {
            Kind::Imprecise => "imprecise",
            Kind::FewSamples => "few samples",
            Kind::SharedCore => "shared core",
            Kind::Disagree => "replicates disagree",
            Kind::Other(head) => head,
        }
    }
}

/// How many cells the cases name (a cell may have two warnings of a kind).
fn distinct_places(cases: &[(&str, &str)]) -> usize {
    let mut places: Vec<&str> = cases.iter().map(|c| c.0).collect();
    places.sort_unstable();
    places.dedup();
    places.len()
}

/// "±1.1–3.4%", or "±3.4%" where all are alike.
fn span(lo: f64, hi: f64, before: &str, after: &str, decimals: usize) -> String {
    let (a, b) = (format!("{lo:.decimals$}"), format!("{hi:.decimals$}"));
    if a == b {
        format!("{before}{a}{after}")
    } else {
        format!("{before}{a}–{b}{after}")
    }
}

/// The first number after `marker` in `text`.
fn number_after(text: &str, marker: &str) -> Option<f64> {
    let rest = &text[text.find(marker)? + marker.len()..];
    let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
    rest[..end].trim_end_matches('.').parse().ok()
}

/// The most replicates suggested to tighten imprecise cells.
const MOST_REPLICATES: usize = 15;

/// What would bring the widest interval to the target. With replicates the
/// interval shrinks about as 1/√replicates (crates/core/src/replicates.rs),
/// so about (widest / target)² times as many; beyond [`MOST_REPLICATES`]
/// the machine, not the count, is what widens it. With one worker's
/// samples the half-width of the median's interval shrinks as
/// 1/√samples, and the samples grow with the time per cell, so about
/// (widest / target)² times the budget; where that is more than
/// [`MOST_SECONDS`] per cell, noise rather than time is what widens it.
fn tighter(widest: f64, target: f64, settings: &RunSettings) -> String {
    if settings.replicates > 1 {
        let wanted = (settings.replicates as f64 * (widest / target).powi(2)).ceil() as usize;
        return if (settings.replicates + 1..=MOST_REPLICATES).contains(&wanted) {
            format!("`--replicates {wanted}` tightens")
        } else {
            "a quieter machine tightens".into()
        };
    }
    let timing = &settings.timing;
    let budget_s = timing.cell_budget_ns as f64 / 1e9;
    let seconds = budget_s * (widest / target).powi(2).max(1.5);
    if budget_s <= 0.0 || !seconds.is_finite() || seconds > MOST_SECONDS {
        return "a quieter machine (and more --time) tightens".into();
    }
    // Rounded up to two significant digits, so that it is enough.
    let scale = 10f64.powf(seconds.log10().floor() - 1.0);
    let rounded = ((seconds / scale) - 1e-9).ceil() * scale;
    format!("`--time {}` tightens", trim_number(rounded))
}

fn trim_number(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(replicates: usize) -> RunSettings {
        RunSettings {
            timing: cryptobench_core::result::TimingSettings {
                sample_target_ns: 10_000_000,
                cell_budget_ns: 300_000_000,
                min_samples: 20,
                target_relative_ci: 0.01,
                warmup_ns: 0,
            },
            sizes: vec![16],
            pinned_cpu: None,
            rounds: 1,
            replicates,
            order_seed: None,
        }
    }

    fn imprecise(pm: f64) -> String {
        format!(
            "imprecise: the 95% CI of the median is ±{pm:.1}% after 28 samples (target ±1.0%); give it more --time or a quieter machine"
        )
    }

    #[test]
    fn one_line_per_kind_with_the_count_the_range_and_the_worst() {
        let flagged = [
            Flagged {
                place: "md5 hash message 16 B".into(),
                warnings: vec![imprecise(3.4)],
            },
            Flagged {
                place: "sha1 hash message 16 B".into(),
                warnings: vec![
                    imprecise(1.1),
                    "shared core: the worker got 61% of the wall time on its CPU; stop other load or pin with --cpu".into(),
                ],
            },
            Flagged {
                place: "sha256 hash message 64 B".into(),
                warnings: vec![imprecise(2.0), "level shift: the figure moved 5% at sample 12".into()],
            },
        ];
        let kinds = [Kind::Imprecise, Kind::SharedCore, Kind::Other("level shift".into())];
        let lines: Vec<String> = kinds
            .iter()
            .map(|k| {
                let cases: Vec<(&str, &str)> = flagged
                    .iter()
                    .flat_map(|f| f.warnings.iter().map(move |w| (f.place.as_str(), w.as_str())))
                    .filter(|(_, w)| Kind::of(w) == *k)
                    .collect();
                k.line(&cases, 66, &settings(1), WORST)
            })
            .collect();
        assert_eq!(
            lines[0],
            "3 of 66 cells imprecise (±1.1–3.4%, target ±1.0%), worst md5 hash message 16 B ±3.4%, \
             sha256 hash message 64 B ±2.0%; `--time 3.5` tightens"
        );
        assert_eq!(
            lines[1],
            "1 of 66 cells on a shared core (the worker got 61% of the wall time), worst sha1 hash message 16 B 61%; \
             stop other load or pin with --cpu"
        );
        assert_eq!(
            lines[2],
            "1 of 66 cells: level shift: the figure moved 5% at sample 12 — sha256 hash message 64 B"
        );
    }

    #[test]
    fn noise_far_beyond_the_target_asks_for_a_quieter_machine() {
        assert_eq!(tighter(34.0, 1.0, &settings(1)), "a quieter machine (and more --time) tightens");
        assert_eq!(tighter(1.2, 1.0, &settings(1)), "`--time 0.45` tightens");
        // With replicates, more of them: 3 × (1.5 / 1)² = 6.75.
        assert_eq!(tighter(1.5, 1.0, &settings(3)), "`--replicates 7` tightens");
        assert_eq!(tighter(5.0, 1.0, &settings(3)), "a quieter machine tightens");
        assert_eq!(number_after("only 7 samples fit", "only "), Some(7.0));
        assert_eq!(span(2.0, 2.04, "±", "%", 1), "±2.0%");
    }
}

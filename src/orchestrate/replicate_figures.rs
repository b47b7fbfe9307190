//! Once a run is measured: each cell's figure and interval from its
//! replicates (crates/core/src/replicates.rs), with the prior of the
//! replicates' spread estimated from all cells of the run that count in the
//! same unit, and the cell's warnings judged on all its replicates.

use cryptobench_core::cell::CellUnit;
use cryptobench_core::replicates::{self, CellReplicates, Combined, Prior};
use cryptobench_core::result::{CellOutcome, Measurement, RunResult, TimingSettings};
use cryptobench_core::stats::{summarize, CONFIDENCE};

/// Replaces every measured cell's summary and warnings by its replicates'
/// (`planned` of them were asked for). With one replicate planned, a cell
/// keeps its worker's own figure, as before replicates, and the record of
/// its one replicate (when it ran, where its buffer lay).
pub fn combine(run: &mut RunResult, planned: usize) {
    let timing = run.settings.timing.clone();
    for unit in [CellUnit::Bytes, CellUnit::Operations] {
        let cells: Vec<CellReplicates> = measurements(run, unit).map(replicates_of).collect();
        let (prior, outlying) = replicates::prior(&cells);
        for ((size, m), outlying) in measurements_mut(run, unit).zip(outlying) {
            figure(m, size, (prior, outlying), planned, &timing);
        }
    }
}

fn measurements(run: &RunResult, unit: CellUnit) -> impl Iterator<Item = &Measurement> {
    run.configurations
        .iter()
        .flat_map(|c| &c.cells)
        .filter(move |x| x.spec.unit == unit)
        .filter_map(|x| match &x.outcome {
            CellOutcome::Measured(m) => Some(m),
            _ => None,
        })
}

/// As [`measurements`], each with what one call counts for.
fn measurements_mut(run: &mut RunResult, unit: CellUnit) -> impl Iterator<Item = (usize, &mut Measurement)> {
    run.configurations
        .iter_mut()
        .flat_map(|c| &mut c.cells)
        .filter(move |x| x.spec.unit == unit)
        .filter_map(|x| match &mut x.outcome {
            CellOutcome::Measured(m) => Some((x.spec.units_per_call(), m)),
            _ => None,
        })
}

fn replicates_of(m: &Measurement) -> CellReplicates {
    CellReplicates {
        medians: m.replicates.iter().map(|r| r.summary.median).collect(),
        within: m.replicates.iter().map(|r| r.summary.median_ci95_relative).collect(),
    }
}

/// One cell (`size` units per call): its figure from its replicates, or
/// its one replicate's; the run's prior and whether this cell's replicates
/// were left out of it.
fn figure(m: &mut Measurement, size: usize, (prior, outlying): (Option<Prior>, bool), planned: usize, timing: &TimingSettings) {
    if planned <= 1 {
        return;
    }
    let short = (m.replicates.len() < planned).then(|| {
        format!(
            "only {} of {planned} replicates measured (a worker ended early): the interval stands on fewer",
            m.replicates.len()
        )
    });
    let Some(combined) = replicates::combine(&replicates_of(m), prior, outlying, CONFIDENCE) else {
        // One replicate: its own figure and warnings, and that it is one.
        m.warnings.extend(short);
        return;
    };
    let pooled = match &m.aggregate {
        // Several workers: the aggregate of their pooled samples (group_cells.rs).
        Some(_) => Some(m.summary),
        None => summarize(&m.samples, size),
    };
    let Some(mut summary) = pooled else { return };
    summary.median = combined.figure;
    summary.median_ci95 = combined.interval;
    summary.median_ci95_relative = (combined.interval[1] - combined.interval[0]) / 2.0 / combined.figure;
    summary.seconds_per_call = if combined.figure > 0.0 {
        size as f64 / combined.figure
    } else {
        f64::INFINITY
    };
    summary.lag1_autocorrelation = None;
    summary.effective_samples = None;
    summary.replicates = Some(combined.stats);
    m.summary = summary;
    m.warnings = warnings(m, &combined, timing);
    m.warnings.extend(short);
}

/// The cell's warnings, judged on all its replicates.
fn warnings(m: &Measurement, combined: &Combined, timing: &TimingSettings) -> Vec<String> {
    let target = timing.target_relative_ci;
    let stats = &combined.stats;
    let mut out = Vec::new();
    if m.summary.median_ci95_relative > target {
        out.push(format!(
            "imprecise: a repeat run's figure would fall within ±{:.1}% of this one (nominal 95%, from {} replicates; target ±{:.1}%); \
             more --replicates or a quieter machine",
            m.summary.median_ci95_relative * 100.0,
            stats.count,
            target * 100.0
        ));
    }
    if stats.spread > 2.0 * target {
        let each: Vec<String> = m
            .replicates
            .iter()
            .map(|r| format!("{:+.1}%", (r.summary.median / combined.figure - 1.0) * 100.0))
            .collect();
        let beyond = if stats.disagree_beyond_the_run {
            ", far more than the run's other cells"
        } else {
            ""
        };
        out.push(format!(
            "replicates disagree: their medians span {:.1}% ({} of the figure){beyond}; the machine changed between them \
             (a neighbour, the memory layout) — rerun or quiet the machine",
            stats.spread * 100.0,
            each.join(", ")
        ));
    }
    out.extend(cryptobench_harness::shared_core_warning(&m.summary));
    // What every replicate said on its own (a level shift in each, a cap every time) is the cell's too.
    if let Some(first) = m.replicates.first() {
        for w in &first.warnings {
            let kind = kind(w);
            let everywhere = m.replicates.iter().all(|r| r.warnings.iter().any(|x| self::kind(x) == kind));
            // Precision and the CPU share are judged again above, on all replicates.
            if everywhere && !["imprecise", "shared core", "only"].iter().any(|k| kind.starts_with(k)) {
                out.push(format!("in every replicate: {w}"));
            }
        }
    }
    out
}

/// The words of a warning before its first colon or semicolon.
fn kind(warning: &str) -> &str {
    warning.split([':', ';']).next().unwrap_or(warning).trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::result::Replicate;
    use cryptobench_core::stats::Sample;

    fn timing() -> TimingSettings {
        cryptobench_harness::standard_timing()
    }

    /// A measurement of replicates of 10 samples each at these nanoseconds per 1000 calls of 1 KiB.
    fn replicated(walls: &[u64], warnings: &[&[&str]]) -> Measurement {
        let mut samples = Vec::new();
        let mut reps = Vec::new();
        for (i, &w) in walls.iter().enumerate() {
            let s: Vec<Sample> = (0..10)
                .map(|k| Sample {
                    iterations: 1000,
                    wall_ns: w + k,
                    cpu_ns: Some(w + k),
                })
                .collect();
            reps.push(Replicate {
                replicate: i + 1,
                sequence: i * 10,
                summary: summarize(&s, 1024).unwrap(),
                warnings: warnings
                    .get(i)
                    .map(|ws| ws.iter().map(|w| w.to_string()).collect())
                    .unwrap_or_default(),
                buffer_page_offset: None,
            });
            samples.extend(s);
        }
        Measurement {
            summary: reps[0].summary,
            samples,
            warnings: Vec::new(),
            checksum: "00".into(),
            implementation: None,
            exceptions: Default::default(),
            cycles_per_byte: None,
            aggregate: None,
            replicates: reps,
            buffer_page_offset: None,
        }
    }

    #[test]
    fn the_figure_is_the_fastest_replicate_and_the_samples_all_of_them() {
        let mut m = replicated(&[1_000_000, 1_002_000, 999_000], &[]);
        let combined = replicates::combine(&replicates_of(&m), None, false, CONFIDENCE).unwrap();
        figure(&mut m, 1024, (None, false), 3, &timing());
        assert_eq!(m.summary.samples, 30);
        assert_eq!(m.summary.median, combined.figure);
        // The fastest replicate: 999 000 ns (+ 0..9) per sample, median 999 004.5 ns.
        assert!((m.summary.median - 1024.0 * 1000.0 / 0.9990045e-3).abs() / m.summary.median < 1e-5);
        assert_eq!(m.summary.replicates.unwrap().count, 3);
        assert!(m.summary.median_ci95[0] < m.summary.median && m.summary.median_ci95[1] > m.summary.median);
    }

    #[test]
    fn replicates_far_apart_are_flagged_with_that_reason() {
        let mut m = replicated(&[1_000_000, 1_300_000, 1_000_500], &[]);
        figure(&mut m, 1024, (None, false), 3, &timing());
        assert!(
            m.warnings
                .iter()
                .any(|w| w.starts_with("replicates disagree: their medians span 23")),
            "{:?}",
            m.warnings
        );
        assert!(
            m.warnings.iter().any(|w| w.starts_with("imprecise: a repeat run")),
            "{:?}",
            m.warnings
        );
    }

    #[test]
    fn a_warning_of_every_replicate_is_the_cells_and_one_of_some_is_not() {
        let shift = "level shift: throughput changed by -9% at sample 5 of 10";
        let mut m = replicated(
            &[1_000_000, 1_000_100, 1_000_200],
            &[&[shift], &[shift], &[shift, "unsteady warm-up: x"]],
        );
        figure(&mut m, 1024, (None, false), 3, &timing());
        assert_eq!(m.warnings, vec![format!("in every replicate: {shift}")]);
    }

    #[test]
    fn fewer_replicates_than_planned_are_said() {
        let mut m = replicated(&[1_000_000, 1_000_100], &[]);
        figure(&mut m, 1024, (None, false), 3, &timing());
        assert!(
            m.warnings.iter().any(|w| w.starts_with("only 2 of 3 replicates")),
            "{:?}",
            m.warnings
        );
        let mut one = replicated(&[1_000_000], &[]);
        figure(&mut one, 1024, (None, false), 3, &timing());
        assert!(one.summary.replicates.is_none());
        assert!(one.warnings.iter().any(|w| w.starts_with("only 1 of 3 replicates")));
    }

    #[test]
    fn one_replicate_planned_keeps_the_workers_figure() {
        let mut m = replicated(&[1_000_000], &[]);
        let before = m.summary;
        figure(&mut m, 1024, (None, false), 1, &timing());
        assert_eq!(m.summary, before);
        assert_eq!(m.replicates.len(), 1, "its one replicate's record is kept");
    }
}

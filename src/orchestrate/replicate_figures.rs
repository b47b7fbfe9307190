//! Once a run is measured: each cell's figure and promise from its
//! replicates (crates/core/src/replicates.rs), all cells of the run that
//! count in the same unit together (the host's speed on the run's timeline,
//! the spread every process shares), and the cell's warnings judged on its
//! clean replicates. A dropped replicate stays in the record with its reason.

use cryptobench_core::cell::CellUnit;
use cryptobench_core::replicates::{self, CellReplicates, Combined, Observation};
use cryptobench_core::result::{CellOutcome, Measurement, RunResult, TimingSettings};
use cryptobench_core::special::normal_max_variance;
use cryptobench_core::stats::{summarize, CONFIDENCE};

/// Replaces every measured cell's summary and warnings by its replicates'
/// (`planned` of them were asked for). With one replicate planned, a cell
/// keeps its worker's own figure, as before replicates, and the record of
/// its one replicate (when it ran, where its buffer lay).
pub fn combine(run: &mut RunResult, planned: usize) {
    if planned <= 1 {
        return;
    }
    let timing = run.settings.timing.clone();
    for unit in [CellUnit::Bytes, CellUnit::Operations] {
        let cells: Vec<CellReplicates> = measurements(run, unit).map(|(c, m)| replicates_of(c, m)).collect();
        let (combined, _) = replicates::combine_run(&cells, CONFIDENCE);
        for ((size, m), combined) in measurements_mut(run, unit).zip(combined) {
            figure(m, size, combined, planned, &timing);
        }
    }
}

fn measurements(run: &RunResult, unit: CellUnit) -> impl Iterator<Item = (usize, &Measurement)> {
    run.configurations.iter().enumerate().flat_map(move |(i, c)| {
        c.cells
            .iter()
            .filter(move |x| x.spec.unit == unit)
            .filter_map(move |x| match &x.outcome {
                CellOutcome::Measured(m) => Some((i, m)),
                _ => None,
            })
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

/// Rounds of one configuration are told apart from another's by this
/// stride: a process is (configuration, round).
const PROCESS_STRIDE: usize = 1 << 20;

/// The replicates of configuration `configuration`'s cell `m`.
fn replicates_of(configuration: usize, m: &Measurement) -> CellReplicates {
    CellReplicates {
        replicates: m
            .replicates
            .iter()
            .map(|r| Observation {
                median: r.summary.median,
                cv: r.summary.cv,
                samples: r.summary.samples,
                sequence: r.sequence,
                process: configuration * PROCESS_STRIDE + r.replicate,
            })
            .collect(),
    }
}

/// One cell (`size` units per call): its figure from its replicates, or
/// its one replicate's.
fn figure(m: &mut Measurement, size: usize, combined: Option<Combined>, planned: usize, timing: &TimingSettings) {
    let short = (m.replicates.len() < planned).then(|| {
        format!(
            "only {} of {planned} replicates measured (a worker ended early): the interval stands on fewer",
            m.replicates.len()
        )
    });
    let Some(combined) = combined else {
        // One replicate: its own figure and warnings, and that it is one.
        m.warnings.extend(short);
        return;
    };
    for (r, why) in m.replicates.iter_mut().zip(&combined.dropped) {
        r.dropped = why.map(|w| w.to_string());
    }
    let pooled = match &m.aggregate {
        // Several workers: the aggregate of their pooled samples (group_cells.rs).
        Some(_) => Some(m.summary),
        None => summarize(&m.samples, size),
    };
    let Some(mut summary) = pooled else { return };
    summary.median = combined.figure;
    summary.median_ci95 = combined.interval;
    summary.median_ci95_relative = combined.relative_half_width();
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

/// The fewest clean replicates whose promise would be within `target`, the
/// spread staying what it is: the half-width goes as √c_n (c_n the
/// variance of the largest of n), so it narrows slowly (5 → 15 replicates:
/// by 18%). None beyond [`MOST_ADVISED`].
pub fn replicates_needed(half: f64, clean: usize, target: f64) -> Option<usize> {
    let now = normal_max_variance(clean.max(1)).sqrt();
    (clean + 1..=MOST_ADVISED).find(|&n| half * normal_max_variance(n).sqrt() / now <= target)
}

/// The most replicates advised: beyond, the machine, not the count, is what to change.
pub const MOST_ADVISED: usize = 60;

/// The cell's warnings, judged on its clean replicates.
fn warnings(m: &Measurement, combined: &Combined, timing: &TimingSettings) -> Vec<String> {
    let target = timing.target_relative_ci;
    let stats = &combined.stats;
    let measured = stats.measured.unwrap_or(stats.count);
    let mut out = Vec::new();
    if stats.too_few_clean {
        let slowed: Vec<String> = m
            .replicates
            .iter()
            .filter(|r| r.dropped.is_some())
            .map(|r| format!("{:+.1}%", (r.summary.median / combined.figure - 1.0) * 100.0))
            .collect();
        out.push(format!(
            "replicates disagree: only {} of {measured} replicates were measured while the host ran at its calm speed \
             (the others, {} of the figure, while the cells around them ran slower); rerun or quiet the machine",
            stats.count,
            slowed.join(", ")
        ));
    } else if combined.relative_half_width() > target {
        let half = combined.relative_half_width();
        let advice = match replicates_needed(half, stats.count, target) {
            Some(n) => format!("about {n} clean replicates (--replicates) or a quieter machine"),
            None => "a quieter machine (more replicates would not narrow it enough)".to_string(),
        };
        out.push(format!(
            "imprecise: the next run's figure would fall within ±{:.1}% of this one (nominal 95%, from {} clean of {measured} \
             replicates; promise ±{:.1}%); {advice}",
            half * 100.0,
            stats.count,
            target * 100.0
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
                dropped: None,
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

    /// The cell combined alone (a run of one cell).
    fn alone(m: &Measurement) -> Option<Combined> {
        replicates::combine_run(&[replicates_of(0, m)], CONFIDENCE).0.remove(0)
    }

    fn judge(m: &mut Measurement, planned: usize) {
        let combined = alone(m);
        figure(m, 1024, combined, planned, &timing());
    }

    #[test]
    fn the_figure_is_the_fastest_replicate_and_the_samples_all_of_them() {
        let mut m = replicated(&[1_000_000, 1_002_000, 999_000], &[]);
        let combined = alone(&m).unwrap();
        judge(&mut m, 3);
        assert_eq!(m.summary.samples, 30);
        assert_eq!(m.summary.median, combined.figure);
        // The fastest replicate: 999 000 ns (+ 0..9) per sample, median 999 004.5 ns.
        assert!((m.summary.median - 1024.0 * 1000.0 / 0.9990045e-3).abs() / m.summary.median < 1e-5);
        assert_eq!(m.summary.replicates.unwrap().count, 3);
        assert!(m.summary.median_ci95[0] < m.summary.median && m.summary.median_ci95[1] > m.summary.median);
    }

    #[test]
    fn one_slowed_replicate_does_not_flag_the_figure() {
        // The spread comes from the faster replicates: one 30% slower is not among them.
        let mut m = replicated(&[1_000_000, 1_300_000, 1_000_500], &[]);
        judge(&mut m, 3);
        assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    }

    #[test]
    fn fast_replicates_far_apart_make_an_imprecise_figure_not_a_range_flag() {
        let mut m = replicated(&[1_000_000, 1_050_000, 950_000], &[]);
        judge(&mut m, 3);
        assert!(
            m.warnings.iter().any(|w| w.starts_with("imprecise: the next run's figure")),
            "{:?}",
            m.warnings
        );
        assert!(!m.warnings.iter().any(|w| w.starts_with("replicates disagree")));
    }

    #[test]
    fn the_advice_follows_the_square_root_of_c_n() {
        // From 5 to 15 replicates the promise narrows by 18%, not by 1 − √(5/15) = 42%.
        let ratio = (normal_max_variance(15) / normal_max_variance(5)).sqrt();
        assert!((ratio - 0.82).abs() < 0.02, "{ratio}");
        assert_eq!(replicates_needed(0.0205, 5, 0.02), Some(6));
        assert!(replicates_needed(0.04, 5, 0.02).is_none(), "twice the promise is beyond any count");
    }

    #[test]
    fn a_warning_of_every_replicate_is_the_cells_and_one_of_some_is_not() {
        let shift = "level shift: throughput changed by -9% at sample 5 of 10";
        let mut m = replicated(
            &[1_000_000, 1_000_100, 1_000_200],
            &[&[shift], &[shift], &[shift, "unsteady warm-up: x"]],
        );
        judge(&mut m, 3);
        assert_eq!(m.warnings, vec![format!("in every replicate: {shift}")]);
    }

    #[test]
    fn fewer_replicates_than_planned_are_said() {
        let mut m = replicated(&[1_000_000, 1_000_100], &[]);
        judge(&mut m, 3);
        assert!(
            m.warnings.iter().any(|w| w.starts_with("only 2 of 3 replicates")),
            "{:?}",
            m.warnings
        );
        let mut one = replicated(&[1_000_000], &[]);
        judge(&mut one, 3);
        assert!(one.summary.replicates.is_none());
        assert!(one.warnings.iter().any(|w| w.starts_with("only 1 of 3 replicates")));
    }

    #[test]
    fn one_replicate_planned_keeps_the_workers_figure() {
        let mut m = replicated(&[1_000_000], &[]);
        let before = m.summary;
        judge(&mut m, 1);
        assert_eq!(m.summary, before);
        assert_eq!(m.replicates.len(), 1, "its one replicate's record is kept");
    }
}

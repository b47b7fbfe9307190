//! Cell-by-cell comparison of configurations, from one run or several: per
//! (algorithm, operation, mode, size) each series' median, its ratio to the
//! first series, and whether the difference is beyond the measurement noise.
//!
//! A difference counts as real by the project's one rule
//! ([`crate::decision`]): the two cells' dependence-aware 95% intervals of
//! the median do not overlap and the medians differ by more than
//! [`MIN_EFFECT`].

use crate::cell::{CellUnit, Operation};
use crate::decision::{decide, Decision};
pub use crate::decision::{MIN_EFFECT, MIN_SAMPLES};
use crate::result::{CellOutcome, RunResult};
use crate::stats::Summary;

/// One column: a configuration of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Short name shown in tables: the run's name, plus "[i]" when the run has several configurations.
    pub name: String,
    /// The library and version, where known.
    pub description: String,
}

/// The verdict on one series against the first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// The first series itself.
    Baseline,
    /// Beyond the noise; ratio = this / baseline.
    Different { ratio: f64 },
    /// The same: the difference's 95% interval lies within ±2% (a tie).
    Same { ratio: f64 },
    /// Cannot tell: neither beyond the noise nor shown within ±2%, or one
    /// side has too few samples or clean replicates to decide (e.g. figures
    /// imported from `openssl speed`, which keep one mean and no samples).
    Untested { ratio: f64 },
    /// One of the two was not measured.
    Missing,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Median throughput in bytes per second, where measured.
    pub median: Option<f64>,
    pub samples: usize,
    pub verdict: Verdict,
}

/// One row: a cell measured (or not) by each series.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub algorithm: String,
    pub operation: Operation,
    pub mode: String,
    pub size: usize,
    /// What the figures count (bytes or operations), as the cells say.
    pub unit: CellUnit,
    pub entries: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub series: Vec<Series>,
    pub rows: Vec<Row>,
}

type Key = (String, Operation, String, usize);

/// Compares every configuration of every named run with the first one.
pub fn compare(runs: &[(String, &RunResult)]) -> Comparison {
    let mut series = Vec::new();
    let mut cells: Vec<Vec<(Key, Summary, CellUnit)>> = Vec::new();
    for (name, run) in runs {
        let many = run.configurations.len() > 1;
        for c in &run.configurations {
            series.push(Series {
                name: if many { format!("{name}[{}]", c.index) } else { name.clone() },
                description: {
                    let mut d = match &c.backend {
                        Some(b) => b.version.clone(),
                        None => c.spec.display(),
                    };
                    for (k, v) in &c.spec.env {
                        d.push_str(&format!(" {k}={v}"));
                    }
                    d
                },
            });
            cells.push(
                c.cells
                    .iter()
                    .filter_map(|x| match &x.outcome {
                        CellOutcome::Measured(m) => Some((
                            (x.spec.algorithm.clone(), x.spec.operation, x.spec.mode_label(), x.spec.size),
                            m.summary,
                            x.spec.unit,
                        )),
                        _ => None,
                    })
                    .collect(),
            );
        }
    }
    let mut keys: Vec<Key> = Vec::new();
    for k in cells.iter().flatten().map(|(k, _, _)| k) {
        if !keys.contains(k) {
            keys.push(k.clone());
        }
    }
    // Algorithms in first-seen order, sizes ascending within each.
    let order: Vec<(String, Operation, String)> = keys.iter().fold(Vec::new(), |mut acc, k| {
        let g = (k.0.clone(), k.1, k.2.clone());
        if !acc.contains(&g) {
            acc.push(g);
        }
        acc
    });
    keys.sort_by_key(|k| (order.iter().position(|g| g.0 == k.0 && g.1 == k.1 && g.2 == k.2), k.3));
    let rows = keys
        .into_iter()
        .map(|key| {
            let found: Vec<Option<&(Key, Summary, CellUnit)>> = cells.iter().map(|s| s.iter().find(|c| c.0 == key)).collect();
            let base = found[0];
            let unit = found
                .iter()
                .flatten()
                .map(|c| c.2)
                .next()
                .expect("a row's key comes from a measured cell");
            let entries = found
                .iter()
                .enumerate()
                .map(|(i, cell)| Entry {
                    median: cell.map(|c| c.1.median),
                    samples: cell.map(|c| c.1.samples).unwrap_or(0),
                    verdict: if i == 0 { Verdict::Baseline } else { verdict(base, *cell) },
                })
                .collect();
            Row {
                algorithm: key.0,
                operation: key.1,
                mode: key.2,
                size: key.3,
                unit,
                entries,
            }
        })
        .collect();
    Comparison { series, rows }
}

fn verdict(base: Option<&(Key, Summary, CellUnit)>, other: Option<&(Key, Summary, CellUnit)>) -> Verdict {
    let (Some(b), Some(o)) = (base, other) else {
        return Verdict::Missing;
    };
    judge(&b.1, &o.1)
}

/// The verdict on `other` against `base` by the one rule
/// ([`crate::decision::decide`]), with the ratio of their medians.
pub fn judge(base: &Summary, other: &Summary) -> Verdict {
    let ratio = other.median / base.median;
    match decide(base, other) {
        Decision::Different => Verdict::Different { ratio },
        Decision::Same => Verdict::Same { ratio },
        Decision::Undecided => Verdict::Untested { ratio },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::{CellSpec, Mode};
    use crate::result::*;
    use crate::stats::{summarize, Sample};

    /// A run of one configuration with one sha256 cell at 1 KiB whose samples take these times.
    fn run(walls: &[u64]) -> RunResult {
        let samples: Vec<Sample> = walls
            .iter()
            .map(|&w| Sample {
                iterations: 1000,
                wall_ns: w,
                cpu_ns: None,
            })
            .collect();
        let text = r#"{"schema_version":1,"tool":{"name":"t","version":"0"},"started_at":"","finished_at":"","command_line":[],
            "host":{"hostname":null,"cpu_model":null,"logical_cores":1,"arch":"x","os":"y","kernel":null,"virtualization":null},
            "settings":{"timing":{"sample_target_ns":0,"cell_budget_ns":0,"min_samples":0,"target_relative_ci":0.0,"warmup_ns":0},"sizes":[1024],"pinned_cpu":null},
            "configurations":[{"index":1,"spec":{"backend":"openssl","library":null},"backend":null,"status":"completed","verifications":[],"cells":[]}]}"#;
        let mut r: RunResult = serde_json::from_str(text).unwrap();
        r.configurations[0].cells.push(CellResult {
            spec: CellSpec {
                algorithm: "sha256".into(),
                operation: Operation::Digest,
                mode: Mode::Message,
                rekey: false,
                size: 1024,
                aad: 13,
                unit: crate::cell::CellUnit::Bytes,
            },
            outcome: CellOutcome::Measured(Measurement {
                summary: summarize(&samples, 1024).unwrap(),
                samples,
                warnings: vec![],
                checksum: String::new(),
                implementation: None,
                exceptions: Default::default(),
                cycles_per_byte: None,
                aggregate: None,
                replicates: Vec::new(),
                buffer_page_offset: None,
            }),
        });
        r
    }

    /// 0..n in a scrambled order (k·i mod n, k prime to n): samples with no
    /// drift in the order taken, which the interval would count as worth fewer.
    fn spread(i: u64, n: u64) -> u64 {
        (i * 7) % n
    }

    fn verdict_of(a: &RunResult, b: &RunResult) -> Verdict {
        let c = compare(&[("a".into(), a), ("b".into(), b)]);
        assert_eq!(c.rows.len(), 1);
        c.rows[0].entries[1].verdict
    }

    #[test]
    fn twice_as_fast_with_separated_samples_is_different() {
        let slow: Vec<u64> = (0..10).map(|i| 2_000_000 + spread(i, 10) * 1000).collect();
        let fast: Vec<u64> = (0..10).map(|i| 1_000_000 + spread(i, 10) * 1000).collect();
        match verdict_of(&run(&slow), &run(&fast)) {
            Verdict::Different { ratio } => assert!((ratio - 2.0).abs() < 0.01, "{ratio}"),
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn overlapping_wide_samples_cannot_tell() {
        // 1% apart, samples ±10%: neither apart nor shown within ±2%.
        let a: Vec<u64> = (0..10).map(|i| 1_000_000 + spread(i, 10) * 20_000).collect();
        let b: Vec<u64> = (0..10).map(|i| 1_010_000 + spread(i, 10) * 20_000).collect();
        assert!(matches!(verdict_of(&run(&a), &run(&b)), Verdict::Untested { .. }));
    }

    #[test]
    fn a_tiny_but_consistent_shift_is_not_a_difference() {
        let a: Vec<u64> = (0..30).map(|i| 1_000_000 + spread(i, 30)).collect();
        let b: Vec<u64> = (0..30).map(|i| 1_005_000 + spread(i, 30)).collect(); // 0.5% slower, every sample
        assert!(matches!(verdict_of(&run(&a), &run(&b)), Verdict::Same { .. }));
    }

    #[test]
    fn too_few_samples_are_untested_and_absent_cells_missing() {
        assert!(matches!(
            verdict_of(&run(&[1_000_000; 3]), &run(&[2_000_000; 3])),
            Verdict::Untested { .. }
        ));
        let mut other = run(&[1_000_000; 10]);
        other.configurations[0].cells[0].spec.algorithm = "md5".into();
        let c = compare(&[("a".into(), &run(&[1_000_000; 10])), ("b".into(), &other)]);
        assert_eq!(c.rows.len(), 2);
        assert!(matches!(c.rows[0].entries[1].verdict, Verdict::Missing));
    }
}

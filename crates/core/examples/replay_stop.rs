//! Replays the stop rule on the samples of recorded runs: for each setting
//! (target, minimum samples, budget per cell, whole-run budget), how long
//! the default suite would have taken and how many cells would have ended
//! within their target. The samples are the recorded ones, in the order
//! taken, so a replay can only stop earlier than the run did.
//!
//! cargo run --release -p cryptobench-core --example replay_stop -- RUN.json...

use cryptobench_core::stats::{summarize, Sample};
use cryptobench_core::stopping::StopRule;

struct Cell {
    name: String,
    samples: Vec<Sample>,
    size: usize,
}

fn load(path: &str) -> Vec<Cell> {
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    let mut out = Vec::new();
    for c in v["configurations"].as_array().unwrap() {
        for x in c["cells"].as_array().unwrap() {
            if x["status"] != "measured" || x["unit"] != "bytes" {
                continue;
            }
            let samples: Vec<Sample> = serde_json::from_value(x["samples"].clone()).unwrap();
            out.push(Cell {
                name: format!("{} {} {}", x["algorithm"], x["operation"], x["size"]),
                size: x["size"].as_u64().unwrap() as usize,
                samples,
            });
        }
    }
    out
}

/// (time spent in ns on sampling, relative half-width at the stop)
fn replay(cell: &Cell, rule: StopRule, budget_ns: u64, overhead_ns: u64) -> (u64, f64, usize) {
    let mut next_look = rule.first_look();
    let mut elapsed = overhead_ns;
    for (i, s) in cell.samples.iter().enumerate() {
        elapsed += s.wall_ns;
        let n = i + 1;
        let mut precise = false;
        if n >= next_look {
            let series: Vec<f64> = cell.samples[..n].iter().map(|s| s.throughput(cell.size)).collect();
            precise = rule.precise(&series);
            next_look = StopRule::next_look(n);
        }
        if precise || (elapsed >= budget_ns && n >= 3) {
            let sum = summarize(&cell.samples[..n], cell.size).unwrap();
            return (elapsed, sum.median_ci95_relative, n);
        }
    }
    let sum = summarize(&cell.samples, cell.size).unwrap();
    (elapsed, sum.median_ci95_relative, cell.samples.len())
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    // Warm-up (20 ms) and calibration (about 4 ms) per cell.
    let overhead = 24_000_000u64;
    for f in &files {
        let cells = load(f);
        println!("{f}: {} cells", cells.len());
        println!("target  min  cell-budget  pool     time(s)  clean  worst");
        for &target in &[0.01, 0.015, 0.02] {
            for &min in &[6usize, 8, 10] {
                for &budget_ms in &[150u64, 200, 250, 300] {
                    for &pool_s in &[0.0f64, 14.0] {
                        let rule = StopRule {
                            min_samples: min,
                            target_relative_ci: target,
                        };
                        let mut total = 0u64;
                        let mut clean = 0;
                        let mut worst = (0.0, String::new());
                        for (k, c) in cells.iter().enumerate() {
                            // With a pool: this cell's budget is the fair share of what is left, up to 2× the cell budget.
                            let b = if pool_s > 0.0 {
                                let left = (pool_s * 1e9) as i64 - total as i64;
                                let share = left.max(0) as u64 / (cells.len() - k) as u64;
                                share.clamp(budget_ms * 1_000_000 / 2, 2 * budget_ms * 1_000_000)
                            } else {
                                budget_ms * 1_000_000
                            };
                            let (t, rel, _) = replay(c, rule, b, overhead);
                            total += t;
                            if rel <= target {
                                clean += 1;
                            } else if rel > worst.0 {
                                worst = (rel, c.name.clone());
                            }
                        }
                        println!(
                            "{:>5.1}% {min:>4} {budget_ms:>8} ms  {pool_s:>5.1}  {:>8.2}  {clean:>3}/{}  {:.1}% {}",
                            target * 100.0,
                            total as f64 * 1e-9,
                            cells.len(),
                            worst.0 * 100.0,
                            worst.1
                        );
                    }
                }
            }
        }
    }
}

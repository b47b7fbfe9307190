//! How steady the machine was during a run, read from the run's own
//! replicates: how far the replicates of one cell moved apart, and whether
//! whole stretches of the run ran slower for every cell at once. A
//! neighbour on the machine's cores slows everything measured while it runs
//! (all cells, seconds at a time), a memory layout only the one process;
//! so a slowdown shared by the replicates measured next to each other in
//! time, whatever their cells, is a neighbour's.

use crate::result::{CellOutcome, RunResult};

/// How steady a run was.
#[derive(Debug, Clone, PartialEq)]
pub struct Steadiness {
    /// Cells whose figure combines replicates.
    pub cells: usize,
    /// The median over those cells of (largest − smallest replicate median) / figure.
    pub median_spread: f64,
    /// The widest, with its cell (configuration index, algorithm, operation, size).
    pub worst: Option<(f64, String)>,
    /// The share of the run's replicates measured in stretches where every
    /// cell ran slower, and by how much there (median ln ratio to their
    /// cells' figures, as a relative change).
    pub slow_share: f64,
    pub slow_depth: f64,
}

/// Replicates measured next to each other over which the shared slowdown is
/// judged: with the default suite about 0.4 s of the run.
pub const WINDOW: usize = 15;

/// A stretch counts as slower when its replicates' median lies this far
/// below their cells' figures: beyond what a cell's own noise gives the
/// median of fifteen replicates of different cells.
pub const SLOWER: f64 = 0.05;

/// Reads a run's replicates; None when no cell has two or more.
pub fn of(run: &RunResult) -> Option<Steadiness> {
    let mut spreads = Vec::new();
    let mut worst: Option<(f64, String)> = None;
    // (sequence, ln of the replicate's median over its cell's figure)
    let mut timeline = Vec::new();
    for c in &run.configurations {
        for cell in &c.cells {
            let CellOutcome::Measured(m) = &cell.outcome else { continue };
            let Some(stats) = m.summary.replicates else { continue };
            spreads.push(stats.spread);
            if worst.as_ref().is_none_or(|w| stats.spread > w.0) {
                worst = Some((stats.spread, format!("[{}] {}", c.index, cell.spec.describe())));
            }
            for r in &m.replicates {
                if r.summary.median > 0.0 && m.summary.median > 0.0 {
                    timeline.push((r.sequence, (r.summary.median / m.summary.median).ln()));
                }
            }
        }
    }
    if spreads.is_empty() {
        return None;
    }
    timeline.sort_by_key(|p| p.0);
    let (slow_share, slow_depth) = slow_stretches(&timeline.iter().map(|p| p.1).collect::<Vec<_>>());
    Some(Steadiness {
        cells: spreads.len(),
        median_spread: median(&mut spreads),
        worst,
        slow_share,
        slow_depth,
    })
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// Over residuals in the order measured: the running median over
/// [`WINDOW`] neighbours; the share of points where it is below
/// ln(1 − [`SLOWER`]), and the median residual there (as a relative change).
pub fn slow_stretches(residuals: &[f64]) -> (f64, f64) {
    let n = residuals.len();
    if n < WINDOW {
        return (0.0, 0.0);
    }
    let limit = (1.0 - SLOWER).ln();
    let mut slow = Vec::new();
    for i in 0..n {
        let lo = i.saturating_sub(WINDOW / 2).min(n - WINDOW);
        let mut window = residuals[lo..lo + WINDOW].to_vec();
        if median(&mut window) < limit {
            slow.push(residuals[i]);
        }
    }
    if slow.is_empty() {
        return (0.0, 0.0);
    }
    let share = slow.len() as f64 / n as f64;
    (share, median(&mut slow).exp() - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stretch_where_everything_ran_slower_is_found() {
        // 200 replicates around their figures (±1%), the 40 from the 50th on 30% slower.
        let residuals: Vec<f64> = (0..200)
            .map(|i| {
                let noise = 0.01 * ((i * 37 % 11) as f64 / 5.0 - 1.0);
                if (50..90).contains(&i) {
                    noise + 0.7f64.ln()
                } else {
                    noise
                }
            })
            .collect();
        let (share, depth) = slow_stretches(&residuals);
        assert!((share - 0.2).abs() < 0.03, "{share}");
        assert!((depth + 0.3).abs() < 0.02, "{depth}");
    }

    #[test]
    fn noise_alone_and_one_slow_replicate_are_no_stretch() {
        let mut residuals: Vec<f64> = (0..200).map(|i| 0.02 * ((i * 37 % 11) as f64 / 5.0 - 1.0)).collect();
        residuals[100] = 0.5f64.ln();
        assert_eq!(slow_stretches(&residuals), (0.0, 0.0));
        assert_eq!(slow_stretches(&residuals[..10]), (0.0, 0.0));
    }
}

//! The lines under a run's table that say how steady the machine was and
//! what that means for reading the figures (crates/core/src/steadiness.rs),
//! and how the run compares with this host's earlier runs
//! (crates/core/src/history.rs): the verdict on a run that sbc-bench gives,
//! from cryptobench's own replicates. Each line fits a terminal's 160
//! columns (crates/report/src/width.rs) but for the cell it names.

use cryptobench_core::result::RunResult;
use cryptobench_core::steadiness;

/// Spreads up to this many times the target still allow figures at the target.
const STEADY: f64 = 1.0;
/// Beyond this many times the target, the run is too unsteady for it.
const UNSTEADY: f64 = 3.0;

pub fn lines(run: &RunResult) -> Vec<String> {
    let mut out = Vec::new();
    let target = run.settings.timing.target_relative_ci;
    match steadiness::of(run) {
        Some(s) => {
            let worst = s
                .worst
                .as_ref()
                .map(|(v, cell)| format!("; widest {:.1}%, {cell}", v * 100.0))
                .unwrap_or_default();
            let meaning = if s.median_spread <= STEADY * target {
                format!("steady enough for figures within ±{:.0}%", target * 100.0)
            } else if s.median_spread <= UNSTEADY * target {
                format!(
                    "somewhat unsteady: figures marked ~ could move by more than ±{:.0}% next run",
                    target * 100.0
                )
            } else {
                format!(
                    "too unsteady for ±{:.0}%: read figures as ±{:.0}% or so, or measure on a quieter machine",
                    target * 100.0,
                    (s.median_spread * 100.0).ceil()
                )
            };
            out.push(format!(
                "steadiness: a cell's replicates moved {:.1}% apart (median of {} cells{worst}): {meaning}",
                s.median_spread * 100.0,
                s.cells
            ));
            if s.slow_share > 0.0 {
                out.push(format!(
                    "steadiness: everything ran about {:.0}% slower during {:.0}% of the run, all cells at once: something else \
                     ran on these cores (a program, another VM's vCPU); the replicates measured then are why cells disagree",
                    -s.slow_depth * 100.0,
                    s.slow_share * 100.0
                ));
            }
        }
        None if run.settings.replicates <= 1 && run.imported.is_none() && measured(run) => out.push(
            "steadiness: one replicate per cell (--quick): intervals know only their worker's samples, not the next process's; \
             drop --quick for figures to rely on"
                .to_string(),
        ),
        None => {}
    }
    if let Some(h) = &run.history {
        let direction = if h.ratio < 1.0 { "slower" } else { "faster" };
        let against = format!(
            "against this host's {} earlier run{} of the same {} cells: {:.0}% {direction} (median), ",
            h.earlier_runs,
            if h.earlier_runs == 1 { "" } else { "s" },
            h.cells,
            (h.ratio - 1.0).abs() * 100.0
        );
        out.push(if h.machine_differs {
            format!(
                "history: {against}beyond their usual ±{:.1}%: the machine is {direction} now than usual; rerun later \
                 before comparing ({} cells flagged)",
                h.usual_spread * 100.0,
                h.unlike
            )
        } else {
            format!(
                "history: {against}within their usual ±{:.1}%{}",
                h.usual_spread.max(target) * 100.0,
                if h.unlike > 0 {
                    format!("; {} cells unlike their earlier figures", h.unlike)
                } else {
                    String::new()
                }
            )
        });
    }
    out
}

fn measured(run: &RunResult) -> bool {
    run.configurations
        .iter()
        .flat_map(|c| &c.cells)
        .any(|x| matches!(x.outcome, cryptobench_core::result::CellOutcome::Measured(_)))
}

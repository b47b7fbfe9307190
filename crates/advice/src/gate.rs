//! Whether a run's cells may be advised from at all. One function, judged
//! from the run's own settings, so that every caller (`advise`, the
//! reports' Advice section) holds runs to the same rule.

use cryptobench_core::result::RunResult;
use cryptobench_core::stopping::DEFAULT_CELL_BUDGET_NS;

/// Ok when the run's cells were timed with at least the default budget
/// per cell (crates/core/src/stopping.rs, `DEFAULT_CELL_BUDGET_NS`:
/// 235 ms); otherwise why no advice is given. A `--quick` run times each
/// cell for 40 ms (18 samples at most): its medians move between runs by
/// more than the factors advice is about.
pub fn advisable(run: &RunResult) -> Result<(), String> {
    if run.imported.is_some() {
        // Another tool's figures (openssl speed) carry no budget of ours; they are advised from as they are.
        return Ok(());
    }
    let budget = run.settings.timing.cell_budget_ns;
    if budget < DEFAULT_CELL_BUDGET_NS {
        return Err(format!(
            "the run timed each cell for {} ms (--quick or a short --time), less than the default {} ms, \
             so its medians are too unsteady to advise from; measure again at the default budget",
            budget / 1_000_000,
            DEFAULT_CELL_BUDGET_NS / 1_000_000
        ));
    }
    Ok(())
}

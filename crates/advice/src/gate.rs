//! Whether a run's cells may be advised from at all. One function, judged
//! from the run's own settings, so that every caller (`advise`, the
//! reports' Advice section) holds runs to the same rule.

use cryptobench_core::result::RunResult;
use cryptobench_core::stopping::DEFAULT_CELL_BUDGET_NS;

/// Ok when the run's cells were timed with at least the default budget
/// per cell (crates/core/src/stopping.rs, `DEFAULT_CELL_BUDGET_NS`:
/// 235 ms) and, in runs that measure in replicates (those that record
/// their order's seed), in two or more; otherwise why no advice is given.
/// A `--quick` run times each cell for 40 ms (18 samples at most) in one
/// worker: its medians move between runs by more than the factors advice
/// is about, and one worker's interval knows nothing of the next process
/// (docs/METHOD.md, "Replicates").
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
    if run.settings.order_seed.is_some() && run.settings.replicates < 2 {
        return Err(
            "the run measured each cell in one worker (--replicates 1), whose interval knows nothing of what the next \
             process brings; measure again with replicates (the default)"
                .to_string(),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> RunResult {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/runs/replicates.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn runs_of_replicates_at_the_default_budget_are_advised_from_and_one_worker_is_not() {
        let mut run = fixture();
        assert!(advisable(&run).unwrap_err().contains("60 ms"), "the fixture's short --time");
        run.settings.timing.cell_budget_ns = DEFAULT_CELL_BUDGET_NS;
        assert_eq!(advisable(&run), Ok(()));
        run.settings.replicates = 1;
        assert!(advisable(&run).unwrap_err().contains("--replicates 1"));
        // A run of an earlier version (no replicates, no seed) at the default budget still is.
        run.settings.order_seed = None;
        assert_eq!(advisable(&run), Ok(()));
    }
}

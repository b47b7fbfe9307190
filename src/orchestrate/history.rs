//! This run against the host's earlier runs in the store it is saved to
//! (crates/core/src/history.rs): the newest few runs of the same host are
//! loaded, and the run's cells are held against their figures.

use cryptobench_core::history::{hold, same_host};
use cryptobench_core::result::RunResult;
use cryptobench_store::Store;

/// How many of the host's newest earlier runs are read: enough for a
/// median and its spread, few enough that a large store costs little.
pub const EARLIER_RUNS: usize = 10;

/// Holds `run` against the host's earlier runs in `store` (flags its
/// unusual cells and records what the whole run is against them). A store
/// that cannot be read leaves the run as it is, with a note on stderr: the
/// measurement stands without its history.
pub fn hold_against(run: &mut RunResult, store: &mut dyn Store) {
    let summaries = match store.list() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("note: this run is not held against earlier ones: the store could not be listed ({e})");
            return;
        }
    };
    let mut earlier = Vec::new();
    for s in summaries.iter().rev() {
        if earlier.len() == EARLIER_RUNS {
            break;
        }
        if s.imported.is_some() || s.hostname != run.host.hostname || s.cpu_model != run.host.cpu_model {
            continue;
        }
        if let Ok(e) = store.load(s.id) {
            if same_host(run, &e) {
                earlier.push(e);
            }
        }
    }
    run.history = hold(run, &earlier);
}

//! A run held against the host's earlier runs (crates/core/src/history.rs):
//! a whole run slower than usual is said, a cell far from its history is
//! flagged, and a run like its history is left alone.

use cryptobench_core::history::{hold, MIN_EARLIER};
use cryptobench_core::result::{CellOutcome, RunResult};

fn fixture() -> RunResult {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/runs/replicates.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The run with every figure times `factor` (and cell `slow` times `factor` × 0.5, if any).
fn scaled(run: &RunResult, factor: f64, slow: Option<usize>) -> RunResult {
    let mut r = run.clone();
    for (i, cell) in r.configurations[0].cells.iter_mut().enumerate() {
        if let CellOutcome::Measured(m) = &mut cell.outcome {
            m.summary.median *= factor * if Some(i) == slow { 0.5 } else { 1.0 };
            m.warnings.clear();
        }
    }
    r
}

fn flagged(run: &RunResult) -> usize {
    run.configurations[0]
        .cells
        .iter()
        .filter(|c| matches!(&c.outcome, CellOutcome::Measured(m) if m.warnings.iter().any(|w| w.starts_with("unlike this host"))))
        .count()
}

#[test]
fn a_run_like_its_history_is_left_alone() {
    let base = fixture();
    let earlier = vec![scaled(&base, 1.004, None), scaled(&base, 0.996, None)];
    let mut run = scaled(&base, 1.0, None);
    let h = hold(&mut run, &earlier).expect("every cell has two earlier figures");
    assert_eq!(h.earlier_runs, 2);
    assert_eq!(h.cells, run.configurations[0].cells.len());
    assert!((h.ratio - 1.0).abs() < 0.01, "{h:?}");
    assert!(!h.machine_differs);
    assert_eq!(flagged(&run), 0);
}

#[test]
fn a_whole_run_slower_than_usual_is_said_and_its_cells_flagged() {
    let base = fixture();
    let earlier = vec![scaled(&base, 1.0, None), scaled(&base, 1.002, None), scaled(&base, 0.998, None)];
    let mut run = scaled(&base, 0.8, None);
    let h = hold(&mut run, &earlier).unwrap();
    assert!(h.machine_differs && (h.ratio - 0.8).abs() < 0.01, "{h:?}");
    assert_eq!(flagged(&run), run.configurations[0].cells.len());
}

#[test]
fn one_cell_far_from_its_history_is_flagged_alone() {
    let base = fixture();
    let earlier = vec![scaled(&base, 1.0, None), scaled(&base, 1.003, None)];
    let mut run = scaled(&base, 1.0, Some(1));
    let h = hold(&mut run, &earlier).unwrap();
    assert!(!h.machine_differs);
    assert_eq!((h.unlike, flagged(&run)), (1, 1));
}

#[test]
fn too_little_history_or_another_host_says_nothing() {
    let base = fixture();
    let mut run = scaled(&base, 1.0, None);
    assert!(hold(&mut run, &vec![scaled(&base, 1.0, None); MIN_EARLIER - 1]).is_none());
    let mut elsewhere = scaled(&base, 1.0, None);
    elsewhere.configurations[0].backend.as_mut().unwrap().version = "OpenSSL 9.9.9".into();
    assert!(
        hold(&mut run, &[elsewhere.clone(), elsewhere]).is_none(),
        "another library version is no history"
    );
}

#[test]
fn a_whole_run_slower_by_less_than_the_old_rule_allowed_is_said_once_and_on_every_cell() {
    // 1.5% slower, every cell alike: the old rule (3 × max(1%, MAD)) let up to 3% through.
    let base = fixture();
    let earlier = vec![scaled(&base, 1.0, None), scaled(&base, 1.001, None), scaled(&base, 0.999, None)];
    let mut run = scaled(&base, 0.985, None);
    let h = hold(&mut run, &earlier).unwrap();
    assert!(h.machine_differs, "{h:?}");
    assert_eq!(flagged(&run), 0, "no cell is far from its own history");
    let said = run.configurations[0]
        .cells
        .iter()
        .filter(|c| matches!(&c.outcome, CellOutcome::Measured(m) if m.warnings.iter().any(|w| w.starts_with("whole run slower: this run's cells lie -1.5%"))))
        .count();
    assert_eq!(said, run.configurations[0].cells.len());
}

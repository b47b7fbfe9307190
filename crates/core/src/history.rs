//! A run held against this host's earlier runs of the same cells. A
//! slowdown that lasts the whole run (a neighbour for minutes, a lower
//! clock) cannot show between the run's own replicates: they all meet it.
//! Against the figures this host gave before for the same library and
//! cells, it shows. Each cell whose figure lies far outside its earlier
//! ones is flagged, and the run says when the machine as a whole is slower
//! (or faster) than it usually is.

pub use crate::result::HostHistory;
use crate::result::{CellOutcome, ConfigurationResult, RunResult};

/// Earlier figures a cell needs before it is held against them.
pub const MIN_EARLIER: usize = 2;

/// How far outside its history a cell must lie to be flagged, in units of
/// the larger of the run's precision target and the history's own spread
/// (its median absolute deviation, relative): three, the usual outlier rule
/// for a median and MAD (F. R. Hampel, "The influence curve and its role in
/// robust estimation", JASA 69, 1974; P. J. Rousseeuw and C. Croux,
/// "Alternatives to the median absolute deviation", JASA 88, 1993).
pub const UNLIKE: f64 = 3.0;

/// The least whole-run shift said, however precise its median: below it
/// the host's clock and layout differ from boot to boot anyway.
pub const WHOLE_RUN_FLOOR: f64 = 0.005;

/// Whether a run as a whole lies away from this host's earlier runs, from
/// its cells' ratios (figure / median of the cell's earlier figures): the
/// ln shift when their median lies beyond [`UNLIKE`] standard errors of
/// that median and beyond [`WHOLE_RUN_FLOOR`]. The standard error of a
/// median of n values is √(π/2)·σ/√n, σ estimated by 1.4826·MAD
/// (Rousseeuw and Croux 1993): over 66 cells a 1.5% slowdown shows where a
/// rule of 3·max(target, MAD) lets 3% through.
pub fn whole_run_shift(ratios: &[f64]) -> Option<f64> {
    let mut logs: Vec<f64> = ratios.iter().filter(|r| **r > 0.0).map(|r| r.ln()).collect();
    if logs.len() < MIN_CELLS_FOR_SHIFT {
        return None;
    }
    let centre = median(&mut logs);
    let mad = median(&mut logs.iter().map(|x| (x - centre).abs()).collect::<Vec<_>>());
    let se = std::f64::consts::FRAC_PI_2.sqrt() * 1.4826 * mad / (logs.len() as f64).sqrt();
    (centre.abs() > (UNLIKE * se).max(WHOLE_RUN_FLOOR.ln_1p())).then_some(centre)
}

/// Fewest cells with history for a whole-run shift to be judged.
pub const MIN_CELLS_FOR_SHIFT: usize = 3;

/// A configuration as the history knows it: the same library file and
/// version, masks, placement and worker.
pub fn configuration_key(c: &ConfigurationResult) -> String {
    let b = c.backend.as_ref();
    let env: Vec<String> = c.spec.capability_env().map(|(k, v)| format!("{k}={v}")).collect();
    let placement = c
        .placement
        .as_ref()
        .map(|p| format!("{}×{}", p.core_type.clone().unwrap_or_default(), p.threads))
        .unwrap_or_default();
    format!(
        "{}|{}|{}|{}|{}|{}",
        c.spec.backend,
        b.and_then(|b| b.library_path.clone()).unwrap_or_default(),
        b.map(|b| b.version.clone()).unwrap_or_default(),
        env.join(","),
        placement,
        c.spec.worker.clone().unwrap_or_default().join(" ")
    )
}

/// Whether `earlier` ran on this run's host: the same host name and CPU model.
pub fn same_host(run: &RunResult, earlier: &RunResult) -> bool {
    earlier.imported.is_none()
        && run.host.hostname.is_some()
        && run.host.hostname == earlier.host.hostname
        && run.host.cpu_model == earlier.host.cpu_model
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// Holds `run` against `earlier` runs (of this host, newest first), flags
/// each cell far outside its earlier figures and returns what the run as a
/// whole is against them; None when no cell has enough history.
pub fn hold(run: &mut RunResult, earlier: &[RunResult]) -> Option<HostHistory> {
    let target = run.settings.timing.target_relative_ci;
    let mut ratios = Vec::new();
    let mut spreads = Vec::new();
    let mut used = vec![false; earlier.len()];
    let mut unlike = 0;
    // Per cell of the run in order: whether it was held against history.
    let mut with_history = Vec::new();
    for c in &mut run.configurations {
        let key = configuration_key(c);
        for cell in &mut c.cells {
            let CellOutcome::Measured(m) = &mut cell.outcome else {
                with_history.push(false);
                continue;
            };
            let mut before = Vec::new();
            for (i, e) in earlier.iter().enumerate() {
                let figure = e
                    .configurations
                    .iter()
                    .filter(|x| configuration_key(x) == key)
                    .flat_map(|x| &x.cells)
                    .find(|x| x.spec == cell.spec)
                    .and_then(|x| match &x.outcome {
                        CellOutcome::Measured(em) => Some(em.summary.median),
                        _ => None,
                    });
                if let Some(f) = figure.filter(|f| *f > 0.0) {
                    before.push(f);
                    used[i] = true;
                }
            }
            let held = before.len() >= MIN_EARLIER && m.summary.median > 0.0;
            with_history.push(held);
            if !held {
                continue;
            }
            let centre = median(&mut before.clone());
            let spread = median(&mut before.iter().map(|f| (f / centre - 1.0).abs()).collect::<Vec<_>>());
            let ratio = m.summary.median / centre;
            ratios.push(ratio);
            spreads.push(spread);
            if (ratio - 1.0).abs() > UNLIKE * target.max(spread) {
                unlike += 1;
                m.warnings.push(format!(
                    "unlike this host's earlier runs: {:+.0}% against the median of its {} earlier figures (which lie within \
                     ±{:.1}% of it); the machine is {} now than it usually is — rerun later",
                    (ratio - 1.0) * 100.0,
                    before.len(),
                    spread * 100.0,
                    if ratio < 1.0 { "slower" } else { "faster" }
                ));
            }
        }
    }
    if ratios.is_empty() {
        return None;
    }
    let shift = whole_run_shift(&ratios);
    if let Some(shift) = shift {
        // Said once for the run (HostHistory), and on every cell it moves, together.
        let warning = format!(
            "whole run {}: this run's cells lie {:+.1}% from this host's earlier runs (median of {} cells, beyond its \
             precision); every figure moved with it — rerun later, or compare within this run only",
            if shift < 0.0 { "slower" } else { "faster" },
            shift.exp_m1() * 100.0,
            ratios.len()
        );
        for m in run
            .configurations
            .iter_mut()
            .flat_map(|c| &mut c.cells)
            .zip(&with_history)
            .filter(|(_, h)| **h)
            .filter_map(|(x, _)| match &mut x.outcome {
                CellOutcome::Measured(m) => Some(m),
                _ => None,
            })
        {
            m.warnings.push(warning.clone());
        }
    }
    let ratio = median(&mut ratios);
    let usual_spread = median(&mut spreads);
    Some(HostHistory {
        earlier_runs: used.iter().filter(|u| **u).count(),
        cells: spreads.len(),
        ratio,
        usual_spread,
        unlike,
        machine_differs: shift.is_some(),
    })
}

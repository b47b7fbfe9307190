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
    for c in &mut run.configurations {
        let key = configuration_key(c);
        for cell in &mut c.cells {
            let CellOutcome::Measured(m) = &mut cell.outcome else { continue };
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
            if before.len() < MIN_EARLIER || m.summary.median <= 0.0 {
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
    let ratio = median(&mut ratios);
    let usual_spread = median(&mut spreads);
    Some(HostHistory {
        earlier_runs: used.iter().filter(|u| **u).count(),
        cells: spreads.len(),
        ratio,
        usual_spread,
        unlike,
        machine_differs: (ratio - 1.0).abs() > UNLIKE * target.max(usual_spread),
    })
}

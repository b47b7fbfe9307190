//! Native against emulated, seed 000's table: where a run holds the same
//! backend once natively and once under an emulator (another architecture
//! under qemu-user, x64 code under Rosetta or Windows on Arm), the ratio
//! emulated/native per cell. The figures are both measured; the ratio says
//! what the emulation costs on this machine, not what the emulated
//! architecture's hardware would do.

use cryptobench_core::result::{CellOutcome, ConfigurationResult, RunResult};

use crate::size_label;

/// A native configuration and an emulated one of the same backend.
pub struct Pair<'a> {
    pub native: &'a ConfigurationResult,
    pub emulated: &'a ConfigurationResult,
}

fn emulator(c: &ConfigurationResult) -> Option<&str> {
    c.platform.as_ref()?.emulated_by.as_deref()
}

/// Each emulated configuration with the first native one of the same backend.
pub fn pairs(run: &RunResult) -> Vec<Pair<'_>> {
    run.configurations
        .iter()
        .filter(|c| emulator(c).is_some())
        .filter_map(|emulated| {
            let native = run
                .configurations
                .iter()
                .find(|n| n.platform.is_some() && emulator(n).is_none() && n.spec.backend == emulated.spec.backend)?;
            Some(Pair { native, emulated })
        })
        .collect()
}

fn median(c: &ConfigurationResult, algorithm: &str, op: &str, mode: &str, size: usize) -> Option<f64> {
    c.cells.iter().find_map(|x| match &x.outcome {
        CellOutcome::Measured(m)
            if x.spec.algorithm == algorithm && x.spec.operation.short() == op && x.spec.mode_label() == mode && x.spec.size == size =>
        {
            Some(m.summary.median)
        }
        _ => None,
    })
}

/// Header and rows of the ratio table of one pair ("0.012×" per cell, "" where either side is missing).
pub fn ratio_rows(run: &RunResult, pair: &Pair) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header = vec!["algorithm".to_string(), "op".to_string(), "mode".to_string()];
    header.extend(run.settings.sizes.iter().map(|&s| size_label(s)));
    let mut keys: Vec<(String, &'static str, String)> = Vec::new();
    for x in &pair.emulated.cells {
        let k = (x.spec.algorithm.clone(), x.spec.operation.short(), x.spec.mode_label());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let rows = keys
        .into_iter()
        .map(|(alg, op, mode)| {
            let mut row = vec![alg.clone(), op.to_string(), mode.clone()];
            for &size in &run.settings.sizes {
                let e = median(pair.emulated, &alg, op, &mode, size);
                let n = median(pair.native, &alg, op, &mode, size);
                row.push(match (e, n) {
                    (Some(e), Some(n)) if n > 0.0 => format_ratio(e / n),
                    _ => String::new(),
                });
            }
            row
        })
        .collect();
    (header, rows)
}

/// "0.0123×", "1.05×": enough digits for the small ratios emulation gives.
pub fn format_ratio(r: f64) -> String {
    if r >= 0.1 {
        format!("{r:.2}×")
    } else {
        format!("{r:.4}×")
    }
}

/// The title line of a pair's table; `label` names a configuration as every output does.
pub fn title<'a>(pair: &Pair<'a>, label: impl Fn(&'a ConfigurationResult) -> &'a str) -> String {
    let arch = |c: &ConfigurationResult| c.platform.as_ref().map(|p| p.arch.clone()).unwrap_or_default();
    format!(
        "emulated/native: {} under {} against {} (a ratio of two measured figures; the emulated one describes the emulator, not {} hardware)",
        label(pair.emulated),
        emulator(pair.emulated).unwrap_or("an emulator"),
        label(pair.native),
        arch(pair.emulated)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_ratios_keep_their_digits() {
        assert_eq!(format_ratio(0.004567), "0.0046×");
        assert_eq!(format_ratio(1.049), "1.05×");
    }
}

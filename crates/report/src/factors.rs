//! On/off factors of capability masks: a configuration whose environment
//! sets a mask (e.g. `OPENSSL_ia32cap` clearing AES-NI) against the
//! configuration of the same run with the same library and no extra
//! environment, marked beyond the noise by the project's one rule (cryptobench_core::decision). factor = unmasked median / masked median: what the masked
//! capability is worth. Only measured pairs give a factor; nothing is
//! estimated.

use cryptobench_core::compare::{judge, Verdict};
use cryptobench_core::result::{CellOutcome, ConfigurationResult, RunResult};
use cryptobench_core::stats::Summary;

#[derive(Debug, Clone, PartialEq)]
pub struct Factor {
    /// "OPENSSL_ia32cap=~0x…" (the environment of the masked configuration).
    pub mask: String,
    /// The run indices of the configuration without the mask and of the one with it
    /// (reports name them by their labels).
    pub base: usize,
    pub masked: usize,
    pub algorithm: String,
    pub operation: &'static str,
    pub mode: String,
    pub size: usize,
    /// Median without the mask, with it (bytes per second), and their ratio.
    pub on: f64,
    pub off: f64,
    pub factor: f64,
    /// Whether the difference is beyond the noise (the one rule, cryptobench_core::decision);
    /// None where there are too few samples to tell.
    pub beyond_noise: Option<bool>,
}

impl Factor {
    /// "6.43× *", "1.04×", "2.10× ?".
    pub fn label(&self) -> String {
        match self.beyond_noise {
            Some(true) => format!("{:.2}× *", self.factor),
            Some(false) => format!("{:.2}×", self.factor),
            None => format!("{:.2}× ?", self.factor),
        }
    }
}

type Key = (String, &'static str, String, usize);

/// (cell, summary) of every measured cell.
fn summaries(c: &ConfigurationResult) -> impl Iterator<Item = (Key, Summary)> + '_ {
    c.cells.iter().filter_map(|x| match &x.outcome {
        CellOutcome::Measured(m) => Some((
            (x.spec.algorithm.clone(), x.spec.operation.short(), x.spec.mode_label(), x.spec.size),
            m.summary,
        )),
        _ => None,
    })
}

pub fn factors(run: &RunResult) -> Vec<Factor> {
    let mut out = Vec::new();
    for masked in run.configurations.iter().filter(|c| c.spec.capability_env().next().is_some()) {
        // The same library in the same place (native, or through the same emulator) without a mask.
        let Some(base) = run.configurations.iter().find(|c| {
            c.spec.capability_env().next().is_none()
                && c.spec.backend == masked.spec.backend
                && c.spec.library == masked.spec.library
                && c.spec.worker == masked.spec.worker
        }) else {
            continue;
        };
        let mask = masked
            .spec
            .capability_env()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ");
        let on: Vec<_> = summaries(base).collect();
        for (key, off) in summaries(masked) {
            if let Some((_, on)) = on.iter().find(|(k, _)| *k == key) {
                let beyond_noise = match judge(on, &off) {
                    Verdict::Different { .. } => Some(true),
                    Verdict::Untested { .. } | Verdict::Missing | Verdict::Baseline => None,
                    Verdict::Same { .. } => Some(false),
                };
                out.push(Factor {
                    mask: mask.clone(),
                    base: base.index,
                    masked: masked.index,
                    algorithm: key.0.clone(),
                    operation: key.1,
                    mode: key.2.clone(),
                    size: key.3,
                    on: on.median,
                    off: off.median,
                    factor: on.median / off.median,
                    beyond_noise,
                });
            }
        }
    }
    out
}

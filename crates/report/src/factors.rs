//! On/off factors of capability masks: a configuration whose environment
//! sets a mask (e.g. `OPENSSL_ia32cap` clearing AES-NI) against the
//! configuration of the same run with the same library and no extra
//! environment. factor = unmasked median / masked median: what the masked
//! capability is worth. Only measured pairs give a factor; nothing is
//! estimated.

use cryptobench_core::result::{CellOutcome, ConfigurationResult, RunResult};

#[derive(Debug, Clone, PartialEq)]
pub struct Factor {
    /// "OPENSSL_ia32cap=~0x…" (the environment of the masked configuration).
    pub mask: String,
    /// "[1] vs [2]"
    pub pair: String,
    pub algorithm: String,
    pub operation: &'static str,
    pub mode: String,
    pub size: usize,
    /// Median without the mask, with it (bytes per second), and their ratio.
    pub on: f64,
    pub off: f64,
    pub factor: f64,
}

fn medians(c: &ConfigurationResult) -> impl Iterator<Item = ((String, &'static str, String, usize), f64)> + '_ {
    c.cells.iter().filter_map(|x| match &x.outcome {
        CellOutcome::Measured(m) => Some((
            (x.spec.algorithm.clone(), x.spec.operation.short(), x.spec.mode_label(), x.spec.size),
            m.summary.median,
        )),
        _ => None,
    })
}

pub fn factors(run: &RunResult) -> Vec<Factor> {
    let mut out = Vec::new();
    for masked in run.configurations.iter().filter(|c| !c.spec.env.is_empty()) {
        let Some(base) = run
            .configurations
            .iter()
            .find(|c| c.spec.env.is_empty() && c.spec.backend == masked.spec.backend && c.spec.library == masked.spec.library)
        else {
            continue;
        };
        let mask = masked
            .spec
            .env
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ");
        let on: Vec<_> = medians(base).collect();
        for (key, off) in medians(masked) {
            if let Some((_, on)) = on.iter().find(|(k, _)| *k == key) {
                out.push(Factor {
                    mask: mask.clone(),
                    pair: format!("[{}] vs [{}]", base.index, masked.index),
                    algorithm: key.0.clone(),
                    operation: key.1,
                    mode: key.2.clone(),
                    size: key.3,
                    on: *on,
                    off,
                    factor: on / off,
                });
            }
        }
    }
    out
}

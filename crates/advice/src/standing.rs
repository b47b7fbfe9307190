//! Where each configuration stands for one algorithm: its median
//! throughput and cycles per byte at the largest size measured (the
//! published tables give large-buffer figures). Configurations run with a
//! capability mask (the audit's, or one given in the environment) or under
//! an emulator are left out: they are not ways to run the algorithm here.

use cryptobench_core::result::{CellOutcome, ConfigurationResult, RunResult};
use cryptobench_core::sizes::size_label;
use cryptobench_core::stats::Summary;
use cryptobench_core::Operation;

#[derive(Debug, Clone)]
pub struct Standing<'a> {
    pub index: usize,
    /// The backend id, and whether it is the system's library (no file chosen).
    pub backend: &'a str,
    pub system: bool,
    /// The library in words: "OpenSSL 4.0.3 … (target/openssl/4.0.3/libcrypto.so)".
    pub label: String,
    pub size: usize,
    pub summary: &'a Summary,
    pub cycles_per_byte: Option<f64>,
}

impl Standing<'_> {
    pub fn describe(&self) -> String {
        let cpb = match self.cycles_per_byte {
            Some(c) => format!("{c:.2} cycles per byte at the measured clock, "),
            None => "no cycles per byte (no measured clock), ".into(),
        };
        format!(
            "[{}] {}: {}{:.0} MB/s at {}",
            self.index,
            self.label,
            cpb,
            self.summary.median / 1e6,
            size_label(self.size)
        )
    }
}

/// The configuration in words: library name and version, and the file
/// when the user chose one.
pub fn label(c: &ConfigurationResult) -> String {
    // A version that lists a whole family of crates is too long for a sentence: the name then.
    let name = c.backend.as_ref().map_or(c.spec.backend.clone(), |b| {
        if b.version.is_empty() || b.version.len() > 80 {
            b.name.clone()
        } else {
            b.version.clone()
        }
    });
    match &c.spec.library {
        Some(path) => format!("{name} ({path})"),
        None => name,
    }
}

/// Whether the configuration is a way to run algorithms on this machine:
/// no capability mask, no emulator.
pub fn is_plain(c: &ConfigurationResult) -> bool {
    c.spec.capability_env().next().is_none() && c.platform.as_ref().is_none_or(|p| p.emulated_by.is_none())
}

fn cell<'a>(c: &'a ConfigurationResult, algorithm: &str, size: usize) -> Option<(&'a Summary, Option<f64>)> {
    c.cells.iter().find_map(|x| match &x.outcome {
        CellOutcome::Measured(m)
            if x.spec.algorithm == algorithm && x.spec.size == size && x.spec.operation != Operation::Decrypt && !x.spec.rekey =>
        {
            Some((&m.summary, m.cycles_per_byte))
        }
        _ => None,
    })
}

/// The plain configurations that measured `algorithm` at its largest
/// size, fastest first.
pub fn standings<'a>(run: &'a RunResult, algorithm: &str) -> Vec<Standing<'a>> {
    let Some(size) = run
        .configurations
        .iter()
        .flat_map(|c| &c.cells)
        .filter(|x| x.spec.algorithm == algorithm && matches!(x.outcome, CellOutcome::Measured(_)))
        .map(|x| x.spec.size)
        .max()
    else {
        return Vec::new();
    };
    let mut out: Vec<Standing> = run
        .configurations
        .iter()
        .filter(|c| is_plain(c))
        .filter_map(|c| {
            cell(c, algorithm, size).map(|(summary, cycles_per_byte)| Standing {
                index: c.index,
                backend: &c.spec.backend,
                system: c.spec.library.is_none(),
                label: label(c),
                size,
                summary,
                cycles_per_byte,
            })
        })
        .collect();
    out.sort_by(|a, b| b.summary.median.total_cmp(&a.summary.median));
    out
}

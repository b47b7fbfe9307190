//! Where each configuration stands for one algorithm and operation: its
//! median and its cycles at the configuration's measured clock
//! (`ConfigurationResult.clock`): per byte at the largest size measured
//! for symmetric cells (the published tables give large-buffer figures),
//! per operation for public key, at the smallest message measured (a
//! digest or a short message, as the published tables sign).
//! Configurations run with a capability mask (the audit's, or one given
//! in the environment) or under an emulator are left out: they are not
//! ways to run the algorithm here.

use cryptobench_core::cell::CellUnit;
use cryptobench_core::result::{CellOutcome, CellResult, ConfigurationResult, Measurement, RunResult};
use cryptobench_core::sizes::size_label;
use cryptobench_core::stats::Summary;
use cryptobench_core::Operation;

use crate::units;

/// What advice is given per: an algorithm, and for public key one operation of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub algorithm: String,
    /// "sign", "verify", …: public key only.
    pub operation: Option<String>,
}

impl Key {
    /// The key of a cell, or None for a cell advice does not read (decryption, rekeying).
    pub fn of(cell: &CellResult) -> Option<Key> {
        let s = &cell.spec;
        match s.unit {
            CellUnit::Operations => Some(Key {
                algorithm: s.algorithm.clone(),
                operation: Some(s.operation.short().to_string()),
            }),
            CellUnit::Bytes if s.operation != Operation::Decrypt && !s.rekey => Some(Key {
                algorithm: s.algorithm.clone(),
                operation: None,
            }),
            CellUnit::Bytes => None,
        }
    }

    /// "aes-128-gcm", "ed25519 sign".
    pub fn title(&self) -> String {
        match &self.operation {
            Some(op) => format!("{} {op}", self.algorithm),
            None => self.algorithm.clone(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Standing<'a> {
    pub index: usize,
    /// The backend id, and whether it is the system's library (no file chosen).
    pub backend: &'a str,
    pub system: bool,
    /// The library in words: "OpenSSL 4.0.3 … (target/openssl/4.0.3/libcrypto.so)".
    pub label: String,
    /// The library file the user chose, where one was.
    pub library: Option<&'a str>,
    pub size: usize,
    pub unit: CellUnit,
    pub summary: &'a Summary,
    /// Cycles per byte or per operation at the measured clock.
    pub cycles: Option<f64>,
    /// The configuration's measured clock, MHz.
    pub clock_mhz: Option<f64>,
}

impl Standing<'_> {
    pub fn describe(&self) -> String {
        let cycles = match (self.cycles, self.clock_mhz) {
            (Some(c), Some(mhz)) => format!("{} at the measured {} MHz", units::cycles(c, self.unit), units::number(mhz)),
            (Some(c), None) => format!("{} at the measured clock", units::cycles(c, self.unit)),
            (None, _) => format!("no {} (no measured clock)", units::cycles_name(self.unit)),
        };
        let at = match self.unit {
            CellUnit::Bytes => format!(" at {}", size_label(self.size)),
            CellUnit::Operations => String::new(),
        };
        format!(
            "[{}] {}: {}{at}, {cycles}",
            self.index,
            self.label,
            units::rate(self.summary.median, self.unit)
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

/// The measured cells of `key` in a configuration, with their sizes.
fn measured<'a>(c: &'a ConfigurationResult, key: &Key) -> impl Iterator<Item = (usize, &'a Measurement)> + 'a {
    let key = key.clone();
    c.cells.iter().filter_map(move |x| match &x.outcome {
        CellOutcome::Measured(m) if Key::of(x).as_ref() == Some(&key) => Some((x.spec.size, m)),
        _ => None,
    })
}

/// The size every configuration is read at: the largest measured (bytes)
/// or the smallest (operations).
fn size_of(run: &RunResult, key: &Key) -> Option<usize> {
    let sizes = run.configurations.iter().flat_map(|c| measured(c, key).map(|(s, _)| s));
    if key.operation.is_some() {
        sizes.min()
    } else {
        sizes.max()
    }
}

/// The plain configurations that measured `key`, fastest first.
pub fn standings<'a>(run: &'a RunResult, key: &Key) -> Vec<Standing<'a>> {
    let Some(size) = size_of(run, key) else {
        return Vec::new();
    };
    let mut out: Vec<Standing> = run
        .configurations
        .iter()
        .filter(|c| is_plain(c))
        .filter_map(|c| {
            let (_, m) = measured(c, key).find(|(s, _)| *s == size)?;
            // A clock the worker marks as meaningless (an emulator's) gives no cycles.
            let clock_mhz = c.clock.as_ref().filter(|k| k.not_meaningful.is_none()).and_then(|k| k.mhz());
            let unit = if key.operation.is_some() {
                CellUnit::Operations
            } else {
                CellUnit::Bytes
            };
            let cycles = match unit {
                CellUnit::Bytes => m.cycles_per_byte,
                // One operation's cycles: the clock over the operations per second.
                CellUnit::Operations => clock_mhz.filter(|_| m.summary.median > 0.0).map(|mhz| mhz * 1e6 / m.summary.median),
            };
            Some(Standing {
                index: c.index,
                backend: &c.spec.backend,
                system: c.spec.library.is_none(),
                label: label(c),
                library: c.spec.library.as_deref(),
                size,
                unit,
                summary: &m.summary,
                cycles,
                clock_mhz,
            })
        })
        .collect();
    out.sort_by(|a, b| b.summary.median.total_cmp(&a.summary.median));
    out
}

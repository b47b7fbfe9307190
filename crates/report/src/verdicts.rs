//! The audit's answer in rows: per library, algorithm and family the factor
//! at the largest and the smallest size (marked `~` where a figure behind
//! it is noisy), the verdict, and who was switched off, named by label.
//! Rendered by the HTML and Markdown reports; the verdicts themselves were
//! decided by `cryptobench audit` and saved with the run.

use cryptobench_core::audit::{feature_title, AuditedLibrary, Verdict, VerdictKind};
use cryptobench_core::catalog::Family;
use cryptobench_core::result::{CellOutcome, Measurement, RunResult};
use cryptobench_core::Operation;

use crate::grid::NOISY_MARK;
use crate::labels::Labels;

pub struct VerdictRow<'a> {
    /// The label of the library's configuration with everything on.
    pub library: String,
    pub algorithm: &'a str,
    /// The label of the configuration the "off" figures come from.
    pub off_label: String,
    /// Its role in the audit: "AES off", "all off".
    pub switched_off: String,
    /// The CPU features the figures are about: "AES-NI/VAES".
    pub features: String,
    /// The off configuration's run index (its colour follows from it).
    pub off_index: Option<usize>,
    pub large_size: usize,
    pub small_size: usize,
    /// "7.32×", "7.32× ~", "-".
    pub factor_large: String,
    pub factor_small: String,
    pub kind: VerdictKind,
    pub verdict: &'a Verdict,
}

/// The run's measurement of one cell (encryption or digest), where measured.
fn measurement<'a>(run: &'a RunResult, index: usize, algorithm: &str, size: usize) -> Option<&'a Measurement> {
    let c = run.configurations.iter().find(|c| c.index == index)?;
    c.cells.iter().find_map(|x| match &x.outcome {
        CellOutcome::Measured(m) if x.spec.algorithm == algorithm && x.spec.size == size && x.spec.operation != Operation::Decrypt => {
            Some(m)
        }
        _ => None,
    })
}

/// "7.32×", with the noise mark when either figure behind it carries a warning.
fn factor(run: &RunResult, on: usize, off: Option<usize>, algorithm: &str, size: usize, value: Option<f64>) -> String {
    let Some(v) = value else { return "-".into() };
    let noisy = [Some(on), off]
        .into_iter()
        .flatten()
        .any(|i| measurement(run, i, algorithm, size).is_some_and(|m| m.is_noisy()));
    format!("{v:.2}×{}", if noisy { format!(" {NOISY_MARK}") } else { String::new() })
}

/// The configuration a verdict's "off" figures come from.
fn off_index(lib: &AuditedLibrary, v: &Verdict) -> Option<usize> {
    v.off_index.or_else(|| {
        let wanted: Vec<Family> = match v.family {
            Some(f) => vec![f],
            None => Family::ALL.to_vec(),
        };
        lib.configurations.iter().find(|m| m.families_off == wanted).map(|m| m.index)
    })
}

/// Every verdict of the audit run at position `pos` of the report.
pub fn rows<'a>(run: &'a RunResult, pos: usize, labels: &Labels) -> Vec<VerdictRow<'a>> {
    let Some(audit) = &run.audit else { return Vec::new() };
    let mut out = Vec::new();
    for lib in &audit.libraries {
        for v in &lib.verdicts {
            let off = off_index(lib, v);
            let features: Vec<String> = if v.masked.is_empty() { &v.features } else { &v.masked }
                .iter()
                .map(|f| feature_title(f, &lib.worker_arch))
                .collect();
            out.push(VerdictRow {
                library: labels.get(pos, lib.base_index).to_string(),
                algorithm: &v.algorithm,
                off_label: off.map(|i| labels.get(pos, i).to_string()).unwrap_or_default(),
                switched_off: off
                    .and_then(|i| lib.configuration(i))
                    .map(|m| m.role())
                    .unwrap_or_else(|| "-".into()),
                features: features.join("/"),
                off_index: off,
                large_size: v.large_size,
                small_size: v.small_size,
                factor_large: factor(run, lib.base_index, off, &v.algorithm, v.large_size, v.factor_large),
                factor_small: factor(run, lib.base_index, off, &v.algorithm, v.small_size, v.factor_small),
                kind: v.kind,
                verdict: v,
            });
        }
    }
    out
}

/// The CSS class of a verdict kind: what it means for the reader, in three tones.
pub fn tone(kind: VerdictKind) -> &'static str {
    match kind {
        VerdictKind::Accelerated | VerdictKind::SmallGain => "good",
        VerdictKind::AvailableNotUsed | VerdictKind::FasterWithout => "bad",
        VerdictKind::NotOffered | VerdictKind::NotMasked | VerdictKind::Inconclusive | VerdictKind::NoFamily => "plain",
    }
}

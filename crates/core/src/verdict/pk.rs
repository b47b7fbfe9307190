//! Verdicts of the audit for public key: for every public-key cell (an
//! algorithm and an operation, e.g. "rsa2048 sign"), its operations per
//! second with a family on and switched off — the big-number family
//! (BMI2/ADX and AVX-512 IFMA on x86) and SIMD (OpenSSL's RSAZ needs AVX2
//! or AVX-512F/BW/VL beside IFMA; P-256 looks its tables up with AVX2) —
//! judged by the same [`rules`](super::rules) as the symmetric verdicts. Each
//! cell has one size, so there is one factor.

use super::rules::{family_features, measured, WorkerCpu};
use crate::audit::{feature_title, MaskedConfiguration, Verdict, VerdictKind};
use crate::catalog::Family;
use crate::result::{CellOutcome, RunResult};
use crate::stats::Summary;
use crate::units::format_ops;
use crate::Operation;

/// The family only public key adds to the audit's masks.
pub const FAMILY: Family = Family::Bignum;
/// The families a public-key verdict is given for.
pub const FAMILIES: [Family; 2] = [Family::Bignum, Family::Simd];

/// How a public-key verdict names its cell: "rsa2048 sign".
pub fn cell_name(algorithm: &str, operation: Operation) -> String {
    format!("{algorithm} {}", operation.short())
}

/// The public-key cell a verdict's name stands for: (algorithm, operation).
pub fn parse_cell_name(name: &str) -> Option<(&str, Operation)> {
    let (alg, op) = name.split_once(' ')?;
    crate::pk::find(alg)?;
    let op = [
        Operation::Sign,
        Operation::Verify,
        Operation::Keygen,
        Operation::Encaps,
        Operation::Decaps,
        Operation::Derive,
        Operation::Encrypt,
        Operation::Decrypt,
    ]
    .into_iter()
    .find(|o| o.short() == op)?;
    Some((alg, op))
}

/// The measured summary of one public-key cell of configuration `index`.
pub fn summary<'a>(run: &'a RunResult, index: usize, algorithm: &str, operation: Operation) -> Option<&'a Summary> {
    let c = run.configurations.iter().find(|c| c.index == index)?;
    c.cells.iter().find_map(|x| match &x.outcome {
        CellOutcome::Measured(m) if x.spec.algorithm == algorithm && x.spec.operation == operation => Some(&m.summary),
        _ => None,
    })
}

/// Verdicts for every public-key cell of the run, about the CPU its worker saw.
pub fn verdicts(run: &RunResult, masked: &[MaskedConfiguration], cpu: &WorkerCpu) -> Vec<Verdict> {
    let Some(base) = masked.iter().find(|m| m.families_off.is_empty()) else {
        return Vec::new();
    };
    let mut cells: Vec<(String, Operation, usize)> = Vec::new();
    for c in run.configurations.iter().filter(|c| c.index == base.index) {
        for x in c.cells.iter().filter(|x| x.spec.is_public_key()) {
            if !cells.iter().any(|(a, o, _)| *a == x.spec.algorithm && *o == x.spec.operation) {
                cells.push((x.spec.algorithm.clone(), x.spec.operation, x.spec.size));
            }
        }
    }
    let names = |fs: &[&str]| fs.iter().map(|f| feature_title(f, cpu.arch)).collect::<Vec<_>>().join("/");
    let mut out = Vec::new();
    for (algorithm, operation, size) in cells {
        for family in FAMILIES {
            let off_config = masked.iter().find(|m| m.families_off == vec![family]);
            let features: &[&str] = family_features(family, None, cpu.arch);
            let offered: Vec<&str> = features.iter().copied().filter(|f| cpu.features.iter().any(|c| c == f)).collect();
            let on = summary(run, base.index, &algorithm, operation);
            let off = off_config.and_then(|m| summary(run, m.index, &algorithm, operation));
            let factor = match (on, off) {
                (Some(on), Some(off)) => Some(on.median / off.median),
                _ => None,
            };
            let figures = match (on, off, factor) {
                (Some(on), Some(off), Some(f)) => {
                    format!("{f:.2}× ({} op/s on, {} op/s off)", format_ops(on.median), format_ops(off.median))
                }
                _ => "not measured".to_string(),
            };
            let masked_here: Vec<&str> = match off_config {
                Some(m) => offered.iter().copied().filter(|f| m.cleared.iter().any(|c| c == f)).collect(),
                None => Vec::new(),
            };
            let (kind, text) = if offered.is_empty() {
                (VerdictKind::NotOffered, format!("not offered by this CPU (no {})", names(features)))
            } else if masked_here.is_empty() {
                (
                    VerdictKind::NotMasked,
                    format!(
                        "the CPU offers {}, which this library has no switch for: not measured without it",
                        names(&offered)
                    ),
                )
            } else {
                measured(on, off, &names(&masked_here), &figures)
            };
            let text = match cpu.emulated_by {
                Some(e) => format!("under emulation ({e}), not hardware: {text}"),
                None => text,
            };
            out.push(Verdict {
                algorithm: cell_name(&algorithm, operation),
                family: Some(family),
                kind,
                features: features.iter().map(|s| s.to_string()).collect(),
                masked: masked_here.iter().map(|s| s.to_string()).collect(),
                off_index: off_config.map(|m| m.index),
                small_size: size,
                large_size: size,
                factor_small: None,
                factor_large: factor,
                on_large: on.map(|s| s.median),
                off_large: off.map(|s| s.median),
                text,
            });
        }
    }
    out
}

//! The binding's cost of public key: for every public-key cell a runtime
//! measured, the same cell (algorithm, operation, signed length) of the
//! configuration of the same run that measured the C library underneath
//! directly, matched as the symmetric rows are ([`super::binding`]: the
//! name and version the runtime's driver reports). A public-key call does
//! the same work at every size, so there is no overhead fit: the line is
//! time per operation of each, their difference, and the runtime's
//! operations per second over the library's (< 1: slower). Nothing here
//! measures.

use crate::binding::{BindingCost, SizeRatio, PUBLIC_KEY_MODE};
use crate::cell::CellSpec;
use crate::result::{BackendInfo, CellOutcome, ConfigurationResult, RunResult};

use super::binding::{direct, is_runtime, underneath, version_number};

/// Adds the public-key lines to `bindings` of every runtime configuration
/// of the run (after the symmetric rows of [`super::binding::derive`]).
pub fn derive(run: &mut RunResult) {
    let costs: Vec<(usize, Vec<BindingCost>)> = run
        .configurations
        .iter()
        .enumerate()
        .filter(|(_, c)| is_runtime(c))
        .filter_map(|(i, c)| Some((i, costs(c, c.backend.as_ref()?, &run.configurations))))
        .collect();
    for (i, lines) in costs {
        run.configurations[i].bindings.extend(lines);
    }
}

/// The median operations per second of each measured public-key cell of `c`.
fn measured(c: &ConfigurationResult) -> impl Iterator<Item = (&CellSpec, f64)> {
    c.cells.iter().filter(|x| x.spec.is_public_key()).filter_map(|x| match &x.outcome {
        CellOutcome::Measured(m) if m.summary.median > 0.0 => Some((&x.spec, m.summary.median)),
        _ => None,
    })
}

/// One line per measured public-key cell of the runtime `c`.
fn costs(c: &ConfigurationResult, info: &BackendInfo, all: &[ConfigurationResult]) -> Vec<BindingCost> {
    measured(c).map(|(spec, ops)| cost(spec, ops, info, all)).collect()
}

fn cost(spec: &CellSpec, ops_per_s: f64, info: &BackendInfo, all: &[ConfigurationResult]) -> BindingCost {
    let (text, library) = underneath(info, &spec.algorithm);
    let mut cost = BindingCost {
        algorithm: spec.algorithm.clone(),
        operation: spec.operation,
        mode: PUBLIC_KEY_MODE.into(),
        underneath: text.clone(),
        direct: None,
        direct_mode: None,
        note: None,
        per_call_ns: 1e9 / ops_per_s,
        asymptotic_bytes_per_s: 0.0,
        half_peak_bytes: 0.0,
        direct_per_call_ns: None,
        direct_asymptotic_bytes_per_s: None,
        direct_half_peak_bytes: None,
        ratios: Vec::new(),
    };
    let Some((name, version)) = library else {
        cost.note = Some(format!("no C library underneath: {text}"));
        return cost;
    };
    let (d, note) = match direct(all, &name, &version) {
        Ok(found) => found,
        Err(why) => {
            cost.note = Some(why);
            return cost;
        }
    };
    cost.direct = Some(d.index);
    cost.note = note;
    let same = |s: &CellSpec| s.algorithm == spec.algorithm && s.operation == spec.operation && s.size == spec.size;
    match measured(d).find(|(s, _)| same(s)) {
        Some((_, theirs)) => {
            cost.direct_per_call_ns = Some(1e9 / theirs);
            cost.ratios = vec![SizeRatio {
                size: spec.size,
                ratio: ops_per_s / theirs,
            }];
        }
        None => {
            let library = d
                .backend
                .as_ref()
                .map(|b| format!("{} {}", b.name, version_number(&b.version).unwrap_or(&b.version)))
                .unwrap_or_else(|| "the library".into());
            let missing = format!(
                "{library} has no measured {} {} cell in this run",
                spec.algorithm,
                spec.operation.short()
            );
            cost.note = Some(match cost.note.take() {
                Some(n) => format!("{n}; {missing}"),
                None => missing,
            });
        }
    }
    cost
}

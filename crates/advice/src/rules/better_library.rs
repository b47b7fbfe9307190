//! A faster library, version or build measured here: the best
//! configuration against the system's build of the same library (else the
//! run's first configuration, the default library), when the two medians
//! differ beyond the noise by the one rule (crates/core/src/decision.rs:
//! Welch's test on figures of replicates; the audit's own test,
//! crates/core/src/verdict/rules.rs) — and
//! by at least the audit's smallest factor that counts. Operation by
//! operation for public key: the standings are per operation.

use std::path::Path;

use cryptobench_core::cell::CellUnit;
use cryptobench_core::sizes::size_label;
use cryptobench_core::verdict::{beyond_noise, MIN_FACTOR};

use crate::standing::Standing;
use crate::{units, Sentence};

/// How to reach a library file from a program: its folder on the loader's path.
fn how_to_load(library: Option<&str>) -> String {
    let Some(path) = library else { return String::new() };
    let is_shared = Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".so") || n.contains(".so."));
    match Path::new(path).parent().filter(|_| is_shared) {
        Some(dir) => format!(
            " (programs that load it dynamically reach it with LD_LIBRARY_PATH={})",
            dir.display()
        ),
        None => String::new(),
    }
}

pub fn sentences(standings: &[Standing]) -> Vec<Sentence> {
    let Some(best) = standings.first() else {
        return Vec::new();
    };
    // A build given by file is held against the system's build of the same
    // library; another library against the default (the run's first).
    let system = standings
        .iter()
        .filter(|s| !best.system && s.system && s.backend == best.backend)
        .min_by_key(|s| s.index);
    let Some(base) = system.or_else(|| standings.iter().min_by_key(|s| s.index)) else {
        return Vec::new();
    };
    if base.index == best.index || !beyond_noise(best.summary, base.summary) || best.summary.median < MIN_FACTOR * base.summary.median {
        return Vec::new();
    }
    let factor = best.summary.median / base.summary.median;
    let cycles = match (best.cycles, base.cycles) {
        (Some(a), Some(b)) => format!(
            " ({} against {} {})",
            units::number(a),
            units::number(b),
            units::cycles_name(best.unit)
        ),
        _ => String::new(),
    };
    let at = match best.unit {
        CellUnit::Bytes => format!(" at {}", size_label(best.size)),
        CellUnit::Operations => String::new(),
    };
    vec![Sentence {
        text: format!(
            "move to {}{}: {factor:.1}× {}{at}{cycles}, beyond the noise",
            best.label,
            how_to_load(best.library),
            base.label,
        ),
        backing: format!(
            "measured in this run: [{}] {}, [{}] {}",
            best.index,
            units::rate_with_interval(best.summary, best.unit),
            base.index,
            units::rate_with_interval(base.summary, base.unit),
        ),
    }]
}

//! A faster library, version or build measured here: the best
//! configuration against the system's build of the same library (else the
//! run's first configuration, the default library), when the
//! two medians differ beyond the noise — their dependence-aware 95%
//! intervals do not overlap (crates/core/src/verdict/rules.rs, the audit's
//! own test) — and by at least the audit's smallest factor that counts.

use cryptobench_core::sizes::size_label;
use cryptobench_core::verdict::{beyond_noise, MIN_FACTOR};

use super::cpb;
use crate::standing::Standing;
use crate::Sentence;

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
    let cycles = match (best.cycles_per_byte, base.cycles_per_byte) {
        (Some(_), Some(_)) => format!(
            " ({} against {} cycles per byte)",
            cpb(best.cycles_per_byte),
            cpb(base.cycles_per_byte)
        ),
        _ => String::new(),
    };
    vec![Sentence {
        text: format!(
            "move to {}: {factor:.1}× {} at {}{cycles}, beyond the noise",
            best.label,
            base.label,
            size_label(best.size),
        ),
        backing: format!(
            "measured in this run: [{}] {:.0} MB/s (95% CI {:.0}–{:.0}), [{}] {:.0} MB/s (95% CI {:.0}–{:.0})",
            best.index,
            best.summary.median / 1e6,
            best.summary.median_ci95[0] / 1e6,
            best.summary.median_ci95[1] / 1e6,
            base.index,
            base.summary.median / 1e6,
            base.summary.median_ci95[0] / 1e6,
            base.summary.median_ci95[1] / 1e6,
        ),
    }]
}

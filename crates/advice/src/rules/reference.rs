//! The distance of the best configuration measured here from the best
//! figure published for this core (data/best-known.json, cited). Within
//! [`AT_BEST`] of it the algorithm is "at the best known for this core";
//! nothing is said where no figure is published; emulated configurations
//! are not among the standings (crate::standing).

use super::cpb;
use crate::core::Core;
use crate::standing::Standing;
use crate::Sentence;

/// A figure at most 10% above the published one counts as at it: the
/// audit's smallest factor that counts (crates/core/src/verdict/rules.rs,
/// MIN_FACTOR), since published figures come from other machines and clocks.
pub const AT_BEST: f64 = cryptobench_core::verdict::MIN_FACTOR;

pub fn sentences(standings: &[Standing], core: &Core, algorithm: &str) -> Vec<Sentence> {
    let (Some(best), Some((entry, for_core))) = (standings.first(), core.reference(algorithm)) else {
        return Vec::new();
    };
    let Some(published) = entry.value() else {
        return Vec::new();
    };
    let Some(measured) = best.cycles_per_byte else {
        return vec![Sentence {
            text: format!(
                "no distance from the best known for this core ({} cycles per byte published for {for_core}): the run measured no clock, so no cycles per byte",
                entry.figure
            ),
            backing: format!("cited: {}", entry.citation()),
        }];
    };
    let ratio = measured / published;
    let text = if ratio <= AT_BEST {
        format!(
            "at the best known for this core: {} cycles per byte against {} published for {for_core}",
            cpb(Some(measured)),
            entry.figure
        )
    } else {
        format!(
            "{ratio:.1}× the best known for this core: {} cycles per byte against {} published for {for_core} ({}, {})",
            cpb(Some(measured)),
            entry.figure,
            entry.path,
            entry.library
        )
    };
    vec![Sentence {
        text,
        backing: format!(
            "measured: [{}] at {}; cited: {} cycles per byte at {}, {} (\"{}\")",
            best.index,
            cryptobench_core::sizes::size_label(best.size),
            entry.figure,
            entry.size,
            entry.citation(),
            entry.source.text
        ),
    }]
}

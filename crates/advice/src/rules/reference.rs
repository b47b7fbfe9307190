//! The distance of the best configuration measured here from the figures
//! published for this core's own generation (data/best-known.json,
//! cited), compared like with like: the same operation, and for bytes a
//! size at which the published figure's message size is reached.
//! Within [`AT_BEST`] of the best figure the algorithm is "at the best
//! known for this core"; where several figures are published their spread
//! is shown. Where none is, the sentence says so, and another
//! generation's figure is shown for reference only, with how the two
//! cores differ, never as a distance.

use cryptobench_core::cell::CellUnit;
use cryptobench_core::sizes::size_label;

use super::Context;
use crate::standing::Standing;
use crate::table::Entry;
use crate::{units, Sentence};

/// A figure at most 10% above the published one counts as at it: the
/// audit's smallest factor that counts (crates/core/src/verdict/rules.rs,
/// MIN_FACTOR), since published figures come from other machines and clocks.
pub const AT_BEST: f64 = cryptobench_core::verdict::MIN_FACTOR;

/// The size from which a cell counts as "large": 16 KiB, the largest
/// block of `openssl speed` (apps/speed.c, lengths_list), which is what
/// tables stating "large buffer" are read from.
pub const LARGE: usize = 16 * 1024;

/// Whether the cell and the published figure measure the same thing: a
/// published figure for messages of S bytes is held against a cell of at
/// least min(S, [`LARGE`]) bytes; below that the cell pays per-call costs
/// the published figure spreads over its longer messages.
pub fn comparable(s: &Standing, e: &Entry) -> Result<(), String> {
    if s.unit == CellUnit::Operations {
        return Ok(());
    }
    let needed = e.message_bytes.map_or(LARGE as u64, |b| b.min(LARGE as u64));
    if (s.size as u64) < needed {
        return Err(format!(
            "the largest size measured is {}, and the published figures are for {} (comparable from {}): \
             at smaller sizes the cost per call counts, not the code path; measure {} or more",
            size_label(s.size),
            e.size,
            size_label(needed as usize),
            size_label(needed as usize)
        ));
    }
    Ok(())
}

/// The published figure in a backing: what it is, for which size, whose,
/// and where (a line of a file quoted; a table cell by its row and column).
pub fn cite(e: &Entry) -> String {
    let quoted = match &e.source.cell {
        Some(_) => String::new(),
        None => format!(": \"{}\"", e.source.text.trim()),
    };
    format!("cited: {} for {}, {}, {}{quoted}", e.describe(), e.size, e.library, e.citation())
}

pub fn sentences(cx: &Context) -> Vec<Sentence> {
    let (Some(best), Some(core)) = (cx.standings.first(), cx.core.microarch) else {
        return Vec::new();
    };
    let op = cx.key.operation.as_deref();
    let own = cx.core.own(&cx.key.algorithm, op);
    let Some(entry) = own.first().copied() else {
        return vec![none_published(cx, &core.name)];
    };
    if let Err(why) = comparable(best, entry) {
        return vec![Sentence {
            text: format!("no distance from the best known for this core: {why}"),
            backing: format!("measured: [{}] at {}; {}", best.index, size_label(best.size), cite(entry)),
        }];
    }
    let published = entry.cycles().unwrap_or(f64::INFINITY);
    let Some(measured) = best.cycles else {
        return vec![Sentence {
            text: format!(
                "no distance from the best known for this core ({} published for {}): the run measured no clock, so no {}",
                entry.describe(),
                core.name,
                units::cycles_name(best.unit)
            ),
            backing: cite(entry),
        }];
    };
    let ratio = measured / published;
    // Bytes: both sizes, so that the reader sees what is compared with what.
    let (here, there) = match best.unit {
        CellUnit::Bytes => (format!(" at {}", size_label(best.size)), format!(" for {}", entry.size)),
        CellUnit::Operations => (String::new(), String::new()),
    };
    let measured_words = units::cycles(measured, best.unit);
    let mut text = if ratio <= AT_BEST {
        format!(
            "at the best known for this core: {measured_words}{here} against {}{there} published for {} ({})",
            entry.describe(),
            core.name,
            entry.library
        )
    } else {
        format!(
            "{ratio:.1}× the best known for this core: {measured_words}{here} against {}{there} published for {} ({}: {})",
            entry.describe(),
            core.name,
            entry.library,
            entry.path
        )
    };
    if own.len() > 1 {
        let last = own.last().and_then(|e| e.cycles()).unwrap_or(published);
        text.push_str(&format!(
            "; {} figures are published for this core, {} to {} {}",
            own.len(),
            units::number(published),
            units::number(last),
            units::cycles_name(best.unit)
        ));
    }
    // The same library's own published figure, where the best is another's: like with like.
    let name = best.label.split_whitespace().next().unwrap_or_default().to_ascii_lowercase();
    let same_library = |e: &Entry| e.library.split_whitespace().next().is_some_and(|l| l.eq_ignore_ascii_case(&name));
    if !same_library(entry) {
        if let Some(same) = own.iter().find(|e| same_library(e)) {
            text.push_str(&format!("; {} itself is published at {} here", same.library, same.describe()));
        }
    }
    vec![Sentence {
        text,
        backing: format!(
            "measured: [{}]{}; {}",
            best.index,
            match best.unit {
                CellUnit::Bytes => format!(" at {}", size_label(best.size)),
                CellUnit::Operations => String::new(),
            },
            cite(entry)
        ),
    }]
}

fn none_published(cx: &Context, core: &str) -> Sentence {
    let op = cx.key.operation.as_deref();
    let mut text = format!("no figure is published for {core} ({}) in the best-known table", cx.key.title());
    let mut backing = "crates/advice/data/best-known.json has no entry for this core".to_string();
    if let Some(si) = cx.core.stand_in(&cx.key.algorithm, op) {
        text.push_str(&format!(
            "; for reference only, not this core's: {} published for {} ({}), a core that differs: {}",
            si.entry.describe(),
            si.core.name,
            si.entry.library,
            si.differs
        ));
        backing = cite(si.entry);
    }
    Sentence { text, backing }
}

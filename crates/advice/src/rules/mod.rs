//! The rules, one per file, each returning the sentences it can back with
//! figures: a faster library or build measured here ([`better_library`]),
//! the distance from the best known for this core ([`reference`]), a newer
//! version of the same library published faster on this core
//! ([`newer_version`]), a build
//! that looks wrong, with the evidence of its cause ([`looks_wrong`]), a
//! feature the CPU offers and the library leaves unused by the audit's
//! measurement ([`unused_feature`]), a runtime that reaches another
//! library than its neighbours ([`runtime_library`]), figures that
//! describe an emulator ([`emulated`]).

pub mod better_library;
pub mod emulated;
pub mod looks_wrong;
pub mod newer_version;
pub mod reference;
pub mod runtime_library;
pub mod unused_feature;

use cryptobench_core::result::RunResult;

use crate::core::Core;
use crate::standing::{Key, Standing};
use crate::{CapabilityView, Sentence};

/// What every rule reads: the run, the algorithm (and operation), where
/// each configuration stands, the core, and the libraries' own views of
/// the CPU where the caller can decode them.
pub struct Context<'a> {
    pub run: &'a RunResult,
    pub key: &'a Key,
    pub standings: &'a [Standing<'a>],
    pub core: &'a Core,
    pub view: Option<CapabilityView<'a>>,
}

/// Every rule's sentences for one algorithm (and operation), in the order above.
pub fn all(cx: &Context) -> Vec<Sentence> {
    let mut out = Vec::new();
    out.extend(better_library::sentences(cx.standings));
    out.extend(reference::sentences(cx));
    out.extend(newer_version::sentences(cx));
    out.extend(looks_wrong::sentences(cx));
    if cx.key.operation.is_none() {
        out.extend(unused_feature::sentences(cx.run, &cx.key.algorithm));
    }
    out.extend(runtime_library::sentences(cx.run, cx.standings));
    out.extend(emulated::sentences(cx));
    out
}

//! The rules, one per file, each returning the sentences it can back with
//! figures: a faster library or build measured here ([`better_library`]),
//! the distance from the best known for this core ([`reference`]), a build
//! that looks wrong ([`looks_wrong`]), a feature the CPU offers and the
//! library leaves unused by the audit's measurement ([`unused_feature`]),
//! a runtime that reaches another library than its neighbours
//! ([`runtime_library`]), figures that describe an emulator ([`emulated`]).

pub mod better_library;
pub mod emulated;
pub mod looks_wrong;
pub mod reference;
pub mod runtime_library;
pub mod unused_feature;

use cryptobench_core::result::RunResult;

use crate::core::Core;
use crate::standing::Standing;
use crate::Sentence;

/// Every rule's sentences for one algorithm, in the order above.
pub fn all(run: &RunResult, algorithm: &str, standings: &[Standing], core: &Core) -> Vec<Sentence> {
    let mut out = Vec::new();
    out.extend(better_library::sentences(standings));
    out.extend(reference::sentences(standings, core, algorithm));
    out.extend(looks_wrong::sentences(run, standings, core, algorithm));
    out.extend(unused_feature::sentences(run, algorithm));
    out.extend(runtime_library::sentences(run, standings));
    out.extend(emulated::sentences(run, core, algorithm));
    out
}

/// "0.32" for a cycles-per-byte figure.
pub(crate) fn cpb(c: Option<f64>) -> String {
    c.map_or("no".into(), |c| format!("{c:.2}"))
}

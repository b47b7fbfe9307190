//! Figures measured under an emulator describe the emulator, not a CPU of
//! the emulated architecture: no distance and no "looks wrong" is drawn
//! from them, only what is published for the core the run names.

use cryptobench_core::result::CellOutcome;

use super::Context;
use crate::Sentence;

pub fn sentences(cx: &Context) -> Vec<Sentence> {
    let (run, core, algorithm) = (cx.run, cx.core, cx.key.algorithm.as_str());
    let emulated: Vec<(usize, &str, &str)> = run
        .configurations
        .iter()
        .filter_map(|c| {
            let platform = c.platform.as_ref()?;
            let by = platform.emulated_by.as_deref()?;
            let measured = c
                .cells
                .iter()
                .any(|x| x.spec.algorithm == algorithm && matches!(x.outcome, CellOutcome::Measured(_)));
            measured.then_some((c.index, by, platform.arch.as_str()))
        })
        .collect();
    let Some((_, by, arch)) = emulated.first() else {
        return Vec::new();
    };
    let indices: Vec<String> = emulated.iter().map(|(i, _, _)| format!("[{i}]")).collect();
    // Published figures only for a core of the emulated architecture.
    let reference = core.microarch.filter(|m| m.arch == *arch).and_then(|m| {
        core.own(algorithm, cx.key.operation.as_deref())
            .first()
            .map(|e| (*e, m.name.as_str()))
    });
    let (published, backing) = match reference {
        Some((e, for_core)) => (
            format!("; on the hardware, the best known is {} for {for_core} ({})", e.describe(), e.path),
            super::reference::cite(e),
        ),
        None => (String::new(), "the run's platform records".into()),
    };
    vec![Sentence {
        text: format!(
            "{} measured under {by}: the figures describe the emulator, not the core, so no distance from the best known is drawn{published}",
            indices.join(" ")
        ),
        backing,
    }]
}

//! Advice from a run: for each algorithm measured (each operation, for
//! public key), the best configuration measured here, its cycles per byte
//! or per operation at the measured clock, its distance from the figures
//! published for this core ([`table`], cited), and what to change, each
//! sentence backed by a figure of the same run or a cited source. One rule
//! per file under [`rules`]; where no rule has anything to say, nothing is
//! said: no advice is better than invented advice. A run whose cells were
//! not timed at the default budget gets no advice at all ([`gate`]).
//! Rendering as text and Markdown is in [`render`] (HTML in crates/report).

pub mod core;
pub mod gate;
pub mod render;
pub mod rules;
pub mod standing;
pub mod table;
pub mod units;

use cryptobench_core::result::{ConfigurationResult, RunResult};

use crate::standing::Key;

/// One sentence of advice and what it rests on.
#[derive(Debug, Clone, PartialEq)]
pub struct Sentence {
    pub text: String,
    /// The figures it rests on: "measured: …" or "cited: …".
    pub backing: String,
}

/// Where one algorithm (and operation) stands, and what to change.
#[derive(Debug, Clone, PartialEq)]
pub struct AlgorithmAdvice {
    pub algorithm: String,
    /// Public key: the operation ("sign", "verify", …).
    pub operation: Option<String>,
    /// The best configuration measured here, in words with its figures.
    pub best: Option<String>,
    pub sentences: Vec<Sentence>,
}

impl AlgorithmAdvice {
    /// "aes-128-gcm", "ed25519 sign".
    pub fn title(&self) -> String {
        Key {
            algorithm: self.algorithm.clone(),
            operation: self.operation.clone(),
        }
        .title()
    }
}

/// The advice for a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    /// The core the best-known figures are looked up for, in words.
    pub core: String,
    /// Why no advice is given on this run at all ([`gate::advisable`]).
    pub withheld: Option<String>,
    pub algorithms: Vec<AlgorithmAdvice>,
}

impl Advice {
    /// Whether there is something to say: an algorithm with a best
    /// configuration measured and at least one sentence.
    pub fn has_content(&self) -> bool {
        self.withheld.is_none() && self.algorithms.iter().any(|a| a.best.is_some() && !a.sentences.is_empty())
    }
}

/// A library's own view of the CPU, decoded from the capability line its
/// configuration reported: the feature names it sees ("aes", "vaes", …)
/// and those its version can name at all (a feature it cannot name is one
/// it has no code for), or None where the line cannot be decoded. The
/// decoders live with the libraries (crates/backends); callers that have
/// them pass them in.
pub type CapabilityView<'a> = &'a dyn Fn(&ConfigurationResult) -> Option<LibraryView>;

/// What a library's capability line says: the features it sees, and those it can name.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LibraryView {
    pub seen: Vec<String>,
    pub nameable: Vec<String>,
}

/// The advice for every algorithm of the run (in the run's order), for
/// the core `core_override` names or else the one its workers recorded.
pub fn advise(run: &RunResult, core_override: Option<&'static cryptobench_cpu::microarch::Microarch>) -> Advice {
    advise_with(run, core_override, None)
}

/// [`advise`], with the libraries' views of the CPU as evidence of a cause.
pub fn advise_with(
    run: &RunResult,
    core_override: Option<&'static cryptobench_cpu::microarch::Microarch>,
    view: Option<CapabilityView>,
) -> Advice {
    let core = core::of_run(run, core_override);
    let withheld = gate::advisable(run).err();
    let mut keys: Vec<Key> = Vec::new();
    for c in &run.configurations {
        for key in c.cells.iter().filter_map(Key::of) {
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    let algorithms = keys
        .into_iter()
        .map(|key| {
            let standings = standing::standings(run, &key);
            let best = standings.first().map(|b| b.describe());
            let sentences = if withheld.is_some() {
                Vec::new()
            } else {
                rules::all(&rules::Context {
                    run,
                    key: &key,
                    standings: &standings,
                    core: &core,
                    view,
                })
            };
            AlgorithmAdvice {
                algorithm: key.algorithm,
                operation: key.operation,
                best,
                sentences,
            }
        })
        .collect();
    Advice {
        core: core.describe(),
        withheld,
        algorithms,
    }
}

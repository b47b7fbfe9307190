//! Advice from a run: for each algorithm measured, the best configuration
//! measured here, its cycles per byte at the measured clock, its distance
//! from the best figure published for this core ([`table`], cited), and
//! what to change, each sentence backed by a figure of the same run or a
//! cited source. One rule per file under [`rules`]; where no rule has
//! anything to say, nothing is said: no advice is better than invented
//! advice. Rendering as text and Markdown is in [`render`] (HTML in
//! crates/report).

pub mod core;
pub mod render;
pub mod rules;
pub mod standing;
pub mod table;

use cryptobench_core::result::RunResult;

/// One sentence of advice and what it rests on.
#[derive(Debug, Clone, PartialEq)]
pub struct Sentence {
    pub text: String,
    /// The figures it rests on: "measured: …" or "cited: …".
    pub backing: String,
}

/// Where one algorithm stands, and what to change.
#[derive(Debug, Clone, PartialEq)]
pub struct AlgorithmAdvice {
    pub algorithm: String,
    /// The best configuration measured here, in words with its figures.
    pub best: Option<String>,
    pub sentences: Vec<Sentence>,
}

/// The advice for a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    /// The core the best-known figures are looked up for, in words.
    pub core: String,
    pub algorithms: Vec<AlgorithmAdvice>,
}

impl Advice {
    /// Whether there is something to say: an algorithm with a best
    /// configuration measured and at least one sentence.
    pub fn has_content(&self) -> bool {
        self.algorithms.iter().any(|a| a.best.is_some() && !a.sentences.is_empty())
    }
}

/// The advice for every algorithm of the run (in the run's order), for
/// the core `core_override` names or else the one its workers recorded.
pub fn advise(run: &RunResult, core_override: Option<&'static cryptobench_cpu::microarch::Microarch>) -> Advice {
    let core = core::of_run(run, core_override);
    let mut algorithms: Vec<String> = Vec::new();
    for c in &run.configurations {
        for x in &c.cells {
            if !algorithms.contains(&x.spec.algorithm) {
                algorithms.push(x.spec.algorithm.clone());
            }
        }
    }
    let algorithms = algorithms
        .into_iter()
        .map(|alg| {
            let standings = standing::standings(run, &alg);
            let best = standings.first().map(|b| b.describe());
            AlgorithmAdvice {
                sentences: rules::all(run, &alg, &standings, &core),
                algorithm: alg,
                best,
            }
        })
        .collect();
    Advice {
        core: core.describe(),
        algorithms,
    }
}

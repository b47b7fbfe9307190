//! A runtime that reaches another library than the user may think: a
//! language runtime's driver reports, per algorithm, what it calls
//! underneath (crates/core/src/binding.rs); when one runtime calls
//! different libraries for different algorithms (Python's `cryptography`
//! bundles its own OpenSSL, `hashlib` uses the system's), each row says
//! so, with its measured ratio to the library called directly.

use cryptobench_core::result::RunResult;
use cryptobench_core::sizes::size_label;

use crate::standing::label;
use crate::Sentence;

pub fn sentences(run: &RunResult, algorithm: &str) -> Vec<Sentence> {
    let mut out = Vec::new();
    for c in &run.configurations {
        let mut underneath: Vec<&str> = c.bindings.iter().map(|b| b.underneath.as_str()).collect();
        underneath.sort();
        underneath.dedup();
        if underneath.len() < 2 {
            continue;
        }
        let Some(b) = c.bindings.iter().find(|b| b.algorithm == algorithm) else {
            continue;
        };
        let others: Vec<&str> = underneath.iter().copied().filter(|u| *u != b.underneath).collect();
        let ratio = b.ratios.iter().max_by_key(|r| r.size);
        let factor = match (ratio, b.direct) {
            (Some(r), Some(d)) => format!("; at {} it runs at {:.2}× [{d}] called directly", size_label(r.size), r.ratio),
            _ => String::new(),
        };
        out.push(Sentence {
            text: format!(
                "[{}] {} calls {} for {algorithm}, but {} for other algorithms in the same process{factor}",
                c.index,
                label(c),
                b.underneath,
                others.join(", ")
            ),
            backing: format!("reported by the runtime's driver in this run (bindings of [{}])", c.index),
        });
    }
    out
}

//! A feature the CPU offers and a library does not use, as the audit
//! measured it (its verdict "the CPU offers … but this library does not
//! use it", switched off and on in the same run).

use cryptobench_core::audit::VerdictKind;
use cryptobench_core::result::RunResult;

use crate::Sentence;

pub fn sentences(run: &RunResult, algorithm: &str) -> Vec<Sentence> {
    let Some(audit) = &run.audit else {
        return Vec::new();
    };
    audit
        .libraries
        .iter()
        .flat_map(|lib| lib.verdicts.iter().map(move |v| (lib, v)))
        .filter(|(_, v)| v.algorithm == algorithm && v.kind == VerdictKind::AvailableNotUsed)
        .map(|(lib, v)| Sentence {
            text: format!("{}: {}", lib.configuration, v.text),
            backing: format!(
                "measured by the audit in this run: [{}] against [{}]",
                lib.base_index,
                v.off_index.unwrap_or(0)
            ),
        })
        .collect()
}

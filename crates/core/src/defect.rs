//! A library defect: the library's answer to an input breaks a published
//! rule (it accepts a signature the rule says is invalid, rejects one it
//! says is valid), while cryptobench's own checks of it passed. It is a
//! finding about the library, reported as DEFECT with the rule, the input
//! and the library's version, apart from a FAILED check (a wrong answer, a
//! call that errs, a check of cryptobench's that could not be made). How
//! defects are found and what `verify` exits with: docs/METHOD.md,
//! "Library defects".

use serde::{Deserialize, Serialize};

use crate::kinds::Operation;

/// One defect found in one library.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Defect {
    /// The catalog id of the algorithm it was found in.
    pub algorithm: String,
    /// The operation that has it (its timed cells are the ones marked).
    pub operation: Operation,
    /// What the library did, e.g. "accepts a signature whose S is S + L".
    pub finding: String,
    /// The rule it breaks, with where it is written (e.g. "RFC 8032 §5.2.7: …").
    pub rule: String,
    /// The input that shows it: a test vector's file and id, or the
    /// mutated bytes (which bytes of what, and the result in hex).
    pub input: String,
    /// The library and its version, as the library reports itself.
    pub library: String,
    /// The entry of the library's table of known defects it matches, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known: Option<KnownDefectRef>,
}

/// A found defect's entry in the table of known defects
/// (crates/backends/src/libraries/*/defects.rs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct KnownDefectRef {
    /// The entry's id, e.g. "nettle-ed448-s-byte".
    pub id: String,
    /// The versions it is known in.
    pub affected: String,
    /// Where it was fixed ("Nettle 3.9"), or that it was not, as of when.
    pub fixed: String,
    /// Where that is read upstream (a commit, a NEWS entry, the code).
    pub source: String,
}

impl Defect {
    /// One line: "Nettle 3.8: ed448 verify accepts …; breaks RFC 8032 §5.2.7 …".
    pub fn line(&self) -> String {
        format!(
            "{}: {} {} {}; breaks {}",
            self.library,
            self.algorithm,
            self.operation.short(),
            self.finding,
            self.rule
        )
    }
}

//! The shape of a library's table of known defects: each library keeps its
//! own, as data, in its folder (crates/backends/src/libraries/*/defects.rs)
//! and names it in its registry entry ([`crate::registry::Entry`]), so that
//! nothing outside the folder matches on the library's id. A defect is
//! *found* by the checks (the malleability check before timing,
//! crates/backends/src/checks/malleability.rs; Wycheproof vectors in
//! `verify --vectors`), never assumed from this table; the table only adds
//! what is known of a found defect: its cause in the library's code, the
//! versions it is in, and where it was fixed (docs/METHOD.md, "Library
//! defects", prints the tables).

use cryptobench_core::defect::KnownDefectRef;
use cryptobench_core::Operation;

/// A non-canonical signature the malleability check makes from a valid one
/// (crates/backends/src/checks/malleability.rs); a verifier must reject it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// EdDSA: S replaced by S + L (RFC 8032 §5.1.7, §5.2.7: S < L).
    EddsaSPlusL,
    /// Ed448: S replaced by S + 2^448, the 57th byte of S set to 1
    /// (RFC 8032 §5.2.7; Wycheproof ed448_test.json tcId 76 does the same).
    Ed448SPlus2Pow448,
    /// ECDSA: s replaced by s + n in the DER signature (FIPS 186-5 §6.4.2: s in [1, n − 1]).
    EcdsaSPlusN,
    /// RSA: the signature s replaced by s + n, where that still fits the
    /// modulus's length (RFC 8017 §5.2.2: s in [0, n − 1]).
    RsaSPlusN,
}

/// How cryptobench finds a known defect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoundBy {
    /// The malleability check before timing, with this mutation.
    Mutation(Mutation),
    /// A Project Wycheproof file (its name as the `wycheproof` crate and
    /// the C2SP repository spell it) and the tcIds of its cases that show it.
    Vectors { file: &'static str, tc_ids: &'static [u32] },
}

/// One known defect of one library.
#[derive(Debug, Clone, Copy)]
pub struct KnownDefect {
    /// A stable id, "<library>-<algorithm>-<what>".
    pub id: &'static str,
    /// The catalog ids of the algorithms that have it.
    pub algorithms: &'static [&'static str],
    pub operation: Operation,
    /// The ways cryptobench finds it.
    pub found_by: &'static [FoundBy],
    /// What the library does wrong, and where in its code.
    pub cause: &'static str,
    /// The rule it breaks, cited.
    pub rule: &'static str,
    /// The versions it is known in.
    pub affected: &'static str,
    /// The first release without it ("3.9"); None where none is known.
    pub fixed_in: Option<&'static str>,
    /// Where it was fixed, or that it was not, as of which source.
    pub fixed: &'static str,
    /// Where `fixed` is read upstream: a commit, a NEWS entry, the code.
    pub source: &'static str,
}

impl KnownDefect {
    /// The reference a found defect carries.
    pub fn reference(&self) -> KnownDefectRef {
        KnownDefectRef {
            id: self.id.into(),
            affected: self.affected.into(),
            fixed: self.fixed.into(),
            source: self.source.into(),
        }
    }

    /// Whether the library's `version` ("3.8.1") has it: every version
    /// before `fixed_in`, compared number by number; every version where
    /// no fix is known.
    pub fn affects(&self, version: &str) -> bool {
        let numbers = |v: &str| -> Vec<u64> {
            v.split(|c: char| !c.is_ascii_digit())
                .filter(|p| !p.is_empty())
                .map(|p| p.parse().unwrap_or(0))
                .collect()
        };
        self.fixed_in.is_none_or(|fixed| numbers(version) < numbers(fixed))
    }

    /// Whether the malleability check with `mutation` on `algorithm` finds it.
    pub fn found_by_mutation(&self, algorithm: &str, mutation: Mutation) -> bool {
        self.algorithms.contains(&algorithm) && self.found_by.contains(&FoundBy::Mutation(mutation))
    }

    /// Whether case `tc_id` of the Wycheproof file `file` (a file name,
    /// possibly with a path before it) shows it.
    pub fn found_by_vector(&self, algorithm: &str, file: &str, tc_id: u32) -> bool {
        let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
        self.algorithms.contains(&algorithm)
            && self
                .found_by
                .iter()
                .any(|f| matches!(f, FoundBy::Vectors { file, tc_ids } if *file == name && tc_ids.contains(&tc_id)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_defect_affects_the_versions_before_its_fix() {
        let d = KnownDefect {
            id: "x",
            algorithms: &["ed448"],
            operation: Operation::Verify,
            found_by: &[FoundBy::Vectors {
                file: "ed448_test.json",
                tc_ids: &[76],
            }],
            cause: "",
            rule: "",
            affected: "",
            fixed_in: Some("3.9"),
            fixed: "",
            source: "",
        };
        assert!(d.affects("3.8.1") && d.affects("3.8") && !d.affects("3.9") && !d.affects("3.10.2"));
        assert!(KnownDefect { fixed_in: None, ..d }.affects("4.0"));
        assert!(d.found_by_vector("ed448", "/tmp/ed448_test.json", 76));
        assert!(!d.found_by_vector("ed448", "ed448_test.json", 77) && !d.found_by_vector("ed25519", "ed448_test.json", 76));
    }
}

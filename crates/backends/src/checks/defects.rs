//! What the checks need to report a library defect
//! (crates/core/src/defect.rs): the library's name and version and its
//! table of known defects ([`Library`]), and the defect a test vector
//! shows ([`from_vector`]). A vector whose expected result the library
//! contradicts is a defect when the library accepts what the vector marks
//! invalid (cryptobench passed the bytes on; the library said yes), or when
//! the library's table of known defects lists the case; any other wrong
//! answer (a valid case rejected, another output) stays a failure, since
//! cryptobench's reading of the vector could be what is wrong
//! (docs/METHOD.md, "Library defects").

use cryptobench_core::checks::CheckReport;
use cryptobench_core::defect::Defect;
use cryptobench_core::Operation;

use crate::backend::Backend;
use crate::known_defects::KnownDefect;

/// The library a defect is found in.
pub struct Library {
    /// "Nettle 3.8": the library and its version as it reports them.
    pub label: String,
    /// Its registry entry's table of known defects.
    pub known: &'static [KnownDefect],
}

impl Library {
    pub fn of(backend: &dyn Backend) -> Library {
        let info = backend.info();
        let version = info
            .version
            .split_whitespace()
            .find(|w| w.starts_with(|c: char| c.is_ascii_digit()))
            .unwrap_or(&info.version)
            .to_string();
        Library {
            label: format!("{} {version}", info.name),
            known: crate::libraries::find(&info.id).map(|e| e.known_defects).unwrap_or(&[]),
        }
    }

    /// The known defect that case `tc_id` of `file` shows in `algorithm`, if listed.
    pub fn known_by_vector(&self, algorithm: &str, source: &str) -> Option<&'static KnownDefect> {
        let (file, id) = source.rsplit_once(" tcId ")?;
        let id: u32 = id.trim().parse().ok()?;
        self.known.iter().find(|k| k.found_by_vector(algorithm, file, id))
    }
}

/// How a library answered a vector it got wrong.
pub enum Wrong {
    /// It accepted what the vector marks invalid: `what` it accepted.
    AcceptedInvalid(String),
    /// Any other wrong answer: what it did.
    Other(String),
}

/// A vector case the library got wrong, as reported: a defect (with the
/// rule from the library's table, else from the vector's own notes) or,
/// for a wrong answer no table lists, Err with the failure's text.
pub struct VectorCaseRef<'a> {
    pub algorithm: &'a str,
    pub operation: Operation,
    /// "ed448_test.json tcId 76".
    pub source: &'a str,
    /// The vector's comment and its flags' notes (the rule it encodes).
    pub comment: &'a str,
    pub notes: &'a [String],
}

/// Records a vector case the library answered wrongly: a library defect in
/// `report` where [`from_vector`] finds one, a failed check otherwise.
pub fn record_wrong(report: &mut CheckReport, library: &Library, case: &VectorCaseRef, wrong: Wrong) {
    match from_vector(library, case, wrong) {
        Ok(defect) => report.defect(defect),
        Err(failure) => report.fail(failure),
    }
}

pub fn from_vector(library: &Library, case: &VectorCaseRef, wrong: Wrong) -> Result<Defect, String> {
    let known = library.known_by_vector(case.algorithm, case.source);
    let (finding, accepted) = match wrong {
        Wrong::AcceptedInvalid(what) => (what, true),
        Wrong::Other(what) => (what, false),
    };
    if !accepted && known.is_none() {
        return Err(format!("{}: {finding}", case.source));
    }
    let rule = match known {
        Some(k) => k.rule.to_string(),
        None if case.notes.is_empty() => "the vector's expected result: invalid (Project Wycheproof)".into(),
        None => format!("Project Wycheproof: {}", case.notes.join("; ")),
    };
    Ok(Defect {
        algorithm: case.algorithm.into(),
        operation: case.operation,
        finding,
        rule,
        input: if case.comment.is_empty() {
            case.source.to_string()
        } else {
            format!("{} ({})", case.source, case.comment)
        },
        library: library.label.clone(),
        known: known.map(KnownDefect::reference),
    })
}

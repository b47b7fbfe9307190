//! A run read back from JSON (`runs import`, `compare run.json`, `report
//! run.json`): the document `run --format json` and `runs export` write,
//! checked for what this version can read.

use crate::result::{RunResult, SCHEMA_VERSION};

#[derive(Debug, thiserror::Error)]
pub enum RunJsonError {
    #[error("{origin} is not a cryptobench run ({source}); give the JSON written by `cryptobench run --format json` or `runs export`")]
    NotARun { origin: String, source: serde_json::Error },
    #[error("{origin} has schema version {found}, newer than this cryptobench reads ({SCHEMA_VERSION}); upgrade cryptobench")]
    Newer { origin: String, found: u32 },
}

/// Parses a run; `origin` names the input in messages (a file name, "stdin").
pub fn parse_run(text: &str, origin: &str) -> Result<RunResult, RunJsonError> {
    let run: RunResult = serde_json::from_str(text).map_err(|source| RunJsonError::NotARun {
        origin: origin.to_string(),
        source,
    })?;
    if run.schema_version > SCHEMA_VERSION {
        return Err(RunJsonError::Newer {
            origin: origin.to_string(),
            found: run.schema_version,
        });
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_foreign_and_newer_documents_are_refused() {
        assert!(matches!(parse_run("{", "x"), Err(RunJsonError::NotARun { .. })));
        assert!(matches!(parse_run("[1,2]", "x"), Err(RunJsonError::NotARun { .. })));
        let e = parse_run("{\"schema_version\": 1}", "x.json").unwrap_err().to_string();
        assert!(e.contains("x.json") && e.contains("run --format json"), "{e}");
    }
}

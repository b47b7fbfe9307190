//! A measured run the database could not take (locked by another process,
//! a full disk, a server gone) is not lost: its complete JSON is written to
//! a file in the temporary folder (on another file system than the database,
//! as a rule), and the error says how to store it later with `runs import`.
//! The database itself is changed in whole transactions only, so it holds
//! either the whole run or nothing of it.

use std::io::Write;
use std::path::{Path, PathBuf};

use cryptobench_core::result::RunResult;
use cryptobench_store::StoreError;

/// The file a run that could not be saved is kept in.
pub fn rescue_path(run: &RunResult) -> PathBuf {
    let stamp: String = run.started_at.chars().filter(char::is_ascii_alphanumeric).collect();
    std::env::temp_dir().join(format!("cryptobench-unsaved-{stamp}-{}.json", std::process::id()))
}

/// Writes `run` whole (to a temporary name, then renamed), or not at all.
fn write_whole(path: &Path, run: &RunResult) -> std::io::Result<()> {
    let partial = path.with_extension("json.partial");
    let result = (|| {
        let mut f = std::fs::File::create(&partial)?;
        serde_json::to_writer(&mut f, run)?;
        f.write_all(b"\n")?;
        f.sync_all()?;
        std::fs::rename(&partial, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    result
}

/// The error for a run that `database` refused with `e`, after keeping the run in a file.
pub fn keep(run: &RunResult, database: &str, e: StoreError) -> anyhow::Error {
    let path = rescue_path(run);
    match write_whole(&path, run) {
        Ok(()) => anyhow::anyhow!(
            "the run was not saved in {database}: {e}\nit is kept whole in {}: store it with `cryptobench runs import {}` once the database can take it",
            path.display(),
            path.display()
        ),
        Err(io) => anyhow::anyhow!(
            "the run was not saved in {database}: {e}\nnor could it be kept in {} ({io}); the results printed above are all that remains of it",
            path.display()
        ),
    }
}

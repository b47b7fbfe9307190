//! The binary's side of the store: which database, and what a run reference
//! on the command line (an id, a label, a JSON file) points to.

use std::path::Path;

use anyhow::{Context, Result};
use cryptobench_core::result::RunResult;
use cryptobench_store::{Location, RunId, Store, StoreError};

use crate::cli::DbArgs;
use crate::exit::usage;

/// Bad paths, URLs and ids are usage errors (exit 2); a database failing is not.
pub fn store_error(e: StoreError) -> anyhow::Error {
    if e.is_usage() {
        usage(e.to_string())
    } else {
        anyhow::Error::new(e)
    }
}

pub fn location(db: &DbArgs) -> Result<Location> {
    match &db.db {
        Some(text) => Location::parse(text).map_err(store_error),
        None => Location::default_sqlite()
            .ok_or_else(|| usage("this system has no user data directory: give a database with --db or CRYPTOBENCH_DB")),
    }
}

/// Opens the database. Only the default location's folder is created; a
/// new database file is announced on stderr, so that a mistyped path is seen.
pub fn open(db: &DbArgs) -> Result<(Box<dyn Store>, Location)> {
    let loc = location(db)?;
    let mut created = None;
    if let Location::Sqlite(path) = &loc {
        if db.db.is_none() {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).with_context(|| format!("cannot create the data folder {}", dir.display()))?;
            }
        }
        if !path.exists() {
            created = Some(path.clone());
        }
    }
    let store = cryptobench_store::open(&loc).map_err(store_error)?;
    if let Some(path) = created {
        eprintln!("created new database {}", path.display());
    }
    Ok((store, loc))
}

/// An id, or a label (its newest run).
pub fn resolve_id(store: &mut dyn Store, text: &str) -> Result<RunId> {
    if let Ok(id) = text.trim().parse::<RunId>() {
        return Ok(id);
    }
    store
        .find_label(text)
        .map_err(store_error)?
        .first()
        .copied()
        .ok_or_else(|| usage(format!("no run has the id or label '{text}'; `cryptobench runs list` shows them")))
}

/// Reads a run from JSON text; a truncated or foreign document is a usage error.
pub fn parse_run_json(text: &str, origin: &str) -> Result<RunResult> {
    cryptobench_core::run_json::parse_run(text, origin).map_err(|e| usage(e.to_string()))
}

/// Reads a file, or stdin for "-".
pub fn read_input(file: &str) -> Result<String> {
    if file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).context("reading stdin")?;
        return Ok(s);
    }
    std::fs::read_to_string(file).map_err(|e| usage(format!("cannot read {file}: {e}")))
}

/// Whether a run reference is written as a file (a folder separator or a
/// `.json` ending) rather than as an id or a label.
fn looks_like_a_file(r: &str) -> bool {
    r.contains('/') || r.contains(std::path::MAIN_SEPARATOR) || r.to_ascii_lowercase().ends_with(".json")
}

/// Runs named on the command line, loaded: JSON files where such a file
/// exists, stored runs otherwise (the store is opened only when needed).
/// A reference written as a file that does not exist is an error before
/// any database is opened.
pub fn load_runs(refs: &[String], db: &DbArgs) -> Result<Vec<(String, RunResult)>> {
    if let Some(missing) = refs.iter().find(|r| looks_like_a_file(r) && !Path::new(r).is_file()) {
        return Err(usage(format!(
            "no such file: {missing} (give a JSON file written by `cryptobench run --format json`, or a run id or label)"
        )));
    }
    let mut store: Option<Box<dyn Store>> = None;
    let mut out = Vec::new();
    for r in refs {
        if Path::new(r).is_file() {
            let run = parse_run_json(&read_input(r)?, r)?;
            let stem = Path::new(r).file_stem().map(|s| s.to_string_lossy().into_owned());
            out.push((run.label.clone().or(stem).unwrap_or_else(|| r.clone()), run));
            continue;
        }
        if store.is_none() {
            store = Some(open(db)?.0);
        }
        let s = store.as_mut().expect("opened above").as_mut();
        let id = resolve_id(s, r)?;
        let run = s.load(id).map_err(store_error)?;
        let name = match &run.label {
            Some(l) if l == r => format!("{l} (#{id})"),
            Some(l) => format!("#{id} {l}"),
            None => format!("#{id}"),
        };
        out.push((name, run));
    }
    Ok(out)
}

//! `cryptobench import openssl-speed FILE`: another tool's results as a run.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use cryptobench_core::openssl_speed;
use cryptobench_report::render_with;

use crate::cli::{ImportArgs, ImportSource};
use crate::commands::run::{detail, format, unit};
use crate::exit::usage;
use crate::orchestrate::store::{open, read_input, store_error};

pub fn import(args: &ImportArgs) -> Result<ExitCode> {
    let ImportSource::OpensslSpeed {
        file,
        save,
        format: f,
        units,
        verbose,
    } = &args.source;
    let text = read_input(file)?;
    let parsed = openssl_speed::parse(&text).map_err(|e| usage(format!("{file}: {e}")))?;
    let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let mut run = openssl_speed::to_run(&parsed, file, &now);
    run.label.clone_from(&save.label);
    let out = render_with(&run, format(*f), unit(*units), detail(*verbose));
    if !save.no_save {
        let (mut store, location) = open(&save.db)?;
        let id = store.save(&run).map_err(store_error)?;
        eprintln!("imported {file} as run {id} in {}", location.display());
    }
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(out.as_bytes())
        .and_then(|_| stdout.flush())
        .context("writing to stdout")?;
    Ok(ExitCode::SUCCESS)
}

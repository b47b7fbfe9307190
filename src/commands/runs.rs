//! `cryptobench runs list|show|export|import|delete`.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use cryptobench_report::{render, render_with, Format};
use cryptobench_store::Store;

use crate::cli::{ExportFormat, RunsAction, RunsArgs};
use crate::commands::run::{detail, format, unit};
use crate::orchestrate::store::{open, parse_run_json, read_input, resolve_id, store_error};

pub fn runs(args: &RunsArgs) -> Result<ExitCode> {
    let (mut store, location) = open(&args.db)?;
    let store: &mut dyn Store = store.as_mut();
    let text = match &args.action {
        RunsAction::List { format } => super::runs_list::list(store, *format)?,
        RunsAction::Show {
            run,
            format: f,
            units,
            verbose,
        } => {
            let id = resolve_id(store, run)?;
            let run = store.load(id).map_err(store_error)?;
            render_with(&run, format(*f), unit(*units), detail(*verbose))
        }
        RunsAction::Export { run, format: f } => {
            let id = resolve_id(store, run)?;
            let run = store.load(id).map_err(store_error)?;
            let f = match f {
                ExportFormat::Json => Format::Json,
                ExportFormat::Csv => Format::Csv,
                ExportFormat::Markdown => Format::Markdown,
            };
            render(&run, f, cryptobench_core::units::Unit::Mb)
        }
        RunsAction::Import { file } => {
            let run = parse_run_json(&read_input(file)?, file)?;
            let id = store.save(&run).map_err(store_error)?;
            format!("imported {file} as run {id} in {}\n", location.display())
        }
        RunsAction::Delete { id } => {
            store.delete(*id).map_err(store_error)?;
            format!("deleted run {id} from {}\n", location.display())
        }
    };
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
        .context("writing to stdout")?;
    Ok(ExitCode::SUCCESS)
}

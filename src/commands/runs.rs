//! `cryptobench runs list|show|export|import|delete`.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use comfy_table::presets::NOTHING;
use comfy_table::Table;
use cryptobench_report::{render, Format};
use cryptobench_store::{RunSummary, Store};
use serde_json::json;

use crate::cli::{ExportFormat, ListFormat, RunsAction, RunsArgs};
use crate::commands::run::{format, unit};
use crate::orchestrate::store::{open, parse_run_json, read_input, resolve_id, store_error};

pub fn runs(args: &RunsArgs) -> Result<ExitCode> {
    let (mut store, location) = open(&args.db)?;
    let store: &mut dyn Store = store.as_mut();
    let text = match &args.action {
        RunsAction::List { format } => list(store, *format)?,
        RunsAction::Show { run, format: f, units } => {
            let id = resolve_id(store, run)?;
            render(&store.load(id).map_err(store_error)?, format(*f), unit(*units))
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

/// What a run's host column says: the host name, or that an imported run did not record one.
fn host_of(r: &RunSummary) -> String {
    r.hostname.clone().unwrap_or_else(|| NOT_RECORDED.into())
}

fn cpu_of(r: &RunSummary) -> String {
    r.cpu_model.clone().unwrap_or_else(|| NOT_RECORDED.into())
}

const NOT_RECORDED: &str = "not recorded";

fn list(store: &mut dyn Store, format: ListFormat) -> Result<String> {
    let runs = store.list().map_err(store_error)?;
    match format {
        ListFormat::Json => {
            let rows: Vec<_> = runs
                .iter()
                .map(|r| {
                    json!({
                        "id": r.id, "saved_at": r.saved_at, "started_at": r.started_at, "label": r.label,
                        "imported": r.imported, "hostname": r.hostname, "cpu_model": r.cpu_model,
                        "configurations": r.configurations, "measured_cells": r.measured_cells,
                    })
                })
                .collect();
            return Ok(format!("{}\n", serde_json::to_string_pretty(&rows).expect("serialisable")));
        }
        ListFormat::Csv => {
            let mut out = String::from("id,saved_at,started_at,label,imported,hostname,cpu_model,configurations,measured_cells\n");
            for r in &runs {
                let fields = [
                    r.id.to_string(),
                    r.saved_at.clone(),
                    r.started_at.clone(),
                    r.label.clone().unwrap_or_default(),
                    r.imported.clone().unwrap_or_default(),
                    r.hostname.clone().unwrap_or_default(),
                    r.cpu_model.clone().unwrap_or_default(),
                    r.configurations.join("; "),
                    r.measured_cells.to_string(),
                ];
                out.push_str(&fields.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(","));
                out.push('\n');
            }
            return Ok(out);
        }
        ListFormat::Table => {}
    }
    if runs.is_empty() {
        return Ok("no runs stored yet: `cryptobench run` saves one\n".into());
    }
    let mut table = Table::new();
    table
        .load_preset(NOTHING)
        .set_header(["id", "started", "label", "host", "cpu", "configurations", "cells"]);
    for r in runs {
        let label = match (&r.label, &r.imported) {
            (Some(l), Some(i)) => format!("{l} (imported {i})"),
            (None, Some(i)) => format!("(imported {i})"),
            (Some(l), None) => l.clone(),
            (None, None) => String::new(),
        };
        table.add_row(vec![
            r.id.to_string(),
            r.started_at.clone(),
            label,
            host_of(&r),
            cpu_of(&r),
            r.configurations.join(", "),
            r.measured_cells.to_string(),
        ]);
    }
    Ok(format!("{table}\n"))
}

/// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

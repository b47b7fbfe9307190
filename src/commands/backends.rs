//! `cryptobench backends`: every backend, probed in its own worker: available
//! or why not (with what to install), the library's own version, the file
//! loaded, and which catalog algorithms it supports; for a language runtime
//! also the library underneath.

use std::process::ExitCode;

use anyhow::Result;
use comfy_table::presets::NOTHING;
use comfy_table::Table;
use cryptobench_backends::install_hint;
use cryptobench_core::CATALOG;
use serde_json::json;

use crate::cli::{BackendsArgs, FormatArg};
use crate::exit::usage;
use crate::orchestrate::plan::all_backends;
use crate::orchestrate::worker_client::{probe, Probe};

pub fn backends(args: &BackendsArgs) -> Result<ExitCode> {
    let mut rows = Vec::new();
    for spec in all_backends() {
        rows.push((spec.backend.clone(), probe(&spec, None)?));
    }
    match args.format {
        FormatArg::Table => print_table(&rows),
        FormatArg::Json => print_json(&rows),
        other => {
            return Err(usage(
                format!("--format {other:?} is not available for `backends`; use table or json").to_lowercase(),
            ))
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_table(rows: &[(String, Probe)]) {
    let mut table = Table::new();
    table
        .load_preset(NOTHING)
        .set_header(vec!["backend", "status", "version", "library", "algorithms"]);
    for (id, p) in rows {
        match p {
            Probe::Available { backend, supported, .. } => table.add_row(vec![
                id.clone(),
                "available".into(),
                short(&backend.version),
                backend.library_path.clone().unwrap_or_else(|| "-".into()),
                format!("{} of {}", supported.len(), CATALOG.len() + cryptobench_core::pk::PK_CATALOG.len()),
            ]),
            Probe::Unavailable(_) | Probe::Failed(_) => table.add_row(vec![
                id.clone(),
                "unavailable".into(),
                "(why: below)".into(),
                "-".into(),
                "-".into(),
            ]),
        };
    }
    println!("{table}\n");
    // Reasons are long (a runtime's says what to install): one line each, under the table.
    for (id, p) in rows {
        if let Some(reason) = p.problem() {
            println!("{id} is unavailable: {reason}");
        }
    }
    for (id, p) in rows {
        match p {
            Probe::Available { backend, supported, .. } => {
                println!("{id}: {}", supported.join(", "));
                // The facts a library reports that tell its paths apart: what a runtime or a
                // token calls underneath, the mechanisms a PKCS#11 token lists, the engines
                // and providers an OpenSSL has.
                for key in ["underneath", "mechanisms", "engines", "providers", "provider_modules"] {
                    if let Some(value) = backend.details.get(key).filter(|v| !v.is_empty()) {
                        println!("  {}: {value}", key.replace('_', " "));
                    }
                }
                if let Some(cpu) = &backend.cpu_capabilities {
                    println!("  cpu: {cpu}");
                }
            }
            Probe::Unavailable(_) | Probe::Failed(_) => {
                if let Some(hint) = install_hint(id) {
                    println!("{id}: unavailable; to get it: {hint}");
                }
            }
        }
    }
}

/// A version string cut to table width (the JSON output has it whole).
fn short(text: &str) -> String {
    const WIDTH: usize = 48;
    if text.chars().count() <= WIDTH {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(WIDTH - 1).collect::<String>())
    }
}

fn print_json(rows: &[(String, Probe)]) {
    let list: Vec<_> = rows
        .iter()
        .map(|(id, p)| match p {
            Probe::Available { backend, supported, .. } => {
                json!({"id": id, "available": true, "backend": backend, "supported": supported})
            }
            other => json!({"id": id, "available": false, "reason": other.problem(), "install": install_hint(id)}),
        })
        .collect();
    println!(
        "{}",
        serde_json::to_string_pretty(&json!({ "backends": list })).expect("serialisable")
    );
}

//! `cryptobench backends`: every backend, probed in its own worker: available
//! or why not (with what to install), the library's own version, the file
//! loaded and how many catalog algorithms it supports, within a terminal's
//! width; `--verbose` adds the file's whole path, which algorithms, a
//! language runtime's library underneath and the library's view of the CPU.

use std::process::ExitCode;

use anyhow::Result;
use comfy_table::presets::NOTHING;
use comfy_table::Table;
use cryptobench_backends::install_hint;
use cryptobench_core::CATALOG;
use cryptobench_report::width::{wrap_text, TERMINAL};
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
        FormatArg::Table => print!("{}", table(&rows, args.verbose)),
        FormatArg::Json => print_json(&rows),
        other => {
            return Err(usage(
                format!("--format {other:?} is not available for `backends`; use table or json").to_lowercase(),
            ))
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn table(rows: &[(String, Probe)], verbose: bool) -> String {
    let mut table = Table::new();
    table.load_preset(NOTHING).set_header(vec![
        "backend",
        "status",
        "version",
        if verbose { "library" } else { "file" },
        "algorithms",
    ]);
    for (id, p) in rows {
        match p {
            Probe::Available { backend, supported, .. } => table.add_row(vec![
                id.clone(),
                "available".into(),
                short(&backend.version),
                backend.library_path.as_deref().map_or_else(|| "-".into(), |p| file(p, verbose)),
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
    let mut out = format!("{table}\n\n");
    // Reasons are long (a runtime's says what to install): one line each, under the table.
    for (id, p) in rows {
        if let Some(reason) = p.problem() {
            out.push_str(&format!("{id} is unavailable: {reason}\n"));
        }
    }
    for (id, p) in rows {
        match p {
            Probe::Available { backend, supported, .. } if verbose => {
                out.push_str(&format!("{id}: {}\n", supported.join(", ")));
                // The facts a library reports that tell its paths apart: what a runtime or a
                // token calls underneath, the mechanisms a PKCS#11 token lists, the engines
                // and providers an OpenSSL has.
                for key in ["underneath", "mechanisms", "engines", "providers", "provider_modules"] {
                    if let Some(value) = backend.details.get(key).filter(|v| !v.is_empty()) {
                        out.push_str(&format!("  {}: {value}\n", key.replace('_', " ")));
                    }
                }
                if let Some(cpu) = &backend.cpu_capabilities {
                    out.push_str(&format!("  cpu: {cpu}\n"));
                }
            }
            Probe::Available { .. } => {}
            Probe::Unavailable(_) | Probe::Failed(_) => {
                if let Some(hint) = install_hint(id) {
                    out.push_str(&format!("{id}: unavailable; to get it: {hint}\n"));
                }
            }
        }
    }
    if verbose {
        return out;
    }
    out.push_str(
        "(`--verbose`: each library's whole path, its algorithms, what a runtime calls underneath, engines and providers, its view of the CPU)\n",
    );
    wrap_text(&out, TERMINAL)
}

/// The library file: its whole path with `verbose`, else its name (the
/// directory is where the system keeps libraries, or a runtime's own).
fn file(path: &str, verbose: bool) -> String {
    if verbose {
        return path.to_string();
    }
    std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |f| f.to_string_lossy().into_owned())
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

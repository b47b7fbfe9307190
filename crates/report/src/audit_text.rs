//! The text of `cryptobench audit`: per audited library, its worker's CPU
//! and the masks that switched families off, the figures of every
//! configuration side by side, and the verdicts with the figures behind
//! them (crates/core/src/verdict/).

use comfy_table::presets::{ASCII_MARKDOWN, NOTHING};
use comfy_table::{CellAlignment, Table};
use cryptobench_core::audit::AuditedLibrary;
use cryptobench_core::result::{CellOutcome, ConfigurationStatus, RunResult};
use cryptobench_core::sizes::size_label;
use cryptobench_core::units::{format_ops, Unit};
use cryptobench_core::verdict::pk::parse_cell_name;
use cryptobench_core::Operation;

use crate::labels::Labels;

fn figure(run: &RunResult, index: usize, algorithm: &str, size: usize, unit: Unit) -> String {
    let c = run.configurations.iter().find(|c| c.index == index);
    let cell = c.and_then(|c| c.cells.iter().find(|x| x.spec.algorithm == algorithm && x.spec.size == size));
    match cell.map(|x| &x.outcome) {
        Some(CellOutcome::Measured(m)) => format!("{}{}", unit.format(m.summary.median), if m.is_noisy() { "~" } else { "" }),
        Some(CellOutcome::Failed { .. }) => "FAILED".into(),
        Some(CellOutcome::Unsupported { .. }) => "n/a".into(),
        None => match c.map(|c| &c.status) {
            Some(ConfigurationStatus::Completed) | None => String::new(),
            Some(_) => "lost".into(),
        },
    }
}

/// A public-key figure of the audit's table: operations per second.
fn pk_figure(run: &RunResult, index: usize, algorithm: &str, operation: Operation) -> String {
    let c = run.configurations.iter().find(|c| c.index == index);
    let cell = c.and_then(|c| {
        c.cells
            .iter()
            .find(|x| x.spec.algorithm == algorithm && x.spec.operation == operation)
    });
    match cell.map(|x| &x.outcome) {
        Some(CellOutcome::Measured(m)) => format!("{} op/s{}", format_ops(m.summary.median), if m.is_noisy() { "~" } else { "" }),
        Some(CellOutcome::Failed { .. }) => "FAILED".into(),
        Some(CellOutcome::Unsupported { .. }) => "n/a".into(),
        None => String::new(),
    }
}

/// The audit as text (`markdown`: tables and lists for an issue or a
/// wiki): per library its worker's CPU, masks and mismatches, a table of
/// every configuration's figures, then the verdicts; `unit` for throughput
/// (cycles per byte are given as MB/s).
pub fn render(run: &RunResult, libraries: &[AuditedLibrary], unit: Unit, markdown: bool) -> String {
    let unit = if unit == Unit::Cpb { Unit::Mb } else { unit };
    let mut out = String::new();
    out.push_str(&format!("{} {} audit — {}\n", run.tool.name, run.tool.version, run.started_at));
    out.push_str(&format!(
        "host: {} ({} logical CPUs)\n",
        run.host.cpu_model.as_deref().unwrap_or("unknown"),
        run.host.logical_cores
    ));
    out.push_str(&format!(
        "figures: {} at each size{}, median of samples; ~ marks a figure to read with care\n",
        unit.label(),
        if run.configurations.iter().flat_map(|c| &c.cells).any(|x| x.spec.is_public_key()) {
            " (public key: operations per second)"
        } else {
            ""
        }
    ));
    // Configurations are named as in every report: "OpenSSL 3.0.19 · AES off".
    let labels = Labels::for_run(run);
    for lib in libraries {
        let base = run.configurations.iter().find(|c| c.index == lib.base_index);
        let version = base.and_then(|c| c.backend.as_ref()).map(|b| b.version.clone()).unwrap_or_default();
        out.push_str(&format!("\n{} ({}: {version})\n", labels.get(0, lib.base_index), lib.configuration));
        let cpu_names: Vec<&str> = lib.worker_features.iter().map(|f| f.name.as_str()).collect();
        let emulated = base.and_then(|c| c.platform.as_ref()).and_then(|p| p.emulated_by.as_deref());
        let arch = base
            .and_then(|c| c.platform.as_ref())
            .map_or(lib.worker_arch.as_str(), |p| p.arch_label());
        out.push_str(&format!(
            "  worker CPU: {arch}{}; crypto features as it sees them: {}\n",
            emulated.map(|e| format!(", emulated by {e}")).unwrap_or_default(),
            if cpu_names.is_empty() {
                "none".to_string()
            } else {
                cpu_names.join(", ")
            }
        ));
        if let Some(e) = emulated {
            out.push_str(&format!(
                "  NOTE: every figure and verdict below describes {e} running this library, not {arch} hardware\n"
            ));
        }
        for m in &lib.configurations {
            if let Some((var, value)) = &m.mask {
                // What the masked worker's library then reported: proof the mask took effect.
                let reported = run
                    .configurations
                    .iter()
                    .find(|c| c.index == m.index)
                    .and_then(|c| c.backend.as_ref())
                    .and_then(|b| b.cpu_capabilities.as_deref())
                    .map(|cap| format!(" → the library reports {cap}"))
                    .unwrap_or_default();
                out.push_str(&format!("  {}: {var}={value}{reported}\n", labels.get(0, m.index)));
            }
        }
        for m in &lib.mismatches {
            out.push_str(&format!("  WARNING: {}\n", m.message));
        }
        let mut table = Table::new();
        table.load_preset(if markdown { ASCII_MARKDOWN } else { NOTHING });
        let mut header = vec!["algorithm".to_string(), "size".to_string()];
        header.extend(lib.configurations.iter().map(|m| m.role()));
        table.set_header(header);
        let mut algorithms: Vec<String> = Vec::new();
        for v in &lib.verdicts {
            if !algorithms.contains(&v.algorithm) {
                algorithms.push(v.algorithm.clone());
            }
        }
        for alg in &algorithms {
            if let Some((id, op)) = parse_cell_name(alg) {
                let size = lib.verdicts.iter().find(|v| &v.algorithm == alg).map_or(0, |v| v.large_size);
                let mut row = vec![alg.clone(), if size > 0 { size_label(size) } else { "—".into() }];
                row.extend(lib.configurations.iter().map(|m| pk_figure(run, m.index, id, op)));
                table.add_row(row);
                continue;
            }
            for &size in &run.settings.sizes {
                let mut row = vec![alg.clone(), size_label(size)];
                row.extend(lib.configurations.iter().map(|m| figure(run, m.index, alg, size, unit)));
                table.add_row(row);
            }
        }
        for i in 2..2 + lib.configurations.len() {
            if let Some(col) = table.column_mut(i) {
                col.set_cell_alignment(CellAlignment::Right);
            }
        }
        out.push_str(&format!("{table}\n\n"));
        for v in &lib.verdicts {
            // The role of the configuration the "off" figures come from, as in the table's header.
            let role = v
                .off_index
                .and_then(|i| lib.configuration(i))
                .map(|m| m.role())
                .unwrap_or_else(|| "-".into());
            out.push_str(&format!(
                "{}{} [{role}]: {}\n",
                if markdown { "- " } else { "" },
                v.algorithm,
                v.text
            ));
        }
    }
    for c in &run.configurations {
        if let ConfigurationStatus::Crashed { reason }
        | ConfigurationStatus::TimedOut { reason }
        | ConfigurationStatus::Unavailable { reason } = &c.status
        {
            out.push_str(&format!("\n{} not measured completely: {reason}\n", labels.get(0, c.index)));
        }
    }
    out
}

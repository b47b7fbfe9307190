//! `cryptobench runs list`: one row per stored run. The table fits
//! [`WIDTH`] columns: configurations are named by short labels ("OpenSSL
//! 3.0.22, libgcrypt 1.10.1 + 15 more") and the CPU without its trademark
//! signs; `--format json` and `--format csv` keep every full string.

use anyhow::Result;
use comfy_table::presets::NOTHING;
use comfy_table::{ColumnConstraint, ContentArrangement, Table, Width};
use cryptobench_report::labels::name_and_version;
use cryptobench_store::{ConfigurationSummary, RunSummary, Store};
use serde_json::json;

use crate::cli::ListFormat;
use crate::orchestrate::store::store_error;

/// The widest line of the table: a terminal of 120 columns.
pub const WIDTH: u16 = 120;

/// The most characters the configurations column spends on labels before
/// it counts the rest ("+ 15 more").
const CONFIGURATIONS_WIDTH: usize = 44;

const NOT_RECORDED: &str = "not recorded";

pub fn list(store: &mut dyn Store, format: ListFormat) -> Result<String> {
    let runs = store.list().map_err(store_error)?;
    match format {
        ListFormat::Json => Ok(json_list(&runs)),
        ListFormat::Csv => Ok(csv_list(&runs)),
        ListFormat::Table if runs.is_empty() => Ok("no runs stored yet: `cryptobench run` saves one\n".into()),
        ListFormat::Table => Ok(table(&runs)),
    }
}

fn json_list(runs: &[RunSummary]) -> String {
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
    format!("{}\n", serde_json::to_string_pretty(&rows).expect("serialisable"))
}

fn csv_list(runs: &[RunSummary]) -> String {
    let mut out = String::from("id,saved_at,started_at,label,imported,hostname,cpu_model,configurations,measured_cells\n");
    for r in runs {
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
    out
}

fn table(runs: &[RunSummary]) -> String {
    let configurations: Vec<String> = runs
        .iter()
        .map(|r| configurations_label(&r.configuration_parts, CONFIGURATIONS_WIDTH))
        .collect();
    let mut table = Table::new();
    table
        .load_preset(NOTHING)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(WIDTH)
        .set_header(["id", "started (UTC)", "label", "host", "cpu", "configurations", "cells"]);
    for (r, configurations) in runs.iter().zip(configurations.iter()) {
        let label = match (&r.label, &r.imported) {
            (Some(l), Some(i)) => format!("{l} (imported {i})"),
            (None, Some(i)) => format!("(imported {i})"),
            (Some(l), None) => l.clone(),
            (None, None) => String::new(),
        };
        table.add_row(vec![
            r.id.to_string(),
            started(&r.started_at),
            label,
            r.hostname.clone().unwrap_or_else(|| NOT_RECORDED.into()),
            r.cpu_model.as_deref().map(short_cpu).unwrap_or_else(|| NOT_RECORDED.into()),
            configurations.clone(),
            r.measured_cells.to_string(),
        ]);
    }
    // The labels were made to fit: the label, host and CPU columns wrap instead (padding included).
    let widest = configurations.iter().map(|c| c.chars().count()).max().unwrap_or(0);
    if let Some(column) = table.column_mut(5) {
        column.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(widest as u16 + 2)));
    }
    format!("{table}\n")
}

/// "2026-11-25T18:29:51Z" → "2026-11-25 18:29".
fn started(rfc3339: &str) -> String {
    rfc3339.replace('T', " ").chars().take(16).collect()
}

/// The CPU model without what makes it long and says nothing:
/// "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz" → "Intel Xeon Platinum 8375C @ 2.90GHz".
fn short_cpu(model: &str) -> String {
    let cleaned = ["(R)", "(r)", "(TM)", "(tm)", " CPU", " Processor"]
        .iter()
        .fold(model.to_string(), |m, noise| m.replace(noise, ""));
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One configuration's short label: "OpenSSL 3.0.22", "OpenSSL 3.0.19 ·
/// masked × 2 threads"; the backend id where no library was loaded.
fn short_label(c: &ConfigurationSummary) -> String {
    let library = match (&c.library_name, &c.library_version) {
        (Some(name), Some(version)) => name_and_version(name, version),
        (Some(name), None) => name.clone(),
        _ => c.backend.clone(),
    };
    let masked = if c.masked { " · masked" } else { "" };
    format!("{library}{masked}{}", c.placement())
}

/// The configurations of a run in at most about `width` characters: the
/// distinct short labels in order ("2× " before one that occurs twice) as
/// long as they fit, then how many configurations are left
/// ("OpenSSL 3.0.22 + 15 more"). The first label is always shown.
fn configurations_label(configurations: &[ConfigurationSummary], width: usize) -> String {
    let mut distinct: Vec<(String, usize)> = Vec::new();
    for label in configurations.iter().map(short_label) {
        match distinct.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += 1,
            None => distinct.push((label, 1)),
        }
    }
    let mut shown: Vec<String> = Vec::new();
    let mut covered = 0;
    for (i, (label, n)) in distinct.iter().enumerate() {
        let text = if *n > 1 { format!("{n}× {label}") } else { label.clone() };
        let left = configurations.len() - covered - n;
        let more = if left > 0 { format!(" + {left} more").len() } else { 0 };
        let used: usize = shown.iter().map(|s| s.chars().count() + 2).sum();
        if i > 0 && used + text.chars().count() + more > width {
            break;
        }
        shown.push(text);
        covered += n;
    }
    let left = configurations.len() - covered;
    let mut out = shown.join(", ");
    if left > 0 {
        out.push_str(&format!(" + {left} more"));
    }
    out
}

/// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn openssl(version: &str) -> ConfigurationSummary {
        ConfigurationSummary {
            backend: "openssl".into(),
            library_name: Some("OpenSSL".into()),
            library_version: Some(format!("OpenSSL {version}  27 Jan 2026")),
            ..Default::default()
        }
    }

    #[test]
    fn many_configurations_read_as_a_few_labels_and_a_count() {
        let mut many = vec![openssl("3.0.22")];
        many.push(ConfigurationSummary {
            backend: "rustcrypto".into(),
            library_name: Some("RustCrypto".into()),
            library_version: Some("RustCrypto (aes 0.8.4, aes-gcm 0.10.3, chacha20poly1305 0.10.1, sha2 0.10.8)".into()),
            ..Default::default()
        });
        many.extend((0..14).map(|i| openssl(&format!("3.{i}.1"))));
        let label = configurations_label(&many, CONFIGURATIONS_WIDTH);
        assert_eq!(label, "OpenSSL 3.0.22, RustCrypto + 14 more");
        assert_eq!(configurations_label(&many[..1], CONFIGURATIONS_WIDTH), "OpenSSL 3.0.22");
        let same = vec![openssl("3.0.19"), openssl("3.0.19")];
        assert_eq!(configurations_label(&same, CONFIGURATIONS_WIDTH), "2× OpenSSL 3.0.19");
        let placed = ConfigurationSummary {
            threads: Some(2),
            masked: true,
            ..openssl("3.0.19")
        };
        assert_eq!(short_label(&placed), "OpenSSL 3.0.19 · masked × 2 threads");
    }

    #[test]
    fn cpu_models_lose_their_trademark_signs() {
        assert_eq!(
            short_cpu("Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz"),
            "Intel Xeon Platinum 8375C @ 2.90GHz"
        );
        assert_eq!(short_cpu("AMD EPYC 9R14 96-Core Processor"), "AMD EPYC 9R14 96-Core");
        assert_eq!(started("2026-11-25T18:29:51Z"), "2026-11-25 18:29");
    }
}

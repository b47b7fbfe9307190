//! `cryptobench algorithms`: the catalog, and which configuration supports
//! what; within a terminal's width, several tables where the configurations'
//! columns do not fit in one (`--verbose`: one table, however wide).

use std::process::ExitCode;

use anyhow::Result;
use comfy_table::presets::NOTHING;
use comfy_table::Table;
use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::{CATALOG, DEFAULT_SUITE};
use cryptobench_report::width::{columns, wrap_text, TERMINAL};
use serde_json::json;

use crate::cli::{AlgorithmsArgs, FormatArg};
use crate::exit::usage;
use crate::orchestrate::plan::configurations;
use crate::orchestrate::worker_client::{probe, Probe};

pub fn algorithms(args: &AlgorithmsArgs) -> Result<ExitCode> {
    let specs = configurations(&args.backends, &args.placement)?;
    let mut columns = Vec::new();
    for spec in &specs {
        columns.push((spec.display(), probe(spec, None)?));
    }
    match args.format {
        FormatArg::Json => print_json(&columns),
        FormatArg::Table => print_table(&columns, args.verbose),
        other => {
            return Err(usage(
                format!("--format {other:?} is not available for `algorithms`; use table or json").to_lowercase(),
            ))
        }
    }
    for (name, p) in &columns {
        if let Some(reason) = p.problem() {
            eprintln!("{}", wrap_text(&format!("note: {name} is unavailable: {reason}"), TERMINAL));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn supports(p: &Probe, id: &str) -> Option<bool> {
    match p {
        Probe::Available { supported, .. } => Some(supported.iter().any(|s| s == id)),
        Probe::Unavailable(_) | Probe::Failed(_) => None,
    }
}

/// The named extra work of `id`'s cells in this configuration, where it has
/// some: one line per group of cells ("message decryption: …", "verify: …").
fn extra_work<'a>(p: &'a Probe, id: &str) -> Option<&'a str> {
    match p {
        Probe::Available { extra_work, .. } => extra_work.get(id).map(String::as_str),
        Probe::Unavailable(_) | Probe::Failed(_) => None,
    }
}

/// How a configuration's ECDSA draws its nonce, for an ECDSA algorithm it declares it for.
fn ecdsa_nonce(p: &Probe, alg: &PkAlgorithmSpec) -> Option<EcdsaNonce> {
    match p {
        Probe::Available { backend, .. } if alg.kind == PkKind::Ecdsa => backend.ecdsa_nonce,
        _ => None,
    }
}

/// A cell of the support table: `yes*` where the library names work its
/// cells do beyond (or short of) what the mode names (listed below the
/// table), with how its ECDSA draws nonces where it declares it.
fn support_mark(p: &Probe, id: &str, nonce: Option<EcdsaNonce>) -> String {
    let mark = match (supports(p, id), extra_work(p, id)) {
        (Some(true), Some(_)) => "yes*",
        (Some(true), None) => "yes",
        (Some(false), _) => return "no".to_string(),
        (None, _) => return "?".to_string(),
    };
    match nonce {
        Some(nonce) => format!("{mark} ({})", nonce.short()),
        None => mark.to_string(),
    }
}

/// The catalog's own columns, before one column per configuration.
const CATALOG_COLUMNS: [&str; 7] = ["algorithm", "class", "key bits", "iv", "tag", "default mode", "default suite"];

fn print_table(columns: &[(String, Probe)], verbose: bool) {
    let mut header = CATALOG_COLUMNS.into_iter().map(String::from).collect::<Vec<_>>();
    // One line per configuration name and version within the width, one line (wider) with --verbose.
    let separator = if verbose { " (" } else { "\n" };
    header.extend(columns.iter().map(|(name, p)| match p {
        Probe::Available { backend, .. } => format!(
            "{name}{separator}{}{}",
            backend.version.split_whitespace().take(2).collect::<Vec<_>>().join(" "),
            if verbose { ")" } else { "" }
        ),
        Probe::Unavailable(_) | Probe::Failed(_) => format!("{name}{separator}unavailable{}", if verbose { ")" } else { "" }),
    }));
    let mut rows: Vec<Vec<String>> = Vec::new();
    for alg in CATALOG {
        let mut row = vec![
            alg.id.to_string(),
            format!("{:?}", alg.class).to_lowercase(),
            if alg.key_len > 0 {
                (alg.key_len * 8).to_string()
            } else {
                "-".into()
            },
            if alg.iv_len > 0 { alg.iv_len.to_string() } else { "-".into() },
            if alg.tag_len > 0 { alg.tag_len.to_string() } else { "-".into() },
            alg.default_mode().name().to_string(),
            if DEFAULT_SUITE.contains(&alg.id) { "yes" } else { "" }.to_string(),
        ];
        row.extend(columns.iter().map(|(_, p)| support_mark(p, alg.id, None)));
        rows.push(row);
    }
    // Public key (crates/core/src/pk.rs): bits of the key or parameter set, the operations openssl speed shows.
    for alg in cryptobench_core::pk::PK_CATALOG {
        let mut row = vec![
            alg.id.to_string(),
            format!(
                "pk: {}",
                serde_json::to_value(alg.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default()
            ),
            alg.bits.to_string(),
            "-".into(),
            "-".into(),
            alg.default_operations.iter().map(|o| o.short()).collect::<Vec<_>>().join(","),
            String::new(),
        ];
        row.extend(columns.iter().map(|(_, p)| support_mark(p, alg.id, ecdsa_nonce(p, alg))));
        rows.push(row);
    }
    let width = if verbose { usize::MAX } else { TERMINAL };
    for (k, table) in tables_within(&header, &rows, width).iter().enumerate() {
        println!("{}{table}", if k > 0 { "\n" } else { "" });
    }
    let notes = notes(columns);
    print!("{}", if verbose { notes } else { wrap_text(&notes, TERMINAL) });
}

/// The table, or where it is wider than `width`, several: the first with
/// the catalog's columns and the configurations that fit beside them, the
/// others with the algorithm and the configurations that fit.
fn tables_within(header: &[String], rows: &[Vec<String>], width: usize) -> Vec<String> {
    let render = |picked: &[usize]| {
        let mut table = Table::new();
        table
            .load_preset(NOTHING)
            .set_header(picked.iter().map(|&i| header[i].clone()).collect::<Vec<_>>());
        for row in rows {
            table.add_row(picked.iter().map(|&i| row[i].clone()).collect::<Vec<_>>());
        }
        table.to_string()
    };
    let fits = |text: &str| text.lines().all(|l| columns(l.trim_end()) <= width);
    let mut tables = Vec::new();
    let mut picked: Vec<usize> = (0..CATALOG_COLUMNS.len()).collect();
    let mut fixed = picked.len();
    let mut shown = render(&picked);
    for i in CATALOG_COLUMNS.len()..header.len() {
        picked.push(i);
        let wider = render(&picked);
        if fits(&wider) || picked.len() == fixed + 1 {
            shown = wider;
            continue;
        }
        tables.push(shown);
        picked = vec![0, i];
        fixed = 1;
        shown = render(&picked);
    }
    tables.push(shown);
    tables
}

/// Below the table: how each library's ECDSA draws nonces, and the named extra work.
fn notes(columns: &[(String, Probe)]) -> String {
    let mut out = String::new();
    let nonces: Vec<String> = columns
        .iter()
        .filter_map(|(name, p)| match p {
            Probe::Available { backend, supported, .. }
                if supported
                    .iter()
                    .any(|id| cryptobench_core::pk::find(id).is_some_and(|a| a.kind == PkKind::Ecdsa)) =>
            {
                backend.ecdsa_nonce.map(|n| format!("{name}: {}", n.describe()))
            }
            _ => None,
        })
        .collect();
    if !nonces.is_empty() {
        out.push_str(&format!(
            "\nECDSA signs with (as each library declares it):\n{}\n",
            nonces.join("\n")
        ));
    }
    let notes: Vec<String> = columns
        .iter()
        .flat_map(|(name, p)| match p {
            Probe::Available { extra_work, .. } => extra_work
                .iter()
                .flat_map(|(id, lines)| lines.lines().map(move |line| format!("* {name} {id} {line}")))
                .collect(),
            Probe::Unavailable(_) | Probe::Failed(_) => Vec::new(),
        })
        .collect();
    if !notes.is_empty() {
        out.push_str(&format!(
            "\nNamed extra work (docs/METHOD.md, \"Equal work\"):\n{}\n",
            notes.join("\n")
        ));
    }
    out
}

fn print_json(columns: &[(String, Probe)]) {
    let algs: Vec<_> = CATALOG
        .iter()
        .map(|alg| {
            let support: serde_json::Map<String, serde_json::Value> =
                columns.iter().map(|(name, p)| (name.clone(), json!(supports(p, alg.id)))).collect();
            json!({
                "id": alg.id, "aliases": alg.aliases, "class": alg.class, "family": alg.family,
                "key_bytes": alg.key_len, "iv_bytes": alg.iv_len, "tag_bytes": alg.tag_len, "digest_bytes": alg.digest_len,
                "default_mode": alg.default_mode().name(), "default_suite": DEFAULT_SUITE.contains(&alg.id),
                "supported_by": support,
            })
        })
        .collect();
    let configs: Vec<_> = columns
        .iter()
        .map(|(name, p)| match p {
            Probe::Available { backend, extra_work, .. } => {
                json!({"configuration": name, "available": true, "backend": backend, "extra_work": extra_work})
            }
            other => json!({"configuration": name, "available": false, "reason": other.problem()}),
        })
        .collect();
    let pk: Vec<_> = cryptobench_core::pk::PK_CATALOG
        .iter()
        .map(|alg| {
            let support: serde_json::Map<String, serde_json::Value> =
                columns.iter().map(|(name, p)| (name.clone(), json!(supports(p, alg.id)))).collect();
            let mut entry = json!({
                "id": alg.id, "aliases": alg.aliases, "kind": alg.kind, "bits": alg.bits, "openssl_name": alg.openssl_name,
                "operations": alg.operations, "default_operations": alg.default_operations,
                "message_bytes": alg.message_len, "message_sized": alg.message_sized,
                "supported_by": support,
            });
            if alg.kind == PkKind::Ecdsa {
                // Per configuration that offers it: "random" or "rfc6979".
                let nonces: serde_json::Map<String, serde_json::Value> = columns
                    .iter()
                    .filter(|(_, p)| supports(p, alg.id) == Some(true))
                    .filter_map(|(name, p)| ecdsa_nonce(p, alg).map(|n| (name.clone(), json!(n))))
                    .collect();
                entry["nonce_by"] = json!(nonces);
            }
            entry
        })
        .collect();
    println!(
        "{}",
        serde_json::to_string_pretty(&json!({"configurations": configs, "algorithms": algs, "public_key_algorithms": pk}))
            .expect("serialisable")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(supported: &[&str], extra_work: &[(&str, &str)]) -> Probe {
        Probe::Available {
            backend: Default::default(),
            supported: supported.iter().map(|s| s.to_string()).collect(),
            platform: None,
            barrier: true,
            extra_work: extra_work.iter().map(|(id, w)| (id.to_string(), w.to_string())).collect(),
        }
    }

    /// `yes*` exactly where the configuration names extra work, public key included.
    #[test]
    fn support_is_marked_yes_star_where_extra_work_is_named() {
        let p = probe(
            &["aes-128-xts", "aes-128-gcm", "ecdsap256"],
            &[("aes-128-xts", "message decryption: a copy"), ("ecdsap256", "verify: kept")],
        );
        assert_eq!(support_mark(&p, "aes-128-xts", None), "yes*");
        assert_eq!(support_mark(&p, "aes-128-gcm", None), "yes");
        assert_eq!(support_mark(&p, "ecdsap256", Some(EcdsaNonce::Random)), "yes* (random)");
        assert_eq!(support_mark(&p, "sha256", None), "no");
        assert_eq!(support_mark(&Probe::Unavailable("gone".into()), "sha256", None), "?");
    }
}

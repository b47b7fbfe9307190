//! Reads `openssl speed` output into a [`RunResult`], so that published
//! results from other machines compare with ours.
//!
//! Two formats, unchanged in shape from SSLeay 0.6 to OpenSSL 4.0 (read in
//! `apps/speed.c`, see docs/METHOD.md):
//!
//! - the human table: a header `type  16 bytes  64 bytes …`, then one row per
//!   algorithm whose figures are `results/1e3` with a `k` suffix when the
//!   rate exceeds 10000 bytes/s, else the raw bytes/s without suffix;
//!   above it, the environment lines (`OpenSSL 1.1.1w …` or `version: 3.0.19`,
//!   `built on:`, `options:`, `compiler:`, `CPUINFO:`);
//! - `-mr`: `+H:<size>:<size>…` then `+F:<index>:<name>:<bytes/s>:…` (bytes
//!   per second, not thousands).
//!
//! Lines that belong to neither (progress lines, text a person pasted
//! around it) are skipped and counted; public-key sections are read by
//! [`crate::openssl_speed_pk`]. Only algorithms of our
//! catalog become cells; others are listed as skipped. The figures are
//! `openssl speed`'s means over one timed loop: a cell has the figure and no
//! samples, and says so.

use std::collections::BTreeMap;

use crate::catalog::{self, AlgorithmClass};
use crate::cell::{CellSpec, Mode, Operation};
use crate::result::*;
use crate::stats::Summary;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SpeedError {
    #[error(
        "no openssl speed results found: expected the table headed \"type  16 bytes  64 bytes …\" or -mr lines (+H:…, +F:…); give the output of `openssl speed` as it was printed"
    )]
    NoResults,
    #[error("line {line}: {problem}")]
    Malformed { line: usize, problem: String },
}

/// What the text says, before it becomes a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpeedOutput {
    /// "OpenSSL 1.1.1w  11 Sep 2023", "3.0.19", "SSLeay 0.7.3 30-Apr-1997".
    pub version: Option<String>,
    /// built on, options, compiler, CPUINFO, … as printed.
    pub environment: BTreeMap<String, String>,
    pub sizes: Vec<usize>,
    /// (name as printed, [(size, bytes per second)]) in order of appearance.
    pub rows: Vec<(String, Vec<(usize, f64)>)>,
    /// Lines that were neither environment nor results.
    pub ignored_lines: usize,
    /// Public-key figures (crates/core/src/openssl_speed_pk.rs).
    pub pk: Vec<crate::openssl_speed_pk::PkFigure>,
}

/// Lines `openssl speed` itself prints around the results (progress on
/// stderr, the units line): expected, so not counted as ignored.
const SPEED_CHATTER: &[&str] = &[
    "Doing ",
    "The 'numbers' are in",
    "You have chosen to measure elapsed time",
    "To get the most accurate results",
    "program when this computer is idle",
];

const ENV_KEYS: &[&str] = &[
    "built on",
    "options",
    "compiler",
    "C flags",
    "CPUINFO",
    "platform",
    "available timing options",
    "timing function used",
];

/// A figure of the human table in bytes per second: `339091.68k` or `0.00`.
fn table_value(token: &str) -> Option<f64> {
    let (num, scale) = match token.strip_suffix('k') {
        Some(n) => (n, 1e3),
        None => (token, 1.0),
    };
    let v: f64 = num.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(v * scale)
}

/// `type  16 bytes  64 bytes …` → [16, 64, …].
fn header_sizes(line: &str) -> Option<Vec<usize>> {
    let rest = line.trim().strip_prefix("type")?;
    let tokens: Vec<&str> = rest.split_whitespace().collect();
    if tokens.is_empty() || !tokens.len().is_multiple_of(2) {
        return None;
    }
    tokens
        .chunks(2)
        .map(|p| if p[1] == "bytes" { p[0].parse().ok() } else { None })
        .collect()
}

fn set_row(rows: &mut Vec<(String, Vec<(usize, f64)>)>, name: String, values: Vec<(usize, f64)>) {
    match rows.iter_mut().find(|r| r.0 == name) {
        Some(r) => {
            for (s, v) in values {
                r.1.retain(|x| x.0 != s);
                r.1.push((s, v));
            }
            r.1.sort_by_key(|x| x.0);
        }
        None => rows.push((name, values)),
    }
}

pub fn parse(text: &str) -> Result<SpeedOutput, SpeedError> {
    let mut out = SpeedOutput::default();
    let mut table_sizes: Option<Vec<usize>> = None;
    let mut mr_sizes: Option<Vec<usize>> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("+H:") {
            let sizes: Option<Vec<usize>> = rest.split(':').map(|s| s.trim().parse().ok()).collect();
            mr_sizes = Some(sizes.ok_or_else(|| SpeedError::Malformed {
                line: n + 1,
                problem: format!("'{line}' is not a list of sizes"),
            })?);
            continue;
        }
        if let Some(rest) = line.strip_prefix("+F:") {
            // +F:<index>:<name>:<v>:<v>… ; a name never contains ':'.
            let Some(sizes) = &mr_sizes else {
                return Err(SpeedError::Malformed {
                    line: n + 1,
                    problem: "a +F: line before the +H: line that gives its sizes".into(),
                });
            };
            let parts: Vec<&str> = rest.split(':').collect();
            let values: Option<Vec<f64>> = parts.get(2..).and_then(|v| v.iter().map(|x| x.trim().parse().ok()).collect());
            match values {
                Some(v) if parts.len() >= 3 && v.len() == sizes.len() => {
                    set_row(&mut out.rows, parts[1].to_string(), sizes.iter().copied().zip(v).collect());
                    out.sizes.clone_from(sizes);
                }
                _ => out.ignored_lines += 1,
            }
            continue;
        }
        if SPEED_CHATTER.iter().any(|p| line.starts_with(p)) {
            continue;
        }
        if line.starts_with('+') {
            continue; // other -mr lines: +DT, +R, +F2…+F9 (public key), +DTP
        }
        if let Some(sizes) = header_sizes(line) {
            out.sizes.clone_from(&sizes);
            table_sizes = Some(sizes);
            continue;
        }
        if out.version.is_none() {
            if let Some(v) = line.strip_prefix("version:") {
                out.version = Some(v.trim().to_string());
                continue;
            }
            if line.starts_with("OpenSSL ") || line.starts_with("SSLeay ") {
                out.version = Some(line.to_string());
                continue;
            }
        }
        if let Some((key, value)) = line.split_once(':').filter(|(k, _)| ENV_KEYS.contains(&k.trim())) {
            out.environment.insert(key.trim().to_string(), value.trim().to_string());
            continue;
        }
        if let Some(value) = line.strip_prefix("built on ") {
            out.environment.insert("built on".into(), value.trim().to_string()); // SSLeay: no colon
            continue;
        }
        if let Some(sizes) = &table_sizes {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.len() > sizes.len() {
                let (name, figures) = tokens.split_at(tokens.len() - sizes.len());
                let values: Option<Vec<f64>> = figures.iter().map(|t| table_value(t)).collect();
                if let Some(values) = values {
                    set_row(&mut out.rows, name.join(" "), sizes.iter().copied().zip(values).collect());
                    continue;
                }
            }
        }
        if crate::openssl_speed_pk::is_pk_line(raw) {
            continue;
        }
        out.ignored_lines += 1;
    }
    out.pk = crate::openssl_speed_pk::parse(text);
    if out.rows.is_empty() && out.pk.is_empty() {
        return Err(SpeedError::NoResults);
    }
    Ok(out)
}

/// The catalog id of a name as `openssl speed` prints it: `aes-128 cbc`
/// (legacy table names), `AES-128-GCM` (3.x EVP names), `des ede3`.
pub fn catalog_id(name: &str) -> Option<&'static str> {
    let n = name.trim().to_ascii_lowercase();
    let n = match n.as_str() {
        // 3.x prints "des-ede3" and times des-ede3-cbc (apps/speed.c init_evp_cipher_ctx).
        "des ede3" | "des-ede3" => "des-ede3-cbc".to_string(),
        other => other.replace(' ', "-"),
    };
    catalog::find(&n).map(|a| a.id)
}

/// (major, minor, patch) from "OpenSSL 1.1.1w …" or "3.0.19".
pub(crate) fn version_number(version: &str) -> Option<(u32, u32, u32)> {
    let v = version.trim().trim_start_matches("OpenSSL").trim();
    let token = v.split_whitespace().next()?;
    let mut parts = token.split('.');
    let num = |s: Option<&str>| -> Option<u32> { s?.chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok() };
    Some((num(parts.next())?, num(parts.next())?, num(parts.next()).unwrap_or(0)))
}

/// What one timed iteration of `openssl speed` does for an AEAD, by version
/// (docs/METHOD.md, "What openssl speed -evp measures"): the mode, whether
/// the key is set per message, the AAD, and a caveat where it is unknown.
fn aead_semantics(alg: &str, version: Option<(u32, u32, u32)>, aead_sizes: bool) -> (Mode, bool, usize, Option<String>) {
    let gcm = alg.contains("gcm");
    let aad = if aead_sizes { crate::cell::DEFAULT_AAD_LEN } else { 0 };
    match version {
        Some((0 | 1, _, _)) | Some((3, 0, 0..=8)) => {
            if aead_sizes {
                (Mode::Message, false, crate::cell::DEFAULT_AAD_LEN, None)
            } else {
                (Mode::Stream, false, 0, None)
            }
        }
        Some((3, 0, 19..)) | Some((3, 5.., _)) | Some((4.., _, _)) if gcm => (Mode::Message, true, aad, None),
        Some((3, 0, 19..)) | Some((3, 5.., _)) | Some((4.., _, _)) => (Mode::Stream, false, 0, None),
        _ => (
            Mode::Stream,
            false,
            0,
            Some("the AEAD loop of this openssl speed version was not read (it changed within 3.0); the mode is a guess".into()),
        ),
    }
}

/// The figure of one imported cell: a mean over openssl speed's loop, no samples.
fn single_figure(bytes_per_second: f64, size: usize) -> Summary {
    let v = bytes_per_second;
    Summary {
        samples: 0,
        median: v,
        q1: v,
        q3: v,
        min: v,
        max: v,
        mean: v,
        cv: 0.0,
        median_ci95: [v, v],
        median_ci95_relative: 0.0,
        cpu_share: None,
        seconds_per_call: if v > 0.0 { size as f64 / v } else { 0.0 },
        lag1_autocorrelation: None,
        effective_samples: None,
        replicates: None,
    }
}

/// Turns the parsed text into a run marked as imported from `source`.
pub fn to_run(parsed: &SpeedOutput, source: &str, imported_at: &str) -> RunResult {
    let version = parsed.version.as_deref().and_then(version_number);
    let aead_sizes = parsed.sizes.contains(&2) && parsed.sizes.contains(&31);
    let mut environment = parsed.environment.clone();
    let mut skipped = Vec::new();
    let mut cells = Vec::new();
    for (name, values) in &parsed.rows {
        let Some(id) = catalog_id(name) else {
            skipped.push(name.clone());
            continue;
        };
        let alg = catalog::find(id).expect("catalog id");
        let (operation, mode, rekey, aad, caveat) = match alg.class {
            AlgorithmClass::Digest => (Operation::Digest, Mode::Message, false, crate::cell::DEFAULT_AAD_LEN, None),
            AlgorithmClass::Cipher => (Operation::Encrypt, Mode::Stream, false, crate::cell::DEFAULT_AAD_LEN, None),
            // hmac/cmac: init with the kept key, update, final per buffer; ghash: updates (apps/speed.c).
            AlgorithmClass::Mac => (Operation::Mac, alg.default_mode(), false, crate::cell::DEFAULT_AAD_LEN, None),
            AlgorithmClass::Aead => {
                let (m, rekey, aad, caveat) = aead_semantics(id, version, aead_sizes);
                (Operation::Encrypt, m, rekey, aad, caveat)
            }
        };
        for &(size, value) in values {
            let spec = CellSpec {
                algorithm: id.to_string(),
                operation,
                mode,
                rekey,
                size,
                aad,
                unit: crate::cell::CellUnit::Bytes,
            };
            let outcome = if value <= 0.0 {
                CellOutcome::Unsupported {
                    reason: "openssl speed printed 0.00: the algorithm was not built in or not run".into(),
                }
            } else {
                let mut warnings =
                    vec!["imported from openssl speed: one mean figure, no samples, not verified by cryptobench".to_string()];
                warnings.extend(caveat.clone());
                CellOutcome::Measured(Measurement {
                    summary: single_figure(value, size),
                    samples: Vec::new(),
                    warnings,
                    checksum: String::new(),
                    implementation: None,
                    exceptions: Default::default(),
                    cycles_per_byte: None,
                    aggregate: None,
                    replicates: Vec::new(),
                    buffer_page_offset: None,
                })
            };
            cells.push(CellResult { spec, outcome });
        }
    }
    for f in &parsed.pk {
        let size = crate::openssl_speed_pk::speed_message_len(f.algorithm, f.operation);
        cells.push(CellResult {
            spec: CellSpec {
                algorithm: f.algorithm.to_string(),
                operation: f.operation,
                mode: Mode::Message,
                rekey: false,
                size,
                aad: crate::cell::DEFAULT_AAD_LEN,
                unit: crate::cell::CellUnit::Operations,
            },
            outcome: CellOutcome::Measured(Measurement {
                summary: single_figure(f.ops_per_second, 1),
                samples: Vec::new(),
                warnings: vec![format!(
                    "imported from openssl speed: one mean figure, no samples, not verified by cryptobench; {}",
                    crate::openssl_speed_pk::semantics_note(f.algorithm, f.operation)
                )],
                checksum: String::new(),
                implementation: None,
                exceptions: Default::default(),
                cycles_per_byte: None,
                aggregate: None,
                replicates: Vec::new(),
                buffer_page_offset: None,
            }),
        });
    }
    if !skipped.is_empty() {
        environment.insert("not imported (not in the catalog)".into(), skipped.join(", "));
    }
    if parsed.ignored_lines > 0 {
        environment.insert("ignored lines".into(), parsed.ignored_lines.to_string());
    }
    let backend = BackendInfo {
        id: "openssl".into(),
        name: "OpenSSL".into(),
        version: parsed.version.clone().unwrap_or_else(|| "unknown version (not in the text)".into()),
        library_path: None,
        cpu_capabilities: parsed.environment.get("CPUINFO").map(|c| c.trim().to_string()),
        details: BTreeMap::new(),
        kind: None,
        ecdsa_nonce: None,
    };
    RunResult {
        schema_version: SCHEMA_VERSION,
        tool: ToolInfo {
            name: "openssl speed".into(),
            version: parsed.version.clone().unwrap_or_default(),
        },
        started_at: imported_at.to_string(),
        finished_at: imported_at.to_string(),
        command_line: Vec::new(),
        host: HostInfo {
            arch: parsed.environment.get("platform").cloned().unwrap_or_else(|| "unknown".into()),
            os: "unknown (imported)".into(),
            ..HostInfo::default()
        },
        settings: RunSettings {
            timing: TimingSettings {
                sample_target_ns: 0,
                cell_budget_ns: 0,
                min_samples: 0,
                target_relative_ci: 0.0,
                warmup_ns: 0,
            },
            sizes: parsed.sizes.clone(),
            pinned_cpu: None,
            rounds: 1,
            replicates: 1,
            order_seed: None,
        },
        configurations: vec![ConfigurationResult {
            index: 1,
            spec: ConfigurationSpec {
                backend: "openssl".into(),
                library: None,
                env: BTreeMap::new(),
                worker: None,
            },
            backend: Some(backend),
            status: ConfigurationStatus::Completed,
            verifications: Vec::new(),
            cells,
            clock: None,
            overheads: Vec::new(),
            score: None,
            platform: None,
            placement: None,
            bindings: Vec::new(),
            capability_view: None,
        }],
        label: None,
        imported: Some(ImportInfo {
            format: "openssl-speed".into(),
            source: source.to_string(),
            environment,
        }),
        warnings: Vec::new(),
        audit: None,
        topology: None,
        history: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_follow_speed_c_print_rule() {
        assert_eq!(table_value("339091.68k"), Some(339_091_680.0));
        assert_eq!(table_value("0.00"), Some(0.0));
        assert_eq!(table_value("9876.50"), Some(9876.5));
        assert_eq!(table_value("12k3"), None);
        assert_eq!(table_value("-1"), None);
    }

    #[test]
    fn headers_and_names() {
        assert_eq!(header_sizes("type             16 bytes     64 bytes"), Some(vec![16, 64]));
        assert_eq!(header_sizes("type              8 bytes     64 bytes"), Some(vec![8, 64]));
        assert_eq!(header_sizes("type of thing"), None);
        assert_eq!(catalog_id("aes-128 cbc"), Some("aes-128-cbc"));
        assert_eq!(catalog_id("AES-128-GCM"), Some("aes-128-gcm"));
        assert_eq!(catalog_id("des ede3"), Some("des-ede3-cbc"));
        assert_eq!(catalog_id("hmac(md5)"), Some("hmac-md5"));
        assert_eq!(catalog_id("des-ede3"), Some("des-ede3-cbc"));
        assert_eq!(catalog_id("rmd160"), None);
    }

    #[test]
    fn versions() {
        assert_eq!(version_number("OpenSSL 1.1.1w  11 Sep 2023"), Some((1, 1, 1)));
        assert_eq!(version_number("3.0.19"), Some((3, 0, 19)));
        assert_eq!(version_number("OpenSSL 0.9.8o 01 Jun 2010"), Some((0, 9, 8)));
        assert_eq!(version_number("SSLeay 0.7.3 30-Apr-1997"), None);
    }

    #[test]
    fn nothing_recognisable_is_an_error() {
        assert_eq!(parse("hello\nworld\n"), Err(SpeedError::NoResults));
        assert!(matches!(parse("+F:1:md5:1:2\n"), Err(SpeedError::Malformed { line: 1, .. })));
    }
}

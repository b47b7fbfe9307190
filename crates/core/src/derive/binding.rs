//! The binding's cost: for every runtime configuration (Python, Node.js,
//! Go, Java) and overhead row, the same row of the configuration of the
//! same run that measured the C library underneath directly — matched by
//! the library name and version the runtime's driver reports (e.g.
//! `process.versions.openssl` 3.0.19 ↔ the openssl backend reporting
//! "OpenSSL 3.0.19 …"). The difference of the fixed costs per call is what
//! the language adds per call; the throughput ratios per size show where it
//! matters. Derived from the overhead fits ([`super`]) and the cells'
//! medians; nothing here measures. The types are in [`crate::binding`].
//! Public-key cells have no fit: derive/pk_binding.rs sets them cell by
//! cell beside the library's.

use crate::binding::{BindingCost, SizeRatio};
use crate::result::{BackendInfo, CellOutcome, ConfigurationResult, Measurement, OverheadFit, RunResult};

/// Fills `bindings` of every runtime configuration of the run.
pub fn derive(run: &mut RunResult) {
    let costs: Vec<(usize, Vec<BindingCost>)> = run
        .configurations
        .iter()
        .enumerate()
        .filter(|(_, c)| is_runtime(c))
        .map(|(i, c)| (i, costs_of(c, &run.configurations)))
        .collect();
    for (i, bindings) in costs {
        run.configurations[i].bindings = bindings;
    }
}

/// A language runtime's driver says what it calls underneath (`underneath`,
/// `underneath.name`, `underneath.<algorithm>`: docs/ARCHITECTURE.md,
/// "Runtime drivers"); a library says nothing of the kind.
pub(super) fn is_runtime(c: &ConfigurationResult) -> bool {
    c.backend
        .as_ref()
        .is_some_and(|b| b.details.keys().any(|k| k == "underneath" || k.starts_with("underneath.")))
}

fn costs_of(c: &ConfigurationResult, all: &[ConfigurationResult]) -> Vec<BindingCost> {
    let Some(info) = &c.backend else {
        return Vec::new();
    };
    c.overheads.iter().map(|row| cost(c, info, row, all)).collect()
}

/// What the runtime calls for `algorithm`: the text, and (name, version) where it is a library.
pub(super) fn underneath(info: &BackendInfo, algorithm: &str) -> (String, Option<(String, String)>) {
    if let Some(own) = info.details.get(&format!("underneath.{algorithm}")) {
        return (own.clone(), None);
    }
    match (info.details.get("underneath.name"), info.details.get("underneath.version")) {
        (Some(name), Some(version)) if !version.is_empty() => (format!("{name} {version}"), Some((name.clone(), version.clone()))),
        _ => (
            info.details
                .get("underneath")
                .cloned()
                .unwrap_or_else(|| "its own implementation".into()),
            None,
        ),
    }
}

/// The version number in a version string: "OpenSSL 3.0.19 27 Jan 2026" → "3.0.19".
pub fn version_number(text: &str) -> Option<&str> {
    text.split_whitespace()
        .find(|w| w.starts_with(|c: char| c.is_ascii_digit()) && w.contains('.'))
        .map(|w| w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric()))
}

/// "4.0.3" → "4.0": a release series, whose patch releases share their code paths.
fn series(version: &str) -> String {
    version.split('.').take(2).collect::<Vec<_>>().join(".")
}

/// The configuration that measured `name` `version` directly: the exact
/// version, else the same series (said in the note), else none (why not).
pub(super) fn direct<'a>(
    all: &'a [ConfigurationResult],
    name: &str,
    version: &str,
) -> Result<(&'a ConfigurationResult, Option<String>), String> {
    let libraries: Vec<(&ConfigurationResult, &str)> = all
        .iter()
        .filter(|d| !is_runtime(d))
        .filter_map(|d| {
            let b = d.backend.as_ref()?;
            (b.name.eq_ignore_ascii_case(name)).then_some((d, version_number(&b.version)?))
        })
        .collect();
    if let Some((d, _)) = libraries.iter().find(|(_, v)| *v == version) {
        return Ok((d, None));
    }
    if let Some((d, v)) = libraries.iter().find(|(_, v)| series(v) == series(version)) {
        return Ok((
            d,
            Some(format!(
                "{name} {v} is of the same {} series; {name} {version} itself is not in this run",
                series(version)
            )),
        ));
    }
    let present: Vec<String> = libraries.iter().map(|(_, v)| format!("{name} {v}")).collect();
    Err(if present.is_empty() {
        format!("{name} {version} is not in this run; add a configuration of it (for OpenSSL: --backend openssl, or openssl=PATH to a {version} libcrypto)")
    } else {
        format!(
            "{name} {version} is not in this run, which has {}; add --backend openssl=PATH to a libcrypto of {version} or of its {} series (bench/build-openssl {})",
            present.join(", "),
            series(version),
            series(version)
        )
    })
}

/// The measured cells of `row` in `c` whose label is `mode`.
fn row_cells<'c>(c: &'c ConfigurationResult, row: &'c OverheadFit, mode: &'c str) -> impl Iterator<Item = (usize, &'c Measurement)> {
    c.cells
        .iter()
        .filter(move |x| x.spec.algorithm == row.algorithm && x.spec.operation == row.operation && x.spec.mode_label() == mode)
        .filter_map(|x| match &x.outcome {
            CellOutcome::Measured(m) => Some((x.spec.size, m)),
            _ => None,
        })
}

fn medians(c: &ConfigurationResult, row: &OverheadFit, mode: &str) -> Vec<(usize, f64)> {
    row_cells(c, row, mode)
        .filter(|(_, m)| m.summary.median > 0.0)
        .map(|(size, m)| (size, m.summary.median))
        .collect()
}

/// The mode label of the direct library's row a runtime row is compared
/// with: "message+rekey" (with any " aad=N" kept) where every measured cell
/// of a `message` row sets the key per message without being asked, else
/// the row's own.
fn direct_mode(c: &ConfigurationResult, row: &OverheadFit) -> String {
    let mut cells = row_cells(c, row, &row.mode).peekable();
    let keyed = cells.peek().is_some() && cells.all(|(_, m)| m.exceptions.keys_every_message);
    match row.mode.strip_prefix("message") {
        Some(rest) if keyed && !rest.starts_with("+rekey") => format!("message+rekey{rest}"),
        _ => row.mode.clone(),
    }
}

fn cost(c: &ConfigurationResult, info: &BackendInfo, row: &OverheadFit, all: &[ConfigurationResult]) -> BindingCost {
    let (text, library) = underneath(info, &row.algorithm);
    let mut cost = BindingCost {
        algorithm: row.algorithm.clone(),
        operation: row.operation,
        mode: row.mode.clone(),
        underneath: text.clone(),
        direct: None,
        direct_mode: None,
        note: None,
        per_call_ns: row.per_call_ns,
        asymptotic_bytes_per_s: row.asymptotic_bytes_per_s,
        half_peak_bytes: row.half_peak_bytes,
        direct_per_call_ns: None,
        direct_asymptotic_bytes_per_s: None,
        direct_half_peak_bytes: None,
        ratios: Vec::new(),
    };
    let Some((name, version)) = library else {
        cost.note = Some(format!("no C library underneath: {text}"));
        return cost;
    };
    let (d, note) = match direct(all, &name, &version) {
        Ok(found) => found,
        Err(why) => {
            cost.note = Some(why);
            return cost;
        }
    };
    cost.direct = Some(d.index);
    cost.note = note;
    let mode = direct_mode(c, row);
    let library = d
        .backend
        .as_ref()
        .map(|b| format!("{} {}", b.name, version_number(&b.version).unwrap_or(&b.version)))
        .unwrap_or_else(|| "the library".into());
    if mode != row.mode {
        // Like with like: this runtime's messages each set the key, as the library's message+rekey calls do.
        let said = format!(
            "each call of this runtime's {} row sets the key, so it is set beside {library}'s {mode} row",
            row.mode
        );
        cost.note = Some(match cost.note.take() {
            Some(n) => format!("{said}; {n}"),
            None => said,
        });
        cost.direct_mode = Some(mode.clone());
    }
    let Some(fit) = d
        .overheads
        .iter()
        .find(|o| o.algorithm == row.algorithm && o.operation == row.operation && o.mode == mode)
    else {
        let advice = if mode == row.mode {
            String::new()
        } else {
            " (run with --rekey: every row then sets the key per message)".to_string()
        };
        let missing = format!("{library} has no fitted {} {mode} row in this run{advice}", row.algorithm);
        cost.note = Some(match cost.note.take() {
            Some(n) if mode != row.mode => format!("{n}; {missing}"),
            _ => missing,
        });
        return cost;
    };
    cost.direct_per_call_ns = Some(fit.per_call_ns);
    cost.direct_asymptotic_bytes_per_s = Some(fit.asymptotic_bytes_per_s);
    cost.direct_half_peak_bytes = Some(fit.half_peak_bytes);
    let theirs = medians(d, row, &mode);
    cost.ratios = medians(c, row, &row.mode)
        .into_iter()
        .filter_map(|(size, mine)| {
            let (_, other) = theirs.iter().find(|(s, _)| *s == size)?;
            Some(SizeRatio { size, ratio: mine / other })
        })
        .collect();
    cost
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::{CellResult, ConfigurationSpec, ConfigurationStatus, Measurement, RunSettings, TimingSettings, ToolInfo};
    use crate::stats::{summarize, Sample};
    use crate::{CellSpec, Mode, Operation};

    /// A configuration whose aes-128-gcm cells take `a` ns + n / `rate` per call.
    fn configuration(
        index: usize,
        backend: &str,
        name: &str,
        version: &str,
        details: &[(&str, &str)],
        a: f64,
        rate: f64,
    ) -> ConfigurationResult {
        let cells = [16usize, 1024, 16384]
            .into_iter()
            .map(|size| {
                let ns = a + size as f64 / rate * 1e9;
                let samples = vec![
                    Sample {
                        iterations: 1000,
                        wall_ns: (ns * 1000.0) as u64,
                        cpu_ns: None,
                    };
                    5
                ];
                CellResult {
                    spec: CellSpec {
                        algorithm: "aes-128-gcm".into(),
                        operation: Operation::Encrypt,
                        mode: Mode::Message,
                        rekey: false,
                        size,
                        aad: 13,
                        unit: crate::cell::CellUnit::Bytes,
                    },
                    outcome: CellOutcome::Measured(Measurement {
                        summary: summarize(&samples, size).unwrap(),
                        samples,
                        warnings: Vec::new(),
                        checksum: String::new(),
                        implementation: None,
                        exceptions: Default::default(),
                        cycles_per_byte: None,
                        aggregate: None,
                        replicates: Vec::new(),
                        buffer_page_offset: None,
                    }),
                }
            })
            .collect();
        ConfigurationResult {
            index,
            spec: ConfigurationSpec {
                backend: backend.into(),
                library: None,
                env: Default::default(),
                worker: None,
            },
            backend: Some(BackendInfo {
                id: backend.into(),
                name: name.into(),
                version: version.into(),
                details: details.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
                ..Default::default()
            }),
            status: ConfigurationStatus::Completed,
            verifications: Vec::new(),
            cells,
            clock: None,
            overheads: Vec::new(),
            score: None,
            platform: None,
            bindings: Vec::new(),
            capability_view: None,
            placement: None,
        }
    }

    fn run(configurations: Vec<ConfigurationResult>) -> RunResult {
        let mut run = RunResult {
            schema_version: 1,
            tool: ToolInfo {
                name: "cryptobench".into(),
                version: "test".into(),
            },
            started_at: String::new(),
            finished_at: String::new(),
            command_line: Vec::new(),
            host: Default::default(),
            settings: RunSettings {
                timing: TimingSettings {
                    sample_target_ns: 1,
                    cell_budget_ns: 1,
                    min_samples: 1,
                    target_relative_ci: 0.01,
                    warmup_ns: 0,
                },
                sizes: vec![16, 1024, 16384],
                pinned_cpu: None,
                rounds: 1,
                replicates: 1,
                order_seed: None,
            },
            configurations,
            label: None,
            imported: None,
            warnings: Vec::new(),
            audit: None,
            topology: None,
            history: None,
        };
        crate::derive::derive(&mut run);
        run
    }

    /// Public-key cells: one line per cell, the runtime's time per operation
    /// beside the library's cell (crates/core/src/derive/pk_binding.rs).
    #[test]
    fn a_runtime_public_key_cell_is_set_beside_the_library_cell() {
        let pk = |mut c: ConfigurationResult, ns: f64| {
            c.cells.truncate(1);
            let cell = &mut c.cells[0];
            cell.spec.algorithm = "ed25519".into();
            cell.spec.operation = Operation::Sign;
            cell.spec.size = 20;
            cell.spec.unit = crate::cell::CellUnit::Operations;
            let samples = vec![
                Sample {
                    iterations: 1000,
                    wall_ns: (ns * 1000.0) as u64,
                    cpu_ns: None,
                };
                5
            ];
            if let CellOutcome::Measured(m) = &mut cell.outcome {
                m.summary = summarize(&samples, 1).unwrap();
                m.samples = samples;
            }
            c
        };
        let node_details = [("underneath.name", "OpenSSL"), ("underneath.version", "3.0.19")];
        let r = run(vec![
            pk(
                configuration(1, "openssl", "OpenSSL", "OpenSSL 3.0.19 27 Jan 2026", &[], 0.0, 1e9),
                20_000.0,
            ),
            pk(
                configuration(2, "node", "Node.js crypto", "Node.js v20", &node_details, 0.0, 1e9),
                25_000.0,
            ),
            pk(
                configuration(
                    3,
                    "go",
                    "Go crypto",
                    "go1.26",
                    &[("underneath", "Go's own implementation")],
                    0.0,
                    1e9,
                ),
                30_000.0,
            ),
        ]);
        assert!(r.configurations[0].bindings.is_empty(), "a C library has no binding cost");
        let node = &r.configurations[1].bindings[0];
        assert!(node.is_public_key(), "{node:?}");
        assert_eq!(node.direct, Some(1));
        assert!((node.per_call_ns - 25_000.0).abs() < 1.0, "{node:?}");
        assert!((node.extra_per_call_ns().unwrap() - 5_000.0).abs() < 1.0, "{node:?}");
        assert_eq!(node.ratios.len(), 1);
        assert!((node.ratios[0].ratio - 0.8).abs() < 1e-9, "{node:?}");
        let go = &r.configurations[2].bindings[0];
        assert!(go.is_public_key() && go.direct.is_none(), "{go:?}");
        assert!(go.note.as_deref().unwrap().starts_with("no C library underneath"), "{go:?}");
    }

    #[test]
    fn a_runtime_is_set_beside_the_library_it_calls() {
        let r = run(vec![
            configuration(1, "openssl", "OpenSSL", "OpenSSL 3.0.19 27 Jan 2026", &[], 200.0, 5e9),
            configuration(
                2,
                "node",
                "Node.js crypto",
                "Node.js v20",
                &[("underneath.name", "OpenSSL"), ("underneath.version", "3.0.19")],
                600.0,
                4e9,
            ),
            configuration(
                3,
                "go",
                "Go crypto",
                "go1.26",
                &[("underneath", "Go's own implementation")],
                100.0,
                3e9,
            ),
            configuration(
                4,
                "python:cryptography",
                "Python cryptography",
                "48",
                &[("underneath.name", "OpenSSL"), ("underneath.version", "4.0.0")],
                300.0,
                9e9,
            ),
            configuration(
                5,
                "python:hashlib",
                "Python hashlib",
                "3.11",
                &[("underneath.name", "OpenSSL"), ("underneath.version", "3.0.22")],
                300.0,
                5e9,
            ),
        ]);
        assert!(r.configurations[0].bindings.is_empty(), "a C library has no binding cost");
        let node = &r.configurations[1].bindings[0];
        assert_eq!(node.direct, Some(1));
        assert_eq!(node.note, None);
        assert!((node.extra_per_call_ns().unwrap() - 400.0).abs() < 1.0, "{node:?}");
        let at16 = node.ratios.iter().find(|x| x.size == 16).unwrap().ratio;
        let expected = (200.0 + 16.0 / 5.0) / (600.0 + 16.0 / 4.0);
        assert!((at16 - expected).abs() < 1e-3, "{at16} vs {expected}");
        assert_eq!(node.ratios.len(), 3);

        let go = &r.configurations[2].bindings[0];
        assert_eq!(go.direct, None);
        assert!(
            go.note.as_deref().unwrap().starts_with("no C library underneath: Go's own"),
            "{go:?}"
        );

        let python = &r.configurations[3].bindings[0];
        assert_eq!(python.direct, None, "another series is no match: {python:?}");
        assert!(
            python.note.as_deref().unwrap().contains("OpenSSL 4.0.0 is not in this run"),
            "{python:?}"
        );

        let patch = &r.configurations[4].bindings[0];
        assert_eq!(patch.direct, Some(1), "the same series, another patch release: {patch:?}");
        assert!(patch.note.as_deref().unwrap().contains("same 3.0 series"), "{patch:?}");
    }

    /// `c`'s cells again as `message+rekey` cells taking `extra` ns more per call.
    fn with_rekey_row(mut c: ConfigurationResult, extra: f64) -> ConfigurationResult {
        let rekeyed: Vec<CellResult> = c
            .cells
            .iter()
            .map(|x| {
                let mut y = x.clone();
                y.spec.rekey = true;
                if let CellOutcome::Measured(m) = &mut y.outcome {
                    for s in &mut m.samples {
                        s.wall_ns += (extra * s.iterations as f64) as u64;
                    }
                    m.summary = summarize(&m.samples, y.spec.size).unwrap();
                }
                y
            })
            .collect();
        c.cells.extend(rekeyed);
        c
    }

    #[test]
    fn a_runtime_that_keys_every_message_is_set_beside_the_rekey_row() {
        let openssl = with_rekey_row(
            configuration(1, "openssl", "OpenSSL", "OpenSSL 3.0.19 27 Jan 2026", &[], 200.0, 5e9),
            300.0,
        );
        let mut node = configuration(
            2,
            "node",
            "Node.js crypto",
            "Node.js v20",
            &[("underneath.name", "OpenSSL"), ("underneath.version", "3.0.19")],
            900.0,
            4e9,
        );
        for x in &mut node.cells {
            if let CellOutcome::Measured(m) = &mut x.outcome {
                m.exceptions.keys_every_message = true;
            }
        }
        let r = run(vec![openssl.clone(), node.clone()]);
        let b = &r.configurations[1].bindings[0];
        assert_eq!(b.mode, "message");
        assert_eq!(b.direct_mode.as_deref(), Some("message+rekey"), "{b:?}");
        assert!((b.extra_per_call_ns().unwrap() - 400.0).abs() < 1.0, "900 ns against 500 ns: {b:?}");
        assert!(b.note.as_deref().unwrap().contains("message+rekey row"), "{b:?}");
        // Without the rekey row in the run: no figures, and what to do.
        let plain = configuration(1, "openssl", "OpenSSL", "OpenSSL 3.0.19 27 Jan 2026", &[], 200.0, 5e9);
        let r = run(vec![plain, node]);
        let b = &r.configurations[1].bindings[0];
        assert_eq!(b.direct_per_call_ns, None, "never against the message row: {b:?}");
        assert!(b.note.as_deref().unwrap().contains("--rekey"), "{b:?}");
    }

    #[test]
    fn reads_version_numbers() {
        assert_eq!(version_number("OpenSSL 3.0.19 27 Jan 2026"), Some("3.0.19"));
        assert_eq!(version_number("OpenSSL 1.1.1w  11 Sep 2023"), Some("1.1.1w"));
        assert_eq!(version_number("libgcrypt 1.10.1"), Some("1.10.1"));
        assert_eq!(version_number("no number"), None);
        assert_eq!(series("4.0.3"), "4.0");
    }
}

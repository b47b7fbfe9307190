//! `cryptobench audit`: is the hardware acceleration used, and what is it
//! worth? Measures every maskable configuration as it is and with each
//! acceleration family switched off, then gives a verdict per algorithm and
//! family with the figures behind it.

use std::process::ExitCode;

use anyhow::Result;
use comfy_table::presets::{ASCII_MARKDOWN, NOTHING};
use comfy_table::{CellAlignment, Table};
use cryptobench_core::audit::{AuditInfo, AuditedLibrary, LibraryMismatch, MaskedConfiguration};
use cryptobench_core::catalog::Family;
use cryptobench_core::result::{CellOutcome, FeatureRecord, RunResult};
use cryptobench_core::units::Unit;
use cryptobench_core::verdict::pk as pk_verdict;
use cryptobench_core::verdict::{verdicts, WorkerCpu};
use cryptobench_core::Operation;
use cryptobench_cpu::features::{self, library_view, mismatches, Feature, Mismatch};
use cryptobench_report::labels::Labels;
use serde::Serialize;

use crate::cli::{AuditArgs, FormatArg};
use crate::commands::run::{print_and_save, unit};
use crate::exit::{usage, INCOMPLETE};
use crate::orchestrate::audit_masks::{variants, MASKABLE};
use crate::orchestrate::execute::{complete, execute};
use crate::orchestrate::plan::{self, Plan};
use crate::orchestrate::worker_client::{Probe, Probes};

/// What `audit` measures when no `--algos` is given: every family, and a control without one.
pub const DEFAULT_AUDIT_ALGORITHMS: &[&str] = &[
    "aes-128-cbc",
    "aes-128-ctr",
    "aes-128-gcm",
    "aes-256-gcm",
    "chacha20-poly1305",
    "sha1",
    "sha256",
    "sha512",
];
pub const DEFAULT_AUDIT_SIZES: &[usize] = &[16, 16384];
/// Per cell and round: three interleaved rounds of 0.1 s cost what one 0.3 s round costs, and resist drift.
pub const DEFAULT_AUDIT_CELL_SECONDS: f64 = 0.1;

/// The audit's JSON document: the run (every configuration with its mask
/// in `spec.env`, and the audit's part in `run.audit`) and, at the top for
/// scripts written against earlier versions, the CPU features and the libraries
/// with their masked configurations and verdicts (the same as `run.audit.libraries`).
#[derive(Serialize)]
struct AuditReport {
    schema_version: u32,
    /// The CPU features the first library's worker detected.
    cpu_features: Vec<Feature>,
    /// Per library: the masked configurations, in the run's numbering.
    libraries: Vec<AuditedLibrary>,
    run: RunResult,
}

/// One audited library before measuring: its masked configurations, the
/// mismatches between it and its worker's CPU, and that CPU.
struct Group {
    configuration: String,
    masked: Vec<MaskedConfiguration>,
    mismatches: Vec<Mismatch>,
    arch: String,
    cpu: Vec<Feature>,
}

pub fn audit(args: &AuditArgs) -> Result<ExitCode> {
    if args.format == FormatArg::Csv {
        return Err(usage("`audit` prints table, json or markdown; --format csv is for `run`"));
    }
    let bases = plan::configurations(&args.backends, &args.placement)?;
    if let Some(other) = bases.iter().find(|b| !MASKABLE.contains(&b.backend.as_str())) {
        return Err(usage(format!(
            "backend '{}' cannot be masked; the audit supports: {}",
            other.backend,
            MASKABLE.join(", ")
        )));
    }
    let vendor = cryptobench_cpu::cpu_vendor();
    // Opened before measuring, so that a wrong --db costs nothing.
    let mut store = if args.save.no_save {
        None
    } else {
        Some(crate::orchestrate::store::open(&args.save.db)?)
    };
    let sizes = args
        .sizes
        .as_ref()
        .map(|s| s.0.clone())
        .unwrap_or_else(|| DEFAULT_AUDIT_SIZES.to_vec());
    // Public-key algorithms are audited when named: their cells, and the big-number family.
    let (symmetric, public_key) = crate::orchestrate::plan_pk::split(&args.algos)?;
    let algs = if symmetric.is_empty() && !public_key.is_empty() {
        Vec::new()
    } else {
        plan::algorithms(&symmetric, DEFAULT_AUDIT_ALGORITHMS)?
    };
    let extra_families: Vec<Family> = if public_key.is_empty() {
        Vec::new()
    } else {
        vec![pk_verdict::FAMILY]
    };
    plan::check_cpu(args.cpu)?;

    let mut configurations = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    // The probe of each library as it is serves its all-on configuration too.
    let mut probes = Probes::default();
    for base in &bases {
        let (capabilities, version, platform) = match probes.get(base, args.cpu)? {
            Probe::Available { backend, platform, .. } => (backend.cpu_capabilities.clone(), backend.version.clone(), platform.clone()),
            Probe::Unavailable(reason) => return Err(usage(format!("{}: {reason}", base.display()))),
        };
        // The CPU as the worker sees it: it may run under an emulator or elsewhere.
        let (arch, cpu) = match platform {
            Some(p) => (p.arch.clone(), features::from_records(&p.features)),
            None => (std::env::consts::ARCH.to_string(), features::runtime_features()),
        };
        let variants = variants(
            base,
            capabilities.as_deref(),
            &cpu,
            vendor.as_deref(),
            configurations.len() + 1,
            &arch,
            &extra_families,
        )
        .map_err(|e| usage(format!("{}: {e}", base.display())))?;
        let found = capabilities
            .as_deref()
            .and_then(|c| library_view(c, Some(&version)))
            .map(|(features, understood)| mismatches(&cpu, &features, &base.backend, understood))
            .unwrap_or_default();
        let (specs, masked): (Vec<_>, Vec<_>) = variants.into_iter().unzip();
        configurations.extend(specs);
        groups.push(Group {
            configuration: base.display(),
            masked,
            mismatches: found,
            arch,
            cpu,
        });
    }
    let timing = plan::timing(args.quick, args.time.or((!args.quick).then_some(DEFAULT_AUDIT_CELL_SECONDS)));
    let mut cells = plan::cells(
        &algs,
        &[Operation::Encrypt],
        None,
        false,
        cryptobench_core::cell::DEFAULT_AAD_LEN,
        &sizes,
    );
    cells.extend(crate::orchestrate::plan_pk::cells(&public_key, None, None)?);
    let plan = Plan {
        configurations,
        cells,
        sizes,
        silence_limit: args.workers.silence_limit(timing.cell_budget_ns),
        timing,
        pin_cpu: args.cpu,
        core_class: None,
        rounds: args.rounds,
        only_available: false,
        placements: None,
        openssl_speed: None,
    };
    let mut run = execute(&plan, &mut probes)?;
    run.label = args.save.label.clone();
    let audited: Vec<(AuditedLibrary, Vec<Feature>)> = groups
        .into_iter()
        .map(|g| {
            let base_index = g.masked[0].index;
            // The measuring worker's own report, where it gave one; else the probe's.
            let measured = run
                .configurations
                .iter()
                .find(|c| c.index == base_index)
                .and_then(|c| c.platform.as_ref());
            let (arch, cpu) = match measured {
                Some(p) => (p.arch.clone(), features::from_records(&p.features)),
                None => (g.arch, g.cpu),
            };
            let emulated_by = measured.and_then(|p| p.emulated_by.clone());
            let worker = WorkerCpu {
                arch: &arch,
                features: cpu.iter().map(|f| f.name.to_string()).collect(),
                emulated_by: emulated_by.as_deref(),
            };
            let library = AuditedLibrary {
                base_index,
                verdicts: [verdicts(&run, &g.masked, &worker), pk_verdict::verdicts(&run, &g.masked, &worker)].concat(),
                configuration: g.configuration,
                configurations: g.masked,
                mismatches: g
                    .mismatches
                    .into_iter()
                    .map(|m| LibraryMismatch {
                        feature: m.feature.to_string(),
                        message: m.message,
                    })
                    .collect(),
                worker_arch: arch.clone(),
                worker_features: cpu
                    .iter()
                    .map(|f| FeatureRecord {
                        name: f.name.to_string(),
                        source: f.source.clone(),
                    })
                    .collect(),
            };
            (library, cpu)
        })
        .collect();
    // The CPU features the first library's worker detected, with their sources.
    let first_cpu = audited.first().map(|(_, cpu)| cpu.clone()).unwrap_or_default();
    let libraries: Vec<AuditedLibrary> = audited.into_iter().map(|(l, _)| l).collect();
    // Saved with the run, so that `report` and `runs show` give the verdicts back.
    run.audit = Some(AuditInfo {
        libraries: libraries.clone(),
    });
    let ok = complete(&run);
    let report = AuditReport {
        schema_version: cryptobench_core::result::SCHEMA_VERSION,
        cpu_features: first_cpu,
        libraries,
        run,
    };
    let text = match args.format {
        FormatArg::Json => serde_json::to_string_pretty(&report)? + "\n",
        FormatArg::Markdown => render(&report, unit(args.units), true),
        FormatArg::Table => render(&report, unit(args.units), false),
        FormatArg::Csv => unreachable!("refused before measuring"),
    };
    print_and_save(&text, &report.run, store.as_mut())?;
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(INCOMPLETE) })
}

fn figure(run: &RunResult, index: usize, algorithm: &str, size: usize, unit: Unit) -> String {
    let c = run.configurations.iter().find(|c| c.index == index);
    let cell = c.and_then(|c| c.cells.iter().find(|x| x.spec.algorithm == algorithm && x.spec.size == size));
    match cell.map(|x| &x.outcome) {
        Some(CellOutcome::Measured(m)) => format!("{}{}", unit.format(m.summary.median), if m.is_noisy() { "~" } else { "" }),
        Some(CellOutcome::Failed { .. }) => "FAILED".into(),
        Some(CellOutcome::Unsupported { .. }) => "n/a".into(),
        None => match c.map(|c| &c.status) {
            Some(cryptobench_core::result::ConfigurationStatus::Completed) | None => String::new(),
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
        Some(CellOutcome::Measured(m)) => format!(
            "{} op/s{}",
            cryptobench_report::pk_table::format_ops(m.summary.median),
            if m.is_noisy() { "~" } else { "" }
        ),
        Some(CellOutcome::Failed { .. }) => "FAILED".into(),
        Some(CellOutcome::Unsupported { .. }) => "n/a".into(),
        None => String::new(),
    }
}

fn render(r: &AuditReport, unit: Unit, markdown: bool) -> String {
    let unit = if unit == Unit::Cpb { Unit::Mb } else { unit };
    let run = &r.run;
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
    for lib in &r.libraries {
        let base = run.configurations.iter().find(|c| c.index == lib.base_index);
        let version = base.and_then(|c| c.backend.as_ref()).map(|b| b.version.clone()).unwrap_or_default();
        out.push_str(&format!("\n{} ({}: {version})\n", labels.get(0, lib.base_index), lib.configuration));
        let cpu_names: Vec<&str> = lib.worker_features.iter().map(|f| f.name.as_str()).collect();
        let emulated = base.and_then(|c| c.platform.as_ref()).and_then(|p| p.emulated_by.as_deref());
        out.push_str(&format!(
            "  worker CPU: {}{}; crypto features as it sees them: {}\n",
            lib.worker_arch,
            emulated.map(|e| format!(", emulated by {e}")).unwrap_or_default(),
            if cpu_names.is_empty() {
                "none".to_string()
            } else {
                cpu_names.join(", ")
            }
        ));
        if let Some(e) = emulated {
            out.push_str(&format!(
                "  NOTE: every figure and verdict below describes {e} running this library, not {} hardware\n",
                lib.worker_arch
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
            if let Some((id, op)) = pk_verdict::parse_cell_name(alg) {
                let size = lib.verdicts.iter().find(|v| &v.algorithm == alg).map_or(0, |v| v.large_size);
                let mut row = vec![
                    alg.clone(),
                    if size > 0 {
                        cryptobench_report::size_label(size)
                    } else {
                        "—".into()
                    },
                ];
                row.extend(lib.configurations.iter().map(|m| pk_figure(run, m.index, id, op)));
                table.add_row(row);
                continue;
            }
            for &size in &run.settings.sizes {
                let mut row = vec![alg.clone(), cryptobench_report::size_label(size)];
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
        if let cryptobench_core::result::ConfigurationStatus::Crashed { reason }
        | cryptobench_core::result::ConfigurationStatus::TimedOut { reason }
        | cryptobench_core::result::ConfigurationStatus::Unavailable { reason } = &c.status
        {
            out.push_str(&format!("\n{} not measured completely: {reason}\n", labels.get(0, c.index)));
        }
    }
    out
}

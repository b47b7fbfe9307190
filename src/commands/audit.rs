//! `cryptobench audit`: is the hardware acceleration used, and what is it
//! worth? Measures every maskable configuration as it is and with each
//! acceleration family switched off, then gives a verdict per algorithm and
//! family with the figures behind it.

use std::process::ExitCode;

use anyhow::Result;
use comfy_table::presets::{ASCII_MARKDOWN, NOTHING};
use comfy_table::{CellAlignment, Table};
use cryptobench_core::result::{CellOutcome, RunResult};
use cryptobench_core::units::Unit;
use cryptobench_core::Operation;
use cryptobench_cpu::features::{self, library_view, mismatches, Feature, Mismatch};
use serde::Serialize;

use crate::audit::masks::{variants, MASKABLE};
use crate::audit::verdict::{verdicts, Verdict, WorkerCpu};
use crate::audit::{label, MaskedConfiguration};
use crate::cli::{AuditArgs, FormatArg};
use crate::commands::run::{print_and_save, unit};
use crate::execute::{complete, execute};
use crate::exit::{usage, INCOMPLETE};
use crate::plan::{self, Plan};
use crate::worker_client::{probe, Probe};

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
/// in `spec.env`), which families each configuration switched off, and the verdicts.
#[derive(Serialize)]
struct AuditReport {
    schema_version: u32,
    /// The CPU features the first library's worker detected.
    cpu_features: Vec<Feature>,
    /// Per library: the masked configurations, in the run's numbering.
    libraries: Vec<AuditedLibrary>,
    run: RunResult,
}

#[derive(Serialize)]
struct AuditedLibrary {
    base_index: usize,
    configuration: String,
    /// The architecture and CPU features of the worker that ran this library: what the verdicts are about.
    worker_arch: String,
    worker_features: Vec<Feature>,
    configurations: Vec<MaskedConfiguration>,
    mismatches: Vec<Mismatch>,
    verdicts: Vec<Verdict>,
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
    let bases = plan::configurations(&args.backends)?;
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
        Some(crate::store::open(&args.save.db)?)
    };
    let sizes = args
        .sizes
        .as_ref()
        .map(|s| s.0.clone())
        .unwrap_or_else(|| DEFAULT_AUDIT_SIZES.to_vec());
    let algs = plan::algorithms(&args.algos, DEFAULT_AUDIT_ALGORITHMS)?;
    plan::check_cpu(args.cpu)?;

    let mut configurations = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    for base in &bases {
        let (capabilities, platform) = match probe(base, args.cpu)? {
            Probe::Available { backend, platform, .. } => (backend.cpu_capabilities, platform),
            Probe::Unavailable(reason) => return Err(usage(format!("{}: {reason}", base.display()))),
        };
        // The CPU as the worker sees it: it may run under an emulator or elsewhere.
        let (arch, cpu) = match platform {
            Some(p) => (p.arch.clone(), features::from_records(&p.features)),
            None => (std::env::consts::ARCH.to_string(), features::runtime_features()),
        };
        let variants = variants(base, capabilities.as_deref(), &cpu, vendor.as_deref(), configurations.len() + 1)
            .map_err(|e| usage(format!("{}: {e}", base.display())))?;
        let found = capabilities
            .as_deref()
            .and_then(library_view)
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
    let plan = Plan {
        configurations,
        cells: plan::cells(
            &algs,
            &[Operation::Encrypt],
            None,
            false,
            cryptobench_core::cell::DEFAULT_AAD_LEN,
            &sizes,
        ),
        sizes,
        silence_limit: args.workers.silence_limit(timing.cell_budget_ns),
        timing,
        pin_cpu: args.cpu,
        core_class: None,
        rounds: args.rounds,
        only_available: false,
        openssl_speed: None,
    };
    let mut run = execute(&plan)?;
    run.label = args.save.label.clone();
    let libraries: Vec<AuditedLibrary> = groups
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
            let worker = WorkerCpu {
                arch: &arch,
                features: cpu.iter().map(|f| f.name.to_string()).collect(),
            };
            AuditedLibrary {
                base_index,
                verdicts: verdicts(&run, &g.masked, &worker),
                configuration: g.configuration,
                configurations: g.masked,
                mismatches: g.mismatches,
                worker_arch: arch.clone(),
                worker_features: cpu,
            }
        })
        .collect();
    let ok = complete(&run);
    let report = AuditReport {
        schema_version: cryptobench_core::result::SCHEMA_VERSION,
        cpu_features: libraries.first().map(|l| l.worker_features.clone()).unwrap_or_default(),
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

fn render(r: &AuditReport, unit: Unit, markdown: bool) -> String {
    let unit = if unit == Unit::Cpb { Unit::Mb } else { unit };
    let run = &r.run;
    let mut out = String::new();
    let cpu_names: Vec<&str> = r.cpu_features.iter().map(|f| f.name).collect();
    out.push_str(&format!("{} {} audit — {}\n", run.tool.name, run.tool.version, run.started_at));
    out.push_str(&format!(
        "CPU: {} ({} logical CPUs); crypto features: {}\n",
        run.host.cpu_model.as_deref().unwrap_or("unknown"),
        run.host.logical_cores,
        cpu_names.join(", ")
    ));
    out.push_str(&format!(
        "figures: {} at each size, median of samples; ~ marks a figure to read with care\n",
        unit.label()
    ));
    for lib in &r.libraries {
        let base = run.configurations.iter().find(|c| c.index == lib.base_index);
        let version = base.and_then(|c| c.backend.as_ref()).map(|b| b.version.clone()).unwrap_or_default();
        out.push_str(&format!("\n{} ({version})\n", lib.configuration));
        for m in &lib.configurations {
            if let Some((var, value)) = &m.mask {
                out.push_str(&format!("  [{}] {}: {var}={value}\n", m.index, label(&m.families_off)));
            }
        }
        for m in &lib.mismatches {
            out.push_str(&format!("  WARNING: {}\n", m.message));
        }
        let mut table = Table::new();
        table.load_preset(if markdown { ASCII_MARKDOWN } else { NOTHING });
        let mut header = vec!["algorithm".to_string(), "size".to_string()];
        header.extend(lib.configurations.iter().map(|m| label(&m.families_off)));
        table.set_header(header);
        let mut algorithms: Vec<String> = Vec::new();
        for v in &lib.verdicts {
            if !algorithms.contains(&v.algorithm) {
                algorithms.push(v.algorithm.clone());
            }
        }
        for alg in &algorithms {
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
            let family = v.family.map(|f| f.name()).unwrap_or("-");
            out.push_str(&format!(
                "{}{} [{family}]: {}\n",
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
            out.push_str(&format!("\n[{}] not measured completely: {reason}\n", c.index));
        }
    }
    out
}

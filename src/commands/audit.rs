//! `cryptobench audit`: is the hardware acceleration used, and what is it
//! worth? Measures every maskable configuration as it is and with each
//! acceleration family switched off, then gives a verdict per algorithm and
//! family with the figures behind it.

use std::process::ExitCode;

use anyhow::Result;
use cryptobench_backends::libraries::capability_view_against;
use cryptobench_core::audit::{AuditInfo, AuditedLibrary, LibraryMismatch, MaskedConfiguration};
use cryptobench_core::catalog::Family;
use cryptobench_core::result::RunResult;
use cryptobench_core::verdict::pk as pk_verdict;
use cryptobench_core::verdict::{verdicts, WorkerCpu};
use cryptobench_core::Operation;
use cryptobench_cpu::features::{self, to_records, Feature};
use cryptobench_report::audit_text;
use serde::Serialize;

use crate::cli::{AuditArgs, FormatArg};
use crate::commands::run::{print_and_save, unit};
use crate::exit::{usage, INCOMPLETE};
use crate::orchestrate::audit_masks::{maskable, variants};
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
/// Per cell, shared by its replicates: five of 0.06 s each by default.
pub const DEFAULT_AUDIT_CELL_SECONDS: f64 = 0.3;

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
    mismatches: Vec<LibraryMismatch>,
    arch: String,
    cpu: Vec<Feature>,
}

pub fn audit(args: &AuditArgs) -> Result<ExitCode> {
    if args.format == FormatArg::Csv {
        return Err(usage("`audit` prints table, json or markdown; --format csv is for `run`"));
    }
    let bases = plan::configurations(&args.backends, &args.placement)?;
    let maskable = maskable();
    if let Some(other) = bases.iter().find(|b| !maskable.contains(&b.backend.as_str())) {
        return Err(usage(format!(
            "backend '{}' cannot be masked; the audit supports: {}",
            other.backend,
            maskable.join(", ")
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
            other => return Err(usage(format!("{}: {}", base.display(), other.problem().unwrap_or_default()))),
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
        let found = capability_view_against(&base.backend, capabilities.as_deref(), Some(&version), &cpu, &base.backend)
            .map(|view| view.mismatches)
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
    let timing = plan::timing(args.quick, args.time.or((!args.quick).then_some(DEFAULT_AUDIT_CELL_SECONDS)), None);
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
        replicates: plan::replicates(args.quick, args.replicates),
        order_seed: None,
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
                mismatches: g.mismatches.clone(),
                worker_arch: arch.clone(),
                worker_features: to_records(&cpu),
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
        FormatArg::Markdown => audit_text::render(&report.run, &report.libraries, unit(args.units), true),
        FormatArg::Table => audit_text::render(&report.run, &report.libraries, unit(args.units), false),
        FormatArg::Csv => unreachable!("refused before measuring"),
    };
    print_and_save(&text, &report.run, store.as_mut())?;
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(INCOMPLETE) })
}

//! `cryptobench cpu`: what the processor offers, what each library makes
//! of it, and the clock the core really runs at.

use std::process::ExitCode;

use anyhow::Result;
use cryptobench_backends::libraries::capability_view_against;
use cryptobench_core::result::ConfigurationSpec;
use cryptobench_cpu::core_class;
use cryptobench_cpu::features::{self, to_records, Feature};
use cryptobench_report::cpu_text::{self, ClassRow, CpuReport, LibraryView, SeenBy};

use crate::cli::{CpuArgs, FormatArg};
use crate::exit::usage;
use crate::orchestrate::placement::describe_type;
use crate::orchestrate::plan::configurations;
use crate::orchestrate::worker_client::{probe, Probe};

pub fn cpu(args: &CpuArgs) -> Result<ExitCode> {
    if args.format != FormatArg::Table && args.format != FormatArg::Json {
        return Err(usage("`cpu` prints a table or json; use --format table or --format json"));
    }
    if args.classes {
        print!("{}", classes_table());
        return Ok(ExitCode::SUCCESS);
    }
    if args.topology {
        print!("{}", topology_listing(args.format)?);
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(n) = args.cpu {
        cryptobench_cpu::pin_to_cpu(n).map_err(|e| usage(format!("--cpu {n}: {e}")))?;
    }
    let mut runtime = features::runtime_features();
    let mut seen_by = SeenBy {
        arch: std::env::consts::ARCH.to_string(),
        big_endian: cfg!(target_endian = "big"),
        // This process itself may run under an emulator.
        emulated_by: cryptobench_cpu::emulation::detect(),
        worker: false,
    };
    let mut libraries = Vec::new();
    for spec in configurations(&args.backends, &args.placement)? {
        libraries.push(match probe(&spec, args.cpu)? {
            Probe::Available { backend, platform, .. } => {
                // Compared with the CPU as the library's worker sees it.
                let worker_cpu = platform
                    .as_ref()
                    .map(|p| features::from_records(&p.features))
                    .unwrap_or_else(|| runtime.clone());
                // A worker placed elsewhere (--arch, --worker) describes the CPU this report is about.
                if let (Some(p), Some(_), false) = (&platform, &spec.worker, seen_by.worker) {
                    runtime = worker_cpu.clone();
                    seen_by = SeenBy {
                        arch: p.arch.clone(),
                        big_endian: p.big_endian,
                        emulated_by: p.emulated_by.clone(),
                        worker: true,
                    };
                }
                library_view(&spec, Some(backend.version), backend.cpu_capabilities, &worker_cpu)
            }
            other => LibraryView {
                configuration: spec.display(),
                version: None,
                capabilities: None,
                features: Vec::new(),
                mismatches: Vec::new(),
                note: Some(format!("unavailable: {}", other.problem().unwrap_or_default())),
            },
        });
    }
    let report = CpuReport {
        host: cryptobench_cpu::host_info(),
        vendor: cryptobench_cpu::cpu_vendor(),
        runtime_features: to_records(&runtime),
        // This binary's assumptions say nothing about a worker built for another target.
        compile_time_features: if seen_by.worker {
            Vec::new()
        } else {
            features::compile_time_features().into_iter().map(str::to_string).collect()
        },
        libraries,
        clock: if args.no_clock || seen_by.worker || seen_by.emulated_by.is_some() {
            None
        } else {
            cryptobench_cpu::clock::measure_clock()
        },
        seen_by,
        os_features: cryptobench_cpu::windows::os_processor_features().map(|f| f.into_iter().map(str::to_string).collect()),
        under_wine: cryptobench_cpu::windows::wine_note(),
    };
    match args.format {
        FormatArg::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        _ => print!(
            "{}",
            cpu_text::render(&report, args.no_clock, features::crypto_feature_names_of(&report.seen_by.arch))
        ),
    }
    Ok(ExitCode::SUCCESS)
}

fn library_view(spec: &ConfigurationSpec, version: Option<String>, capabilities: Option<String>, cpu: &[Feature]) -> LibraryView {
    let configuration = spec.display();
    let name = version
        .as_deref()
        .and_then(|v| v.split_whitespace().next())
        .unwrap_or("the library")
        .to_string();
    let Some(view) = capability_view_against(&spec.backend, capabilities.as_deref(), version.as_deref(), cpu, &name) else {
        let note = match &capabilities {
            None => "the library does not report its view of the CPU (OpenSSL 1.1.1, Nettle: no API for it)".to_string(),
            Some(text) => format!("reports '{text}' (not a capability vector cryptobench decodes)"),
        };
        return LibraryView {
            configuration,
            version,
            capabilities,
            features: Vec::new(),
            mismatches: Vec::new(),
            note: Some(note),
        };
    };
    LibraryView {
        configuration,
        version,
        capabilities,
        features: view.features,
        mismatches: view.mismatches,
        note: None,
    }
}

fn classes_table() -> String {
    let rows: Vec<ClassRow> = core_class::classes()
        .iter()
        .map(|c| ClassRow {
            class: &c.class,
            arch: &c.arch,
            score_per_mhz: c.score_per_mhz,
            cores: &c.cores,
        })
        .collect();
    cpu_text::classes(&rows, core_class::source())
}

/// `cpu --topology`: the placement order of `run --threads` and the core
/// types of `run --core-types`, read as they would be, measuring nothing.
fn topology_listing(format: FormatArg) -> Result<String> {
    let topology = cryptobench_cpu::topology::Topology::of_this_machine().map_err(|e| usage(e.to_string()))?;
    #[cfg(target_os = "linux")]
    let here = cryptobench_cpu::allowed_cpus();
    #[cfg(not(target_os = "linux"))]
    let here: Vec<usize> = topology.ids();
    // A recorded tree describes another machine: all of its CPUs, not this process's.
    let allowed = if topology.root.live { here } else { topology.ids() };
    let info = topology.describe(&allowed);
    if format == FormatArg::Json {
        return Ok(serde_json::to_string_pretty(&info)? + "\n");
    }
    let types: Vec<String> = info.core_types.iter().map(describe_type).collect();
    Ok(cpu_text::topology(&info, &types))
}

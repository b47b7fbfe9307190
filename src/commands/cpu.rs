//! `cryptobench cpu`: what the processor offers, what each library makes
//! of it, and the clock the core really runs at.

use std::process::ExitCode;

use anyhow::Result;
use cryptobench_core::result::{ClockMeasurement, HostInfo};
use cryptobench_cpu::features::{self, mismatches, Feature, Mismatch};
use serde::Serialize;

use crate::cli::{CpuArgs, FormatArg};
use crate::exit::usage;
use crate::orchestrate::plan::configurations;
use crate::orchestrate::worker_client::{probe, Probe};

#[derive(Serialize)]
struct CpuReport {
    host: HostInfo,
    vendor: Option<String>,
    /// Where the features below were read: this process, or the worker that
    /// `--arch`/`--worker` placed elsewhere (then it describes that worker's CPU).
    seen_by: SeenBy,
    runtime_features: Vec<Feature>,
    compile_time_features: Vec<&'static str>,
    libraries: Vec<LibraryView>,
    clock: Option<ClockMeasurement>,
}

#[derive(Serialize)]
struct SeenBy {
    arch: String,
    /// The emulator the worker runs under, where it is emulated.
    emulated_by: Option<String>,
    /// True when a placed worker (not this process) reported the features.
    worker: bool,
}

#[derive(Serialize)]
struct LibraryView {
    configuration: String,
    version: Option<String>,
    /// The capability vector as the library reports it.
    capabilities: Option<String>,
    features: Vec<Feature>,
    mismatches: Vec<Mismatch>,
    /// Why nothing could be read.
    note: Option<String>,
}

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
                        emulated_by: p.emulated_by.clone(),
                        worker: true,
                    };
                }
                library_view(spec.display(), Some(backend.version), backend.cpu_capabilities, &worker_cpu)
            }
            Probe::Unavailable(reason) => LibraryView {
                configuration: spec.display(),
                version: None,
                capabilities: None,
                features: Vec::new(),
                mismatches: Vec::new(),
                note: Some(format!("unavailable: {reason}")),
            },
        });
    }
    let report = CpuReport {
        host: cryptobench_cpu::host_info(),
        vendor: cryptobench_cpu::cpu_vendor(),
        runtime_features: runtime,
        // This binary's assumptions say nothing about a worker built for another target.
        compile_time_features: if seen_by.worker {
            Vec::new()
        } else {
            features::compile_time_features()
        },
        libraries,
        clock: if args.no_clock || seen_by.worker || seen_by.emulated_by.is_some() {
            None
        } else {
            cryptobench_cpu::clock::measure_clock()
        },
        seen_by,
    };
    match args.format {
        FormatArg::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        _ => print!("{}", render(&report, args.no_clock)),
    }
    Ok(ExitCode::SUCCESS)
}

fn library_view(configuration: String, version: Option<String>, capabilities: Option<String>, cpu: &[Feature]) -> LibraryView {
    let Some((lib_features, understood)) = capabilities.as_deref().and_then(|c| features::library_view(c, version.as_deref())) else {
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
    let name = version
        .as_deref()
        .and_then(|v| v.split_whitespace().next())
        .unwrap_or("the library")
        .to_string();
    let found = mismatches(cpu, &lib_features, &name, understood);
    LibraryView {
        configuration,
        version,
        capabilities,
        features: lib_features,
        mismatches: found,
        note: None,
    }
}

fn render(r: &CpuReport, no_clock: bool) -> String {
    let h = &r.host;
    let mut out = String::new();
    out.push_str(&format!("CPU:      {}\n", h.cpu_model.as_deref().unwrap_or("unknown")));
    out.push_str(&format!("vendor:   {}\n", r.vendor.as_deref().unwrap_or("unknown")));
    out.push_str(&format!("cores:    {} logical\n", h.logical_cores));
    out.push_str(&format!(
        "system:   {} {}, kernel {}\n",
        h.os,
        h.arch,
        h.kernel.as_deref().unwrap_or("unknown")
    ));
    out.push_str(&format!("hypervisor: {}\n", h.virtualization.as_deref().unwrap_or("none detected")));
    if r.seen_by.worker {
        out.push_str(&format!(
            "\nthe worker: {}{} (the features below are what it sees; the lines above describe this machine)\n",
            r.seen_by.arch,
            r.seen_by
                .emulated_by
                .as_deref()
                .map(|e| format!(", emulated by {e}"))
                .unwrap_or_default()
        ));
    }
    out.push_str("\ncrypto features (run time, what the CPU offers and the OS enables):\n");
    let names = features::crypto_feature_names_of(&r.seen_by.arch);
    for name in names {
        match r.runtime_features.iter().find(|f| f.name == *name) {
            Some(f) => out.push_str(&format!("  {name:<12} yes   {}\n", f.source)),
            None => out.push_str(&format!("  {name:<12} no\n")),
        }
    }
    let compiled = if r.compile_time_features.is_empty() {
        "none beyond the target's baseline".to_string()
    } else {
        r.compile_time_features.join(", ")
    };
    if !r.seen_by.worker {
        out.push_str(&format!("compile time (this binary assumes): {compiled}\n"));
    }
    for lib in &r.libraries {
        out.push_str(&format!(
            "\n{} {}:\n",
            lib.configuration,
            lib.version.as_deref().map(|v| format!("({v})")).unwrap_or_default()
        ));
        if let Some(cap) = &lib.capabilities {
            out.push_str(&format!("  capability vector: {cap}\n"));
        }
        if let Some(note) = &lib.note {
            out.push_str(&format!("  {note}\n"));
            continue;
        }
        let used: Vec<String> = lib.features.iter().map(|f| format!("{} ({})", f.name, f.source)).collect();
        out.push_str(&format!(
            "  sees: {}\n",
            if used.is_empty() {
                "no crypto feature".to_string()
            } else {
                used.join(", ")
            }
        ));
        if lib.mismatches.is_empty() {
            out.push_str("  agrees with the CPU on every feature its vector can express\n");
        }
        for m in &lib.mismatches {
            out.push_str(&format!("  WARNING: {}\n", m.message));
        }
    }
    out.push('\n');
    match (&r.clock, no_clock) {
        (_, true) => {}
        (None, false) if r.seen_by.emulated_by.is_some() => {
            out.push_str("effective clock: not measured: under an emulator the dependent-add chains would time the emulator, not a CPU\n")
        }
        (None, false) if r.seen_by.worker => out.push_str("effective clock: measured by `cryptobench run` inside the worker, not here\n"),
        (Some(c), false) => out.push_str(&format!(
            "effective clock: {:.0} MHz under load on one core (fastest of {} runs of dependent-add chains; runs ranged {:.0}–{:.0} MHz)\n",
            c.mhz, c.repetitions, c.min_mhz, c.max_mhz
        )),
        (None, false) => out.push_str("effective clock: not measurable on this architecture\n"),
    }
    if let Some(t) = h.tsc_mhz {
        out.push_str(&format!(
            "time-stamp counter: {t:.0} MHz (reference cycles, the nominal rate, not the core clock)\n"
        ));
    }
    if let (Some(mhz), Some(src)) = (h.reported_mhz, &h.reported_mhz_source) {
        out.push_str(&format!("reported by the OS: {mhz:.0} MHz ({src})\n"));
    }
    out
}

fn classes_table() -> String {
    use cryptobench_cpu::core_class;
    let mut table = comfy_table::Table::new();
    table
        .load_preset(comfy_table::presets::NOTHING)
        .set_header(["class", "arch", "score per MHz", "cores"]);
    for c in core_class::classes() {
        table.add_row([
            c.class.clone(),
            c.arch.clone(),
            format!("{:.0}", c.score_per_mhz),
            c.cores.join(", "),
        ]);
    }
    format!(
        "aes-256-cbc at 16 KiB (openssl speed's 1000s of bytes per second) per MHz of core clock\n{table}\nsource: {}\n",
        core_class::source()
    )
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
    let mut out = format!("cores read from {}\n", info.source);
    out.push_str(&format!(
        "placement for run --threads: {}\n  order: {}\n",
        info.placement_rule,
        info.placement_order.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
    ));
    out.push_str(&format!(
        "core types for run --core-types: {}\n",
        if info.core_types.len() == 1 {
            "one (all cores alike)".to_string()
        } else {
            info.core_types.len().to_string()
        }
    ));
    for t in &info.core_types {
        out.push_str(&format!("  {}\n", crate::orchestrate::placement::describe_type(t)));
    }
    Ok(out)
}

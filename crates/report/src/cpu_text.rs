//! The text of `cryptobench cpu`: the host, the CPU's crypto features,
//! each library's view of them and the measured clock; the reference
//! classes of cores (`--classes`) and the cores' placement and types
//! (`--topology`).

use comfy_table::presets::NOTHING;
use comfy_table::Table;
use cryptobench_core::audit::LibraryMismatch;
use cryptobench_core::cores::Topology;
use cryptobench_core::result::{ClockMeasurement, FeatureRecord, HostInfo};
use serde::Serialize;

/// What `cryptobench cpu` found: the host, the CPU's crypto features as
/// this process (or a placed worker) sees them, each library's view, the clock.
#[derive(Serialize)]
pub struct CpuReport {
    pub host: HostInfo,
    pub vendor: Option<String>,
    /// Where the features below were read: this process, or the worker that
    /// `--arch`/`--worker` placed elsewhere (then it describes that worker's CPU).
    pub seen_by: SeenBy,
    pub runtime_features: Vec<FeatureRecord>,
    pub compile_time_features: Vec<String>,
    pub libraries: Vec<LibraryView>,
    pub clock: Option<ClockMeasurement>,
    /// Windows: the processor features the OS reports (`IsProcessorFeaturePresent`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub os_features: Option<Vec<String>>,
    /// Windows under Wine: "under Wine 8.0 (bcrypt.dll is Wine's)".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub under_wine: Option<String>,
}

/// Where the features were read.
#[derive(Serialize)]
pub struct SeenBy {
    /// Rust's name (std::env::consts::ARCH), which keys the feature tables.
    pub arch: String,
    /// The worker's byte order is big-endian.
    pub big_endian: bool,
    /// The emulator the worker runs under, where it is emulated.
    pub emulated_by: Option<String>,
    /// True when a placed worker (not this process) reported the features.
    pub worker: bool,
}

/// One library's view of the CPU, and where it differs from the CPU's.
#[derive(Serialize)]
pub struct LibraryView {
    pub configuration: String,
    pub version: Option<String>,
    /// The capability vector as the library reports it.
    pub capabilities: Option<String>,
    pub features: Vec<FeatureRecord>,
    pub mismatches: Vec<LibraryMismatch>,
    /// Why nothing could be read.
    pub note: Option<String>,
}

/// The text of `cpu`; `feature_names`: the crypto features of the
/// architecture the features were read on, in the order to list them.
pub fn render(r: &CpuReport, no_clock: bool, feature_names: &[&str]) -> String {
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
    if let Some(wine) = &r.under_wine {
        out.push_str(&format!(
            "Wine:     this Windows build runs {wine}: Windows' own crypto (the cng backend) is Wine's implementation here, not Windows'\n"
        ));
    }
    if r.seen_by.worker {
        out.push_str(&format!(
            "\nthe worker: {}{}{} (the features below are what it sees; the lines above describe this machine)\n",
            cryptobench_core::machine::arch_display_name(&r.seen_by.arch, r.seen_by.big_endian),
            if r.seen_by.big_endian { " (big-endian)" } else { "" },
            r.seen_by
                .emulated_by
                .as_deref()
                .map(|e| format!(", emulated by {e}"))
                .unwrap_or_default()
        ));
    }
    out.push_str("\ncrypto features (run time, what the CPU offers and the OS enables):\n");
    for name in feature_names {
        match r.runtime_features.iter().find(|f| f.name == *name) {
            Some(f) => out.push_str(&format!("  {name:<12} yes   {}\n", f.source)),
            None => out.push_str(&format!("  {name:<12} no\n")),
        }
    }
    if let Some(emulator) = &r.seen_by.emulated_by {
        let absent: Vec<&str> = feature_names
            .iter()
            .copied()
            .filter(|n| !r.runtime_features.iter().any(|f| f.name == *n))
            .collect();
        if !absent.is_empty() {
            out.push_str(&format!(
                "  emulated by {emulator}: it reports none of {} (hardware of this architecture may have them); \
                 everything measured runs in the emulator: figures prove code paths, never speed\n",
                absent.join(", ")
            ));
        }
    }
    let compiled = if r.compile_time_features.is_empty() {
        "none beyond the target's baseline".to_string()
    } else {
        r.compile_time_features.join(", ")
    };
    if let Some(os) = &r.os_features {
        let listed = if os.is_empty() {
            "none of those asked".to_string()
        } else {
            os.join(", ")
        };
        out.push_str(&format!("the OS reports (IsProcessorFeaturePresent): {listed}\n"));
    }
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
    // Within the terminal's width, wrapped rather than cut: a capability
    // vector (OpenSSL's s390x one runs to 380 characters) stays whole to copy.
    crate::width::wrap_text(&out, crate::width::TERMINAL)
}

/// `cpu --classes`: the reference classes of cores, each with its
/// architecture, score per MHz and cores, and where the figures come from.
pub fn classes(classes: &[ClassRow], source: &str) -> String {
    let mut table = Table::new();
    table.load_preset(NOTHING).set_header(["class", "arch", "score per MHz", "cores"]);
    for c in classes {
        table.add_row([
            c.class.to_string(),
            c.arch.to_string(),
            format!("{:.0}", c.score_per_mhz),
            c.cores.join(", "),
        ]);
    }
    format!(
        "aes-256-cbc at 16 KiB (openssl speed's 1000s of bytes per second) per MHz of core clock\n{table}\nsource: {}\n",
        source
    )
}

/// One reference class of cores for [`classes`].
pub struct ClassRow<'a> {
    pub class: &'a str,
    pub arch: &'a str,
    pub score_per_mhz: f64,
    pub cores: &'a [String],
}

/// `cpu --topology`: the placement order of `run --threads` and the core
/// types of `run --core-types` (`types`: one line for each, in order).
pub fn topology(info: &Topology, types: &[String]) -> String {
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
    for t in types {
        out.push_str(&format!("  {t}\n"));
    }
    out
}

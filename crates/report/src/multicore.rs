//! What a run with several cores says, in rows any format can render:
//! the scaling of each library over thread counts (`run --threads`: the
//! aggregate with its interval, each worker's figure, the efficiency
//! against one worker), each core's clock under that load, and the core
//! types measured apart (`run --core-types`: clock, score per MHz, class).

use cryptobench_core::result::{CellOutcome, ConfigurationResult, ConfigurationSpec, RunResult};
use cryptobench_core::units::{format_ops, Unit};

use crate::labels::{library_label, Labels};
use crate::size_label;

/// The size scaling and core types are shown at: 16 KiB where measured, else the largest.
pub const SIZE: usize = 16384;

/// One library's configurations with a thread count (not a core type), by threads.
pub struct Library<'a> {
    pub name: String,
    pub configurations: Vec<&'a ConfigurationResult>,
}

/// The libraries of a `--threads` run, each with its thread counts in order.
pub fn libraries(run: &RunResult) -> Vec<Library<'_>> {
    let mut out: Vec<(ConfigurationSpec, Library)> = Vec::new();
    for c in &run.configurations {
        let Some(p) = &c.placement else { continue };
        if p.core_type.is_some() {
            continue;
        }
        match out.iter_mut().find(|(s, _)| *s == c.spec) {
            Some((_, l)) => l.configurations.push(c),
            None => out.push((
                c.spec.clone(),
                Library {
                    name: library_label(c),
                    configurations: vec![c],
                },
            )),
        }
    }
    for (_, l) in &mut out {
        l.configurations.sort_by_key(|c| c.placement.as_ref().map(|p| p.threads));
    }
    out.into_iter().map(|(_, l)| l).collect()
}

/// One thread count of one row at one size.
#[derive(Debug, Clone)]
pub struct ScalingRow {
    pub algorithm: String,
    pub operation: &'static str,
    pub mode: String,
    pub size: usize,
    pub threads: usize,
    pub cpus: Vec<usize>,
    /// A public-key cell: the figures are operations per second, not bytes.
    pub per_operation: bool,
    /// Bytes (or operations) per second: the aggregate (sum of the workers' medians) and its 95% interval.
    pub median: f64,
    pub interval: [f64; 2],
    /// (CPU, median) per worker.
    pub workers: Vec<(usize, f64)>,
    /// None for one worker (the base) or where the base is missing.
    pub efficiency: Option<f64>,
    pub noisy: bool,
    /// The configuration's position among the report's (its colour in charts).
    pub index: usize,
}

/// The size a library's symmetric rows are shown at (public-key rows are
/// shown at each cell's own message length).
fn shown_size(l: &Library) -> Option<usize> {
    let sizes: Vec<usize> = l
        .configurations
        .iter()
        .flat_map(|c| &c.cells)
        .filter(|x| matches!(x.outcome, CellOutcome::Measured(_)) && !x.spec.is_public_key())
        .map(|x| x.spec.size)
        .collect();
    if sizes.contains(&SIZE) {
        Some(SIZE)
    } else {
        sizes.into_iter().max()
    }
}

/// Every row key (algorithm, operation, mode) of the library with its
/// thread counts: symmetric cells at the shown size, public-key cells (in
/// operations per second) at their message length.
pub fn scaling_rows(l: &Library) -> Vec<ScalingRow> {
    let shown = shown_size(l);
    let mut keys: Vec<(String, &'static str, String, usize, bool)> = Vec::new();
    for x in l.configurations.iter().flat_map(|c| &c.cells) {
        let public_key = x.spec.is_public_key();
        let Some(size) = (if public_key { Some(x.spec.size) } else { shown }) else {
            continue;
        };
        let k = (
            x.spec.algorithm.clone(),
            x.spec.operation.short(),
            x.spec.mode_label(),
            size,
            public_key,
        );
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut rows = Vec::new();
    for k in keys {
        let size = k.3;
        for c in &l.configurations {
            let p = c.placement.as_ref().expect("libraries() keeps placed configurations");
            let found = c.cells.iter().find_map(|x| match &x.outcome {
                CellOutcome::Measured(m)
                    if x.spec.size == size && x.spec.algorithm == k.0 && x.spec.operation.short() == k.1 && x.spec.mode_label() == k.2 =>
                {
                    Some(m)
                }
                _ => None,
            });
            let Some(m) = found else { continue };
            let workers = match &m.aggregate {
                Some(a) => a.workers.iter().map(|w| (w.cpu, w.summary.median)).collect(),
                None => vec![(p.cpus[0], m.summary.median)],
            };
            rows.push(ScalingRow {
                algorithm: k.0.clone(),
                operation: k.1,
                mode: k.2.clone(),
                size,
                per_operation: k.4,
                threads: p.threads,
                cpus: p.cpus.clone(),
                median: m.summary.median,
                interval: m.summary.median_ci95,
                workers,
                efficiency: m.aggregate.as_ref().and_then(|a| a.scaling_efficiency),
                noisy: m.is_noisy(),
                index: c.index,
            });
        }
    }
    rows
}

/// The header of the scaling table.
pub fn scaling_header(unit: Unit) -> Vec<String> {
    let u = rate(unit).label();
    [
        "algorithm",
        "op",
        "mode",
        "size",
        "threads",
        "CPUs",
        &format!("aggregate {u}"),
        "95% interval",
        &format!("per worker (CPU: {u})"),
        "efficiency",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Throughput units only: cycles per byte have their own lines.
fn rate(unit: Unit) -> Unit {
    if unit == Unit::Cpb {
        Unit::Mb
    } else {
        unit
    }
}

/// A figure of a scaling row: in `unit` for bytes, "N op/s" for public key.
pub fn scaling_figure(r: &ScalingRow, unit: Unit, value: f64) -> String {
    if r.per_operation {
        format!("{} op/s", format_ops(value))
    } else {
        rate(unit).format(value)
    }
}

/// The cells of a scaling row as text.
pub fn scaling_cells(r: &ScalingRow, unit: Unit) -> Vec<String> {
    let f = |v: f64| scaling_figure(r, unit, v);
    let workers = if r.workers.len() <= 4 {
        r.workers
            .iter()
            .map(|(cpu, m)| format!("{cpu}: {}", f(*m)))
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        let lo = r.workers.iter().map(|w| w.1).fold(f64::INFINITY, f64::min);
        let hi = r.workers.iter().map(|w| w.1).fold(0.0, f64::max);
        format!("{}–{} over {} workers", f(lo), f(hi), r.workers.len())
    };
    vec![
        r.algorithm.clone(),
        r.operation.to_string(),
        r.mode.clone(),
        size_label(r.size),
        r.threads.to_string(),
        cryptobench_cpu_list(&r.cpus),
        format!("{}{}", f(r.median), if r.noisy { crate::grid::NOISY_MARK } else { "" }),
        if r.per_operation {
            format!("{}–{} op/s", format_ops(r.interval[0]), format_ops(r.interval[1]))
        } else {
            format!("{}–{}", f(r.interval[0]), f(r.interval[1]))
        },
        workers,
        match (r.threads, r.efficiency) {
            (1, _) => "base".into(),
            (_, Some(e)) => format!("{e:.2}"),
            (_, None) => "-".into(),
        },
    ]
}

/// "0-3,8": CPUs as the kernel lists them.
pub fn cryptobench_cpu_list(cpus: &[usize]) -> String {
    let mut sorted = cpus.to_vec();
    sorted.sort_unstable();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        while i + 1 < sorted.len() && sorted[i + 1] == sorted[i] + 1 {
            i += 1;
        }
        parts.push(if sorted[i] == start {
            start.to_string()
        } else {
            format!("{start}-{}", sorted[i])
        });
        i += 1;
    }
    parts.join(",")
}

/// The lines above the scaling tables: how workers were placed and summed.
pub fn scaling_intro(run: &RunResult) -> Vec<String> {
    let mut lines = vec![
        "several cores at once: the workers of a configuration start every sample together, each pinned to its own CPU; \
         aggregate = the sum of their medians, its 95% interval the sum of simultaneous intervals (docs/METHOD.md); \
         efficiency = aggregate / (threads × the one-worker median)"
            .to_string(),
    ];
    if let Some(t) = &run.topology {
        lines.push(format!("placement: {}", t.placement_rule));
    }
    lines
}

/// Per configuration with several workers: each core's clock under that load.
pub fn clock_lines(run: &RunResult, labels: &Labels, pos: usize) -> Vec<String> {
    run.configurations
        .iter()
        .filter_map(|c| {
            let p = c.placement.as_ref().filter(|p| p.threads > 1)?;
            let parts: Vec<String> = p
                .cpus
                .iter()
                .zip(&p.clocks)
                .map(|(cpu, k)| {
                    let f = |m: Option<cryptobench_core::result::ClockMeasurement>| {
                        m.map(|m| format!("{:.0}", m.mhz)).unwrap_or("?".into())
                    };
                    format!("CPU {cpu} {} before, {} after", f(k.before), f(k.after))
                })
                .collect();
            (!parts.is_empty()).then(|| {
                format!(
                    "{}: clock under load (MHz, each worker on its own core while the others ran): {}; cycles per byte count every core at its own clock",
                    labels.get(pos, c.index),
                    parts.join("; ")
                )
            })
        })
        .collect()
}

/// One core type measured apart.
#[derive(Debug, Clone)]
pub struct CoreTypeRow {
    pub library: String,
    pub core_type: String,
    pub cpus: Vec<usize>,
    pub measured_on: usize,
    pub mhz: Option<f64>,
    /// aes-256-cbc at 16 KiB in 1000s of bytes per second, and per MHz.
    pub score_k: Option<f64>,
    pub score_per_mhz: Option<f64>,
    pub nearest: Option<(String, f64)>,
    /// The reference class the type's ID matches (its MIDR part).
    pub class_of_type: Option<String>,
    pub index: usize,
}

/// The core types of a `--core-types` run, per library.
pub fn core_type_rows(run: &RunResult) -> Vec<CoreTypeRow> {
    let types = run.topology.as_ref().map(|t| t.core_types.as_slice()).unwrap_or_default();
    run.configurations
        .iter()
        .filter_map(|c| {
            let p = c.placement.as_ref()?;
            let name = p.core_type.as_ref()?;
            let t = types.iter().find(|t| &t.name == name);
            Some(CoreTypeRow {
                library: library_label(c),
                core_type: name.clone(),
                cpus: t.map(|t| t.cpus.clone()).unwrap_or_else(|| p.cpus.clone()),
                measured_on: p.cpus[0],
                mhz: c.clock.as_ref().and_then(|k| k.mhz()),
                score_k: c.score.as_ref().map(|s| s.aes256cbc_16k_k),
                score_per_mhz: c.score.as_ref().and_then(|s| s.score_per_mhz),
                nearest: c
                    .score
                    .as_ref()
                    .and_then(|s| Some((s.nearest_class.clone()?, s.nearest_class_score_per_mhz?))),
                class_of_type: t.and_then(|t| t.core_class.clone()),
                index: c.index,
            })
        })
        .collect()
}

pub fn core_type_header(several_libraries: bool) -> Vec<String> {
    let mut h: Vec<String> = Vec::new();
    if several_libraries {
        h.push("library".into());
    }
    h.extend(
        [
            "core type",
            "CPUs",
            "measured on",
            "clock MHz",
            "aes-256-cbc 16 KiB",
            "score per MHz",
            "nearest class",
            "class of its ID",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    h
}

pub fn core_type_cells(r: &CoreTypeRow, several_libraries: bool) -> Vec<String> {
    let mut cells = Vec::new();
    if several_libraries {
        cells.push(r.library.clone());
    }
    cells.extend([
        r.core_type.clone(),
        cryptobench_cpu_list(&r.cpus),
        format!("CPU {}", r.measured_on),
        r.mhz.map(|m| format!("{m:.0}")).unwrap_or("-".into()),
        r.score_k.map(|k| format!("{k:.0}k")).unwrap_or("not measured".into()),
        r.score_per_mhz.map(|s| format!("{s:.0}")).unwrap_or("-".into()),
        r.nearest.as_ref().map(|(c, s)| format!("{c} ({s:.0})")).unwrap_or("-".into()),
        r.class_of_type.clone().unwrap_or("-".into()),
    ]);
    cells
}

/// The line above the core-type table: how many types and where they were read.
pub fn core_types_intro(run: &RunResult) -> Option<String> {
    let t = run.topology.as_ref()?;
    if !run
        .configurations
        .iter()
        .any(|c| c.placement.as_ref().is_some_and(|p| p.core_type.is_some()))
    {
        return None;
    }
    Some(if t.core_types.len() == 1 {
        format!(
            "core types: one here ({}: {}), so each configuration was measured once (read from {})",
            t.core_types[0].name, t.core_types[0].evidence, t.source
        )
    } else {
        format!(
            "core types: {} (read from {}), each configuration measured on one core of each; sbc-bench score = aes-256-cbc \
             stream encryption at 16 KiB in 1000s of bytes per second, per MHz of that core's measured clock",
            t.core_types.len(),
            t.source
        )
    })
}

/// The scaling tables, clock lines and the core-type table as text: a
/// terminal table, or Markdown.
pub fn render_text(run: &RunResult, labels: &Labels, unit: Unit, markdown: bool) -> String {
    use comfy_table::presets::{ASCII_MARKDOWN, NOTHING};
    let table = |header: Vec<String>, rows: Vec<Vec<String>>| {
        let mut t = comfy_table::Table::new();
        t.load_preset(if markdown { ASCII_MARKDOWN } else { NOTHING }).set_header(header);
        for r in rows {
            t.add_row(r);
        }
        t.to_string()
    };
    let line = |text: &str| {
        if markdown {
            format!("- {}\n", text.replace('|', "\\|"))
        } else {
            format!("{text}\n")
        }
    };
    let mut out = String::new();
    let libs = libraries(run);
    if !libs.is_empty() {
        out.push('\n');
        for l in scaling_intro(run) {
            out.push_str(&line(&l));
        }
        for l in &libs {
            let rows = scaling_rows(l);
            if rows.is_empty() {
                continue;
            }
            out.push_str(&if markdown {
                format!("\n**{}: scaling at {}**\n\n", l.name, size_label(rows[0].size))
            } else {
                format!("\n{}: scaling at {}\n", l.name, size_label(rows[0].size))
            });
            out.push_str(&table(scaling_header(unit), rows.iter().map(|r| scaling_cells(r, unit)).collect()));
            out.push('\n');
        }
        let clocks = clock_lines(run, labels, 0);
        if !clocks.is_empty() {
            out.push('\n');
            for c in clocks {
                out.push_str(&line(&c));
            }
        }
    }
    if let Some(intro) = core_types_intro(run) {
        let rows = core_type_rows(run);
        let several = rows.iter().any(|r| r.library != rows[0].library);
        out.push('\n');
        out.push_str(&line(&intro));
        if markdown {
            out.push('\n');
        }
        out.push_str(&table(
            core_type_header(several),
            rows.iter().map(|r| core_type_cells(r, several)).collect(),
        ));
        out.push('\n');
    }
    out
}

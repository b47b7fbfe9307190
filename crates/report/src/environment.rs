//! The lines that say where figures come from: host, libraries, timing.

use cryptobench_core::result::{ConfigurationResult, ConfigurationStatus, RunResult};

pub fn host_line(run: &RunResult) -> String {
    let h = &run.host;
    // An imported run (openssl speed output) names no CPU and counts none: say so, not "0 CPUs".
    if h.cpu_model.is_none() && h.logical_cores == 0 {
        let arch = if h.arch.is_empty() || h.arch == "unknown" {
            String::new()
        } else {
            format!(" ({})", h.arch)
        };
        return format!("not recorded{arch}");
    }
    let mut cpu = h.cpu_model.clone().unwrap_or_else(|| "unknown CPU".into());
    cpu.push_str(&format!(" ({} logical CPUs", h.logical_cores));
    if let Some(v) = &h.virtualization {
        cpu.push_str(&format!(", {v} guest"));
    }
    cpu.push(')');
    let kernel = h.kernel.as_ref().map(|k| format!(", kernel {k}")).unwrap_or_default();
    format!("{cpu}; {} {}{kernel}", h.os, h.arch)
}

/// "OpenSSL 3.0.19 — openssl: OpenSSL 3.0.19 27 Jan 2026 (/usr/lib/…/libcrypto.so.3)":
/// the configuration's label, then what the user asked for and what the library said.
pub fn configuration_line(c: &ConfigurationResult, label: &str) -> String {
    let mut line = label.to_string();
    if label != c.spec.display() || c.backend.is_some() {
        line.push_str(&format!(" — {}", c.spec.display()));
    }
    if let Some(e) = c.platform.as_ref().and_then(|p| p.emulated_by.as_deref()) {
        line.push_str(&format!(" (emulated by {e})"));
    }
    if let Some(b) = &c.backend {
        line.push_str(&format!(": {}", b.version));
        if let Some(p) = &b.library_path {
            line.push_str(&format!(" ({p})"));
        }
    }
    for (k, v) in c.spec.capability_env() {
        line.push_str(&format!(" {k}={v}"));
    }
    match &c.status {
        ConfigurationStatus::Completed => {}
        ConfigurationStatus::Unavailable { reason } => line.push_str(&format!(" — UNAVAILABLE: {reason}")),
        ConfigurationStatus::Crashed { reason } => line.push_str(&format!(" — CRASHED: {reason}")),
        ConfigurationStatus::TimedOut { reason } => line.push_str(&format!(" — TIMED OUT: {reason}")),
    }
    line
}

/// "OpenSSL 3.0.19 — OpenSSL 3.0.19 27 Jan 2026": the configuration's label
/// and the library's own version string where it says more than the label,
/// and what became of it where it was not measured; the file, the
/// capability string and the build are in [`configuration_line`].
pub fn configuration_summary(c: &ConfigurationResult, label: &str) -> String {
    let mut line = label.to_string();
    if let Some(b) = c.backend.as_ref().filter(|b| b.version != label) {
        line.push_str(&format!(" — {}", b.version));
    }
    match &c.status {
        ConfigurationStatus::Completed => {}
        _ => line.push_str(&format!(" — {}", status_text(c))),
    }
    line
}

/// "completed", "UNAVAILABLE: …", "CRASHED: …", "TIMED OUT: …".
pub fn status_text(c: &ConfigurationResult) -> String {
    match &c.status {
        ConfigurationStatus::Completed => "completed".into(),
        ConfigurationStatus::Unavailable { reason } => format!("UNAVAILABLE: {reason}"),
        ConfigurationStatus::Crashed { reason } => format!("CRASHED: {reason}"),
        ConfigurationStatus::TimedOut { reason } => format!("TIMED OUT: {reason}"),
    }
}

/// The library's CPUINFO line, as `openssl version -a` prints it.
pub fn capability_line(c: &ConfigurationResult) -> Option<String> {
    c.backend.as_ref()?.cpu_capabilities.as_ref().map(|cap| format!("CPUINFO: {cap}"))
}

/// What a language runtime calls underneath, as its driver says (runtime configurations only).
pub fn underneath_line(c: &ConfigurationResult) -> Option<String> {
    c.backend.as_ref()?.details.get("underneath").map(|u| format!("underneath: {u}"))
}

pub fn timing_line(run: &RunResult) -> String {
    if let Some(i) = &run.imported {
        return format!(
            "imported from {} ({}): each figure as printed there, no samples",
            i.source, i.format
        );
    }
    let t = &run.settings.timing;
    let pin = run.settings.pinned_cpu.map(|c| format!(", pinned to CPU {c}")).unwrap_or_default();
    let has_pk = run
        .configurations
        .iter()
        .any(|c| c.cells.iter().any(|cell| cell.spec.is_public_key()));
    // Public-key cells: the budget follows from the time per call (crates/harness/src/measure.rs, PK_FLOOR).
    let pk = if has_pk {
        format!(
            "; public-key cells at least {} samples{}, at most {:.0} s per cell",
            cryptobench_core::stopping::pk_replicate_samples(run.settings.replicates),
            if run.settings.replicates > 1 { " a replicate" } else { "" },
            cryptobench_core::stopping::PK_CELL_CAP_NS as f64 / 1e9
        )
    } else {
        String::new()
    };
    let replicates = run.settings.replicates;
    if replicates > 1 {
        return format!(
            "each cell in {replicates} replicates (fresh workers, interleaved in a random order), its figure the fastest \
             replicate's median; ~ where a repeat run's figure could lie beyond ±{:.1}% (nominal 95%); samples of ≥{} ms, {:.3} s per cell \
             on average{pk}{pin}",
            t.target_relative_ci * 100.0,
            t.sample_target_ns as f64 / 1e6,
            t.cell_budget_ns as f64 / 1e9
        );
    }
    format!(
        "median of samples of ≥{} ms; sampling stops at ±{:.1}% (nominal 95% CI of the median, allowing for correlated samples, ≥{} samples) or when its share of the run's budget is spent ({:.3} s per cell on average){pk}{pin}",
        t.sample_target_ns as f64 / 1e6,
        t.target_relative_ci * 100.0,
        t.min_samples,
        t.cell_budget_ns as f64 / 1e9
    )
}

/// [`timing_line`] in short, for the terminal: the replicates, the samples'
/// length, the precision target and the time per cell.
pub fn timing_summary(run: &RunResult) -> String {
    if run.imported.is_some() {
        return timing_line(run);
    }
    let t = &run.settings.timing;
    let figure = match run.settings.replicates {
        0 | 1 => "the median of one worker's samples".to_string(),
        n => format!("the fastest of {n} replicates' medians (fresh workers, random order)"),
    };
    let pk = if run.configurations.iter().flat_map(|c| &c.cells).any(|x| x.spec.is_public_key()) {
        format!(
            "; public key ≥{} samples, ≤{:.0} s per cell",
            cryptobench_core::stopping::PK_MIN_SAMPLES,
            cryptobench_core::stopping::PK_CELL_CAP_NS as f64 / 1e9
        )
    } else {
        String::new()
    };
    let pin = run.settings.pinned_cpu.map(|c| format!("; pinned to CPU {c}")).unwrap_or_default();
    format!(
        "{figure}; samples of ≥{} ms until ±{:.1}% (nominal 95%) or {:.3} s per cell on average{pk}{pin}",
        t.sample_target_ns as f64 / 1e6,
        t.target_relative_ci * 100.0,
        t.cell_budget_ns as f64 / 1e9
    )
}

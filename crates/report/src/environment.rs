//! The lines that say where figures come from: host, libraries, timing.

use cryptobench_core::result::{ConfigurationResult, ConfigurationStatus, RunResult};

pub fn host_line(run: &RunResult) -> String {
    let h = &run.host;
    let mut cpu = h.cpu_model.clone().unwrap_or_else(|| "unknown CPU".into());
    cpu.push_str(&format!(" ({} logical CPUs", h.logical_cores));
    if let Some(v) = &h.virtualization {
        cpu.push_str(&format!(", {v} guest"));
    }
    cpu.push(')');
    let kernel = h.kernel.as_ref().map(|k| format!(", kernel {k}")).unwrap_or_default();
    format!("{cpu}; {} {}{kernel}", h.os, h.arch)
}

/// "[1] openssl: OpenSSL 3.0.19 27 Jan 2026 (/usr/lib/…/libcrypto.so.3)"
pub fn configuration_line(c: &ConfigurationResult) -> String {
    let mut line = format!("[{}] {}", c.index, c.spec.display());
    if let Some(b) = &c.backend {
        line.push_str(&format!(": {}", b.version));
        if let Some(p) = &b.library_path {
            line.push_str(&format!(" ({p})"));
        }
    }
    for (k, v) in &c.spec.env {
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
    format!(
        "median of samples of ≥{} ms; sampling stops at ±{:.1}% (95% CI of the median, ≥{} samples) or after {:.2} s per cell{pin}",
        t.sample_target_ns as f64 / 1e6,
        t.target_relative_ci * 100.0,
        t.min_samples,
        t.cell_budget_ns as f64 / 1e9
    )
}

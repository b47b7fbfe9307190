//! Lines for derived figures: the measured clock, the overhead model and
//! the score per MHz, shared by table and Markdown.

use cryptobench_core::result::{ConfigurationResult, RunResult};
use cryptobench_core::units::Unit;

use crate::size_label;

/// "OpenSSL 3.0.19: measured clock 3180 MHz before (3050–3200 over 7 runs), …; cycles per byte are counted at 3165 MHz"
pub fn clock_line(c: &ConfigurationResult, label: &str) -> Option<String> {
    let k = c.clock.as_ref()?;
    if let Some(why) = &k.not_meaningful {
        return Some(format!("{label}: no clock, cycles per byte or score per MHz: {why}"));
    }
    let part = |name: &str, m: &Option<cryptobench_core::result::ClockMeasurement>| {
        m.map(|m| {
            format!(
                "{:.0} MHz {name} ({:.0}–{:.0} over {} runs)",
                m.mhz, m.min_mhz, m.max_mhz, m.repetitions
            )
        })
    };
    let parts: Vec<String> = [part("before", &k.before), part("after", &k.after)].into_iter().flatten().collect();
    if parts.is_empty() {
        return Some(format!("{label}: clock not measurable on this architecture; no cycles per byte"));
    }
    Some(format!(
        "{label}: measured clock {}; cycles per byte are counted at {:.0} MHz",
        parts.join(", "),
        k.mhz().unwrap_or_default()
    ))
}

pub fn host_clock_line(run: &RunResult) -> Option<String> {
    let h = &run.host;
    let mut parts = Vec::new();
    if let Some(t) = h.tsc_mhz {
        parts.push(format!("TSC {t:.0} MHz (reference cycles)"));
    }
    if let (Some(r), Some(src)) = (h.reported_mhz, &h.reported_mhz_source) {
        parts.push(format!("{r:.0} MHz reported by {src}"));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// One line per fitted row: "OpenSSL 3.0.19: aes-128-gcm enc message: 180 ns per call + n / 4200 MB/s; half of it at 756 B".
pub fn overhead_lines(c: &ConfigurationResult, unit: Unit, label: &str) -> Vec<String> {
    let rate_unit = if unit == Unit::Cpb { Unit::Mb } else { unit };
    c.overheads
        .iter()
        .map(|o| {
            format!(
                "{label}: {} {} {}: {:.0} ns per call + n / {} {}; half of that throughput at {} ({} sizes)",
                o.algorithm,
                o.operation.short(),
                o.mode,
                o.per_call_ns,
                rate_unit.format(o.asymptotic_bytes_per_s),
                rate_unit.label(),
                if o.half_peak_bytes >= 1.0 {
                    size_label(o.half_peak_bytes.round() as usize)
                } else {
                    "< 1 B".into()
                },
                o.sizes.len()
            )
        })
        .collect()
}

pub fn score_line(c: &ConfigurationResult, label: &str) -> Option<String> {
    let s = c.score.as_ref()?;
    let mut line = format!("{label}: sbc-bench score: aes-256-cbc 16 KiB = {:.0}k", s.aes256cbc_16k_k);
    match (s.mhz, s.score_per_mhz) {
        (Some(mhz), Some(per)) => line.push_str(&format!(" at {mhz:.0} MHz = {per:.0} per MHz")),
        _ => line.push_str(" (no measured clock, no score per MHz)"),
    }
    match (&s.nearest_class, s.nearest_class_score_per_mhz) {
        (Some(class), Some(ref_score)) => line.push_str(&format!("; nearest reference class {class} ({ref_score:.0} per MHz)")),
        _ => line.push_str(&format!(
            "; no reference class for {} yet",
            c.platform.as_ref().map(|p| p.arch.as_str()).unwrap_or(std::env::consts::ARCH)
        )),
    }
    if let (Some(class), Some(est)) = (&s.core_class, s.clock_estimate_mhz) {
        line.push_str(&format!("; these cores are {class}, which reach this score at {est:.0} MHz"));
    }
    Some(line)
}

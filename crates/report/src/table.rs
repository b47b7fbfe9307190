use comfy_table::presets::NOTHING;
use cryptobench_core::result::RunResult;
use cryptobench_core::units::Unit;

use crate::environment::{capability_line, configuration_line, host_line, timing_line, underneath_line};
use crate::{binding, derived, grid};

pub fn render(run: &RunResult, unit: Unit) -> String {
    let mut out = String::new();
    out.push_str(&format!("{} {} — {}\n", run.tool.name, run.tool.version, run.started_at));
    out.push_str(&format!("host: {}\n", host_line(run)));
    if let Some(clock) = derived::host_clock_line(run) {
        out.push_str(&format!("clock: {clock}\n"));
    }
    for c in &run.configurations {
        out.push_str(&configuration_line(c));
        out.push('\n');
        if let Some(under) = underneath_line(c) {
            out.push_str(&format!("    {under}\n"));
        }
        if let Some(cap) = capability_line(c) {
            out.push_str(&format!("    {cap}\n"));
        }
    }
    out.push_str(&format!("timing: {}\n", timing_line(run)));
    out.push_str(&format!(
        "figures: {} ({}), {} marks a figure to read with care\n\n",
        unit.label(),
        unit_meaning(unit),
        grid::NOISY_MARK
    ));

    let g = grid::build(run, unit);
    if !g.rows.is_empty() {
        out.push_str(&format!("{}\n", g.to_table(NOTHING, run.settings.sizes.len())));
    }
    let notes = g.notes_with_derived(run);
    if !notes.is_empty() {
        out.push('\n');
        for n in &notes {
            out.push_str(n);
            out.push('\n');
        }
    }
    let overheads: Vec<String> = run.configurations.iter().flat_map(|c| derived::overhead_lines(c, unit)).collect();
    if !overheads.is_empty() {
        out.push_str("\noverhead model, time per call = a + n / r∞:\n");
        for line in overheads {
            out.push_str(&format!("  {line}\n"));
        }
    }
    let bindings: Vec<String> = run.configurations.iter().flat_map(|c| binding::lines(c, unit)).collect();
    if !bindings.is_empty() {
        out.push_str(
            "
binding cost, each runtime against the C library it calls (same run):\n",
        );
        for line in bindings {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out
}

pub fn unit_meaning(unit: Unit) -> &'static str {
    match unit {
        Unit::Mb => "10^6 bytes per second",
        Unit::K => "as openssl speed: 1000s of bytes per second",
        Unit::Gb => "10^9 bytes per second",
        Unit::Cpb => "core cycles per byte at each configuration's measured clock",
    }
}

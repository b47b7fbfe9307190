use comfy_table::presets::NOTHING;
use cryptobench_core::result::RunResult;
use cryptobench_core::units::Unit;

use crate::cell_warnings::{self, Detail};
use crate::environment::{capability_line, configuration_line, host_line, timing_line, underneath_line};
use crate::labels::Labels;
use crate::{binding, derived, emulation, grid};

pub fn render(run: &RunResult, unit: Unit, detail: Detail) -> String {
    let labels = Labels::for_run(run);
    let mut out = String::new();
    out.push_str(&format!("{} {} — {}\n", run.tool.name, run.tool.version, run.started_at));
    out.push_str(&format!("host: {}\n", host_line(run)));
    if let Some(clock) = derived::host_clock_line(run) {
        out.push_str(&format!("clock: {clock}\n"));
    }
    for c in &run.configurations {
        out.push_str(&configuration_line(c, labels.get(0, c.index)));
        out.push('\n');
        if let Some(under) = underneath_line(c) {
            out.push_str(&format!("    {under}\n"));
        }
        if let Some(cap) = capability_line(c) {
            out.push_str(&format!("    {cap}\n"));
        }
    }
    out.push_str(&format!("timing: {}\n", timing_line(run)));
    for w in &run.warnings {
        out.push_str(&format!("WARNING: {w}\n"));
    }
    let g = grid::build(run, unit, &labels, 0);
    let public_key_only = g.rows.is_empty() && run.configurations.iter().flat_map(|c| &c.cells).any(|x| x.spec.is_public_key());
    out.push_str(&format!(
        "figures: {} ({}), {} marks a figure to read with care\n\n",
        if public_key_only { "operations per second" } else { unit.label() },
        if public_key_only { "public key" } else { unit_meaning(unit) },
        grid::NOISY_MARK
    ));
    if !g.rows.is_empty() {
        out.push_str(&format!("{}\n", g.to_table(NOTHING, run.settings.sizes.len())));
    }
    let pk = crate::pk_table::build(run, &labels, 0);
    if !pk.rows.is_empty() {
        out.push_str(&format!(
            "\npublic key, operations per second and time per operation:\n{}\n",
            pk.to_table(NOTHING)
        ));
    }
    let flagged: Vec<_> = g.flagged.iter().chain(&pk.flagged).cloned().collect();
    let mut notes = crate::steadiness::lines(run);
    notes.extend(cell_warnings::lines(run, &flagged, detail));
    notes.extend(pk.notes);
    notes.extend(g.notes_with_derived(run, &labels, 0));
    if !notes.is_empty() {
        out.push('\n');
        for n in &notes {
            out.push_str(n);
            out.push('\n');
        }
    }
    let exceptions = crate::exceptions::lines(run, &labels, 0);
    if !exceptions.is_empty() {
        out.push_str("\nnamed exceptions to equal work (docs/METHOD.md, \"Equal work\"):\n");
        for line in exceptions {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out.push_str(&crate::multicore::render_text(run, &labels, unit, false));
    for pair in emulation::pairs(run) {
        let (header, rows) = emulation::ratio_rows(run, &pair);
        let mut table = comfy_table::Table::new();
        table.load_preset(NOTHING).set_header(header);
        for row in rows {
            table.add_row(row);
        }
        out.push_str(&format!("\n{}\n{table}\n", emulation::title(&pair, |c| labels.get(0, c.index))));
    }
    let overheads: Vec<String> = run
        .configurations
        .iter()
        .flat_map(|c| derived::overhead_lines(c, unit, labels.get(0, c.index)))
        .collect();
    if !overheads.is_empty() {
        out.push_str("\noverhead model, time per call = a + n / r∞:\n");
        for line in overheads {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out.push_str(&crate::paths::render(run, &labels, NOTHING, false));
    let bindings: Vec<String> = run.configurations.iter().flat_map(|c| binding::lines(c, unit, &labels)).collect();
    if !bindings.is_empty() {
        out.push_str("\nbinding and token cost, each runtime or PKCS#11 token against the C library it calls (same run):\n");
        for line in bindings {
            out.push_str(&format!("  {line}\n"));
        }
    }
    let verdicts = audit_lines(run, &labels);
    if !verdicts.is_empty() {
        out.push_str("\naudit verdicts:\n");
        for line in verdicts {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out
}

/// The saved verdicts of an audit run: "OpenSSL 3.0.19: aes-128-gcm [AES off]: accelerated by …".
pub fn audit_lines(run: &RunResult, labels: &Labels) -> Vec<String> {
    crate::verdicts::rows(run, 0, labels)
        .iter()
        .map(|r| format!("{}: {} [{}]: {}", r.library, r.algorithm, r.switched_off, r.verdict.text))
        .collect()
}

pub fn unit_meaning(unit: Unit) -> &'static str {
    match unit {
        Unit::Mb => "10^6 bytes per second",
        Unit::K => "as openssl speed: 1000s of bytes per second",
        Unit::Gb => "10^9 bytes per second",
        Unit::Cpb => "core cycles per byte at each configuration's measured clock",
    }
}

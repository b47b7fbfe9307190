use comfy_table::presets::ASCII_MARKDOWN;
use cryptobench_core::result::RunResult;
use cryptobench_core::units::Unit;

use crate::cell_warnings::{self, Detail};
use crate::environment::{capability_line, configuration_line, host_line, timing_line, underneath_line};
use crate::labels::Labels;
use crate::terminal::unit_meaning;
use crate::{binding, derived, grid};

pub fn render(run: &RunResult, unit: Unit, detail: Detail) -> String {
    let labels = Labels::for_run(run);
    let mut out = format!("### {} {} — {}\n\n", run.tool.name, run.tool.version, run.started_at);
    out.push_str(&format!("- **host:** {}\n", host_line(run)));
    if let Some(clock) = derived::host_clock_line(run) {
        out.push_str(&format!("- **clock:** {clock}\n"));
    }
    for c in &run.configurations {
        out.push_str(&format!("- **{}**", configuration_line(c, labels.get(0, c.index))));
        if let Some(under) = underneath_line(c) {
            out.push_str(&format!(" — {under}"));
        }
        if let Some(cap) = capability_line(c) {
            out.push_str(&format!(" — `{cap}`"));
        }
        out.push('\n');
    }
    out.push_str(&format!("- **timing:** {}\n", timing_line(run)));
    for w in &run.warnings {
        out.push_str(&format!("- **warning:** {w}\n"));
    }
    out.push_str(&format!(
        "- **figures:** {} ({}); `{}` marks a figure to read with care\n\n",
        unit.label(),
        unit_meaning(unit),
        grid::NOISY_MARK
    ));
    let g = grid::build(run, unit, &labels, 0);
    if !g.rows.is_empty() {
        out.push_str(&format!("{}\n", g.to_table(ASCII_MARKDOWN, run.settings.sizes.len())));
    }
    let pk = crate::pk_table::build(run, &labels, 0);
    if !pk.rows.is_empty() {
        out.push_str(&format!(
            "\n**public key**, operations per second and time per operation\n\n{}\n",
            pk.to_table(ASCII_MARKDOWN)
        ));
    }
    out.push_str(&crate::multicore::render_text(run, &labels, unit, true));
    for pair in crate::emulation::pairs(run) {
        let (header, rows) = crate::emulation::ratio_rows(run, &pair);
        let mut table = comfy_table::Table::new();
        table.load_preset(ASCII_MARKDOWN).set_header(header);
        for row in rows {
            table.add_row(row);
        }
        out.push_str(&format!(
            "\n**{}**\n\n{table}\n",
            crate::emulation::title(&pair, |c| labels.get(0, c.index))
        ));
    }
    out.push_str(&crate::paths::render(run, &labels, ASCII_MARKDOWN, true));
    let flagged: Vec<_> = g.flagged.iter().chain(&pk.flagged).cloned().collect();
    let mut notes = crate::steadiness::lines(run);
    notes.extend(cell_warnings::lines(run, &flagged, detail));
    notes.extend(pk.notes);
    notes.extend(g.notes_with_derived(run, &labels, 0));
    for c in &run.configurations {
        notes.extend(derived::overhead_lines(c, unit, labels.get(0, c.index)));
        notes.extend(binding::lines(c, unit, &labels));
    }
    notes.extend(crate::terminal::audit_lines(run, &labels));
    if !notes.is_empty() {
        out.push('\n');
        for n in &notes {
            out.push_str(&format!("- {}\n", n.replace('|', "\\|")));
        }
    }
    out
}

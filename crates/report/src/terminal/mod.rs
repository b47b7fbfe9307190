//! A run for a terminal (`run`, `runs show`): the answer first ([`answer`]:
//! which configuration is fastest per algorithm and operation, or whether
//! the one library uses the CPU's crypto features), then one line per
//! configuration, the table ([`side_by_side`] where several configurations
//! fit a row each, else the grid), and one line per kind of note
//! ([`notes`]). Nothing but the grid of many sizes is wider than
//! [`TERMINAL`] columns; [`Detail::EveryCell`] (`--verbose`) prints every
//! file, capability string and note in full instead.

mod answer;
mod hardware;
mod notes;
mod side_by_side;

use comfy_table::presets::NOTHING;
use cryptobench_core::result::RunResult;
use cryptobench_core::units::Unit;

use crate::cell_warnings::{self, Detail};
use crate::environment::{
    capability_line, configuration_line, configuration_summary, host_line, timing_line, timing_summary, underneath_line,
};
use crate::labels::Labels;
use crate::width::{truncate, wrap, TERMINAL};
use crate::{binding, derived, emulation, grid};

/// The lines of a terminal page: prose is fitted to the width by default
/// (wrapped, or cut where `--verbose` has the whole), tables are kept as
/// they are.
struct Page {
    verbose: bool,
    out: String,
}

impl Page {
    /// A line wrapped to the width (continuation lines indented).
    fn line(&mut self, text: &str) {
        if self.verbose {
            self.raw(text);
            return;
        }
        let lead = text.len() - text.trim_start().len();
        for part in wrap(text, TERMINAL, &" ".repeat(lead + 2)) {
            self.raw(&part);
        }
    }

    /// A line cut to the width: `--verbose` prints it whole.
    fn cut(&mut self, text: &str) {
        if self.verbose {
            self.raw(text);
        } else {
            self.raw(&truncate(text, TERMINAL));
        }
    }

    fn raw(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn blank(&mut self) {
        self.out.push('\n');
    }
}

pub fn render(run: &RunResult, unit: Unit, detail: Detail) -> String {
    let labels = Labels::for_run(run);
    let verbose = detail == Detail::EveryCell;
    let mut page = Page {
        verbose,
        out: String::new(),
    };
    page.line(&format!("{} {} — {}", run.tool.name, run.tool.version, run.started_at));
    page.line(&format!("host: {}", host_line(run)));
    answer::write(&mut page, run, &labels, unit);
    for c in &run.configurations {
        let label = labels.get(0, c.index);
        if verbose {
            page.raw(&configuration_line(c, label));
            for extra in underneath_line(c).into_iter().chain(capability_line(c)) {
                page.raw(&format!("    {extra}"));
            }
        } else {
            page.cut(&configuration_summary(c, label));
        }
    }
    if verbose {
        if let Some(clock) = derived::host_clock_line(run) {
            page.raw(&format!("clock: {clock}"));
        }
    }
    if verbose {
        page.raw(&format!("timing: {}", timing_line(run)));
    } else {
        page.line(&format!("timing: {}", timing_summary(run)));
    }
    for w in &run.warnings {
        page.line(&format!("WARNING: {w}"));
    }
    let g = grid::build(run, unit, &labels, 0);
    let pk = crate::pk_table::build(run, &labels, 0);
    let has_pk = !pk.rows.is_empty();
    let public_key_only = g.rows.is_empty() && has_pk;
    let side_by_side = side_by_side::render(run, unit, &labels, TERMINAL);
    page.line(&format!(
        "figures: {} ({}){}, {} marks a figure to read with care",
        if public_key_only { "operations per second" } else { unit.label() },
        if public_key_only { "public key" } else { unit_meaning(unit) },
        if has_pk && !public_key_only && side_by_side.is_some() {
            "; public key in operations per second (op/s)"
        } else {
            ""
        },
        grid::NOISY_MARK
    ));
    page.blank();
    match &side_by_side {
        Some(table) => page.out.push_str(table),
        None => {
            if !g.rows.is_empty() {
                page.raw(&g.to_table(NOTHING, run.settings.sizes.len()).to_string());
            }
            if has_pk {
                page.blank();
                page.raw("public key, operations per second and time per operation:");
                page.raw(&pk.to_table(NOTHING).to_string());
            }
        }
    }
    let flagged: Vec<_> = g.flagged.iter().chain(&pk.flagged).cloned().collect();
    let mut lines = crate::steadiness::lines(run);
    if verbose {
        lines.extend(cell_warnings::lines(run, &flagged, detail));
        lines.extend(pk.notes.iter().cloned());
        lines.extend(g.notes_with_derived(run, &labels, 0));
    } else {
        lines.extend(cell_warnings::summary(run, &flagged, Some(TERMINAL)));
        lines.extend(notes::lines(run, &labels, unit));
    }
    if !lines.is_empty() {
        page.blank();
        for n in &lines {
            page.cut(n);
        }
    }
    if verbose {
        full_lists(&mut page, run, &labels, unit);
    }
    page.out.push_str(&crate::multicore::render_text(run, &labels, unit, false));
    for pair in emulation::pairs(run) {
        let (header, rows) = emulation::ratio_rows(run, &pair);
        let mut table = comfy_table::Table::new();
        table.load_preset(NOTHING).set_header(header);
        for row in rows {
            table.add_row(row);
        }
        page.out
            .push_str(&format!("\n{}\n{table}\n", emulation::title(&pair, |c| labels.get(0, c.index))));
    }
    page.out.push_str(&crate::paths::render(run, &labels, NOTHING, false));
    if !verbose {
        let cells = match flagged.len() {
            0 => String::new(),
            1 => "the flagged cell with its warnings, ".to_string(),
            n => format!("the {n} flagged cells one by one, "),
        };
        page.cut(&format!(
            "(`--verbose`: {cells}every file, capability string and note in full; `--format json` keeps everything)"
        ));
    }
    page.out
}

/// `--verbose`: the named exceptions, the overhead model, the binding costs
/// and an audit's verdicts, every line of each.
fn full_lists(page: &mut Page, run: &RunResult, labels: &Labels, unit: Unit) {
    let exceptions = crate::exceptions::lines(run, labels, 0);
    let overheads: Vec<String> = run
        .configurations
        .iter()
        .flat_map(|c| derived::overhead_lines(c, unit, labels.get(0, c.index)))
        .collect();
    let bindings: Vec<String> = run.configurations.iter().flat_map(|c| binding::lines(c, unit, labels)).collect();
    let lists = [
        ("named exceptions to equal work (docs/METHOD.md, \"Equal work\"):", exceptions),
        ("overhead model, time per call = a + n / r∞:", overheads),
        (
            "binding and token cost, each runtime or PKCS#11 token against the C library it calls (same run):",
            bindings,
        ),
        ("audit verdicts:", audit_lines(run, labels)),
    ];
    for (title, lines) in lists {
        if lines.is_empty() {
            continue;
        }
        page.blank();
        page.raw(title);
        for line in lines {
            page.raw(&format!("  {line}"));
        }
    }
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

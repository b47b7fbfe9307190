//! Renders a [`RunResult`]: one module per format, none of them measuring
//! anything. Table and Markdown share the grid ([`grid`]) and the
//! description of the environment ([`environment`]); every format names
//! configurations by their [`labels`]. The reports (`cryptobench report`,
//! [`html`] and [`report_markdown`]) answer first: an audit's
//! [`verdicts`], a comparison's [`winners`], one configuration's
//! [`headline`] figures. The commands that print no run have their text
//! here too: [`audit_text`], [`cpu_text`], [`verify_text`].

pub mod advice;
pub mod audit_text;
mod binding;
pub mod cell_warnings;
pub mod charts;
pub mod compare;
pub mod cpu_text;
mod csv;
mod derived;
pub mod emulation;
mod environment;
mod escape;
pub mod exceptions;
pub mod factors;
mod grid;
mod headline;
pub mod html;
mod json;
pub mod lab;
pub mod labels;
mod markdown;
pub mod multicore;
pub mod paths;
pub mod pk_table;
pub mod report_markdown;
pub mod shape;
pub mod steadiness;
mod terminal;
pub mod verdicts;
pub mod verify_text;
pub mod width;
pub mod winners;

pub use cell_warnings::Detail;
use cryptobench_core::result::RunResult;
pub use cryptobench_core::sizes::size_label;
use cryptobench_core::units::Unit;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// openssl-speed-like table for a terminal.
    Table,
    /// The full result, all samples included (docs/run.schema.json).
    Json,
    /// One row per cell, for spreadsheets.
    Csv,
    /// Tables and environment for pasting into an issue or a wiki.
    Markdown,
}

/// Renders the run in the format; `unit` applies to the human formats,
/// which sum the cells' warnings up one line per kind.
pub fn render(run: &RunResult, format: Format, unit: Unit) -> String {
    render_with(run, format, unit, Detail::Summary)
}

/// [`render`], with the human formats' cell warnings one line per kind
/// ([`Detail::Summary`]) or one line per cell ([`Detail::EveryCell`],
/// `--verbose`). JSON and CSV keep every warning either way.
pub fn render_with(run: &RunResult, format: Format, unit: Unit, detail: Detail) -> String {
    match format {
        Format::Table => terminal::render(run, unit, detail),
        Format::Json => json::render(run),
        Format::Csv => csv::render(run),
        Format::Markdown => markdown::render(run, unit, detail),
    }
}

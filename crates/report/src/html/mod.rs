//! One self-contained HTML file that answers first and shows the data
//! after: the answer (an audit's verdicts, a comparison's winners, one
//! configuration's headline figures) on the first screen, then the scaling
//! over cores and the core types where the run measured them, then charts that
//! compare (throughput against size on log-log axes for every algorithm,
//! bars at 16 KiB, cycles per byte), then the tables and the environment,
//! collapsed. Every configuration is named by its label ([`crate::labels`]);
//! the raw masks, files and indices are in the environment section. No
//! script, no external style, font or image: it opens offline.

mod answer;
mod bars;
mod cores;
mod details;
mod emulation;
mod page;
mod paths;
mod pk;
mod sizes;

use cryptobench_core::result::RunResult;
use cryptobench_core::units::Unit;

pub use crate::escape::escape;

use crate::charts::ChartError;
use crate::labels::Labels;
use crate::shape::{self, Shape};

/// The size at which bars compare configurations (the largest default size of `openssl speed`).
pub const BAR_SIZE: usize = crate::winners::LARGE;

/// The report of `runs` (name, run), figures in `unit` (cycles per byte
/// get their own chart; throughput charts then use MB/s).
pub fn render(runs: &[(String, RunResult)], unit: Unit) -> Result<String, ChartError> {
    let named: Vec<(String, &RunResult)> = runs.iter().map(|(n, r)| (n.clone(), r)).collect();
    let labels = Labels::for_runs(&named);
    let shape = Shape::of(&named);
    let rate = if unit == Unit::Cpb { Unit::Mb } else { unit };
    let title = shape::title(shape, &named, &labels);
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{}</style></head><body>\n",
        escape(&title),
        page::STYLE
    );
    out.push_str(&format!("<header><h1>{}</h1>\n", escape(&title)));
    for line in shape::subtitle(&named) {
        out.push_str(&format!("<p class=\"sub\">{}</p>\n", escape(&line)));
    }
    out.push_str("</header>\n");
    out.push_str(&crate::advice::html(&named));
    out.push_str(&answer::render(shape, &named, &labels, rate)?);
    out.push_str(&cores::render(&named, &labels, rate)?);
    out.push_str(&sizes::render(&named, &labels, rate)?);
    out.push_str(&paths::render(&named, &labels, rate)?);
    out.push_str(&pk::render(&named, &labels)?);
    // The comparison and the single configuration show these bars in their answer.
    if shape == Shape::Audit {
        out.push_str(&bars::at_size(&named, &labels, rate)?);
    }
    out.push_str(&bars::cycles(&named, &labels)?);
    out.push_str(&emulation::render(&named, &labels)?);
    out.push_str(&details::tables(runs, &named, &labels, unit));
    out.push_str(&details::environment(&named, &labels));
    out.push_str("</body></html>\n");
    Ok(out)
}

//! `cryptobench compare A B [C…]`: runs (or one run's configurations) cell by cell.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use cryptobench_report::compare::{labelled, render};

use crate::cli::{CompareArgs, CompareFormat};
use crate::commands::run::unit;
use crate::exit::usage;
use crate::orchestrate::store::load_runs;

pub fn compare(args: &CompareArgs) -> Result<ExitCode> {
    let runs = load_runs(&args.runs, &args.db)?;
    let named: Vec<(String, &_)> = runs.iter().map(|(n, r)| (n.clone(), r)).collect();
    // Configurations are named by their labels, as in every report.
    let comparison = labelled(&named);
    if comparison.series.len() < 2 {
        return Err(usage(
            "nothing to compare: give two runs or more, or one run with several configurations",
        ));
    }
    if comparison.rows.is_empty() {
        return Err(usage("these runs have no measured cell in common"));
    }
    let text = render(&comparison, unit(args.units), args.format == CompareFormat::Markdown);
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
        .context("writing to stdout")?;
    Ok(ExitCode::SUCCESS)
}

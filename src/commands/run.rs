//! `cryptobench run`: execute the plan, render the result.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use cryptobench_report::{render, Format};

use crate::cli::{FormatArg, RunArgs, UnitArg};
use crate::execute::{complete, execute};
use crate::exit::INCOMPLETE;
use crate::plan;

pub fn run(args: &RunArgs) -> Result<ExitCode> {
    let plan = plan::build(args)?;
    let run = execute(&plan)?;
    let text = render(&run, format(args.format), unit(args.units));
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
        .context("writing the results")?;
    Ok(if complete(&run) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(INCOMPLETE)
    })
}

pub fn format(f: FormatArg) -> Format {
    match f {
        FormatArg::Table => Format::Table,
        FormatArg::Json => Format::Json,
        FormatArg::Csv => Format::Csv,
        FormatArg::Markdown => Format::Markdown,
    }
}

pub fn unit(u: UnitArg) -> cryptobench_core::units::Unit {
    use cryptobench_core::units::Unit;
    match u {
        UnitArg::Mb => Unit::Mb,
        UnitArg::K => Unit::K,
        UnitArg::Gb => Unit::Gb,
        UnitArg::Cpb => Unit::Cpb,
    }
}

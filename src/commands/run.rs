//! `cryptobench run`: execute the plan, render the result, then save the
//! run in the database (opened before measuring, so that a wrong --db costs nothing).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use cryptobench_report::{render_with, Format};

use cryptobench_core::result::RunResult;
use cryptobench_store::{Location, Store};

use crate::cli::{FormatArg, RunArgs, UnitArg};
use crate::exit::INCOMPLETE;
use crate::orchestrate::execute::{complete, execute};
use crate::orchestrate::plan;
use crate::orchestrate::worker_client::Probes;

pub fn run(args: &RunArgs) -> Result<ExitCode> {
    let mut plan = plan::build(args)?;
    for note in plan.placements.iter().flat_map(|p| &p.notes) {
        eprintln!("{note}");
    }
    // OpenSSL probed for --algos openssl-speed is not probed again to be measured.
    let mut probes = Probes::within(plan.silence_limit);
    crate::orchestrate::speed_set::resolve(&mut plan, &mut probes)?;
    // Opened before measuring, so that a wrong --db costs nothing.
    let mut store = if args.save.no_save {
        None
    } else {
        Some(crate::orchestrate::store::open(&args.save.db)?)
    };
    let mut run = execute(&plan, &mut probes)?;
    run.label = args.save.label.clone();
    if let Some((store, _)) = store.as_mut() {
        crate::orchestrate::history::hold_against(&mut run, store.as_mut());
    }
    let text = render_with(&run, format(args.format), unit(args.units), detail(args.verbose));
    print_and_save(&text, &run, store.as_mut())?;
    Ok(if complete(&run) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(INCOMPLETE)
    })
}

/// Prints a rendered run, then saves it. The run is saved even when stdout
/// went away (`| head`): it was measured.
pub fn print_and_save(text: &str, run: &RunResult, store: Option<&mut (Box<dyn Store>, Location)>) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    let written = stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush());
    drop(stdout);
    if let Some((store, location)) = store {
        match store.save(run) {
            Ok(id) => eprintln!("saved as run {id} in {}", location.display()),
            Err(e) => return Err(crate::orchestrate::rescue::keep(run, &location.display().to_string(), e)),
        }
    }
    written.context("writing the results")
}

pub fn format(f: FormatArg) -> Format {
    match f {
        FormatArg::Table => Format::Table,
        FormatArg::Json => Format::Json,
        FormatArg::Csv => Format::Csv,
        FormatArg::Markdown => Format::Markdown,
    }
}

/// How many warning lines a table gets: `--verbose` lists every flagged cell.
pub fn detail(verbose: bool) -> cryptobench_report::Detail {
    if verbose {
        cryptobench_report::Detail::EveryCell
    } else {
        cryptobench_report::Detail::Summary
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

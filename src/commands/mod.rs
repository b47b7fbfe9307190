//! One file per subcommand.

mod algorithms;
mod compare;
mod import;
mod report;
mod run;
mod runs;
mod worker;

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::{Cli, Command};

pub fn dispatch(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Algorithms(args) => algorithms::algorithms(&args),
        Command::Runs(args) => runs::runs(&args),
        Command::Compare(args) => compare::compare(&args),
        Command::Report(args) => report::report(&args),
        Command::Import(args) => import::import(&args),
        Command::Worker => worker::worker(),
    }
}

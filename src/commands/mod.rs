//! One file per subcommand.

mod algorithms;
mod audit;
mod backends;
mod compare;
mod cpu;
mod import;
mod report;
pub mod run;
mod runs;
mod verify;
mod worker;
mod worker_pk;

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::{Cli, Command};

pub fn dispatch(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Algorithms(args) => algorithms::algorithms(&args),
        Command::Cpu(args) => cpu::cpu(&args),
        Command::Audit(args) => audit::audit(&args),
        Command::Backends(args) => backends::backends(&args),
        Command::Verify(args) => verify::verify(&args),
        Command::Runs(args) => runs::runs(&args),
        Command::Compare(args) => compare::compare(&args),
        Command::Report(args) => report::report(&args),
        Command::Import(args) => import::import(&args),
        Command::Worker => worker::worker(),
    }
}

//! One file per subcommand.

mod algorithms;
mod audit;
mod cpu;
pub mod run;
mod worker;

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::{Cli, Command};

pub fn dispatch(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Algorithms(args) => algorithms::algorithms(&args),
        Command::Cpu(args) => cpu::cpu(&args),
        Command::Audit(args) => audit::audit(&args),
        Command::Worker => worker::worker(),
    }
}

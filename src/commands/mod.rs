//! One file per subcommand: each gathers what its command needs
//! (src/orchestrate/ starts the workers) and has crates/report render it.
//! The hidden `worker` subcommand is the worker process, crates/worker (also built alone as `cryptobench-worker`).

mod advise;
mod algorithms;
mod audit;
mod backends;
mod compare;
mod cpu;
mod import;
mod lab;
mod report;
pub mod run;
mod runs;
mod runs_list;
mod verify;

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
        Command::Lab(args) => lab::lab(&args),
        Command::Import(args) => import::import(&args),
        Command::Advise(args) => advise::advise(&args),
        Command::Worker => cryptobench_worker::serve(),
        Command::UmlWorker { .. } => crate::orchestrate::uml::serve(),
    }
}

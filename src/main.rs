//! cryptobench: how fast is cryptography here, through which library, and is
//! the hardware acceleration used? This file only parses the command line,
//! dispatches, and maps errors to exit codes (0 ok, 1 incomplete run, 2 usage).

mod arch;
mod audit_masks;
mod barrier;
mod cli;
mod commands;
mod core_classes;
mod cross_check;
mod execute;
mod exit;
mod group_cells;
mod merge;
mod placement;
mod plan;
mod plan_pk;
mod rescue;
mod speed_set;
mod store;
mod warnings;
mod worker_client;
mod worker_group;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

fn main() -> ExitCode {
    let matches = cli::Cli::command().get_matches();
    let mut cli = match cli::Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    cli::attach(&mut cli, &matches);
    match commands::dispatch(cli) {
        Ok(code) => code,
        Err(err) => exit::report(&err),
    }
}

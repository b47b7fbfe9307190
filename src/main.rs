//! cryptobench: how fast is cryptography here, through which library, and is
//! the hardware acceleration used? This file only parses the command line,
//! dispatches, and maps errors to exit codes (0 ok, 1 incomplete run, 2 usage).
//!
//! The two processes: [`orchestrate`] plans a run and drives one worker
//! per configuration; the worker (the hidden `worker` subcommand) is the
//! crate cryptobench-worker, which loads one library and times it.
//! [`commands`] holds one thin file per subcommand.

mod cli;
mod commands;
mod exit;
mod orchestrate;

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

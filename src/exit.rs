//! Exit codes and how errors reach the user.

use std::process::ExitCode;

/// The run finished but not everything in it succeeded (a crashed or
/// unavailable configuration, a failed verification).
pub const INCOMPLETE: u8 = 1;
/// The command line asked for something that does not exist or makes no sense.
pub const USAGE: u8 = 2;
/// `verify`: every check ran, and a library breaks a published rule (a
/// DEFECT); nothing failed, crashed or was left unchecked.
pub const DEFECTS: u8 = 3;

/// Bad input: printed as is, exit code 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

pub fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(message.into()))
}

/// Prints the error chain and picks the exit code; a closed stdout (e.g.
/// `| head`) is not an error.
pub fn report(err: &anyhow::Error) -> ExitCode {
    if err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    }) {
        return ExitCode::SUCCESS;
    }
    eprintln!("error: {err:#}");
    if err.downcast_ref::<UsageError>().is_some() {
        ExitCode::from(USAGE)
    } else {
        ExitCode::from(INCOMPLETE)
    }
}

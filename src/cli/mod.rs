//! The command line, declared with clap derive. Help texts teach: each flag
//! says what it changes and what the default is. The subcommands' arguments
//! are in [`measure`] (run, audit), [`inspect`] (algorithms, backends, cpu,
//! verify), [`stored`] (runs, compare, report, import), [`lab`] and [`advise`]; the groups they
//! share in [`shared`], the values flags take in [`values`].

mod advise;
mod inspect;
mod lab;
mod measure;
mod shared;
mod stored;
mod values;

use clap::{Parser, Subcommand};

pub use self::advise::AdviseArgs;
use self::advise::ADVISE_EXAMPLES;
use self::inspect::VERIFY_EXAMPLES;
pub use self::inspect::{AlgorithmsArgs, BackendsArgs, CpuArgs, VerifyArgs};
use self::lab::LAB_HELP;
pub use self::lab::{LabArgs, LabFormatArg};
pub use self::measure::{AuditArgs, RunArgs};
use self::measure::{AUDIT_EXAMPLES, RUN_EXAMPLES};
pub use self::shared::{DbArgs, Placement, PlacementArgs, WorkerPlace};
pub use self::stored::{CompareArgs, CompareFormat, ExportFormat, ImportArgs, ImportSource, ListFormat, ReportArgs, RunsAction, RunsArgs};
use self::stored::{COMPARE_HELP, RUNS_HELP};
pub use self::values::{FormatArg, ModeArg, OpArg, UnitArg};

#[derive(Parser, Debug)]
#[command(
    name = "cryptobench",
    version,
    about = "How fast is cryptography here, through which library, and is the hardware acceleration used?",
    long_about = "cryptobench measures ciphers, AEADs and digests across message sizes and crypto libraries. \
Every algorithm is verified against published known answers before it is timed; every figure is the median \
of calibrated samples with its spread; each library runs in its own worker process.\n\n\
Start with `cryptobench run`, or `cryptobench algorithms` to see what can be measured."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Measure throughput: algorithms × sizes × libraries, as a table or JSON/CSV/Markdown.
    #[command(after_help = RUN_EXAMPLES)]
    Run(RunArgs),
    /// List the algorithm catalog and which configuration supports what.
    Algorithms(AlgorithmsArgs),
    /// Show the CPU's crypto features, each library's view of them, and the measured clock.
    Cpu(CpuArgs),
    /// Is hardware acceleration used, and what is it worth? Measures with each feature family on and off.
    #[command(after_help = AUDIT_EXAMPLES)]
    Audit(AuditArgs),
    /// List every backend: available or why not, version, library file, supported algorithms.
    Backends(BackendsArgs),
    /// Check backends against each other and against test vectors: known answers, round trips,
    /// tamper rejection, malleability, byte-identical output across backends, chunked streaming,
    /// Wycheproof files; library defects are named apart from failed checks.
    #[command(after_help = VERIFY_EXAMPLES)]
    Verify(VerifyArgs),
    /// The stored runs: list, show, export, import, delete.
    #[command(after_help = RUNS_HELP)]
    Runs(RunsArgs),
    /// Compare runs (ids, labels or JSON files) or the configurations of one run, cell by cell.
    #[command(after_help = COMPARE_HELP)]
    Compare(CompareArgs),
    /// Render stored runs as one self-contained HTML file with charts, or as Markdown.
    Report(ReportArgs),
    /// The build lab's table: builds of a library in one run (OpenSSL variants, `openssl=@NAME`),
    /// per algorithm and size each one's factor against a baseline build.
    #[command(after_help = LAB_HELP)]
    Lab(LabArgs),
    /// Read another tool's results into the store, e.g. `import openssl-speed speed.txt`.
    Import(ImportArgs),
    /// Where this machine stands against the best known for its core, and what to change: measures
    /// (or reads a stored run) and gives advice, each sentence backed by a measured or cited figure.
    #[command(after_help = ADVISE_EXAMPLES)]
    Advise(AdviseArgs),
    /// Internal: measure one configuration (JSON job on stdin, JSON lines on stdout).
    #[command(hide = true)]
    Worker,
    /// Internal: a worker inside User-Mode Linux (`--worker uml`); its argument is `worker`.
    #[command(hide = true, name = "uml-worker")]
    UmlWorker {
        #[arg(hide = true)]
        inner: Option<String>,
    },
}

/// Pairs each `--arch`/`--worker` with the `--backend` before it, from the
/// positions clap recorded (a derived struct alone loses the order).
pub fn attach(cli: &mut Cli, matches: &clap::ArgMatches) {
    let (placement, sub) = match (&mut cli.command, matches.subcommand()) {
        (Command::Run(a), Some((_, m))) => (&mut a.placement, m),
        (Command::Audit(a), Some((_, m))) => (&mut a.placement, m),
        (Command::Cpu(a), Some((_, m))) => (&mut a.placement, m),
        (Command::Verify(a), Some((_, m))) => (&mut a.placement, m),
        (Command::Algorithms(a), Some((_, m))) => (&mut a.placement, m),
        _ => return,
    };
    let positions = |id: &str| -> Vec<usize> { sub.indices_of(id).map(|i| i.collect()).unwrap_or_default() };
    let backends = positions("backends");
    let owner = |at: usize| backends.iter().rposition(|&b| b < at);
    let mut attached: Vec<(usize, Placement)> = Vec::new();
    for (at, arch) in positions("arch").into_iter().zip(placement.arch.iter()) {
        attached.push((
            at,
            Placement {
                after_backend: owner(at),
                how: WorkerPlace::Arch(arch.clone()),
            },
        ));
    }
    for (at, command) in positions("worker").into_iter().zip(placement.worker.iter()) {
        attached.push((
            at,
            Placement {
                after_backend: owner(at),
                how: WorkerPlace::Command(command.clone()),
            },
        ));
    }
    attached.sort_by_key(|(at, _)| *at);
    placement.attached = attached.into_iter().map(|(_, p)| p).collect();
    use cryptobench_core::result::{ENGINE_ENV, PROPERTIES_ENV, PROVIDER_ENV};
    let mut options: Vec<(usize, Option<usize>, &'static str, String)> = Vec::new();
    for (id, var, values) in [
        ("provider", PROVIDER_ENV, &placement.provider),
        ("engine", ENGINE_ENV, &placement.engine),
        ("properties", PROPERTIES_ENV, &placement.properties),
    ] {
        for (at, v) in positions(id).into_iter().zip(values.iter()) {
            options.push((at, owner(at), var, v.clone()));
        }
    }
    options.sort_by_key(|o| o.0);
    placement.library_options = options.into_iter().map(|(_, after, var, v)| (after, var, v)).collect();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}

//! The subcommands over stored runs: `runs`, `compare`, `report` and
//! `import`, with their formats.

use clap::{Args, Subcommand, ValueEnum};

use super::shared::{DbArgs, SaveArgs};
use super::values::{FormatArg, UnitArg};

pub const RUNS_HELP: &str = "Examples:
  cryptobench runs list
  cryptobench runs list --format csv > runs.csv
  cryptobench runs show 3
  cryptobench runs export 3 --format json > run3.json
  cryptobench runs import run3.json --db postgres://bench@db.example/cryptobench
  cryptobench runs delete 3";

#[derive(Args, Debug)]
pub struct RunsArgs {
    #[command(subcommand)]
    pub action: RunsAction,

    #[command(flatten)]
    pub db: DbArgs,
}

#[derive(Subcommand, Debug)]
pub enum RunsAction {
    /// One line per stored run: id, time, label, host, libraries.
    List {
        /// Output format: table for a terminal, json or csv for scripts.
        #[arg(long, short = 'f', value_enum, default_value_t = ListFormat::Table)]
        format: ListFormat,
    },
    /// A stored run as a table (or --format json/csv/markdown).
    Show {
        /// Run id or label.
        run: String,
        /// Output format.
        #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Table)]
        format: FormatArg,
        /// Throughput unit: mb = 10^6 bytes/s, k = openssl speed's 1000s of bytes/s, gb = 10^9 bytes/s.
        #[arg(long, short = 'u', value_enum, default_value_t = UnitArg::Mb)]
        units: UnitArg,
        /// Under the table, every flagged (~) cell with its warnings instead of one line per kind
        /// of warning (JSON keeps every warning either way).
        #[arg(long, short = 'v')]
        verbose: bool,
    },
    /// Write a stored run to stdout, JSON by default (the same document as `run --format json`).
    Export {
        /// Run id or label.
        run: String,
        /// Output format.
        #[arg(long, short = 'f', value_enum, default_value_t = ExportFormat::Json)]
        format: ExportFormat,
    },
    /// Store a run from a JSON file (from `run --format json` or `runs export`).
    Import {
        /// The JSON file, or - for stdin.
        file: String,
    },
    /// Remove a stored run with all its cells and samples.
    Delete {
        /// Run id.
        id: i64,
    },
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListFormat {
    Table,
    Json,
    Csv,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    Json,
    Csv,
    Markdown,
}

pub const COMPARE_HELP: &str = "Each run is a stored run id, a label (its newest run) or a JSON file from `run --format json`.
With one run, its configurations are compared with each other.
A difference is marked beyond the noise (*) by the project's one rule
(crates/core/src/decision.rs): the two cells' dependence-aware 95% intervals of the median
do not overlap and the medians differ by more than 1%; ? = not tested, too few samples
on a side (docs/METHOD.md, \"Comparing runs\").

Examples:
  cryptobench compare 3 4
  cryptobench compare before after --units k
  cryptobench compare run-1.1.1.json run-3.0.json run-4.0.json
  cryptobench compare 5                       configurations of run 5 against its first";

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Runs to compare, the first is the baseline.
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<String>,

    /// Output format: table for a terminal, markdown for an issue or a wiki.
    #[arg(long, short = 'f', value_enum, default_value_t = CompareFormat::Table)]
    pub format: CompareFormat,

    /// Throughput unit: mb = 10^6 bytes/s, k = openssl speed's 1000s of bytes/s, gb = 10^9 bytes/s.
    #[arg(long, short = 'u', value_enum, default_value_t = UnitArg::Mb)]
    pub units: UnitArg,

    #[command(flatten)]
    pub db: DbArgs,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareFormat {
    Table,
    Markdown,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Runs to report (ids, labels or JSON files).
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<String>,

    /// Write one self-contained HTML file (charts as inline SVG, no network) to this path.
    #[arg(long, value_name = "FILE", required_unless_present = "format")]
    pub html: Option<std::path::PathBuf>,

    /// Write Markdown to stdout instead, for an issue or a wiki.
    #[arg(long, short = 'f', value_enum, conflicts_with = "html")]
    pub format: Option<ReportFormat>,

    /// Throughput unit: mb = 10^6 bytes/s, k = openssl speed's 1000s of bytes/s, gb = 10^9 bytes/s.
    #[arg(long, short = 'u', value_enum, default_value_t = UnitArg::Mb)]
    pub units: UnitArg,

    /// In Markdown, every flagged (~) cell with its warnings instead of one line per kind of warning.
    #[arg(long, short = 'v')]
    pub verbose: bool,

    #[command(flatten)]
    pub db: DbArgs,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    Markdown,
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    #[command(subcommand)]
    pub source: ImportSource,
}

#[derive(Subcommand, Debug)]
pub enum ImportSource {
    /// `openssl speed` output (the human table or -mr), OpenSSL 0.9.x to 4.x.
    OpensslSpeed {
        /// The text file, or - for stdin.
        file: String,
        #[command(flatten)]
        save: SaveArgs,
        /// How to print the imported run (JSON to keep it as a file).
        #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Table)]
        format: FormatArg,
        /// Throughput unit [default: k, openssl speed's own 1000s of bytes/s].
        #[arg(long, short = 'u', value_enum, default_value_t = UnitArg::K)]
        units: UnitArg,
        /// Under the table, every flagged (~) cell with its warnings instead of one line per kind
        /// of warning (JSON keeps every warning either way).
        #[arg(long, short = 'v')]
        verbose: bool,
    },
}

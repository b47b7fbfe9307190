//! Argument groups several subcommands flatten in: where a worker runs
//! (`--arch`, `--worker`), how long it may stay silent, and where runs are
//! kept and saved (`--db`, `--no-save`, `--label`).

use clap::Args;

use super::values::parse_timeout;

/// How long a worker may stay silent.
#[derive(Args, Debug, Clone, Default)]
pub struct WorkerArgs {
    /// Kill a worker that says nothing for this many seconds (a hung library, a blocked socket)
    /// and report its configuration as timed out with what it was doing; the rest of the run goes
    /// on and is saved [default: 300 s plus four cell budgets].
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    pub worker_timeout: Option<f64>,
}

impl WorkerArgs {
    /// The silence limit for workers whose cells have `cell_budget_ns` each.
    pub fn silence_limit(&self, cell_budget_ns: u64) -> std::time::Duration {
        match self.worker_timeout {
            Some(s) => std::time::Duration::from_secs_f64(s),
            None => std::time::Duration::from_secs(300) + std::time::Duration::from_nanos(cell_budget_ns) * 4,
        }
    }
}

/// Where a configuration's worker runs: another architecture under an
/// emulator, or a command of the user's. Each flag attaches to the
/// `--backend` given before it (or to every configuration when it comes
/// before any `--backend`).
#[derive(Args, Debug, Clone, Default)]
pub struct PlacementArgs {
    /// Run the worker of the --backend before this flag as another architecture under qemu-user:
    /// aarch64, armhf, ppc64el (ppc64le), s390x, riscv64 or i386. Needs qemu-user, cryptobench or
    /// cryptobench-worker built for that target and the target's libraries (README, "Other
    /// architectures"); the figures then describe the emulator, and say so.
    #[arg(long, value_name = "ARCH")]
    pub arch: Vec<String>,

    /// Start the worker of the --backend before this flag with this command instead of this
    /// executable, e.g. "qemu-aarch64 -L / ./cryptobench-aarch64" (`worker` is appended); or
    /// `uml`: inside User-Mode Linux (apt-get install user-mode-linux kmod), the kernel's crypto
    /// API where AF_ALG is refused, e.g. `run --backend openssl --backend kernel --worker uml`.
    #[arg(long = "worker", value_name = "COMMAND")]
    pub worker: Vec<String>,

    /// Load this OpenSSL 3 provider in the --backend before this flag and prefer it
    /// ("?provider=NAME"): NAME is a provider module (legacy, fips, …) or default; =PATH its
    /// module or folder. Each cell names the provider that served it; an algorithm the provider
    /// lacks runs on the default path, and the cell says so (README, "Engines and providers").
    #[arg(long = "provider", value_name = "NAME[=PATH]")]
    pub provider: Vec<String>,

    /// Use this OpenSSL ENGINE in the --backend before this flag (ENGINE_set_default): afalg,
    /// padlock, pkcs11, devcrypto, … from OpenSSL's engines folder, or the PATH of an engine
    /// module. Each cell names the engine that served it; an algorithm the engine does not
    /// offer runs on the default path, and the cell says so.
    #[arg(long = "engine", value_name = "ID|PATH")]
    pub engine: Vec<String>,

    /// Fetch every algorithm of the OpenSSL 3 --backend before this flag with this property
    /// query (OSSL_PROPERTY syntax, e.g. "provider=default", "?fips=yes", "provider!=legacy"),
    /// instead of --provider's "?provider=NAME". A query no algorithm matches refuses the
    /// configuration with OpenSSL's reason; each cell names the provider that served it.
    #[arg(long = "properties", value_name = "QUERY")]
    pub properties: Vec<String>,

    /// The flags above in command-line order, each with the --backend it follows (filled by `attach`).
    #[arg(skip)]
    pub attached: Vec<Placement>,

    /// Each --provider, --engine and --properties with the --backend it follows and the worker's variable
    /// that carries it (filled by `attach`).
    #[arg(skip)]
    pub library_options: Vec<(Option<usize>, &'static str, String)>,
}

/// One `--arch` or `--worker` and the position (in `--backend` order) of the backend it follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// Index into the command's `--backend` values; None: given before any, applies to all.
    pub after_backend: Option<usize>,
    pub how: WorkerPlace,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkerPlace {
    Arch(String),
    Command(String),
}

/// Where runs are kept.
#[derive(Args, Debug, Clone, Default)]
pub struct DbArgs {
    /// The database: a SQLite file, or postgres://user@host/dbname to share one among machines
    /// [default: runs.sqlite in the user's data directory, e.g. ~/.local/share/cryptobench].
    #[arg(long, value_name = "PATH|URL", env = "CRYPTOBENCH_DB", global = true)]
    pub db: Option<String>,
}

/// Whether and how a new run is saved.
#[derive(Args, Debug, Clone, Default)]
pub struct SaveArgs {
    #[command(flatten)]
    pub db: DbArgs,

    /// Do not save the run in the database (--db and CRYPTOBENCH_DB are then ignored).
    #[arg(long)]
    pub no_save: bool,

    /// A name for the run, to find and compare it later (`cryptobench compare before after`).
    #[arg(long, value_name = "TEXT")]
    pub label: Option<String>,
}

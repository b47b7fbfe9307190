//! The command line, declared with clap derive. Help texts teach: each flag
//! says what it changes and what the default is.

use clap::{Args, Parser, Subcommand, ValueEnum};
use cryptobench_core::sizes::parse_size_list;

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
    /// tamper rejection, byte-identical output across backends, chunked streaming, Wycheproof files.
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
    /// Read another tool's results into the store, e.g. `import openssl-speed speed.txt`.
    Import(ImportArgs),
    /// Internal: measure one configuration (JSON job on stdin, JSON lines on stdout).
    #[command(hide = true)]
    Worker,
}

const RUN_EXAMPLES: &str = "Examples:
  cryptobench run                                   default suite through the system's OpenSSL
  cryptobench run --algos aes-256-gcm,sha256 --sizes 16,1024,16384 --decrypt
  cryptobench run --backend openssl=/opt/openssl-1.1.1w/lib/libcrypto.so.1.1 --backend openssl
  cryptobench run --quick --format json > run.json
  cryptobench run --algos aes-128-gcm --rekey --units k      what `openssl speed -evp` 3.x reports
  cryptobench run --threads 1,2,4,all --algos aes-128-gcm    aggregate over cores, like `openssl speed -multi`
  cryptobench run --core-types --algos aes-256-cbc --sizes 16k   each core type apart, score per MHz

Exit status: 0 all measured, 1 something crashed, was unavailable or failed verification (the rest is
still printed), 2 bad usage.";

#[derive(Args, Debug)]
pub struct RunArgs {
    /// Algorithms to measure, comma separated, or `all` [default: the default suite; see `cryptobench algorithms`].
    #[arg(long, short = 'a', value_name = "ALG,...", value_delimiter = ',')]
    pub algos: Vec<String>,

    /// Message sizes in bytes, comma separated; k/KiB and m/MiB suffixes accepted [default: 16,64,256,1024,8192,16384].
    #[arg(long, short = 's', value_name = "SIZES", value_parser = parse_sizes, allow_hyphen_values = true)]
    pub sizes: Option<Sizes>,

    /// Measure decryption instead of encryption (digests are unaffected).
    #[arg(long, conflicts_with = "ops")]
    pub decrypt: bool,

    /// Operations, comma separated: enc, dec for ciphers, AEADs and RSA-OAEP; sign, verify, keygen, encaps, decaps, derive for public key [default: enc; public key: the operations openssl speed shows].
    #[arg(long, value_enum, value_name = "OP,...", value_delimiter = ',')]
    pub ops: Vec<OpArg>,

    /// How one timed call is shaped [default: per class, as `openssl speed -evp`: ciphers stream,
    /// AEADs and digests message]. stream: one context, one update per call. message: each call is
    /// a whole message (fresh IV, AAD, update, final, tag; digests the one-shot call).
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,

    /// In message mode, set the key again for every message (what `openssl speed` 3.x does for AEADs).
    #[arg(long)]
    pub rekey: bool,

    /// Bytes of additional authenticated data per AEAD message in message mode: 13 is a TLS 1.2
    /// record header, as `openssl speed -aead`; 0 as `openssl speed` 3.x without -aead.
    #[arg(long, value_name = "BYTES", default_value_t = cryptobench_core::cell::DEFAULT_AAD_LEN, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u16), usize::from))]
    pub aad: usize,

    /// A library to measure: a backend id (`cryptobench backends` lists them) for
    /// the system's library, `ID=PATH` for a given file (e.g. `openssl=PATH` for any libcrypto of
    /// 1.1.1, 3.x or 4.x), or `all` for every backend available here. The language runtimes
    /// `python:hashlib`, `python:cryptography`, `node`, `go` and `java` take their executable as
    /// PATH (e.g. `python:cryptography=/usr/bin/python3`). Repeat for several
    /// configurations side by side [default: openssl].
    #[arg(long = "backend", short = 'b', value_name = "BACKEND[=PATH]")]
    pub backends: Vec<String>,

    #[command(flatten)]
    pub placement: PlacementArgs,

    /// Time budget per cell in seconds (or with ms/s suffix): sampling stops earlier once the median
    /// is precise to ±1% [default: 0.3, with --quick 0.04].
    #[arg(long, short = 't', value_name = "SECONDS", value_parser = parse_seconds, allow_hyphen_values = true)]
    pub time: Option<f64>,

    /// A first look in seconds: shorter samples and budgets, figures flagged where imprecise.
    #[arg(long)]
    pub quick: bool,

    /// Measure every configuration this many times, interleaved (A, B, A, B, …), pooling the
    /// samples: slow drifts of the machine then affect all configurations alike.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u16).range(1..=1000), usize::from))]
    pub rounds: usize,

    /// Pin the workers to this logical CPU (Linux).
    #[arg(long, value_name = "N")]
    pub cpu: Option<usize>,

    /// Measure with N workers at once, each pinned to its own logical CPU (one per physical core
    /// first, then SMT siblings), started together on every sample: their aggregate throughput,
    /// each worker's figure, the scaling against one worker and each core's clock under that
    /// load. Counts comma separated (1,2,4) or `all` (every CPU this process may use); one worker
    /// is always measured too, as the base of the scaling (Linux).
    #[arg(long, value_name = "N,...|all", value_delimiter = ',', conflicts_with_all = ["cpu", "core_types"])]
    pub threads: Vec<String>,

    /// Measure each core type apart (big.LITTLE clusters, Intel P and E cores), pinned to a core
    /// of that type, with its clock, cycles per byte and sbc-bench score per MHz; on a machine
    /// whose cores are all alike, say so and measure once. CRYPTOBENCH_SYSFS_ROOT names a
    /// recorded /sys and /proc tree of another machine to read the types from (Linux).
    #[arg(long, conflicts_with = "cpu")]
    pub core_types: bool,

    /// The class of the measured cores (see `cryptobench cpu --classes`), for the clock estimate
    /// from the aes-256-cbc score where the OS does not identify the cores.
    #[arg(long, value_name = "CLASS")]
    pub core_class: Option<String>,

    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Table)]
    pub format: FormatArg,

    /// Unit for table and Markdown: mb = 10^6 bytes/s, k = openssl speed's 1000s of bytes/s, gb = 10^9 bytes/s,
    /// cpb = core cycles per byte at the measured clock.
    #[arg(long, short = 'u', value_enum, default_value_t = UnitArg::Mb)]
    pub units: UnitArg,

    #[command(flatten)]
    pub workers: WorkerArgs,

    #[command(flatten)]
    pub save: SaveArgs,
}

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
    /// aarch64, armhf, ppc64el, s390x or i386. Needs qemu-user and cryptobench built for that target
    /// (README, "Other architectures"); the figures then describe the emulator, and say so.
    #[arg(long, value_name = "ARCH")]
    pub arch: Vec<String>,

    /// Start the worker of the --backend before this flag with this command instead of this
    /// executable, e.g. "qemu-aarch64 -L / ./cryptobench-aarch64" (`worker` is appended).
    #[arg(long = "worker", value_name = "COMMAND")]
    pub worker: Vec<String>,

    /// The flags above in command-line order, each with the --backend it follows (filled by `attach`).
    #[arg(skip)]
    pub attached: Vec<Placement>,
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

const RUNS_HELP: &str = "Examples:
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

const COMPARE_HELP: &str = "Each run is a stored run id, a label (its newest run) or a JSON file from `run --format json`.
With one run, its configurations are compared with each other.
A difference is marked significant (*) when a two-sided Mann-Whitney U test on the samples gives p < 0.05
and the medians differ by more than 1% (docs/METHOD.md).

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
    },
}

const VERIFY_EXAMPLES: &str = "Examples:
  cryptobench verify                                  every available backend, every algorithm
  cryptobench verify --backend gcrypt --backend nettle --algos aes-128-gcm,sha256
  cryptobench verify --vectors aes_gcm_test.json      a Project Wycheproof file as well

Exit status: 0 all checks passed, 1 a check failed (or a named backend is unavailable), 2 bad usage.";

#[derive(Args, Debug)]
pub struct BackendsArgs {
    /// Output format: table or json.
    #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Table)]
    pub format: FormatArg,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Backends to check, as in `run` (BACKEND or BACKEND=PATH), or `all` [default: every backend
    /// that can be loaded here].
    #[arg(long = "backend", short = 'b', value_name = "BACKEND[=PATH]")]
    pub backends: Vec<String>,

    #[command(flatten)]
    pub placement: PlacementArgs,

    /// Algorithms to check, comma separated, or `all` [default: all].
    #[arg(long, short = 'a', value_name = "ALG,...", value_delimiter = ',')]
    pub algos: Vec<String>,

    /// A test vector file: Project Wycheproof JSON (AEADs: aes_gcm, aes_ccm, aes_gcm_siv,
    /// aes_siv_cmac, chacha20/xchacha20_poly1305; ciphers: aes/camellia/aria_cbc_pkcs5, aes_xts;
    /// MACs: hmac_sha*, aes_cmac; public key: ecdsa_*, ed25519/ed448, x25519/x448, ecdh_*,
    /// rsa_signature_*, rsa_pss_*, mlkem_*, mldsa_*_verify) or a NIST CAVP .rsp file (e.g.
    /// gcmDecrypt128.rsp); repeat for several.
    #[arg(long = "vectors", value_name = "FILE")]
    pub vectors: Vec<std::path::PathBuf>,

    /// Longest message for the agreement and chunked checks (k/KiB, m/MiB suffixes) [default: 4m].
    #[arg(long, value_name = "BYTES", value_parser = parse_one_size)]
    pub max_length: Option<usize>,

    /// Seed for keys, messages and chunk sizes [default: random; printed, to reproduce a failure].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Output format: table or json.
    #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Table)]
    pub format: FormatArg,

    #[command(flatten)]
    pub workers: WorkerArgs,
}

fn parse_one_size(text: &str) -> Result<usize, String> {
    match parse_size_list(text).map_err(|e| e.to_string())?.as_slice() {
        [one] => Ok(*one),
        _ => Err(format!("'{text}' is not one size; give e.g. 65536, 64k or 4m")),
    }
}

#[derive(Args, Debug)]
pub struct AlgorithmsArgs {
    /// Configurations to ask for support (as in `run`) [default: openssl].
    #[arg(long = "backend", short = 'b', value_name = "BACKEND[=PATH]")]
    pub backends: Vec<String>,

    #[command(flatten)]
    pub placement: PlacementArgs,

    /// Output format: table or json.
    #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Table)]
    pub format: FormatArg,
}

const AUDIT_EXAMPLES: &str = "Families: aes (AES-NI+VAES, arm AES), clmul (PCLMULQDQ+VPCLMULQDQ, arm PMULL), sha (SHA-NI,
arm SHA1/SHA2/SHA512); each is switched off through the library's own mask (OPENSSL_ia32cap/OPENSSL_armcap
for OpenSSL, and OPENSSL_ia32cap for aws-lc-rs and boring; libgcrypt's disabled hardware features; NETTLE_FAT_OVERRIDE;
GNUTLS_CPUID_OVERRIDE; BOTAN_CLEAR_CPUID) in its own worker process, then all together.

Examples:
  cryptobench audit                                  default algorithms at 16 B and 16 KiB
  cryptobench audit --algos aes-256-gcm,sha256 --sizes 16,1024,16384 --time 1
  cryptobench audit --backend openssl=/opt/openssl-3.5/lib64/libcrypto.so.3 --format json";

#[derive(Args, Debug)]
pub struct AuditArgs {
    /// Libraries to audit (as in `run`; maskable: openssl, gcrypt, nettle, gnutls, botan, aws-lc-rs, boring) [default: openssl].
    #[arg(long = "backend", short = 'b', value_name = "BACKEND[=PATH]")]
    pub backends: Vec<String>,

    #[command(flatten)]
    pub placement: PlacementArgs,

    /// Algorithms, comma separated, or `all` [default: aes-128-cbc,aes-128-ctr,aes-128-gcm,aes-256-gcm,chacha20-poly1305,sha1,sha256,sha512].
    #[arg(long, short = 'a', value_name = "ALG,...", value_delimiter = ',')]
    pub algos: Vec<String>,

    /// Message sizes; verdicts use the smallest and the largest [default: 16,16384].
    #[arg(long, short = 's', value_name = "SIZES", value_parser = parse_sizes, allow_hyphen_values = true)]
    pub sizes: Option<Sizes>,

    /// Time budget per cell and round in seconds [default: 0.1, with --quick 0.04].
    #[arg(long, short = 't', value_name = "SECONDS", value_parser = parse_seconds, allow_hyphen_values = true)]
    pub time: Option<f64>,

    /// Interleaved rounds over all configurations, samples pooled (see `run --help`).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u16).range(1..=1000), usize::from))]
    pub rounds: usize,

    /// A first look in seconds.
    #[arg(long)]
    pub quick: bool,

    /// Pin the workers to this logical CPU (Linux).
    #[arg(long, value_name = "N")]
    pub cpu: Option<usize>,

    /// Output format: table, json or markdown.
    #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Table)]
    pub format: FormatArg,

    /// Throughput unit: mb, k (openssl speed's 1000s of bytes/s) or gb.
    #[arg(long, short = 'u', value_enum, default_value_t = UnitArg::Mb)]
    pub units: UnitArg,

    #[command(flatten)]
    pub workers: WorkerArgs,

    #[command(flatten)]
    pub save: SaveArgs,
}

#[derive(Args, Debug)]
pub struct CpuArgs {
    /// Libraries whose view of the CPU to show (as in `run`) [default: openssl].
    #[arg(long = "backend", short = 'b', value_name = "BACKEND[=PATH]")]
    pub backends: Vec<String>,

    #[command(flatten)]
    pub placement: PlacementArgs,

    /// Measure the clock on this logical CPU (Linux).
    #[arg(long, value_name = "N")]
    pub cpu: Option<usize>,

    /// Skip the clock measurement (about a quarter of a second).
    #[arg(long)]
    pub no_clock: bool,

    /// List the reference core classes (aes-256-cbc score per MHz) and exit.
    #[arg(long)]
    pub classes: bool,

    /// List the cores: the order `run --threads` places workers in and the core types
    /// `run --core-types` measures, and exit (CRYPTOBENCH_SYSFS_ROOT reads a recorded tree).
    #[arg(long, conflicts_with = "classes")]
    pub topology: bool,

    /// Output format: table or json.
    #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Table)]
    pub format: FormatArg,
}

#[derive(Debug, Clone)]
pub struct Sizes(pub Vec<usize>);

fn parse_sizes(text: &str) -> Result<Sizes, String> {
    parse_size_list(text).map(Sizes).map_err(|e| e.to_string())
}

/// Seconds as `0.5`, `500ms` or `2s`; between 1 ms and one hour.
/// A worker timeout: seconds (or with an ms/s suffix), from 1 ms to a day.
pub fn parse_timeout(text: &str) -> Result<f64, String> {
    let seconds = seconds(text)?;
    if !(0.001..=86_400.0).contains(&seconds) {
        return Err(format!("'{}' is outside 1 ms to 86400 s", text.trim()));
    }
    Ok(seconds)
}

pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let seconds = seconds(text)?;
    if !(0.001..=3600.0).contains(&seconds) {
        return Err(format!("'{}' is outside 1 ms to 3600 s per cell", text.trim()));
    }
    Ok(seconds)
}

/// "0.5", "2s", "500ms" as seconds.
fn seconds(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else {
        (t, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("'{t}' is not a duration: give seconds such as 0.5, 2s or 500ms"))?;
    let seconds = value * scale;
    if !seconds.is_finite() {
        return Err(format!("'{t}' is not a finite duration"));
    }
    Ok(seconds)
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpArg {
    Enc,
    Dec,
    /// Public key: one signature.
    Sign,
    /// One signature verification.
    Verify,
    /// One key pair generated (RSA's takes long: its cells get a longer budget).
    Keygen,
    /// One ML-KEM encapsulation.
    Encaps,
    /// One ML-KEM decapsulation.
    Decaps,
    /// One Diffie–Hellman shared secret.
    Derive,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeArg {
    Stream,
    Message,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatArg {
    Table,
    Json,
    Csv,
    Markdown,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitArg {
    Mb,
    K,
    Gb,
    Cpb,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_accept_units_and_reject_nonsense() {
        assert_eq!(parse_seconds("0.5").unwrap(), 0.5);
        assert_eq!(parse_seconds("250ms").unwrap(), 0.25);
        assert_eq!(parse_seconds("2s").unwrap(), 2.0);
        for bad in ["", "abc", "-1", "0", "NaN", "inf", "1e9", "5 minutes"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn cli_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}

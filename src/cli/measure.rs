//! The subcommands that measure: `run` and `audit`.

use clap::Args;

use super::shared::{PlacementArgs, SaveArgs, WorkerArgs};
use super::values::{parse_seconds, parse_sizes, parse_target, FormatArg, ModeArg, OpArg, Sizes, UnitArg};

pub const RUN_EXAMPLES: &str = "Examples:
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
    /// a whole message (the IV set again, one fixed value for all messages; AAD, update, final, tag; digests the
    /// one-shot call).
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
    /// 1.1.1, 3.x or 4.x; `openssl=@NAME` for a variant built by bench/openssl-lab, e.g.
    /// `openssl=@3.5.5-clang-O3-noasm`), or `all` for every backend available here. The language runtimes
    /// `python:hashlib`, `python:cryptography`, `node`, `go` and `java` take their executable as
    /// PATH (e.g. `python:cryptography=/usr/bin/python3`). Repeat for several
    /// configurations side by side [default: openssl].
    #[arg(long = "backend", short = 'b', value_name = "BACKEND[=PATH]")]
    pub backends: Vec<String>,

    #[command(flatten)]
    pub placement: PlacementArgs,

    /// Time budget per cell in seconds (or with ms/s suffix), on average: a cell stops as soon as
    /// its median meets --target, and the time it saves goes to the cells after it; the whole
    /// run's budget (cells × this) is printed before the first cell [default: 0.235, with --quick 0.04].
    #[arg(long, short = 't', value_name = "SECONDS", value_parser = parse_seconds, allow_hyphen_values = true)]
    pub time: Option<f64>,

    /// Precision target: the 95% confidence interval of each cell's median within ±this; a cell
    /// that misses it is marked `~`. A tighter target needs more --time and a quieter machine
    /// (e.g. `--target 0.5% --time 1`) [default: 1%, with --quick 2%].
    #[arg(long, value_name = "PERCENT", value_parser = parse_target)]
    pub target: Option<f64>,

    /// A first look in seconds: shorter samples and budgets, figures flagged where imprecise.
    #[arg(long)]
    pub quick: bool,

    /// Measure every cell in N replicates, each in a fresh worker process, interleaved with the
    /// other cells and configurations in a random order (a cell's replicates never follow each
    /// other): the figure is the fastest replicate's median (a neighbour only ever slows a loop
    /// down), and its interval says where a repeat run's figure would fall, since another process
    /// and another minute (memory layout, a neighbour on the core) move a figure more than its own
    /// samples show. --time is shared by
    /// a cell's replicates. 1 gives one worker's figure, whose interval knows only its own
    /// samples [default: 5; with --quick 1].
    #[arg(long, alias = "rounds", value_name = "N", value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u16).range(1..=1000), usize::from))]
    pub replicates: Option<usize>,

    /// The seed of the replicates' random order, to repeat a run's order (JSON: settings.order_seed).
    #[arg(long, value_name = "SEED", hide = true)]
    pub order_seed: Option<u64>,

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

    /// Under the table, every flagged (~) cell with its warnings instead of one line per kind
    /// of warning (JSON keeps every warning either way).
    #[arg(long, short = 'v')]
    pub verbose: bool,

    #[command(flatten)]
    pub workers: WorkerArgs,

    #[command(flatten)]
    pub save: SaveArgs,
}

pub const AUDIT_EXAMPLES: &str = "Families: aes (AES-NI+VAES, arm AES), clmul (PCLMULQDQ+VPCLMULQDQ, arm PMULL), sha (SHA-NI,
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

    /// Time budget per cell in seconds, shared by its replicates [default: 0.3, with --quick 0.04].
    #[arg(long, short = 't', value_name = "SECONDS", value_parser = parse_seconds, allow_hyphen_values = true)]
    pub time: Option<f64>,

    /// Replicates per cell, each in a fresh worker, interleaved in a random order over all
    /// configurations (see `run --help`) [default: 5; with --quick 1].
    #[arg(long, alias = "rounds", value_name = "N", value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u16).range(1..=1000), usize::from))]
    pub replicates: Option<usize>,

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

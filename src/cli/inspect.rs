//! The subcommands that look without measuring throughput: `algorithms`,
//! `backends`, `cpu` and `verify`.

use clap::Args;

use super::shared::{PlacementArgs, WorkerArgs};
use super::values::{parse_one_size, FormatArg};

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

    /// Print the catalog as one table however many configurations (wider than a terminal),
    /// and every note whole [default: tables of at most 160 columns, long notes wrapped].
    #[arg(long, short = 'v')]
    pub verbose: bool,
}

#[derive(Args, Debug)]
pub struct BackendsArgs {
    /// Output format: table or json.
    #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Table)]
    pub format: FormatArg,

    /// Also each library's file, algorithms, engines and providers, and its view of the CPU
    /// (its capability string) [default: one row per backend, within 160 columns].
    #[arg(long, short = 'v')]
    pub verbose: bool,
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

pub const VERIFY_EXAMPLES: &str = "Examples:
  cryptobench verify                                  every available backend, every algorithm
  cryptobench verify --backend gcrypt --backend nettle --algos aes-128-gcm,sha256
  cryptobench verify --vectors aes_gcm_test.json      a Project Wycheproof file as well

A library that breaks a published rule (accepts a non-canonical signature such as S + L, or
answers a Wycheproof case against its expected result where cryptobench's reading of it cannot be
at fault) is reported as DEFECT, with the rule, the input and the library's version, apart from a
FAILED check of cryptobench's own; `run` times such an algorithm and marks its figures with `!`.

Exit status:
  0  every check passed, no defect found
  3  a library defect was found, and nothing else failed (a script can tell \"the library has a
     defect\" from \"cryptobench could not check\")
  1  a check failed or could not run (a crashed worker; a named backend unavailable), defects or not
  2  bad usage";

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

    /// Print each defect's input whole [default: lines of at most 160 columns, an input cut
    /// where it is longer; `--format json` keeps it whole too].
    #[arg(long, short = 'v')]
    pub verbose: bool,

    #[command(flatten)]
    pub workers: WorkerArgs,
}

//! `cryptobench advise`: where this machine stands, and what to change.

use clap::Args;

use super::shared::DbArgs;

pub const ADVISE_EXAMPLES: &str = "Examples:
  cryptobench advise                                   every library present and every lab build, default timing
  cryptobench advise --algos aes-128-gcm,sha256,chacha20-poly1305
  cryptobench advise --from three-builds               advice on a stored run (id, label or JSON file), nothing measured
  cryptobench advise --from run.json --core zen3       the core to hold the figures against, where the run does not record it

What it measures: with no --backend, every backend that loads here (`--backend all`) and every OpenSSL
built by bench/build-openssl (target/openssl/*/libcrypto.so), at the default timing: advice is given only
from cells timed at the default budget (a --quick run gets none). Each sentence of advice names the
figures it rests on: the run's own (configurations [i]) or a cited source (repository, commit, file and
line or table cell of the best-known table, crates/advice/data/best-known.json).

Exit status: 0 advice given, 1 something crashed or was unavailable (the rest is still advised on), 2 bad usage.";

#[derive(Args, Debug)]
pub struct AdviseArgs {
    /// Algorithms to measure and advise on, comma-separated (with --from: those of the run to advise on)
    /// [default: aes-128-gcm,chacha20-poly1305,sha256,sha512,aes-128-ctr,
    /// rsa2048-pss,ecdsap256,ed25519,x25519,mlkem768,mldsa65].
    #[arg(long, short = 'a', value_name = "ALG,...", value_delimiter = ',')]
    pub algos: Vec<String>,

    /// Libraries to measure, as for `run` (repeatable) [default: all, plus every lab build under target/openssl].
    #[arg(long = "backend", short = 'b', value_name = "BACKEND[=PATH]", conflicts_with = "from")]
    pub backends: Vec<String>,

    /// Advise on a stored run (id, label or JSON file) instead of measuring.
    #[arg(long, value_name = "RUN")]
    pub from: Option<String>,

    /// The core to hold the figures against (e.g. zen3, skylake, cortex-a76), where the run does not
    /// record the CPU's identity or a hypervisor hides it. `--core list` lists them.
    #[arg(long, value_name = "CORE")]
    pub core: Option<String>,

    /// Accepted for older scripts: advise always times cells as `run` does without --quick.
    #[arg(long, conflicts_with = "from", hide = true)]
    pub full: bool,

    #[command(flatten)]
    pub db: DbArgs,
}

//! `cryptobench lab`: the build lab's table of one run.

use clap::{Args, ValueEnum};

use super::shared::DbArgs;
use super::values::UnitArg;

pub const LAB_HELP: &str = "The run measures several builds of a library side by side, e.g. OpenSSL variants
built by bench/openssl-lab and loaded by name with --backend openssl=@NAME:

  bench/openssl-lab --versions 3.0,3.5 --cc gcc,clang --asm default,no-asm
  cryptobench run --algos aes-128-gcm,sha256 --sizes 16,1024,16384 --format json \\
      --backend openssl=@3.5.5-gcc-O3 --backend openssl=@3.5.5-clang-O3-noasm > lab.json
  cryptobench lab lab.json --baseline 3.5.5-gcc-O3
  cryptobench lab lab.json --baseline 3.5.5-gcc-O3 --format html > lab.html

A factor is marked significant (*) by the rule of `compare` (docs/METHOD.md).";

#[derive(Args, Debug)]
pub struct LabArgs {
    /// The run: a stored run id, a label, or a JSON file from `run --format json`.
    #[arg(value_name = "RUN")]
    pub run: String,

    /// The configuration the others are held against: a lab variant's name (the folder of
    /// `openssl=@NAME`), its label as the run's tables show it, or its index in the run.
    /// Default: the run's first configuration.
    #[arg(long, short = 'b', value_name = "NAME")]
    pub baseline: Option<String>,

    /// Output format: table for a terminal, markdown, or html (one self-contained page).
    #[arg(long, short = 'f', value_enum, default_value_t = LabFormatArg::Table)]
    pub format: LabFormatArg,

    /// Throughput unit of the baseline's column: mb = 10^6 bytes/s, k = 1000s of bytes/s, gb = 10^9 bytes/s.
    #[arg(long, short = 'u', value_enum, default_value_t = UnitArg::Mb)]
    pub units: UnitArg,

    #[command(flatten)]
    pub db: DbArgs,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabFormatArg {
    Table,
    Markdown,
    Html,
}

//! What a run produces. Serialised as the JSON output (`--format json`),
//! whose shape is versioned by [`SCHEMA_VERSION`] and described by
//! docs/run.schema.json (generated from these types; a test keeps it current).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::cell::CellSpec;
pub use crate::machine::{ClockMeasurement, ConfigurationClock, CpuIdentity, FeatureRecord, HostInfo, WorkerPlatform};
use crate::stats::{Sample, Summary};

/// Bumped whenever a field changes meaning or disappears (additions keep it).
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RunResult {
    pub schema_version: u32,
    pub tool: ToolInfo,
    /// RFC 3339, UTC.
    pub started_at: String,
    pub finished_at: String,
    pub command_line: Vec<String>,
    pub host: HostInfo,
    pub settings: RunSettings,
    pub configurations: Vec<ConfigurationResult>,
    /// A name the user gave the run (`--label`), to find and compare it later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Set when the run was not measured by cryptobench but read from another
    /// tool's output (`cryptobench import`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<ImportInfo>,
    /// What makes the whole run's figures less trustworthy (a debug build, a
    /// frequency governor other than `performance`, turbo), each with the fix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Set by `cryptobench audit`: which configurations had which
    /// acceleration families switched off, and the verdicts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audit: Option<crate::audit::AuditInfo>,
    /// Set by `run --threads` and `run --core-types`: the cores as they were
    /// read (placement order, core types) and where from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topology: Option<crate::cores::Topology>,
    /// This run against the host's earlier runs of the same cells in the
    /// store it is saved to (crates/core/src/history.rs); absent without
    /// such runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<HostHistory>,
}

/// What a run's figures are against this host's earlier ones
/// (crates/core/src/history.rs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HostHistory {
    /// Earlier runs of this host that share cells with this one (the newest, at most a few).
    pub earlier_runs: usize,
    /// This run's cells with at least [`crate::history::MIN_EARLIER`] earlier figures.
    pub cells: usize,
    /// The median over those cells of this figure over the median of its earlier figures.
    pub ratio: f64,
    /// How far the earlier figures of a cell usually lie from their median
    /// (median over the cells of their relative MAD).
    pub usual_spread: f64,
    /// Cells flagged as unlike their history.
    pub unlike: usize,
    /// The whole run lies beyond the history's usual spread and the run's target.
    pub machine_differs: bool,
}

/// Where an imported run came from and what its text said about its environment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ImportInfo {
    /// The format read, e.g. "openssl-speed".
    pub format: String,
    /// The file name it was read from.
    pub source: String,
    /// Environment lines found in the text (e.g. "built on", "compiler"), name → value.
    #[serde(default)]
    pub environment: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ToolInfo {
    pub name: String,
    pub version: String,
}

/// time(n) = a + n/r∞ fitted over a row's sizes (crates/core/src/overhead.rs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct OverheadFit {
    pub algorithm: String,
    pub operation: crate::cell::Operation,
    pub mode: String,
    /// a: fixed cost per call, in nanoseconds.
    pub per_call_ns: f64,
    /// r∞: throughput approached by large messages, bytes per second.
    pub asymptotic_bytes_per_s: f64,
    /// n½ = a·r∞: the message size at which half of r∞ is reached, in bytes.
    pub half_peak_bytes: f64,
    /// The sizes the fit used.
    pub sizes: Vec<usize>,
}

/// sbc-bench's metric: aes-256-cbc at 16 KiB in 1000s of bytes per second per MHz.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClockScore {
    /// aes-256-cbc encryption at 16 KiB, in openssl speed's "k" (1000 bytes/s).
    pub aes256cbc_16k_k: f64,
    /// The measured clock the score is divided by.
    pub mhz: Option<f64>,
    pub score_per_mhz: Option<f64>,
    /// The reference class nearest to score_per_mhz, with its score.
    pub nearest_class: Option<String>,
    pub nearest_class_score_per_mhz: Option<f64>,
    /// The class of this CPU's cores where it is known (arm64: from the CPU part number).
    pub core_class: Option<String>,
    /// The clock that class would need to reach this score.
    pub clock_estimate_mhz: Option<f64>,
}

/// How the cells were timed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TimingSettings {
    /// Each sample lasts at least this long (iterations are calibrated to it).
    pub sample_target_ns: u64,
    /// Sampling stops when this much time was spent on the cell.
    pub cell_budget_ns: u64,
    /// Sampling continues at least this long before the precision rule may stop it.
    pub min_samples: usize,
    /// Sampling stops early once the 95% CI half-width of the median is below this fraction.
    pub target_relative_ci: f64,
    /// Untimed running before the first sample.
    pub warmup_ns: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RunSettings {
    pub timing: TimingSettings,
    pub sizes: Vec<usize>,
    /// The logical CPU the workers were pinned to.
    pub pinned_cpu: Option<usize>,
    /// How many times every configuration was measured, interleaved; a
    /// cell's samples pool all rounds. Runs with replicates say 1 here.
    #[serde(default = "one")]
    pub rounds: usize,
    /// How many replicates (fresh workers, interleaved in a random order)
    /// each cell was measured in; 1 in runs of older versions.
    #[serde(default = "one")]
    pub replicates: usize,
    /// The seed of the random order of the replicates, to repeat it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_seed: Option<u64>,
}

fn one() -> usize {
    1
}

/// What the user asked for: which backend, which library file, which environment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ConfigurationSpec {
    /// Backend id, e.g. "openssl".
    pub backend: String,
    /// Library file given by the user; None = the system's default.
    pub library: Option<String>,
    /// Extra environment for the worker (e.g. capability masks).
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// The command that starts this configuration's worker when it is not
    /// this executable: an emulator and a cross-built binary
    /// (`["qemu-aarch64", "./cryptobench-aarch64"]`), or a driver in another
    /// language. The argument `worker` is appended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worker: Option<Vec<String>>,
}

/// The variable through which the orchestrator tells a worker it started
/// under an emulator (the emulator's own description as the value).
pub const EMULATOR_ENV: &str = "CRYPTOBENCH_EMULATOR";

/// The variable that carries `--provider NAME[=PATH]` to the worker of the
/// configuration it follows (an OpenSSL 3 provider; a library without
/// providers refuses it): a configuration of its own, not a capability mask.
pub const PROVIDER_ENV: &str = "CRYPTOBENCH_PROVIDER";

/// The variable that carries `--engine ID|PATH` (an OpenSSL ENGINE) to the
/// worker of the configuration it follows, as [`PROVIDER_ENV`].
pub const ENGINE_ENV: &str = "CRYPTOBENCH_ENGINE";

/// The variable that carries `--properties QUERY` (an OpenSSL 3 property
/// query for every fetch, e.g. `provider=default` or `?fips=yes`) to the
/// worker of the configuration it follows, as [`PROVIDER_ENV`].
pub const PROPERTIES_ENV: &str = "CRYPTOBENCH_PROPERTIES";

impl ConfigurationSpec {
    /// The environment that changes what the library does (capability masks
    /// and the like): everything but the emulator's name.
    pub fn capability_env(&self) -> impl Iterator<Item = (&String, &String)> {
        self.env
            .iter()
            .filter(|(k, _)| ![EMULATOR_ENV, PROVIDER_ENV, ENGINE_ENV, PROPERTIES_ENV].contains(&k.as_str()))
    }

    /// How the user would write it: `openssl` or `openssl=/path/libcrypto.so`.
    pub fn display(&self) -> String {
        match &self.library {
            Some(path) => format!("{}={}", self.backend, path),
            None => self.backend.clone(),
        }
    }
}

/// The backend's description of itself, read from the library.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BackendInfo {
    pub id: String,
    /// Library name, e.g. "OpenSSL".
    pub name: String,
    /// Version string as the library reports it.
    pub version: String,
    /// The file actually loaded.
    pub library_path: Option<String>,
    /// The library's own view of the CPU, e.g. "OPENSSL_ia32cap=0x…:0x…".
    pub cpu_capabilities: Option<String>,
    /// Further facts (build flags, platform), name → value.
    #[serde(default)]
    pub details: BTreeMap<String, String>,
    /// How cryptobench reaches the library, from its registry entry:
    /// "loaded" (a shared library loaded at run time), "linked-in"
    /// (compiled into cryptobench), "runtime" (a language runtime's
    /// driver), "os-api" (an interface of the operating system).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// How the library draws ECDSA nonces, as it declares it (random or
    /// RFC 6979); absent for a library without ECDSA and in older runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ecdsa_nonce: Option<crate::pk::EcdsaNonce>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum ConfigurationStatus {
    /// Every requested cell was processed.
    Completed,
    /// The backend could not be loaded or used; nothing was measured.
    Unavailable { reason: String },
    /// The worker died; cells received before are kept.
    Crashed { reason: String },
    /// The worker said nothing for longer than `--worker-timeout` and was
    /// killed; the reason says what it was doing. Cells received before are kept.
    #[serde(rename = "timed_out")]
    TimedOut { reason: String },
}

impl ConfigurationStatus {
    /// Why the configuration did not complete; None when it did.
    pub fn reason(&self) -> Option<&str> {
        match self {
            ConfigurationStatus::Completed => None,
            ConfigurationStatus::Unavailable { reason }
            | ConfigurationStatus::Crashed { reason }
            | ConfigurationStatus::TimedOut { reason } => Some(reason),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ConfigurationResult {
    /// 1-based, as shown in tables ("[1]").
    pub index: usize,
    pub spec: ConfigurationSpec,
    pub backend: Option<BackendInfo>,
    #[serde(flatten)]
    pub status: ConfigurationStatus,
    pub verifications: Vec<Verification>,
    pub cells: Vec<CellResult>,
    /// The worker's measured clock around its cells.
    #[serde(default)]
    pub clock: Option<ConfigurationClock>,
    /// Per-call overhead and asymptotic throughput per row.
    #[serde(default)]
    pub overheads: Vec<OverheadFit>,
    #[serde(default)]
    pub score: Option<ClockScore>,
    /// Where the worker ran, as the worker itself saw it (architecture, CPU
    /// features, affinity, build). Absent in runs of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<WorkerPlatform>,
    /// Set by `run --threads` and `run --core-types`: how many workers ran
    /// together, on which CPUs, of which core type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<crate::cores::Placement>,
    /// A language runtime's rows against the C library it calls (runtime configurations only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bindings: Vec<crate::binding::BindingCost>,
    /// The library's capability vector against its worker's CPU features, where
    /// the library reports one cryptobench decodes. Absent in runs of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capability_view: Option<crate::audit::CapabilityView>,
}

/// Outcome of the known-answer, round-trip and tamper checks for one algorithm.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Verification {
    pub algorithm: String,
    #[serde(flatten)]
    pub outcome: VerificationOutcome,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum VerificationOutcome {
    /// `checks` individual checks passed (vectors, round trips, tamper rejections).
    Passed {
        checks: usize,
    },
    Failed {
        reason: String,
    },
    /// The backend does not offer the algorithm.
    Unsupported {
        reason: String,
    },
    /// `checks` checks passed, but the library breaks a published rule
    /// (crates/core/src/defect.rs): a finding about the library, not a
    /// failure of the checks. The algorithm is timed as the library runs it
    /// and the cells of each defect's operation are marked.
    Defect {
        checks: usize,
        defects: Vec<crate::defect::Defect>,
    },
}

impl VerificationOutcome {
    /// Whether the algorithm may be timed: it passed, or passed with a defect named.
    pub fn timed(&self) -> bool {
        matches!(self, VerificationOutcome::Passed { .. } | VerificationOutcome::Defect { .. })
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CellResult {
    #[serde(flatten)]
    pub spec: CellSpec,
    #[serde(flatten)]
    pub outcome: CellOutcome,
}

// A run holds at most a few thousand cells, most of them measured: boxing
// the measurement would save little and complicate every match on it.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum CellOutcome {
    Measured(Measurement),
    /// Verification failed: the cell was not timed.
    Failed {
        reason: String,
    },
    /// The backend or the algorithm cannot do this cell (size, mode).
    Unsupported {
        reason: String,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Measurement {
    pub summary: Summary,
    /// Every timed sample, in the order taken.
    pub samples: Vec<Sample>,
    /// Why the figure should be read with care; empty when it is clean.
    pub warnings: Vec<String>,
    /// Output folded over all samples (hex), proof that the work was done.
    pub checksum: String,
    /// Which code path the library chose, where it says so.
    pub implementation: Option<String>,
    /// The named exceptions to equal work this cell's library cannot
    /// avoid (docs/METHOD.md, "Equal work"): extra work per call, heap
    /// allocations per call. Empty for most cells.
    #[serde(default, skip_serializing_if = "Exceptions::is_empty")]
    pub exceptions: Exceptions,
    /// Core cycles per byte at the configuration's measured clock (several
    /// workers: the cycles of all their cores per byte of all their output).
    #[serde(default)]
    pub cycles_per_byte: Option<f64>,
    /// Set when several workers measured the cell together (`--threads`):
    /// their own measurements; `summary` is then their aggregate and
    /// `samples` is empty (crates/core/src/aggregate.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aggregate: Option<crate::cores::Aggregate>,
    /// The replicates the figure combines, in the order of their
    /// replicate number, each measured by a fresh worker (docs/METHOD.md,
    /// "Replicates"); `samples` holds theirs one after the other, each
    /// replicate's `summary.samples` of them. With `--replicates 1` the one
    /// replicate's record (the figure is then its own); empty in runs of
    /// older versions and where several workers measured together.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replicates: Vec<Replicate>,
    /// Where the message buffer began within its 4 KiB page (its address
    /// modulo 4096): a layout that can make a loop faster or slower in one
    /// process than in the next (docs/METHOD.md, "Replicates"). Set by
    /// cryptobench's own workers; absent in older runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_page_offset: Option<u32>,
}

/// One replicate of a cell: what one fresh worker process measured of it.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Replicate {
    /// 1-based: the round of fresh workers that measured it.
    pub replicate: usize,
    /// When it was measured: its place among all the cells the run's
    /// workers measured, 0 for the first (replicates of all cells and
    /// configurations are interleaved in a random order).
    pub sequence: usize,
    /// Its own samples' summary.
    pub summary: Summary,
    /// What was judged on its own samples (a level shift, an unsteady
    /// warm-up, its interval); the cell's warnings are judged on all replicates.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Its message buffer's offset within a 4 KiB page (Measurement::buffer_page_offset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_page_offset: Option<u32>,
    /// Why it was left out of the cell's figure and spread (measured while
    /// the host ran slower than its calm level; crates/core/src/replicates.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dropped: Option<String>,
}

/// The named exceptions of a timed cell: what its library's calls do
/// beyond what the mode names, each with the reason and the call.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Exceptions {
    /// Work each call does beyond what its mode names (e.g. a key set up
    /// again for every message where the library restarts only that way).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_work: Option<String>,
    /// Why each call allocates on the heap (the library's own calls).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocates: Option<String>,
    /// Every message sets the key again although the cell does not ask for
    /// it: the runtime has no keyed object that outlives a message (Node.js's
    /// cipher objects end at `final()`). `extra_work` says so in words; the
    /// binding cost sets such a `message` row beside the C library's
    /// `message+rekey` row (crates/core/src/derive/binding.rs).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keys_every_message: bool,
    /// The CPU time of the timed thread and of its whole process over the
    /// samples, where the code that ran the loop reports both (a language
    /// runtime's driver); a difference of more than [`CpuTimes::FLAG`] is
    /// work on other threads (a garbage collector, a JIT compiler) that the
    /// figure does not count, named as an exception.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuTimes>,
}

/// Thread and process CPU time over a cell's samples (crates/core/src/result.rs, [`Exceptions`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CpuTimes {
    /// CPU time of the thread that ran the timed loop, summed over the samples (ns).
    pub thread_ns: u64,
    /// CPU time of the whole process over the same samples (ns).
    pub process_ns: u64,
}

impl CpuTimes {
    /// A cell whose process and thread CPU times differ by more than this
    /// share of the thread's is flagged: 2%, well above the clocks'
    /// granularity over samples of milliseconds.
    pub const FLAG: f64 = 0.02;

    /// (process − thread) / thread: the share of CPU time spent beside the timed thread.
    pub fn other_threads(&self) -> f64 {
        (self.process_ns as f64 - self.thread_ns as f64) / self.thread_ns.max(1) as f64
    }

    pub fn flagged(&self) -> bool {
        self.other_threads().abs() > CpuTimes::FLAG
    }

    /// The times of two sets of samples together (rounds pooled).
    pub fn plus(self, other: CpuTimes) -> CpuTimes {
        CpuTimes {
            thread_ns: self.thread_ns + other.thread_ns,
            process_ns: self.process_ns + other.process_ns,
        }
    }
}

impl Exceptions {
    pub fn is_empty(&self) -> bool {
        self.extra_work.is_none() && self.allocates.is_none() && !self.keys_every_message && self.cpu.is_none()
    }

    /// One line per exception, for a table's notes. Thread and process CPU
    /// time make one where they differ by more than [`CpuTimes::FLAG`].
    pub fn lines(&self) -> Vec<String> {
        let extra = self.extra_work.iter().map(|w| format!("extra work: {w}"));
        let other_threads = self.cpu.filter(CpuTimes::flagged).map(|_| {
            format!(
                "work on other threads: the process's CPU time differs from the timed thread's by more than {:.0}% over the samples \
                 (a garbage collector, a JIT compiler; the figure is the timed thread's; JSON: exceptions.cpu)",
                CpuTimes::FLAG * 100.0
            )
        });
        extra
            .chain(self.allocates.iter().map(|a| format!("allocates: {a}")))
            .chain(other_threads)
            .collect()
    }
}

impl Measurement {
    pub fn is_noisy(&self) -> bool {
        !self.warnings.is_empty()
    }

    /// The per-sample throughputs the median summarises, in the order
    /// taken: the samples' own, or for several workers the sum of their
    /// k-th samples (which started together).
    pub fn throughputs(&self, size: usize) -> Vec<f64> {
        match &self.aggregate {
            Some(a) => crate::aggregate::aligned_sums(&a.workers, size),
            None => self.samples.iter().map(|s| s.throughput(size)).collect(),
        }
    }
}

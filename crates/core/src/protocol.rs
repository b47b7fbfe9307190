//! The orchestrator ↔ worker protocol: one [`Job`] as JSON on the worker's
//! stdin, then [`WorkerMessage`]s as JSON lines on its stdout. The first line
//! is always `hello` (or `unavailable`) carrying [`PROTOCOL_VERSION`], so a
//! mismatched binary is detected instead of misread. Both sides frame their
//! lines with [`write_line`], [`read_job`] and [`read_message`], over the
//! pipes the caller gives.

use std::collections::BTreeMap;
use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::cell::CellSpec;
use crate::checks::{CheckReport, VerifyJob};
use crate::result::{BackendInfo, CellResult, ClockMeasurement, ConfigurationSpec, TimingSettings, Verification, WorkerPlatform};

pub const PROTOCOL_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    pub protocol: u32,
    pub configuration: ConfigurationSpec,
    /// Only load the backend and say hello: used to check configurations up front.
    pub probe_only: bool,
    pub cells: Vec<CellSpec>,
    pub timing: TimingSettings,
    /// Pin the worker to this logical CPU before loading anything.
    pub pin_cpu: Option<usize>,
    /// Set by `cryptobench verify`: check instead of measuring (`cells` is then empty).
    /// An addition with a default, so jobs without it read as before.
    #[serde(default)]
    pub verify: Option<VerifyJob>,
    /// Set when several workers measure the same cells together
    /// (`run --threads`): before the clock, before each cell's warm-up and
    /// before each sample the worker says [`WorkerMessage::Barrier`] and
    /// waits for the orchestrator's answer on stdin, one line: `go` or
    /// `stop` (no more samples of this cell). stdin then stays open after
    /// the job, which is the first line. An addition with a default.
    #[serde(default)]
    pub barrier: bool,
    /// The clock measurements this worker leaves out: with replicates, only
    /// a configuration's first worker measures the clock before its cells
    /// and its last one after them (each measurement takes about 0.1 s). An
    /// addition with a default (both measured).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skip_clock: Vec<ClockPhase>,
    /// How many replicates this worker's cells are one of: public-key
    /// cells share their floor of samples among them
    /// (crates/harness/src/measure.rs, `pk_floor`). An addition with a
    /// default (one).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub replicates: usize,
}

fn one() -> usize {
    1
}

fn is_one(n: &usize) -> bool {
    *n == 1
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum WorkerMessage {
    Hello {
        protocol: u32,
        backend: BackendInfo,
        /// Catalog ids this backend supports.
        supported: Vec<String>,
        /// Where the worker runs, as it sees it (an addition with a default:
        /// a worker that does not send it reads as before).
        #[serde(default)]
        platform: Option<WorkerPlatform>,
        /// Whether the worker takes part in barriers (`Job::barrier`); a
        /// worker that does not say so is never given several at once.
        #[serde(default)]
        barrier: bool,
        /// The named extra work of the supported algorithms' cells
        /// (algorithm id → one line per group of cells, "cells: work", e.g.
        /// "message decryption: …", "verify: …"; docs/METHOD.md): an
        /// addition with a default (older workers sent the work alone, of
        /// `message` cells).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        extra_work: BTreeMap<String, String>,
    },
    Unavailable {
        protocol: u32,
        reason: String,
    },
    Verified(Verification),
    /// The core clock measured before the first cell or after the last.
    Clock {
        phase: ClockPhase,
        clock: Option<ClockMeasurement>,
    },
    Cell(CellResult),
    /// A `verify` job's result for one algorithm and kind of check.
    Checked(CheckReport),
    /// What the worker starts doing now ("verifying aes-128-gcm",
    /// "measuring sha256 digest 16 KiB"): named when it falls silent.
    Activity {
        what: String,
    },
    /// The worker waits at a barrier for the others (only in jobs with
    /// `barrier`): at `point` of the cell at position `cell` of the job;
    /// `done` says whether its own stop rule would take no more samples.
    Barrier {
        point: BarrierPoint,
        cell: usize,
        done: bool,
    },
    Done,
}

/// Where a worker waits for the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BarrierPoint {
    /// Before measuring the clock (`cell` is 0 before the cells, the cell count after).
    Clock,
    /// Before a cell's warm-up, so that all warm up and calibrate under the same load.
    Cell,
    /// Before each sample.
    Sample,
}

/// The orchestrator's answers to a barrier, one line each on the worker's stdin.
pub const BARRIER_GO: &str = "go";
pub const BARRIER_STOP: &str = "stop";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockPhase {
    Before,
    After,
}

/// Writes a job or a message as one JSON line and flushes, so that the
/// other side sees it at once.
pub fn write_line<W: Write + ?Sized>(out: &mut W, value: &impl Serialize) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// The job, read from the first line of the worker's stdin.
pub fn read_job(line: &str) -> Result<Job, serde_json::Error> {
    serde_json::from_str(line)
}

/// One line of the worker's stdout.
pub fn read_message(line: &str) -> Result<WorkerMessage, serde_json::Error> {
    serde_json::from_str(line)
}

//! The orchestrator ↔ worker protocol: one [`Job`] as JSON on the worker's
//! stdin, then [`WorkerMessage`]s as JSON lines on its stdout. The first line
//! is always `hello` (or `unavailable`) carrying [`PROTOCOL_VERSION`], so a
//! mismatched binary is detected instead of misread.

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
    Done,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockPhase {
    Before,
    After,
}

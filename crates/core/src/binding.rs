//! The binding's cost: a language runtime's overhead row beside the same
//! row of the C library it calls, both measured in one run (derived by
//! crates/core/src/derive/binding.rs; nothing here measures).

use serde::{Deserialize, Serialize};

use crate::cell::Operation;

/// The `mode` of a public-key line: one cell (algorithm, operation, signed
/// length), no overhead fit (crates/core/src/derive/pk_binding.rs); its
/// `ratios` hold the runtime's operations per second over the library's.
pub const PUBLIC_KEY_MODE: &str = "public key";

/// One runtime row (algorithm, operation, mode) against the library underneath.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BindingCost {
    pub algorithm: String,
    pub operation: Operation,
    pub mode: String,
    /// What the runtime calls for this algorithm, as its driver reports it
    /// (e.g. "OpenSSL 4.0.0", "Go's own implementation …").
    pub underneath: String,
    /// The index of the configuration of this run that measured that library
    /// directly ("[2]"), where there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direct: Option<usize>,
    /// The direct library's row this one is compared with, where it is not
    /// the same mode: "message+rekey" for a runtime row whose every message
    /// sets the key although the cell asks for none (Node.js's cipher
    /// objects end at `final()`: `Exceptions::keys_every_message`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direct_mode: Option<String>,
    /// How `direct` was matched, or why there is no comparison ("no C library
    /// underneath", "not in this run", "the same series, another patch release").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The runtime's fit: fixed cost per call (ns), asymptotic throughput (B/s), half-peak size (B).
    pub per_call_ns: f64,
    pub asymptotic_bytes_per_s: f64,
    pub half_peak_bytes: f64,
    /// The same fit of the direct configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direct_per_call_ns: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direct_asymptotic_bytes_per_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direct_half_peak_bytes: Option<f64>,
    /// Per size both measured: the runtime's median throughput over the direct one's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ratios: Vec<SizeRatio>,
}

impl BindingCost {
    /// Whether this is a public-key line ([`PUBLIC_KEY_MODE`]).
    pub fn is_public_key(&self) -> bool {
        self.mode == PUBLIC_KEY_MODE
    }

    /// Extra time per call over the library called directly, in nanoseconds.
    pub fn extra_per_call_ns(&self) -> Option<f64> {
        self.direct_per_call_ns.map(|d| self.per_call_ns - d)
    }
}

/// The runtime's median throughput over the direct library's at one size (< 1: slower).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SizeRatio {
    pub size: usize,
    pub ratio: f64,
}

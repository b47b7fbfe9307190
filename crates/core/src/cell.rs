//! A cell is one measured figure: (configuration, algorithm, operation, mode, size).

use serde::{Deserialize, Serialize};

use crate::catalog::{AlgorithmClass, AlgorithmSpec};
pub use crate::kinds::{Mode, Operation};

/// What the worker is asked to measure.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CellSpec {
    /// Catalog id.
    pub algorithm: String,
    pub operation: Operation,
    pub mode: Mode,
    /// Set the key again for every message (message mode; what openssl speed 3.x does for AEADs).
    #[serde(default)]
    pub rekey: bool,
    /// Message size in bytes.
    pub size: usize,
    /// Bytes of additional authenticated data per AEAD message (message mode).
    #[serde(default = "default_aad")]
    pub aad: usize,
}

/// AAD bytes per AEAD message by default: a TLS 1.2 record header (RFC 5246
/// §6.2.3.3: seq_num 8 + type 1 + version 2 + length 2), as `openssl speed
/// -aead` passes (EVP_AEAD_TLS1_AAD_LEN).
pub const DEFAULT_AAD_LEN: usize = 13;

fn default_aad() -> usize {
    DEFAULT_AAD_LEN
}

impl CellSpec {
    /// The mode label shown in outputs: "stream", "message", "message+rekey",
    /// with the AAD length where it differs from the default.
    pub fn mode_label(&self) -> String {
        let mut label = self.mode.name().to_string();
        if self.mode == Mode::Message {
            if self.rekey {
                label.push_str("+rekey");
            }
            if self.aad != DEFAULT_AAD_LEN && crate::catalog::find(&self.algorithm).is_some_and(|a| a.class == AlgorithmClass::Aead) {
                label.push_str(&format!(" aad={}", self.aad));
            }
        }
        label
    }

    /// Whether the cell is a public-key operation: its figures are
    /// operations per second (crates/core/src/pk.rs), not bytes per second.
    pub fn is_public_key(&self) -> bool {
        crate::pk::find(&self.algorithm).is_some()
    }

    /// What one call counts for in the cell's figures: its bytes for
    /// symmetric cells (figures in bytes per second), one operation for
    /// public-key cells (figures in operations per second). Pass it to
    /// [`crate::stats::summarize`] and [`crate::stats::Sample::throughput`].
    pub fn units_per_call(&self) -> usize {
        if self.is_public_key() {
            1
        } else {
            self.size
        }
    }

    /// One line naming the cell: "aes-128-gcm enc message 16384 B".
    pub fn describe(&self) -> String {
        if self.is_public_key() {
            return format!("{} {} {} B", self.algorithm, self.operation.short(), self.size);
        }
        format!(
            "{} {} {} {} B",
            self.algorithm,
            self.operation.short(),
            self.mode_label(),
            self.size
        )
    }
}

/// Operations that apply to an algorithm, given the ones the user asked for.
pub fn operations_for(alg: &AlgorithmSpec, requested: &[Operation]) -> Vec<Operation> {
    match alg.class {
        AlgorithmClass::Digest => vec![Operation::Digest],
        AlgorithmClass::Mac => vec![Operation::Mac],
        _ => requested
            .iter()
            .copied()
            .filter(|op| !matches!(op, Operation::Digest | Operation::Mac))
            .collect(),
    }
}

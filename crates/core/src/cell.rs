//! A cell is one measured figure: (configuration, algorithm, operation, mode, size).

use serde::{Deserialize, Serialize};

use crate::catalog::{AlgorithmClass, AlgorithmSpec};
pub use crate::kinds::{Mode, Operation};

/// What the worker is asked to measure.
///
/// A cell of an older run, which did not record its unit, is given the one
/// this build's catalog gives its algorithm as it is read (`StoredCellSpec`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(from = "StoredCellSpec")]
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
    /// What the cell's figures count: bytes (per second) or operations (per second).
    pub unit: CellUnit,
}

/// What a cell's figures count. Recorded with the cell, so that a run keeps
/// its unit where this build's catalog does not know its algorithm (a run
/// imported from a newer cryptobench, or from another tool).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CellUnit {
    /// Bytes per second: symmetric ciphers, AEADs, digests, MACs.
    Bytes,
    /// Operations per second: public key (crates/core/src/pk.rs).
    Operations,
}

impl CellUnit {
    /// As serialised: "bytes" or "operations".
    pub fn name(self) -> &'static str {
        match self {
            CellUnit::Bytes => "bytes",
            CellUnit::Operations => "operations",
        }
    }

    /// The unit this build's catalog gives an algorithm: operations for a
    /// public-key id, bytes for anything else. Only for cells that did not
    /// record their own (runs of older versions).
    pub fn from_catalog(algorithm: &str) -> CellUnit {
        if crate::pk::find(algorithm).is_some() {
            CellUnit::Operations
        } else {
            CellUnit::Bytes
        }
    }
}

/// A [`CellSpec`] as it is read: the unit may be missing (runs of older
/// versions), in which case it is derived once, here, from the catalog.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct StoredCellSpec {
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
    /// What the cell's figures count: bytes (per second) or operations (per
    /// second). Absent in runs of versions before it was recorded: then
    /// operations for an id of this build's public-key catalog, bytes otherwise.
    #[serde(default)]
    pub unit: Option<CellUnit>,
}

impl From<StoredCellSpec> for CellSpec {
    fn from(s: StoredCellSpec) -> CellSpec {
        let unit = s.unit.unwrap_or_else(|| CellUnit::from_catalog(&s.algorithm));
        CellSpec {
            algorithm: s.algorithm,
            operation: s.operation,
            mode: s.mode,
            rekey: s.rekey,
            size: s.size,
            aad: s.aad,
            unit,
        }
    }
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
    /// Read from the cell's recorded unit, not from this build's catalog.
    pub fn is_public_key(&self) -> bool {
        self.unit == CellUnit::Operations
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
        // Ciphers and AEADs encrypt and decrypt; the public-key operations of
        // a mixed `--ops enc,sign` are for the public-key algorithms only.
        _ => requested
            .iter()
            .copied()
            .filter(|op| matches!(op, Operation::Encrypt | Operation::Decrypt))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cipher_takes_only_encrypt_and_decrypt_from_mixed_ops() {
        let aes = crate::catalog::get("aes-128-cbc").unwrap();
        let ops = [Operation::Encrypt, Operation::Sign, Operation::Decrypt, Operation::Derive];
        assert_eq!(operations_for(aes, &ops), [Operation::Encrypt, Operation::Decrypt]);
        let sha = crate::catalog::get("sha256").unwrap();
        assert_eq!(operations_for(sha, &ops), [Operation::Digest]);
    }

    fn read(json: &str) -> CellSpec {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_recorded_unit_is_kept_and_a_missing_one_comes_from_the_catalog() {
        let unknown = r#"{"algorithm":"mldsa-unknown","operation":"sign","mode":"message","size":32,"unit":"operations"}"#;
        let cell = read(unknown);
        assert_eq!(cell.unit, CellUnit::Operations);
        assert!(cell.is_public_key());
        assert_eq!(cell.units_per_call(), 1);
        assert!(serde_json::to_string(&cell).unwrap().contains(r#""unit":"operations""#));
        let old = |alg: &str| read(&format!(r#"{{"algorithm":"{alg}","operation":"sign","mode":"message","size":32}}"#)).unit;
        assert_eq!(old("ed25519"), CellUnit::Operations);
        assert_eq!(old("sha256"), CellUnit::Bytes);
        assert_eq!(old("mldsa-unknown"), CellUnit::Bytes);
    }
}

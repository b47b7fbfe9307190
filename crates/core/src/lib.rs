//! The data model of cryptobench: what can be measured (the algorithm
//! [`catalog`]), what one measurement is ([`cell`]), how figures are expressed
//! ([`units`]), what a run produces ([`result`]) and what an [`audit`] decided, the worker [`protocol`], what `verify` [`checks`] and
//! the [`stats`] applied to samples; and what is computed from a run: the
//! [derived figures](mod@derive) and the audit's [`verdict`]s. Nothing here performs
//! I/O or timing (the protocol's framing writes and reads the lines its
//! caller hands it).

pub mod aggregate;
pub mod audit;
pub mod binding;
pub mod catalog;
pub mod cell;
pub mod checks;
pub mod compare;
pub mod cores;
pub mod decision;
pub mod defect;
pub mod dependent_ci;
pub mod derive;
pub mod history;
pub mod kinds;
pub mod machine;
pub mod openssl_speed;
pub mod openssl_speed_pk;
pub mod overhead;
pub mod paths;
pub mod pk;
pub mod protocol;
pub mod replicates;
pub mod result;
pub mod run_json;
pub mod sizes;
pub mod special;
pub mod speed_defaults;
pub mod speed_defaults_pk;
pub mod speed_row;
pub mod stats;
pub mod steadiness;
pub mod steady;
pub mod stopping;
pub mod units;
pub mod verdict;

pub use catalog::{AlgorithmClass, AlgorithmSpec, CATALOG, DEFAULT_SUITE};
pub use cell::{CellSpec, CellUnit, Mode, Operation};

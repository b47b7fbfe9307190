//! Keeps runs so they can be listed, exported and compared later.
//!
//! One schema ([`schema`]) serves SQLite (the default: a file in the user's
//! data directory) and PostgreSQL (`postgres://…`, one database shared by a
//! team or a fleet). Each run is stored twice over, on purpose: normalised
//! tables (runs, configurations, cells, samples) that SQL can query, and the
//! run's full JSON document, from which it is loaded back. Fields added to the
//! result model later therefore survive a round trip without schema work.
//! Every write is one transaction: a failure leaves nothing half-written.

mod error;
mod location;
mod postgres;
mod records;
pub mod schema;
mod sql;
mod sqlite;

pub use error::StoreError;
pub use location::Location;

use cryptobench_core::result::RunResult;

/// A stored run's identifier (unique within one database).
pub type RunId = i64;

/// One line of `cryptobench runs list`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    pub id: RunId,
    /// When it was saved (RFC 3339, UTC).
    pub saved_at: String,
    pub started_at: String,
    pub label: Option<String>,
    pub hostname: Option<String>,
    pub cpu_model: Option<String>,
    /// The format it was imported from, when it was not measured by cryptobench.
    pub imported: Option<String>,
    /// "openssl (OpenSSL 3.0.19 27 Jan 2026)", "openssl=/opt/… (…) × 2
    /// threads": each configuration in full, in order.
    pub configurations: Vec<String>,
    /// The same configurations as their parts, for shorter labels.
    pub configuration_parts: Vec<ConfigurationSummary>,
    /// Measured cells over all configurations.
    pub measured_cells: i64,
}

/// One configuration of a stored run, as the tables hold it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConfigurationSummary {
    /// Backend id, e.g. "openssl".
    pub backend: String,
    /// The library file the user named, if any.
    pub library: Option<String>,
    /// The library's own name and version string, where it was loaded.
    pub library_name: Option<String>,
    pub library_version: Option<String>,
    /// Whether it ran with extra environment (capability masks).
    pub masked: bool,
    /// How many workers ran together (`run --threads`).
    pub threads: Option<i64>,
    /// The core type it was pinned to (`run --core-types`).
    pub core_type: Option<String>,
}

impl ConfigurationSummary {
    /// "openssl=/opt/… (OpenSSL 3.0.19 27 Jan 2026) × 2 threads".
    pub fn full(&self) -> String {
        let spec = match &self.library {
            Some(lib) => format!("{}={lib}", self.backend),
            None => self.backend.clone(),
        };
        let spec = match &self.library_version {
            Some(v) => format!("{spec} ({v})"),
            None => spec,
        };
        format!("{spec}{}", self.placement())
    }

    /// Where the run placed its workers: " on Cortex-A76", " × 2 threads", or nothing.
    pub fn placement(&self) -> String {
        match (&self.core_type, self.threads) {
            (Some(t), _) => format!(" on {t}"),
            (None, Some(1)) => " × 1 thread".into(),
            (None, Some(n)) => format!(" × {n} threads"),
            (None, None) => String::new(),
        }
    }
}

/// What every database offers. Implementations run each call in its own
/// transaction.
pub trait Store {
    /// Saves a run with all its cells and samples; returns its new id.
    fn save(&mut self, run: &RunResult) -> Result<RunId, StoreError>;
    /// Every run, oldest first.
    fn list(&mut self) -> Result<Vec<RunSummary>, StoreError>;
    /// The run as it was saved.
    fn load(&mut self, id: RunId) -> Result<RunResult, StoreError>;
    /// Removes the run and everything stored with it.
    fn delete(&mut self, id: RunId) -> Result<(), StoreError>;
    /// Ids of the runs with this label, newest first.
    fn find_label(&mut self, label: &str) -> Result<Vec<RunId>, StoreError>;
    /// The schema version the database is at.
    fn schema_version(&mut self) -> Result<u32, StoreError>;
}

/// Opens (and creates or migrates where needed) the database at `location`.
pub fn open(location: &Location) -> Result<Box<dyn Store>, StoreError> {
    match location {
        Location::Sqlite(path) => Ok(Box::new(sqlite::SqliteStore::open(path)?)),
        Location::Postgres(url) => Ok(Box::new(postgres::PostgresStore::open(url)?)),
    }
}

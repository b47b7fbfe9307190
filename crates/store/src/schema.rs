//! The schema, written once for both databases. `{id}`, `{int}` and `{real}`
//! stand for the column types each dialect spells differently; everything
//! else is common SQL.
//!
//! Migrations are applied in order and recorded in `schema_migrations`; a
//! database opened by a newer cryptobench gains the missing ones, and one
//! written by a newer version than this one is refused rather than guessed
//! at. Never edit a migration once released: add the next one.

/// (version, statements).
pub const MIGRATIONS: &[(u32, &str)] = &[(1, V1), (2, V2), (3, V3), (4, V4)];

/// The version a database has once every migration is applied.
pub fn current_version() -> u32 {
    MIGRATIONS.last().map(|m| m.0).unwrap_or(0)
}

const V1: &str = "
CREATE TABLE runs (
    id {id},
    saved_at TEXT NOT NULL,
    label TEXT,
    imported_from TEXT,
    schema_version {int} NOT NULL,
    tool_name TEXT NOT NULL,
    tool_version TEXT NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    command_line TEXT NOT NULL,
    hostname TEXT,
    cpu_model TEXT,
    logical_cores {int} NOT NULL,
    arch TEXT NOT NULL,
    os TEXT NOT NULL,
    kernel TEXT,
    virtualization TEXT,
    host_json TEXT NOT NULL,
    settings_json TEXT NOT NULL,
    document TEXT NOT NULL
);
CREATE INDEX runs_label ON runs (label);
CREATE TABLE configurations (
    id {id},
    run_id {int} NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    position {int} NOT NULL,
    backend TEXT NOT NULL,
    library TEXT,
    env_json TEXT NOT NULL,
    library_name TEXT,
    library_version TEXT,
    library_path TEXT,
    cpu_capabilities TEXT,
    status TEXT NOT NULL,
    reason TEXT
);
CREATE INDEX configurations_run ON configurations (run_id);
CREATE TABLE cells (
    id {id},
    configuration_id {int} NOT NULL REFERENCES configurations (id) ON DELETE CASCADE,
    algorithm TEXT NOT NULL,
    operation TEXT NOT NULL,
    mode TEXT NOT NULL,
    rekey {int} NOT NULL,
    size {int} NOT NULL,
    aad {int} NOT NULL,
    status TEXT NOT NULL,
    reason TEXT,
    median {real},
    q1 {real},
    q3 {real},
    min {real},
    max {real},
    cv {real},
    ci_low {real},
    ci_high {real},
    sample_count {int},
    warnings TEXT
);
CREATE INDEX cells_configuration ON cells (configuration_id);
CREATE TABLE samples (
    cell_id {int} NOT NULL REFERENCES cells (id) ON DELETE CASCADE,
    seq {int} NOT NULL,
    iterations {int} NOT NULL,
    wall_ns {int} NOT NULL,
    cpu_ns {int},
    PRIMARY KEY (cell_id, seq)
);
";

/// Several cores (`run --threads`, `run --core-types`): how many workers a
/// configuration ran, on which CPUs, of which core type; per cell the
/// number of workers aggregated and the scaling efficiency; per sample
/// the CPU of the worker that took it (a multi-worker cell stores every
/// worker's samples, numbered on across workers). NULL for runs of one worker.
const V2: &str = "
ALTER TABLE configurations ADD COLUMN threads {int};
ALTER TABLE configurations ADD COLUMN cpus TEXT;
ALTER TABLE configurations ADD COLUMN core_type TEXT;
ALTER TABLE cells ADD COLUMN workers {int};
ALTER TABLE cells ADD COLUMN scaling_efficiency {real};
ALTER TABLE samples ADD COLUMN cpu {int}
";

/// What each cell's figures count, "bytes" or "operations" (per second), as
/// the run recorded it (`CellUnit` in crates/core/src/cell.rs). Cells saved
/// before are given, once, the unit the catalog of the cryptobench that
/// migrates the database gives their algorithm ([`UNIT_BACKFILL`]).
const V3: &str = "
ALTER TABLE cells ADD COLUMN unit TEXT
";

/// Replicates (`run --replicates`): per cell how many fresh workers its
/// figure combines, and the fastest replicate's number; per sample the
/// replicate it belongs to (1-based). NULL for cells of one worker.
const V4: &str = "
ALTER TABLE cells ADD COLUMN replicates {int};
ALTER TABLE samples ADD COLUMN replicate {int}
";

/// The migration after which cells without a unit get the catalog's.
pub const UNIT_BACKFILL: u32 = 3;

/// The SQL of a migration for one dialect.
pub fn render(sql: &str, dialect: Dialect) -> String {
    let (id, int, real) = match dialect {
        Dialect::Sqlite => ("INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER", "REAL"),
        Dialect::Postgres => ("BIGSERIAL PRIMARY KEY", "BIGINT", "DOUBLE PRECISION"),
    };
    sql.replace("{id}", id).replace("{int}", int).replace("{real}", real)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// Creates the bookkeeping table (idempotent).
pub const MIGRATIONS_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at TEXT NOT NULL)";

use std::path::PathBuf;

/// Why the store could not do what was asked; each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path} is not a cryptobench database (SQLite says: {detail}); give another file with --db or CRYPTOBENCH_DB")]
    NotADatabase { path: PathBuf, detail: String },

    #[error("cannot open the database {path}: {detail}; check that its directory exists and is writable, or use --no-save")]
    CannotOpen { path: PathBuf, detail: String },

    #[error("the folder {folder} does not exist, so no database can be kept there; create it first, or give another --db path")]
    NoSuchFolder { folder: PathBuf },

    #[error("cannot connect to PostgreSQL at {url}: {detail}; check that the server runs and accepts this user, or use --no-save")]
    Connect { url: String, detail: String },

    #[error("'{text}' is not a database location: give a file path or a postgres://user@host/dbname URL")]
    BadLocation { text: String },

    #[error("the database is at schema version {found}, newer than this cryptobench knows ({known}); upgrade cryptobench to use it")]
    NewerSchema { found: u32, known: u32 },

    #[error("no run with id {0} in this database; `cryptobench runs list` shows the ids")]
    NoSuchRun(i64),

    #[error("run {id} in the database cannot be read back ({detail}); export it with a newer cryptobench or delete it")]
    CorruptRun { id: i64, detail: String },

    #[error("another process holds the database {path} locked and did not let go within {waited_s} s; nothing was written: let it finish (or allow a longer wait with CRYPTOBENCH_DB_WAIT=SECONDS) and try again")]
    Locked { path: PathBuf, waited_s: u64 },

    #[error("the disk holding {path} is full; the transaction was rolled back, nothing was written: free some space and try again")]
    DiskFull { path: PathBuf },

    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),

    #[error("database error: {0}")]
    Postgres(#[from] ::postgres::Error),
}

impl StoreError {
    /// True when the user's input was wrong (a bad path, URL or id) rather
    /// than the database failing.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            StoreError::NotADatabase { .. }
                | StoreError::BadLocation { .. }
                | StoreError::NoSuchRun(_)
                | StoreError::Connect { .. }
                | StoreError::CannotOpen { .. }
                | StoreError::NoSuchFolder { .. }
                | StoreError::NewerSchema { .. }
        )
    }
}

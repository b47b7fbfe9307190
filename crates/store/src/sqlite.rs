//! SQLite: the default store, one file. Writers wait for each other (busy
//! timeout) instead of failing, so parallel runs on one machine are safe.

use std::path::{Path, PathBuf};
use std::time::Duration;

use cryptobench_core::result::RunResult;
use rusqlite::types::{Value as SqlValue, ValueRef};
use rusqlite::{Connection, ErrorCode, OpenFlags, TransactionBehavior};

use crate::records;
use crate::schema::Dialect;
use crate::sql::{Transaction, Value};
use crate::{RunId, RunSummary, Store, StoreError};

/// How long a writer waits for another process's lock: `CRYPTOBENCH_DB_WAIT`
/// seconds, 60 by default.
pub fn busy_wait_s() -> u64 {
    std::env::var("CRYPTOBENCH_DB_WAIT")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(60)
}

pub struct SqliteStore {
    conn: Connection,
    path: PathBuf,
}

struct Tx<'a>(rusqlite::Transaction<'a>);

fn to_sql(v: &Value) -> SqlValue {
    match v {
        Value::Int(Some(i)) => SqlValue::Integer(*i),
        Value::Real(Some(r)) => SqlValue::Real(*r),
        Value::Text(Some(t)) => SqlValue::Text(t.clone()),
        _ => SqlValue::Null,
    }
}

fn from_sql(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Integer(i) => Value::Int(Some(i)),
        ValueRef::Real(r) => Value::Real(Some(r)),
        ValueRef::Text(t) => Value::Text(Some(String::from_utf8_lossy(t).into_owned())),
        ValueRef::Blob(b) => Value::Text(Some(String::from_utf8_lossy(b).into_owned())),
        ValueRef::Null => Value::Text(None),
    }
}

impl Transaction for Tx<'_> {
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let p: Vec<SqlValue> = params.iter().map(to_sql).collect();
        Ok(self.0.execute(sql, rusqlite::params_from_iter(p))? as u64)
    }

    fn insert(&mut self, sql: &str, params: &[Value]) -> Result<i64, StoreError> {
        let p: Vec<SqlValue> = params.iter().map(to_sql).collect();
        Ok(self.0.query_row(sql, rusqlite::params_from_iter(p), |r| r.get(0))?)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Vec<Value>>, StoreError> {
        let p: Vec<SqlValue> = params.iter().map(to_sql).collect();
        let mut stmt = self.0.prepare(sql)?;
        let n = stmt.column_count();
        let rows = stmt.query_map(rusqlite::params_from_iter(p), |row| {
            (0..n).map(|i| row.get_ref(i).map(from_sql)).collect::<Result<Vec<_>, _>>()
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}

impl SqliteStore {
    /// Opens or creates the file; its folder must exist (a mistyped path must
    /// not quietly grow folders and an empty database). A file that is not
    /// SQLite, or a SQLite database that is not cryptobench's, is refused
    /// before anything is written to it.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let cannot = |detail: String| StoreError::CannotOpen {
            path: path.to_path_buf(),
            detail,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty() && !d.is_dir()) {
            return Err(StoreError::NoSuchFolder { folder: dir.to_path_buf() });
        }
        if path.is_dir() {
            return Err(cannot("it is a directory".into()));
        }
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE)
            .map_err(|e| cannot(e.to_string()))?;
        conn.busy_timeout(Duration::from_secs(busy_wait_s()))?;
        let mut store = SqliteStore {
            conn,
            path: path.to_path_buf(),
        };
        store.check_foreign().map_err(|e| store.classify(e))?;
        store.write(|tx| records::migrate(tx, Dialect::Sqlite))?;
        Ok(store)
    }

    /// A locked database or a full disk said in words, with what to do.
    fn classify(&self, e: StoreError) -> StoreError {
        let code = match &e {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(f, _)) => f.code,
            _ => return e,
        };
        match code {
            ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => StoreError::Locked {
                path: self.path.clone(),
                waited_s: busy_wait_s(),
            },
            ErrorCode::DiskFull => StoreError::DiskFull { path: self.path.clone() },
            _ => e,
        }
    }

    /// Refuses files that are not SQLite, and SQLite files holding other tables
    /// but not ours (someone else's database).
    fn check_foreign(&mut self) -> Result<(), StoreError> {
        let not_db = |detail: String| StoreError::NotADatabase {
            path: self.path.clone(),
            detail,
        };
        let tables: Vec<String> = match self
            .conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        {
            Ok(t) => t,
            Err(rusqlite::Error::SqliteFailure(e, msg)) if matches!(e.code, ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => {
                return Err(not_db(msg.unwrap_or_else(|| e.to_string())))
            }
            Err(e) => return Err(e.into()),
        };
        if !tables.is_empty() && !tables.iter().any(|t| t == "schema_migrations") {
            return Err(not_db(format!("it holds other tables ({})", tables.join(", "))));
        }
        Ok(())
    }

    /// One transaction: committed whole, or rolled back whole when anything fails
    /// (a full disk included: SQLite's rollback journal restores the file).
    fn write<T>(&mut self, f: impl FnOnce(&mut dyn Transaction) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let result = (|| {
            let mut tx = Tx(self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?);
            let out = f(&mut tx)?;
            tx.0.commit()?;
            Ok(out)
        })();
        result.map_err(|e| self.classify(e))
    }

    fn read<T>(&mut self, f: impl FnOnce(&mut dyn Transaction) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let result = (|| {
            let mut tx = Tx(self.conn.transaction()?);
            f(&mut tx)
        })();
        result.map_err(|e| self.classify(e))
    }
}

impl Store for SqliteStore {
    fn save(&mut self, run: &RunResult) -> Result<RunId, StoreError> {
        self.write(|tx| records::save(tx, run))
    }
    fn list(&mut self) -> Result<Vec<RunSummary>, StoreError> {
        self.read(records::list)
    }
    fn load(&mut self, id: RunId) -> Result<RunResult, StoreError> {
        self.read(|tx| records::load(tx, id))
    }
    fn delete(&mut self, id: RunId) -> Result<(), StoreError> {
        self.write(|tx| records::delete(tx, id))
    }
    fn find_label(&mut self, label: &str) -> Result<Vec<RunId>, StoreError> {
        self.read(|tx| records::find_label(tx, label))
    }
    fn schema_version(&mut self) -> Result<u32, StoreError> {
        self.read(records::version)
    }
}

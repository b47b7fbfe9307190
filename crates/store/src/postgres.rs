//! PostgreSQL: one database shared by many machines. Each save is one
//! transaction; concurrent writers get their own ids from the sequences and
//! never see each other's half-written runs. Migrations take an advisory
//! lock so that two first runs do not create the tables twice.

use cryptobench_core::result::RunResult;
use postgres::types::{ToSql, Type};
use postgres::{Client, NoTls};

use crate::location::redact;
use crate::records;
use crate::schema::Dialect;
use crate::sql::{number_placeholders, Transaction, Value};
use crate::{RunId, RunSummary, Store, StoreError};

/// Any constant; identifies cryptobench's migration lock among advisory locks.
const MIGRATION_LOCK: i64 = 0x6372_7970_746f_6265; // "cryptobe"

pub struct PostgresStore {
    client: Client,
}

struct Tx<'a>(postgres::Transaction<'a>);

fn params(values: &[Value]) -> Vec<Box<dyn ToSql + Sync>> {
    values
        .iter()
        .map(|v| -> Box<dyn ToSql + Sync> {
            match v {
                Value::Int(i) => Box::new(*i),
                Value::Real(r) => Box::new(*r),
                Value::Text(t) => Box::new(t.clone()),
            }
        })
        .collect()
}

fn row_values(row: &postgres::Row) -> Result<Vec<Value>, StoreError> {
    (0..row.len())
        .map(|i| {
            let t = row.columns()[i].type_();
            Ok(if *t == Type::INT8 {
                Value::Int(row.try_get::<_, Option<i64>>(i)?)
            } else if *t == Type::INT4 {
                Value::Int(row.try_get::<_, Option<i32>>(i)?.map(i64::from))
            } else if *t == Type::FLOAT8 {
                Value::Real(row.try_get::<_, Option<f64>>(i)?)
            } else {
                Value::Text(row.try_get::<_, Option<String>>(i)?)
            })
        })
        .collect()
}

impl Transaction for Tx<'_> {
    fn execute(&mut self, sql: &str, values: &[Value]) -> Result<u64, StoreError> {
        let p = params(values);
        let refs: Vec<&(dyn ToSql + Sync)> = p.iter().map(|b| b.as_ref()).collect();
        Ok(self.0.execute(number_placeholders(sql).as_str(), &refs)?)
    }

    fn insert(&mut self, sql: &str, values: &[Value]) -> Result<i64, StoreError> {
        let p = params(values);
        let refs: Vec<&(dyn ToSql + Sync)> = p.iter().map(|b| b.as_ref()).collect();
        Ok(self.0.query_one(number_placeholders(sql).as_str(), &refs)?.try_get(0)?)
    }

    fn query(&mut self, sql: &str, values: &[Value]) -> Result<Vec<Vec<Value>>, StoreError> {
        let p = params(values);
        let refs: Vec<&(dyn ToSql + Sync)> = p.iter().map(|b| b.as_ref()).collect();
        self.0
            .query(number_placeholders(sql).as_str(), &refs)?
            .iter()
            .map(row_values)
            .collect()
    }
}

impl PostgresStore {
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let mut config: postgres::Config = url.parse().map_err(|e: postgres::Error| StoreError::Connect {
            url: redact(url),
            detail: e.to_string(),
        })?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(std::time::Duration::from_secs(10));
        }
        let client = config.connect(NoTls).map_err(|e| StoreError::Connect {
            url: redact(url),
            detail: e.to_string(),
        })?;
        let mut store = PostgresStore { client };
        store.write(|tx| {
            tx.execute("SELECT pg_advisory_xact_lock(?)", &[Value::Int(Some(MIGRATION_LOCK))])?;
            records::migrate(tx, Dialect::Postgres)
        })?;
        Ok(store)
    }

    fn write<T>(&mut self, f: impl FnOnce(&mut dyn Transaction) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let mut tx = Tx(self.client.transaction()?);
        let out = f(&mut tx)?;
        tx.0.commit()?;
        Ok(out)
    }
}

impl Store for PostgresStore {
    fn save(&mut self, run: &RunResult) -> Result<RunId, StoreError> {
        self.write(|tx| records::save(tx, run))
    }
    fn list(&mut self) -> Result<Vec<RunSummary>, StoreError> {
        self.write(records::list)
    }
    fn load(&mut self, id: RunId) -> Result<RunResult, StoreError> {
        self.write(|tx| records::load(tx, id))
    }
    fn delete(&mut self, id: RunId) -> Result<(), StoreError> {
        self.write(|tx| records::delete(tx, id))
    }
    fn find_label(&mut self, label: &str) -> Result<Vec<RunId>, StoreError> {
        self.write(|tx| records::find_label(tx, label))
    }
    fn schema_version(&mut self) -> Result<u32, StoreError> {
        self.write(records::version)
    }
}

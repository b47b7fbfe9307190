//! The PostgreSQL store against a real server: the URL comes from
//! CRYPTOBENCH_TEST_POSTGRES (`.ci/run` installs and starts one); without it
//! these tests skip with a printed reason (and fail under CI=true). Each test works in a schema of
//! its own, dropped at the end.

mod common;

use cryptobench_store::{open, Location, StoreError};

use common::{as_json, fixture, round_trip};

/// A fresh schema on the test server, and a URL whose connections use it.
struct Schema {
    url: String,
    base: String,
    name: String,
}

impl Schema {
    fn new(test: &str) -> Option<Schema> {
        let Ok(base) = std::env::var("CRYPTOBENCH_TEST_POSTGRES") else {
            cryptobench_testkit::missing(
                "a PostgreSQL server",
                format!("{test}: CRYPTOBENCH_TEST_POSTGRES is not set (.ci/run sets it)"),
            );
            return None;
        };
        let name = format!("t_{}_{}", test, std::process::id());
        let mut client = postgres::Client::connect(&base, postgres::NoTls).expect("the test server answers");
        client
            .batch_execute(&format!("DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}"))
            .unwrap();
        let sep = if base.contains('?') { '&' } else { '?' };
        let url = format!("{base}{sep}options=-c%20search_path%3D{name}");
        Some(Schema { url, base, name })
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.base, postgres::NoTls) {
            let _ = c.batch_execute(&format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name));
        }
    }
}

#[test]
fn saves_lists_loads_and_deletes() {
    let Some(schema) = Schema::new("round_trip") else { return };
    let mut store = open(&Location::Postgres(schema.url.clone())).unwrap();
    round_trip(store.as_mut());
}

#[test]
fn concurrent_writers_from_many_connections_lose_nothing() {
    let Some(schema) = Schema::new("concurrent") else { return };
    let run = fixture("three-builds.json");
    // Every writer also runs the migration on first open, at the same time.
    let threads: Vec<_> = (0..6)
        .map(|_| {
            let (url, run) = (schema.url.clone(), run.clone());
            std::thread::spawn(move || {
                let mut store = open(&Location::Postgres(url)).unwrap();
                (0..4).map(|_| store.save(&run).unwrap()).collect::<Vec<_>>()
            })
        })
        .collect();
    let mut ids: Vec<i64> = threads.into_iter().flat_map(|t| t.join().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 24);
    let mut store = open(&Location::Postgres(schema.url.clone())).unwrap();
    let list = store.list().unwrap();
    assert_eq!(list.len(), 24);
    assert!(list.iter().all(|r| r.measured_cells == 36));
    assert_eq!(as_json(&store.load(ids[23]).unwrap()), as_json(&run));
}

#[test]
fn several_cores_fill_their_columns() {
    let Some(schema) = Schema::new("cores") else { return };
    let run = fixture("threads.json");
    let mut store = open(&Location::Postgres(schema.url.clone())).unwrap();
    let id = store.save(&run).unwrap();
    assert_eq!(as_json(&store.load(id).unwrap()), as_json(&run));
    assert!(store.list().unwrap()[0].configurations[1].ends_with("× 2 threads"));
    let mut c = postgres::Client::connect(&schema.url, postgres::NoTls).unwrap();
    let row = c
        .query_one(
            "SELECT COUNT(DISTINCT s.cpu) FROM samples s JOIN cells x ON s.cell_id = x.id \
             JOIN configurations k ON x.configuration_id = k.id WHERE k.threads = 2 AND x.workers = 2",
            &[],
        )
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 2, "every worker's samples, each with its CPU");
}

#[test]
fn a_server_that_does_not_answer_is_a_clear_error() {
    // Port 1 on localhost: nothing listens there.
    let err = open(&Location::Postgres("postgres://nobody@127.0.0.1:1/none?connect_timeout=5".into()))
        .err()
        .expect("no server");
    assert!(matches!(err, StoreError::Connect { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("cannot connect to PostgreSQL at postgres://nobody@127.0.0.1:1"),
        "{err}"
    );
}

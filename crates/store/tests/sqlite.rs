//! The SQLite store: round trip, bad files left untouched, schema versions,
//! concurrent writers.

mod common;

use cryptobench_store::schema::current_version;
use cryptobench_store::{open, Location, StoreError};

use common::{as_json, fixture, round_trip};

fn temp_db() -> (tempfile::TempDir, Location) {
    let dir = tempfile::tempdir().unwrap();
    let loc = Location::Sqlite(dir.path().join("runs.sqlite"));
    (dir, loc)
}

#[test]
fn a_missing_folder_is_refused_not_created() {
    let dir = tempfile::tempdir().unwrap();
    let err = open(&Location::Sqlite(dir.path().join("sub/dir/runs.sqlite")))
        .err()
        .expect("refused");
    assert!(matches!(err, StoreError::NoSuchFolder { .. }), "{err}");
    assert!(err.is_usage());
    assert!(!dir.path().join("sub").exists());
}

#[test]
fn saves_lists_loads_and_deletes() {
    let (_dir, loc) = temp_db();
    let mut store = open(&loc).unwrap();
    assert_eq!(store.schema_version().unwrap(), current_version());
    round_trip(store.as_mut());
}

#[test]
fn reopening_keeps_the_runs() {
    let (_dir, loc) = temp_db();
    let id = open(&loc).unwrap().save(&fixture("aes-mask.json")).unwrap();
    let mut again = open(&loc).unwrap();
    assert_eq!(as_json(&again.load(id).unwrap()), as_json(&fixture("aes-mask.json")));
}

#[test]
fn a_file_that_is_not_sqlite_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    let text = "these are my notes, not a database\n".repeat(200);
    std::fs::write(&path, &text).unwrap();
    let err = open(&Location::Sqlite(path.clone())).err().expect("refused");
    assert!(matches!(err, StoreError::NotADatabase { .. }), "{err}");
    assert!(err.to_string().contains("not a cryptobench database"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no journal left behind");
}

#[test]
fn another_programs_sqlite_database_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.sqlite");
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('x');")
            .unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let err = open(&Location::Sqlite(path.clone())).err().expect("refused");
    assert!(err.to_string().contains("contacts"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_database_from_a_newer_version_is_refused() {
    let (_dir, loc) = temp_db();
    drop(open(&loc).unwrap());
    let Location::Sqlite(path) = &loc else { unreachable!() };
    rusqlite::Connection::open(path)
        .unwrap()
        .execute("INSERT INTO schema_migrations (version, applied_at) VALUES (999, 'later')", [])
        .unwrap();
    let err = open(&loc).err().expect("refused");
    assert!(matches!(err, StoreError::NewerSchema { found: 999, .. }), "{err}");
}

/// tests/fixtures/store/schema-v1.sqlite was written by the first version
/// of the store (schema 1) and is kept as is: every later version must open
/// it, migrate it and read its run back.
#[test]
fn a_database_written_by_the_first_version_still_opens() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/store/schema-v1.sqlite");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    std::fs::copy(&src, &path).unwrap();
    let mut store = open(&Location::Sqlite(path)).unwrap();
    assert_eq!(store.schema_version().unwrap(), current_version());
    let runs = store.list().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].label.as_deref(), Some("aes-mask"));
    let run = store.load(runs[0].id).unwrap();
    assert_eq!(as_json(&run), as_json(&fixture("aes-mask.json")));
    // Its cells recorded no unit: loading and the migration give the catalog's.
    assert!(run
        .configurations
        .iter()
        .flat_map(|c| &c.cells)
        .all(|x| x.spec.unit == cryptobench_core::CellUnit::Bytes));
    drop(store);
    let c = rusqlite::Connection::open(dir.path().join("old.sqlite")).unwrap();
    let units: Vec<Option<String>> = c
        .prepare("SELECT DISTINCT unit FROM cells")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(units, vec![Some("bytes".to_string())]);
}

#[test]
fn concurrent_writers_lose_nothing() {
    let (_dir, loc) = temp_db();
    drop(open(&loc).unwrap());
    let run = fixture("aes-mask.json");
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (loc, run) = (loc.clone(), run.clone());
            std::thread::spawn(move || {
                let mut store = open(&loc).unwrap();
                (0..5).map(|_| store.save(&run).unwrap()).collect::<Vec<_>>()
            })
        })
        .collect();
    let mut ids: Vec<i64> = threads.into_iter().flat_map(|t| t.join().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 20);
    let mut store = open(&loc).unwrap();
    assert_eq!(store.list().unwrap().len(), 20);
    for id in ids {
        assert_eq!(store.load(id).unwrap().configurations.len(), 2);
    }
}

/// A `run --threads` (tests/fixtures/runs/threads.json): the placement of
/// each configuration, the workers and efficiency of each cell, and every
/// worker's samples with its CPU are in the tables; the document comes back whole.
#[test]
fn several_cores_fill_their_columns() {
    let (_dir, loc) = temp_db();
    let run = fixture("threads.json");
    let id = open(&loc).unwrap().save(&run).unwrap();
    assert_eq!(as_json(&open(&loc).unwrap().load(id).unwrap()), as_json(&run));
    let listed = open(&loc).unwrap().list().unwrap();
    assert!(
        listed[0].configurations[0].ends_with("× 1 thread"),
        "{:?}",
        listed[0].configurations
    );
    assert!(
        listed[0].configurations[1].ends_with("× 2 threads"),
        "{:?}",
        listed[0].configurations
    );
    let Location::Sqlite(path) = &loc else { unreachable!() };
    let c = rusqlite::Connection::open(path).unwrap();
    let placements: Vec<(i64, String)> = c
        .prepare("SELECT threads, cpus FROM configurations ORDER BY position")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(placements, vec![(1, "0".to_string()), (2, "0,1".to_string())]);
    let (workers, efficiency): (i64, f64) = c
        .query_row(
            "SELECT x.workers, x.scaling_efficiency FROM cells x JOIN configurations k ON x.configuration_id = k.id \
             WHERE k.threads = 2 AND x.algorithm = 'sha256' AND x.size = 16384",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(workers, 2);
    assert!(efficiency > 0.0);
    // Every worker's samples, numbered on, each with its CPU.
    let per_cpu: Vec<(i64, i64)> = c
        .prepare(
            "SELECT s.cpu, COUNT(*) FROM samples s JOIN cells x ON s.cell_id = x.id JOIN configurations k \
             ON x.configuration_id = k.id WHERE k.threads = 2 AND x.algorithm = 'sha256' AND x.size = 16384 \
             GROUP BY s.cpu ORDER BY s.cpu",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(per_cpu.len(), 2, "{per_cpu:?}");
    assert_eq!(per_cpu[0].1, per_cpu[1].1, "the workers took their samples in step");
    let one: i64 = c
        .query_row("SELECT COUNT(*) FROM samples WHERE cpu IS NULL", [], |r| r.get(0))
        .unwrap();
    assert!(one > 0, "the one-worker cells' samples have no CPU");
}

#[test]
fn a_run_of_replicates_keeps_each_samples_replicate_and_each_cells_count() {
    let (_dir, loc) = temp_db();
    let run = fixture("replicates.json");
    let id = open(&loc).unwrap().save(&run).unwrap();
    assert_eq!(as_json(&open(&loc).unwrap().load(id).unwrap()), as_json(&run));
    let Location::Sqlite(path) = &loc else { unreachable!() };
    let db = rusqlite::Connection::open(path).unwrap();
    let counts: Vec<i64> = db
        .prepare("SELECT DISTINCT replicates FROM cells")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(counts, vec![3]);
    // Per cell and replicate, as many samples as that replicate's summary says.
    let mut expected = Vec::new();
    for c in &run.configurations {
        for cell in &c.cells {
            if let cryptobench_core::result::CellOutcome::Measured(m) = &cell.outcome {
                for r in &m.replicates {
                    expected.push((
                        cell.spec.algorithm.clone(),
                        cell.spec.size as i64,
                        r.replicate as i64,
                        r.summary.samples as i64,
                    ));
                }
            }
        }
    }
    expected.sort();
    let mut stored: Vec<(String, i64, i64, i64)> = db
        .prepare(
            "SELECT cells.algorithm, cells.size, samples.replicate, COUNT(*) FROM samples JOIN cells ON samples.cell_id = cells.id \
             GROUP BY cells.algorithm, cells.size, samples.replicate",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    stored.sort();
    assert_eq!(stored, expected);
}

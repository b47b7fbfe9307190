//! Saving runs and reading them back through the command line: round trips,
//! bad inputs that must change nothing, PostgreSQL with concurrent writers.

mod common;

use std::path::{Path, PathBuf};

use common::{cryptobench, system_openssl_available, FAST};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/runs").join(name)
}

fn stdout(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_run_is_saved_and_export_then_import_gives_it_back() {
    if !system_openssl_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.sqlite"), dir.path().join("b.sqlite"));
    let out = cryptobench()
        .args([
            "run",
            "--algos",
            "sha256,aes-128-gcm",
            "--sizes",
            "16,1024",
            "--format",
            "json",
            "--label",
            "round-trip",
        ])
        .args(FAST)
        .arg("--db")
        .arg(&a)
        .output()
        .unwrap();
    let printed = stdout(&out);
    assert!(stderr(&out).contains("saved as run 1 in"), "{}", stderr(&out));
    let list = stdout(&cryptobench().args(["runs", "list", "--db"]).arg(&a).output().unwrap());
    assert!(list.contains("round-trip") && list.contains("OpenSSL"), "{list}");
    let exported = stdout(
        &cryptobench()
            .args(["runs", "export", "round-trip", "--db"])
            .arg(&a)
            .output()
            .unwrap(),
    );
    assert_eq!(exported, printed, "the stored run is the printed run");
    let file = dir.path().join("run.json");
    std::fs::write(&file, &exported).unwrap();
    stdout(
        &cryptobench()
            .args(["runs", "import"])
            .arg(&file)
            .arg("--db")
            .arg(&b)
            .output()
            .unwrap(),
    );
    let again = stdout(&cryptobench().args(["runs", "export", "1", "--db"]).arg(&b).output().unwrap());
    assert_eq!(again, printed);
    let csv = stdout(
        &cryptobench()
            .args(["runs", "export", "1", "--format", "csv", "--db"])
            .arg(&b)
            .output()
            .unwrap(),
    );
    assert_eq!(csv.lines().count(), 5, "{csv}");
}

#[test]
fn no_save_writes_no_database() {
    if !system_openssl_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("never.sqlite");
    let out = cryptobench()
        .args(["run", "--no-save", "--algos", "sha1", "--sizes", "16"])
        .args(FAST)
        .env("CRYPTOBENCH_DB", &db)
        .output()
        .unwrap();
    stdout(&out);
    assert!(!db.exists());
}

#[test]
fn show_list_and_delete() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    let run = |args: &[&str]| cryptobench().args(args).arg("--db").arg(&db).output().unwrap();
    assert!(stdout(&run(&["runs", "list"])).contains("no runs stored yet"));
    stdout(&run(&["runs", "import", fixture("aes-mask.json").to_str().unwrap()]));
    let table = stdout(&run(&["runs", "show", "aes-mask", "--verbose"]));
    assert!(table.contains("OPENSSL_ia32cap=~0x200000000000000:~0x60000000000"), "{table}");
    let md = stdout(&run(&["runs", "show", "1", "--format", "markdown"]));
    assert!(md.starts_with("### cryptobench"), "{md}");
    let out = run(&["runs", "delete", "7"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no run with id 7"), "{}", stderr(&out));
    stdout(&run(&["runs", "delete", "1"]));
    assert!(stdout(&run(&["runs", "list"])).contains("no runs stored yet"));
    let out = run(&["runs", "show", "nosuchlabel"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn corrupt_or_truncated_json_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    stdout(
        &cryptobench()
            .args(["runs", "import"])
            .arg(fixture("aes-mask.json"))
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap(),
    );
    let before = std::fs::read(&db).unwrap();
    let good = std::fs::read_to_string(fixture("aes-mask.json")).unwrap();
    let cases = [
        ("truncated.json", good[..good.len() / 2].to_string()),
        ("empty.json", String::new()),
        ("other.json", r#"{"name": "not a run"}"#.to_string()),
        ("text.json", "this is not JSON\n".to_string()),
        ("newer.json", good.replacen("\"schema_version\": 1", "\"schema_version\": 99", 1)),
    ];
    for (name, text) in cases {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        let out = cryptobench()
            .args(["runs", "import"])
            .arg(&file)
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        let msg = stderr(&out);
        assert!(
            msg.contains(name) && (msg.contains("is not a cryptobench run") || msg.contains("newer")),
            "{msg}"
        );
    }
    assert_eq!(std::fs::read(&db).unwrap(), before, "the database is untouched");
    let list = stdout(&cryptobench().args(["runs", "list", "--db"]).arg(&db).output().unwrap());
    assert_eq!(list.lines().count(), 2, "{list}");
}

#[test]
fn a_db_path_in_a_missing_folder_is_refused_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder");
    let db = missing.join("runs.sqlite");
    let out = cryptobench().args(["runs", "list", "--db"]).arg(&db).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains(&missing.display().to_string()), "{}", stderr(&out));
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
    assert!(!missing.exists(), "the folder was created");
    // The same through the environment variable.
    let out = cryptobench().args(["runs", "list"]).env("CRYPTOBENCH_DB", &db).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!missing.exists());
}

#[test]
fn a_new_database_file_is_announced_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("new.sqlite");
    let out = cryptobench().args(["runs", "list", "--db"]).arg(&db).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out).trim(), format!("created new database {}", db.display()));
    assert!(db.is_file());
    let again = cryptobench().args(["runs", "list", "--db"]).arg(&db).output().unwrap();
    assert!(again.status.success());
    assert!(!stderr(&again).contains("created"), "{}", stderr(&again));
}

#[test]
fn a_missing_file_given_to_report_or_compare_is_not_taken_for_a_label() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("must-not-appear.sqlite");
    for args in [
        vec!["report", "results/run.json", "--html", "r.html"],
        vec!["report", "yesterday.json", "--format", "markdown"],
        vec!["compare", "a.json", "b.json"],
        vec!["compare", "./before", "./after"],
    ] {
        let out = cryptobench()
            .args(&args)
            .env("CRYPTOBENCH_DB", &db)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("no such file"), "{args:?}: {}", stderr(&out));
        assert!(!db.exists(), "{args:?} opened a database");
    }
}

#[test]
fn a_database_that_is_not_sqlite_is_refused_before_measuring() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    let text = "my notes\n".repeat(100);
    std::fs::write(&notes, &text).unwrap();
    for args in [
        vec!["runs", "list"],
        vec!["run", "--algos", "sha1", "--sizes", "16", "--quick"],
        vec![
            "import",
            "openssl-speed",
            "tests/fixtures/openssl-speed/openssl-3.0.19-md5-sha1-sha256.txt",
        ],
    ] {
        let out = cryptobench().args(&args).arg("--db").arg(&notes).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("is not a cryptobench database"), "{}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?} printed results");
    }
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), text);
}

#[test]
fn a_postgresql_server_that_does_not_answer_is_a_clear_error() {
    let out = cryptobench()
        .args([
            "runs",
            "list",
            "--db",
            "postgres://nobody:secret@127.0.0.1:1/none?connect_timeout=3",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let msg = stderr(&out);
    assert!(
        msg.contains("cannot connect to PostgreSQL at postgres://nobody:***@127.0.0.1:1"),
        "{msg}"
    );
    assert!(!msg.contains("secret"), "the password is not printed: {msg}");
    let out = cryptobench().args(["runs", "list", "--db", "mysql://host/db"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a database location"), "{}", stderr(&out));
}

/// Several machines saving into one PostgreSQL database at once: here,
/// several `cryptobench run` processes. Every run must be there afterwards.
#[test]
fn concurrent_runs_into_postgresql_lose_nothing() {
    let Ok(base) = std::env::var("CRYPTOBENCH_TEST_POSTGRES") else {
        cryptobench_testkit::missing("a PostgreSQL server", "CRYPTOBENCH_TEST_POSTGRES is not set (.ci/run sets it)");
        return;
    };
    if !system_openssl_available() {
        return;
    }
    let schema = format!("cli_concurrent_{}", std::process::id());
    let mut client = postgres::Client::connect(&base, postgres::NoTls).expect("the test server answers");
    client
        .batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"))
        .unwrap();
    let sep = if base.contains('?') { '&' } else { '?' };
    let url = format!("{base}{sep}options=-c%20search_path%3D{schema}");
    let children: Vec<_> = (0..4)
        .map(|i| {
            common::cryptobench_std()
                .args([
                    "run", "--algos", "sha1", "--sizes", "16,64", "--quick", "--time", "0.005", "--format", "json",
                ])
                .args(["--label", &format!("machine-{i}"), "--db", &url])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let list = stdout(&cryptobench().args(["runs", "list", "--db", &url]).output().unwrap());
    for i in 0..4 {
        assert!(list.contains(&format!("machine-{i}")), "{list}");
    }
    let n: i64 = client
        .query_one(&format!("SELECT COUNT(*) FROM {schema}.samples"), &[])
        .unwrap()
        .get(0);
    assert!(n >= 4 * 2 * 3, "every sample stored ({n})");
    client.batch_execute(&format!("DROP SCHEMA {schema} CASCADE")).unwrap();
}

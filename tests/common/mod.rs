//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use assert_cmd::Command;

/// The binary, with its database under target/tmp: tests never write into
/// the user's data directory. Tests that need an empty database pass --db.
pub fn cryptobench() -> Command {
    let mut cmd = Command::from_std(cryptobench_std());
    cmd.env("CRYPTOBENCH_DB", shared_test_db());
    cmd
}

/// The binary as a std Command, started through this test's emulator where
/// the tests run emulated (a cross target under cargo's runner).
pub fn cryptobench_std() -> StdCommand {
    cryptobench_testkit::native_command(assert_cmd::cargo::cargo_bin("cryptobench"))
}

/// The database every test shares unless it asks for its own.
pub fn shared_test_db() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("cryptobench-tests.sqlite")
}

/// Compiles a C fixture into a shared library in `dir`; None (with a printed
/// reason) where no C compiler is installed, a failure under CI.
pub fn build_fixture_library(name: &str, dir: &Path) -> Option<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format!("{name}.c"));
    let out = dir.join(format!("{name}.so"));
    let cc = cryptobench_testkit::c_compiler();
    match StdCommand::new(&cc).args(["-shared", "-fPIC", "-o"]).arg(&out).arg(&src).status() {
        Ok(s) if s.success() => Some(out),
        Ok(s) => panic!("cc failed on {}: {s}", src.display()),
        Err(e) => {
            cryptobench_testkit::missing(&format!("a C compiler ({cc})"), format!("needed to build the fixture {name}: {e}"));
            None
        }
    }
}

/// Whether the system's libcrypto can be measured here; under CI its absence fails the test.
pub fn system_openssl_available() -> bool {
    let out = cryptobench()
        .args(["algorithms", "--format", "json"])
        .output()
        .expect("the binary runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let ok = v["configurations"][0]["available"].as_bool() == Some(true);
    if !ok {
        cryptobench_testkit::missing("the system's OpenSSL libcrypto", &v["configurations"][0]["reason"]);
    }
    ok
}

/// Parses stdout as the JSON result.
pub fn json(output: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", String::from_utf8_lossy(&output.stdout)))
}

/// The fastest timing that still runs everything: for tests of behaviour, not speed.
pub const FAST: &[&str] = &["--quick", "--time", "0.005"];

/// Whether `--arch ARCH` can run here (`algorithms --arch` exits with 2
/// when the emulator, the worker or the sysroot is missing); says why not
/// otherwise, naming `what` it needs.
pub fn arch_ready(arch: &str, what: &str) -> bool {
    let out = cryptobench()
        .args(["algorithms", "--arch", arch, "--format", "json"])
        .output()
        .unwrap();
    if out.status.code() == Some(2) {
        cryptobench_testkit::missing(what, String::from_utf8_lossy(&out.stderr).trim());
        return false;
    }
    true
}

/// `verify` of the native OpenSSL beside the same library run as `arch`
/// (messages up to 4 KiB): no check fails on either side, and the agreement
/// checks compared the two architectures' outputs.
pub fn assert_arch_agrees_with_native_openssl(arch: &str, algos: &str) {
    let out = cryptobench()
        .args(["verify", "--backend", "openssl", "--backend", "openssl", "--arch", arch])
        .args(["--algos", algos, "--max-length", "4k", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{arch}: {}", String::from_utf8_lossy(&out.stdout));
    let v = json(&out);
    let backends = v["backends"].as_array().unwrap();
    assert_eq!(backends.len(), 2, "{arch}");
    for b in backends {
        for r in b["reports"].as_array().unwrap() {
            assert!(r["failures"].as_array().unwrap().is_empty(), "{arch}: {r}");
            if r["kind"] == "agreement" {
                assert!(
                    r["passed"].as_u64().unwrap() > 0,
                    "{arch}: the two architectures were compared: {r}"
                );
            }
        }
    }
}

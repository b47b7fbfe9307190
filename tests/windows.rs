//! The Windows build under Wine: `cryptobench.exe` (x86_64-pc-windows-gnu,
//! which `.ci/run` builds before the tests; README, "Builds and operating
//! systems") runs in a Wine prefix made by scripts/wine-env, lists the CPU
//! and says it runs under Wine, and measures verified cells of the cng
//! backend (Windows' own bcrypt.dll, here Wine's). Without wine64,
//! mingw-w64 or an up-to-date Windows build these tests skip with the
//! reason, and fail under CI=true.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::SystemTime;

const TRIPLE: &str = "x86_64-pc-windows-gnu";
const BUILD: &str = "cargo build --target x86_64-pc-windows-gnu -p cryptobench";

/// The target folder this test binary was built in (target/debug/deps/windows-… → target).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors().nth(3).unwrap().to_path_buf()
}

/// The newest modification time of a .rs or Cargo.toml file under `dir`.
fn newest_source(dir: &Path) -> Option<SystemTime> {
    let mut newest = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let t = if path.is_dir() {
            newest_source(&path)
        } else if path.extension().is_some_and(|e| e == "rs") || path.file_name().is_some_and(|n| n == "Cargo.toml") {
            entry.metadata().ok()?.modified().ok()
        } else {
            None
        };
        newest = newest.max(t);
    }
    newest
}

/// The Windows build and the prefix, or None after saying why not.
struct Wine {
    exe: PathBuf,
    prefix: PathBuf,
}

fn wine() -> Option<&'static Wine> {
    static WINE: OnceLock<Option<Wine>> = OnceLock::new();
    WINE.get_or_init(|| {
        // Wine runs x86-64 Windows programs on x86-64 Linux; the aarch64 test
        // run (under qemu-user) has neither, nor the Windows build beside it.
        if !cfg!(all(target_os = "linux", target_arch = "x86_64")) || cryptobench_testkit::own_emulator().is_some() {
            cryptobench_testkit::platform_lacks("Wine", "it runs the Windows build on x86-64 Linux, natively");
            return None;
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let exe = target_dir().join(TRIPLE).join("debug").join("cryptobench.exe");
        let Ok(built) = std::fs::metadata(&exe).and_then(|m| m.modified()) else {
            cryptobench_testkit::missing(
                &format!("the Windows build ({})", exe.display()),
                format!("build it with `{BUILD}`"),
            );
            return None;
        };
        let sources = [root.join("src"), root.join("crates")]
            .iter()
            .filter_map(|d| newest_source(d))
            .max();
        if sources.is_some_and(|s| s > built) {
            cryptobench_testkit::missing(
                "an up-to-date Windows build",
                format!("{} is older than the sources; rebuild it with `{BUILD}`", exe.display()),
            );
            return None;
        }
        // One prefix in the target folder, reused by later runs: a prefix
        // is about 700 MB, and one made per run would never be removed (a
        // static is not dropped when the test binary exits).
        let prefix = target_dir().join("wine-test-prefix");
        let out = Command::new(root.join("scripts/wine-env")).arg(&prefix).output().unwrap();
        if !out.status.success() {
            cryptobench_testkit::missing(
                "wine64 and mingw-w64 (scripts/wine-env)",
                String::from_utf8_lossy(&out.stderr).trim(),
            );
            return None;
        }
        Some(Wine { exe, prefix })
    })
    .as_ref()
}

/// `cryptobench.exe ARGS` in the prefix, headless, through the environment scripts/wine-env prints.
fn run(w: &Wine, args: &[&str]) -> Output {
    let script = r#"set -e; eval "$("$1" "$2")"; shift 2; exec "$CRYPTOBENCH_WINE" "$@""#;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Command::new("bash")
        .args(["-c", script, "wine-env"])
        .arg(root.join("scripts/wine-env"))
        .arg(&w.prefix)
        .arg(&w.exe)
        .args(args)
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn cpu_under_wine_lists_the_features_and_says_wine() {
    let Some(w) = wine() else { return };
    let out = run(w, &["cpu", "--no-clock"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("under Wine"), "{t}");
    assert!(t.contains("(bcrypt.dll is Wine's)"), "{t}");
    assert!(t.contains("the OS reports (IsProcessorFeaturePresent): "), "{t}");
    // The features read through CPUID, as on Linux.
    assert!(t.contains("CPUID.1:ECX"), "{t}");
}

#[test]
fn cng_measures_verified_cells_under_wine_and_says_so() {
    let Some(w) = wine() else { return };
    let out = run(
        w,
        &[
            "run",
            "--backend",
            "cng",
            "--quick",
            "--algos",
            "aes-128-gcm,sha256,hmac-sha256",
            "--format",
            "json",
            "--no-save",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let run: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(run["host"]["os"].as_str().unwrap().contains("under Wine"), "{}", run["host"]);
    let c = &run["configurations"][0];
    assert_eq!(c["status"], "completed", "{c}");
    assert!(
        c["backend"]["version"].as_str().unwrap().contains("(bcrypt.dll is Wine's)"),
        "{}",
        c["backend"]
    );
    let verifications = c["verifications"].as_array().unwrap();
    assert_eq!(verifications.len(), 3, "{c}");
    assert!(verifications.iter().all(|v| v["status"] == "passed"), "{c}");
    let cells = c["cells"].as_array().unwrap();
    assert!(!cells.is_empty());
    assert!(cells.iter().all(|x| x["status"] == "measured"), "{c}");
    // HMAC messages on the reusable keyed hash object, whose key Wine's bcrypt.dll sets up again per message.
    let hmac: Vec<_> = cells.iter().filter(|x| x["algorithm"] == "hmac-sha256").collect();
    assert!(!hmac.is_empty(), "{c}");
    for x in hmac {
        let work = x["exceptions"]["extra_work"].as_str().unwrap_or_default();
        assert!(work.contains("hash_prepare"), "{x}");
    }
}

/// Under Wine, the cng backend names the extra work docs/METHOD.md's table
/// lists for it (its HMAC messages), as `algorithms` marks it.
#[test]
fn cng_names_under_wine_the_extra_work_method_lists() {
    use cryptobench_testkit::method::{extra_work_rows, method_text, named_cells};
    let Some(w) = wine() else { return };
    let out = run(w, &["algorithms", "--backend", "cng", "--format", "json"]);
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = extra_work_rows(&method_text()).unwrap();
    let config = &v["configurations"][0];
    assert_eq!(config["available"], true, "{config}");
    let extra = config["extra_work"].as_object().cloned().unwrap_or_default();
    let mut named = 0;
    for alg in v["algorithms"].as_array().unwrap() {
        if alg["supported_by"]["cng"] != true {
            continue;
        }
        let id = alg["id"].as_str().unwrap();
        let cells: Vec<String> = extra
            .get(id)
            .and_then(|w| w.as_str())
            .map(|lines| lines.lines().map(|l| l.split(": ").next().unwrap_or(l).to_string()).collect())
            .unwrap_or_default();
        assert_eq!(cells, named_cells(&rows, "cng", id), "{id}: {config}");
        named += cells.len();
    }
    assert!(named > 0, "{config}");
}

#[test]
fn verify_passes_for_cng_under_wine() {
    let Some(w) = wine() else { return };
    let out = run(w, &["verify", "--backend", "cng"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains(" 0 failed"), "{t}");
    for alg in ["aes-128-cbc", "aes-256-gcm", "sha256", "hmac-sha256"] {
        assert!(
            t.lines().any(|l| l.contains(&format!(" {alg} ")) && l.contains("cng")),
            "{alg} not verified:\n{t}"
        );
    }
}

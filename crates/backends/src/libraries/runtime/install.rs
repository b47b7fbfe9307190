//! Where a driver runs from. The drivers' sources (drivers/ in the
//! repository) are compiled into cryptobench, so an installed binary needs no
//! checkout: at first use they are written to a cache folder named after a
//! hash of their content (and of the toolchain that builds them), built
//! there where the language needs it (`go build`, `javac`), and reused by
//! every later worker. Concurrent workers build in private folders and
//! rename the first finished one into place, so none sees half a build.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use crate::error::OpenError;

/// How to start a driver, and the file it runs.
pub struct Launch {
    pub command: Command,
    pub driver: PathBuf,
    /// The driver's source in the repository, e.g. "drivers/python/driver.py".
    pub source: &'static str,
}

/// One source file of a driver: its name in the install folder and its text.
pub struct Source {
    pub name: &'static str,
    pub text: &'static str,
}

/// The [`Source`]s of the driver in drivers/`$dir`/ of the repository,
/// compiled in: `sources!("go": "go.mod", "driver.go")`.
macro_rules! sources {
    ($dir:literal: $($name:literal),+ $(,)?) => {
        &[$($crate::libraries::runtime::install::Source {
            name: $name,
            text: include_str!(concat!("../../../../../drivers/", $dir, "/", $name)),
        }),+]
    };
}
pub(crate) use sources;

/// The folder under which drivers are installed: `CRYPTOBENCH_CACHE`, else
/// the user's cache folder (`~/.cache/cryptobench` on Linux), else the temporary folder.
pub fn cache_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("CRYPTOBENCH_CACHE").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    dirs::cache_dir()
        .map(|d| d.join("cryptobench"))
        .unwrap_or_else(|| std::env::temp_dir().join("cryptobench-cache"))
}

/// An executable named `name` on `PATH`.
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| is_executable(p))
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(p: &Path) -> bool {
    p.is_file()
}

/// The program a configuration names (`--backend go=/usr/lib/go-1.19/bin/go`)
/// or the one `PATH` finds.
pub fn program(given: Option<&str>, name: &str) -> Option<PathBuf> {
    match given {
        Some(p) => Some(PathBuf::from(p)),
        None => find_program(name),
    }
}

/// The first line a program prints for `args` (stdout, else stderr), e.g. `go version`.
pub fn first_line(program: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    let text = if out.stdout.is_empty() { out.stderr } else { out.stdout };
    String::from_utf8_lossy(&text).lines().next().map(|l| l.trim().to_string())
}

/// Installs `sources` for runtime `kind` (and builds them with `build`, run
/// in the folder being installed), keyed by their content and `toolchain`.
/// Returns the folder. `build`'s error is the reason the driver is unavailable.
pub fn install(
    kind: &str,
    sources: &[Source],
    toolchain: &str,
    build: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<PathBuf, String> {
    install_in(&cache_root().join("drivers"), kind, sources, toolchain, build)
}

/// Installs the sources of a driver that needs no build (a script) for
/// runtime `kind`; the folder, or why it cannot be written.
pub fn script(kind: &str, sources: &[Source]) -> Result<PathBuf, OpenError> {
    install(kind, sources, "", |_| Ok(())).map_err(|reason| OpenError::Runtime {
        reason,
        hint: "set CRYPTOBENCH_CACHE to a writable folder".into(),
    })
}

fn install_in(
    root: &Path,
    kind: &str,
    sources: &[Source],
    toolchain: &str,
    build: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<PathBuf, String> {
    let mut h = Sha256::new();
    h.update(toolchain.as_bytes());
    for s in sources {
        h.update(s.name.as_bytes());
        h.update([0]);
        h.update(s.text.as_bytes());
        h.update([0]);
    }
    let key = hex::encode(&h.finalize()[..8]);
    let dir = root.join(format!("{kind}-{key}"));
    if dir.join(COMPLETE).exists() {
        return Ok(dir);
    }
    std::fs::create_dir_all(root).map_err(|e| format!("cannot create the driver cache {}: {e}", root.display()))?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let work = root.join(format!(".{kind}-{key}.{}.{nanos}", std::process::id()));
    let result = (|| {
        std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
        for s in sources {
            std::fs::write(work.join(s.name), s.text).map_err(|e| format!("cannot write {}: {e}", work.join(s.name).display()))?;
        }
        build(&work)?;
        std::fs::write(work.join(COMPLETE), toolchain).map_err(|e| format!("cannot write to {}: {e}", work.display()))
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&work);
        return Err(e);
    }
    match std::fs::rename(&work, &dir) {
        Ok(()) => Ok(dir),
        // Another worker finished first: use its folder.
        Err(_) if dir.join(COMPLETE).exists() => {
            let _ = std::fs::remove_dir_all(&work);
            Ok(dir)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&work);
            Err(format!("cannot move the driver into {}: {e}", dir.display()))
        }
    }
}

/// Marks an install folder whose build finished.
const COMPLETE: &str = ".complete";

/// Runs a build command in `dir`; its output's last lines are the error.
pub fn run_build(mut command: Command, dir: &Path, what: &str) -> Result<(), String> {
    let out = command.current_dir(dir).output().map_err(|e| format!("cannot run {what}: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let mut text = String::from_utf8_lossy(&out.stderr).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stdout));
    let tail: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = tail[tail.len().saturating_sub(4)..].join(" | ");
    Err(format!("{what} failed ({}): {tail}", out.status))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installs_once_and_reuses_the_folder() {
        let tmp = std::env::temp_dir().join(format!("cryptobench-install-test-{}", std::process::id()));
        let sources = [Source {
            name: "a.txt",
            text: "hello",
        }];
        let mut builds = 0;
        let first = install_in(&tmp, "test", &sources, "t1", |d| {
            builds += 1;
            assert!(d.join("a.txt").exists());
            Ok(())
        })
        .unwrap();
        let again = install_in(&tmp, "test", &sources, "t1", |_| panic!("built twice")).unwrap();
        assert_eq!(first, again);
        assert_eq!(builds, 1);
        let other = install_in(&tmp, "test", &sources, "t2", |_| Ok(())).unwrap();
        assert_ne!(first, other, "another toolchain is another folder");
        let failed = install_in(&tmp, "test", &sources, "t3", |_| Err("no compiler".into()));
        assert_eq!(failed.unwrap_err(), "no compiler");
        let _ = std::fs::remove_dir_all(&tmp);
    }
}

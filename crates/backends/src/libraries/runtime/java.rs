//! Java: drivers/java (Driver.java the protocol, Cells.java the timed cells, Catalog.java the names and one-shot calls), compiled once with the
//! JDK's `javac` into the driver cache, run as `java -cp DIR Driver`.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::install::{self, Launch, Source};
use crate::error::OpenError;

const SOURCES: &[Source] = install::sources!("java": "Driver.java", "Catalog.java", "Cells.java", "PkCells.java");

pub const HINT: &str = "install a JDK (Debian: apt install default-jdk-headless) or name its java with --backend java=/path/to/bin/java";

/// HotSpot compiles the driver's loop and SunJCE's methods in tiers (C1,
/// then C2, which alone uses the AES, GHASH and SHA intrinsics). From a
/// cold start, bench/jit-warmup saw aes-128-gcm at 16 KiB at 2% of its
/// steady throughput for 1–2 s, and every cell it measured steady after
/// 2 s: the first cell of a row gets 2 s. The next cells of the row run
/// code compiled by then and get 0.5 s, for the paths a new size reaches.
pub const FIRST_WARMUP_NS: u64 = 2_000_000_000;
pub const WARMUP_NS: u64 = 500_000_000;

/// `javac` next to `java` (a JDK's bin folder), else on PATH.
fn javac_for(java: &Path) -> Option<PathBuf> {
    let beside = java.canonicalize().ok()?.with_file_name("javac");
    beside.is_file().then_some(beside).or_else(|| install::find_program("javac"))
}

pub fn launch(java: Option<&str>) -> Result<Launch, OpenError> {
    let java = install::program(java, "java").ok_or_else(|| OpenError::Runtime {
        reason: "no java on PATH".into(),
        hint: HINT.into(),
    })?;
    let javac = javac_for(&java).ok_or_else(|| OpenError::Runtime {
        reason: format!(
            "no javac beside {} or on PATH (a JRE alone cannot compile the driver)",
            java.display()
        ),
        hint: HINT.into(),
    })?;
    // The class files depend on the compiler: its path and version key the install.
    let toolchain = format!(
        "{} {}",
        javac.display(),
        install::first_line(&javac, &["-version"]).unwrap_or_default()
    );
    let dir = install::install("java", SOURCES, &toolchain, |dir| {
        let mut c = Command::new(&javac);
        c.args(["-encoding", "UTF-8", "-d", "."]).args(SOURCES.iter().map(|s| s.name));
        install::run_build(c, dir, "javac")
    })
    .map_err(|reason| OpenError::Runtime {
        reason: format!("the Java driver could not be compiled: {reason}"),
        hint: HINT.into(),
    })?;
    let mut command = Command::new(&java);
    // Unlocked so that the driver can read the intrinsics flags (diagnostic
    // flags since JDK 16); it changes no behaviour.
    command.arg("-XX:+UnlockDiagnosticVMOptions").arg("-cp").arg(&dir).arg("Driver");
    Ok(Launch {
        command,
        driver: dir.join("Driver.class"),
        source: "drivers/java/Driver.java",
    })
}

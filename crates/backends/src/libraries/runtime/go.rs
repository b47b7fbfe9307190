//! Go: drivers/go, built once with `go build` into the driver cache. The
//! driver needs golang.org/x/crypto (ChaCha20-Poly1305) at the version
//! go.sum pins; `go` fetches it from the module proxy the first time.

use std::process::Command;

use super::install::{self, Launch, Source};
use crate::error::OpenError;

const SOURCES: &[Source] = install::sources!(
    "go": "go.mod",
    "go.sum",
    "driver.go",
    "once.go",
    "cells.go",
    "info.go",
    "cputime_linux.go",
    "cputime_other.go",
    "fips_go124.go",
    "fips_old.go",
    "sha3_go120.go",
    "sha3_old.go",
    "pk.go",
    "pk_ecdh_go120.go",
    "pk_ecdh_old.go",
    "pk_mlkem_go124.go",
    "pk_mlkem_old.go",
);

pub const HINT: &str = "install Go (Debian: apt install golang-go; https://go.dev/dl) or name it with --backend go=/path/to/bin/go";

pub fn launch(go: Option<&str>) -> Result<Launch, OpenError> {
    let go = install::program(go, "go").ok_or_else(|| OpenError::Runtime {
        reason: "no go on PATH".into(),
        hint: HINT.into(),
    })?;
    // The binary depends on the toolchain: its path and version key the install.
    let toolchain = format!("{} {}", go.display(), install::first_line(&go, &["version"]).unwrap_or_default());
    let exe = if cfg!(windows) { "driver.exe" } else { "driver" };
    let dir = install::install("go", SOURCES, &toolchain, |dir| {
        let mut c = Command::new(&go);
        c.args(["build", "-trimpath", "-o", exe, "."])
            // The pinned go.sum decides the modules; never a toolchain download.
            .env("GOFLAGS", "-mod=mod")
            .env("GOTOOLCHAIN", "local");
        install::run_build(c, dir, "go build")
    })
    .map_err(|reason| OpenError::Runtime {
        reason: format!("the Go driver could not be built: {reason} (it needs golang.org/x/crypto, fetched once from the module proxy)"),
        hint: HINT.into(),
    })?;
    let driver = dir.join(exe);
    Ok(Launch {
        command: Command::new(&driver),
        driver,
        source: "drivers/go/",
    })
}

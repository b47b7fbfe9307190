//! Node.js: `node driver.js` (drivers/node/driver.js), over Node's `crypto`
//! module and the OpenSSL Node was built with (`process.versions.openssl`).

use std::process::Command;

use super::install::{self, Launch, Source};
use crate::error::OpenError;

const SOURCES: &[Source] = install::sources!("node": "driver.js", "pk.js");

pub const HINT: &str = "install Node.js (Debian: apt install nodejs) or name it with --backend node=/path/to/node";

/// V8 optimises the driver's loop and Node's JavaScript wrappers of the
/// cipher objects within the first few hundred milliseconds (bench/jit-warmup:
/// 0.2–0.6 of the steady throughput in the first 50 ms, steady within the
/// noise after 0.5 s): the first cell of a row gets 0.5 s, the next 0.1 s.
pub const FIRST_WARMUP_NS: u64 = 500_000_000;
pub const WARMUP_NS: u64 = 100_000_000;

pub fn launch(node: Option<&str>) -> Result<Launch, OpenError> {
    let node = install::program(node, "node")
        .or_else(|| install::find_program("nodejs"))
        .ok_or_else(|| OpenError::Runtime {
            reason: "no node (or nodejs) on PATH".into(),
            hint: HINT.into(),
        })?;
    let dir = install::script("node", SOURCES)?;
    let driver = dir.join("driver.js");
    let mut command = Command::new(node);
    command.arg(&driver);
    Ok(Launch {
        command,
        driver,
        source: "drivers/node/driver.js",
    })
}

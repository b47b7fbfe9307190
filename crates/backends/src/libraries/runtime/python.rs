//! Python: `python3 driver.py hashlib|cryptography` (drivers/python: driver.py speaks the pipe
//! protocol, hashlib_binding.py and cryptography_binding.py are the bindings, common.py what they share).

use std::process::Command;

use super::install::{self, Launch, Source};
use crate::error::OpenError;

const SOURCES: &[Source] = install::sources!(
    "python": "driver.py",
    "common.py",
    "hashlib_binding.py",
    "cryptography_binding.py",
    "cryptography_pk.py",
);

const PYTHON_HINT: &str =
    "install Python 3 (Debian: apt install python3) or name the interpreter with --backend python:hashlib=/path/to/python3";
pub const HASHLIB_HINT: &str = "hashlib comes with every Python 3; check the interpreter";
pub const CRYPTOGRAPHY_HINT: &str = "install pyca/cryptography for this interpreter: python3 -m pip install cryptography \
(Debian: apt install python3-cryptography), or name another interpreter with --backend python:cryptography=/path/to/python3";

pub fn launch(binding: &'static str, interpreter: Option<&str>) -> Result<Launch, OpenError> {
    let python = install::program(interpreter, "python3").ok_or_else(|| OpenError::Runtime {
        reason: "no python3 on PATH".into(),
        hint: PYTHON_HINT.into(),
    })?;
    let dir = install::script("python", SOURCES)?;
    let driver = dir.join("driver.py");
    let mut command = Command::new(python);
    command.arg(&driver).arg(binding);
    Ok(Launch {
        command,
        driver,
        source: "drivers/python/driver.py",
    })
}

//! The pipe to a runtime's driver (docs/ARCHITECTURE.md, "Runtime drivers"):
//! one ASCII header line per request, then the raw bytes it announces; one
//! header line per reply (`ok N…`, `none`, `auth`, `unsupported TEXT`,
//! `err TEXT`), then the raw bytes it announces. Raw bytes, not JSON: every
//! language reads a length-prefixed blob without a parser (Java has no JSON
//! in its standard library), and a 16 KiB buffer crosses the pipe as 16 KiB.
//!
//! The buffers are allocated when the driver starts, so that a timed `run`
//! (one request, one reply) makes no heap allocation on the Rust side.

use std::fmt;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::error::BackendError;

/// The protocol version a driver announces in its first line (`hello 1`).
pub const PROTOCOL: u32 = 1;

/// Keeps the last few KiB of a driver's stderr, for the reason when it dies.
const STDERR_TAIL: usize = 4096;

/// At most this many numbers follow `ok`.
const MAX_VALUES: usize = 4;

/// How a driver answered its start.
pub enum Start {
    Ready(Driver),
    /// The driver runs but its library is missing (`unavailable TEXT`).
    Unavailable(String),
    /// The driver did not start or said nothing sensible.
    Failed(String),
}

/// The numbers of an `ok` reply; `-` stands for "not known".
#[derive(Clone, Copy, Default)]
pub struct Values {
    values: [Option<u64>; MAX_VALUES],
}

impl Values {
    /// The `i`-th number, which the reply must carry.
    pub fn get(&self, i: usize, driver: &'static str) -> Result<u64, BackendError> {
        self.values[i].ok_or_else(|| BackendError::Call {
            call: driver,
            detail: "its reply lacks a number the protocol requires".into(),
        })
    }

    /// The `i`-th number, which may be `-` (unknown).
    pub fn optional(&self, i: usize) -> Option<u64> {
        self.values[i]
    }
}

/// A running driver process and its two pipes.
pub struct Driver {
    /// "the Python driver": the `call` of every error it causes.
    name: &'static str,
    child: Child,
    to: Option<BufWriter<ChildStdin>>,
    from: BufReader<ChildStdout>,
    line: Vec<u8>,
    stderr: Option<JoinHandle<String>>,
    /// Why the driver is gone, once it is.
    dead: Option<String>,
}

impl Driver {
    /// Starts `command` and reads its greeting.
    pub fn start(name: &'static str, mut command: Command) -> Start {
        let spawned = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) => return Start::Failed(format!("cannot start {:?}: {e}", command.get_program())),
        };
        let mut stderr = child.stderr.take().expect("piped");
        let stderr = std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = stderr.read_to_end(&mut text);
            let start = text.len().saturating_sub(STDERR_TAIL);
            String::from_utf8_lossy(&text[start..]).trim().to_string()
        });
        let mut driver = Driver {
            name,
            to: child.stdin.take().map(|s| BufWriter::with_capacity(1 << 16, s)),
            from: BufReader::with_capacity(1 << 16, child.stdout.take().expect("piped")),
            child,
            line: Vec::with_capacity(1024),
            stderr: Some(stderr),
            dead: None,
        };
        match driver.read_line() {
            Ok(()) => {}
            Err(e) => return Start::Failed(e.to_string()),
        }
        let line = String::from_utf8_lossy(&driver.line).trim().to_string();
        match line.split_once(' ').unwrap_or((line.as_str(), "")) {
            ("hello", v) if v.trim() == PROTOCOL.to_string() => Start::Ready(driver),
            ("hello", v) => Start::Failed(format!(
                "{name} speaks protocol {v}, cryptobench {PROTOCOL}; the driver and the binary come from different versions"
            )),
            ("unavailable", reason) => Start::Unavailable(reason.to_string()),
            _ => Start::Failed(format!("{name} greeted with '{line}' instead of 'hello {PROTOCOL}'")),
        }
    }

    /// Sends one request: the header line, then `blobs` in order.
    pub fn send(&mut self, header: fmt::Arguments, blobs: &[&[u8]]) -> Result<(), BackendError> {
        self.check_alive()?;
        let to = self.to.as_mut().expect("open while alive");
        let written = to
            .write_fmt(header)
            .and_then(|_| to.write_all(b"\n"))
            .and_then(|_| blobs.iter().try_for_each(|b| to.write_all(b)))
            .and_then(|_| to.flush());
        match written {
            Ok(()) => Ok(()),
            Err(e) => Err(self.died(&format!("writing to it failed: {e}"))),
        }
    }

    /// Reads one reply header: `Ok(Some)` for `ok …`, `Ok(None)` for `none`;
    /// `auth`, `unsupported` and `err` become the matching [`BackendError`].
    pub fn reply(&mut self) -> Result<Option<Values>, BackendError> {
        self.read_line()?;
        let text = std::str::from_utf8(&self.line).map_err(|_| BackendError::Call {
            call: self.name,
            detail: "it replied with a line that is not UTF-8".into(),
        })?;
        let text = text.trim_end();
        let (verb, rest) = text.split_once(' ').unwrap_or((text, ""));
        match verb {
            "ok" => {
                let mut v = Values::default();
                for (i, word) in rest.split_ascii_whitespace().enumerate().take(MAX_VALUES) {
                    v.values[i] = match word {
                        "-" => None,
                        w => Some(w.parse().map_err(|_| BackendError::Call {
                            call: self.name,
                            detail: format!("'{w}' in its reply is not a number"),
                        })?),
                    };
                }
                Ok(Some(v))
            }
            "none" => Ok(None),
            "auth" => Err(BackendError::AuthenticationFailed),
            "unsupported" => Err(BackendError::Unsupported(rest.to_string())),
            "err" => Err(BackendError::Call {
                call: self.name,
                detail: rest.to_string(),
            }),
            _ => Err(BackendError::Call {
                call: self.name,
                detail: format!("it replied '{text}', which is not in the protocol"),
            }),
        }
    }

    /// A reply that must be `ok …`.
    pub fn ok(&mut self) -> Result<Values, BackendError> {
        self.reply()?.ok_or_else(|| BackendError::Call {
            call: self.name,
            detail: "it replied 'none' where a result was due".into(),
        })
    }

    /// Reads exactly `out.len()` bytes of a reply.
    pub fn read_into(&mut self, out: &mut [u8]) -> Result<(), BackendError> {
        match self.from.read_exact(out) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.died(&format!("its reply ended early: {e}"))),
        }
    }

    /// Reads `n` bytes of a reply into a new vector (outside timed loops).
    pub fn read_vec(&mut self, n: u64) -> Result<Vec<u8>, BackendError> {
        let mut v = vec![0u8; n as usize];
        self.read_into(&mut v)?;
        Ok(v)
    }

    fn read_line(&mut self) -> Result<(), BackendError> {
        self.check_alive()?;
        self.line.clear();
        match self.from.read_until(b'\n', &mut self.line) {
            Ok(0) => Err(self.died("it closed its output")),
            Ok(_) => Ok(()),
            Err(e) => Err(self.died(&format!("reading from it failed: {e}"))),
        }
    }

    fn check_alive(&self) -> Result<(), BackendError> {
        match &self.dead {
            None => Ok(()),
            Some(reason) => Err(BackendError::Call {
                call: self.name,
                detail: reason.clone(),
            }),
        }
    }

    /// Records that the driver is gone, with its exit status and last words.
    fn died(&mut self, what: &str) -> BackendError {
        self.to = None;
        let status = wait_briefly(&mut self.child, Duration::from_secs(2));
        let tail = self.stderr.take().and_then(|h| h.join().ok()).unwrap_or_default();
        let mut reason = format!("{what}; it {status}");
        if let Some(last) = tail.lines().rev().find(|l| !l.trim().is_empty()) {
            reason.push_str(&format!("; its last words: {}", last.trim()));
        }
        self.dead = Some(reason.clone());
        BackendError::Call {
            call: self.name,
            detail: reason,
        }
    }
}

/// Waits for the child up to `limit`, then kills it; says how it ended.
fn wait_briefly(child: &mut Child, limit: Duration) -> String {
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return format!("exited ({status})"),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return "did not exit and was killed".into();
            }
            Err(e) => return format!("could not be waited for ({e})"),
        }
    }
}

impl Drop for Driver {
    /// Closing its input ends a driver (it exits at end of input).
    fn drop(&mut self) {
        self.to = None;
        if self.dead.is_none() {
            wait_briefly(&mut self.child, Duration::from_secs(2));
        }
    }
}

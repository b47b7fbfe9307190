//! The orchestrator's side of the worker protocol: start `cryptobench
//! worker` with a configuration's environment, send the job, read JSON lines,
//! and turn a dead worker into a reason instead of a lost run.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use anyhow::{Context, Result};
use cryptobench_core::protocol::{read_message, write_line, Job, WorkerMessage, PROTOCOL_VERSION};
use cryptobench_core::result::{BackendInfo, ConfigurationSpec, ConfigurationStatus, WorkerPlatform};

/// How a worker ended.
pub enum WorkerEnd {
    /// It said `done` and exited cleanly.
    Completed,
    /// It could not load its backend (said `unavailable`).
    Unavailable(String),
    /// It died or broke the protocol; the reason says how.
    Crashed(String),
    /// It said nothing for longer than the silence limit and was killed;
    /// the reason says what it was doing.
    TimedOut(String),
}

/// What a probe learns about a configuration.
#[derive(Clone)]
#[allow(clippy::large_enum_variant)] // a few probes per run, kept by configuration: size is no concern
pub enum Probe {
    Available {
        backend: BackendInfo,
        supported: Vec<String>,
        platform: Option<Box<WorkerPlatform>>,
        /// Whether the worker takes part in barriers (several workers at once).
        barrier: bool,
        /// The named extra work of the supported algorithms (id → one line
        /// per group of cells, "cells: work").
        extra_work: BTreeMap<String, String>,
    },
    Unavailable(String),
    /// The worker crashed or fell silent while probing: the configuration's status.
    Failed(ConfigurationStatus),
}

impl Probe {
    /// Why the configuration cannot be measured, where it cannot.
    pub fn problem(&self) -> Option<String> {
        match self {
            Probe::Available { .. } => None,
            Probe::Unavailable(reason) => Some(reason.clone()),
            Probe::Failed(status) => Some(status.reason().unwrap_or("failed").to_string()),
        }
    }
}

/// Keeps the last few KiB of the worker's stderr for crash reports.
const STDERR_TAIL: usize = 4096;

/// How long a probe (load the library, say hello) may stay silent: generous,
/// since a worker may run under an emulator.
pub const PROBE_SILENCE_LIMIT: Duration = Duration::from_secs(120);

/// The command that starts a configuration's worker: its own `worker`
/// command (an emulator, a driver in another language) or this executable.
pub fn worker_command(configuration: &ConfigurationSpec) -> Result<Command> {
    let mut command = match configuration.worker.as_deref() {
        Some([program, args @ ..]) => {
            let mut c = Command::new(program);
            c.args(args);
            c
        }
        Some([]) => anyhow::bail!("the worker command of {} is empty", configuration.display()),
        None => {
            let exe = std::env::current_exe().context("cannot find the cryptobench executable to start a worker")?;
            // An emulated orchestrator starts its workers through its own emulator:
            // without binfmt_misc the kernel cannot run them directly.
            match super::arch::own_emulator() {
                Some((qemu, described)) => {
                    let mut c = Command::new(qemu);
                    c.args(["-L", "/"]).arg(exe);
                    c.env(cryptobench_cpu::emulation::EMULATOR_ENV, described);
                    c
                }
                None => Command::new(exe),
            }
        }
    };
    command.arg("worker");
    Ok(command)
}

/// Runs a job to its end, handing every message to `on_message`. A worker
/// that says nothing for `silence_limit` is killed and reported as timed
/// out, with the last activity it announced.
pub fn run_job(job: &Job, silence_limit: Duration, mut on_message: impl FnMut(WorkerMessage)) -> Result<WorkerEnd> {
    let mut child = worker_command(&job.configuration)?
        .envs(&job.configuration.env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start a worker process for {}", job.configuration.display()))?;
    let mut stdin = child.stdin.take().expect("piped");
    let sent = write_line(&mut stdin, job);
    drop(stdin);
    let stderr_reader = stderr_tail(child.stderr.take().expect("piped"));
    // Lines arrive through a channel so that silence can be timed.
    let (lines_tx, lines) = mpsc::channel::<String>();
    let stdout = child.stdout.take().expect("piped");
    let stdout_reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });

    let mut done = false;
    let mut unavailable = None;
    let mut protocol_error = None;
    let mut timed_out = None;
    let mut activity = String::from("starting");
    loop {
        let line = match lines.recv_timeout(silence_limit) {
            Ok(line) => line,
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                timed_out = Some(format!(
                    "the worker said nothing for {} while {activity}; it was killed (raise --worker-timeout if the library is just slow)",
                    humantime::format_duration(silence_limit)
                ));
                break;
            }
        };
        match read_message(&line) {
            Ok(WorkerMessage::Hello { protocol, .. } | WorkerMessage::Unavailable { protocol, .. }) if protocol != PROTOCOL_VERSION => {
                protocol_error = Some(format!(
                    "worker speaks protocol {protocol}, this orchestrator {PROTOCOL_VERSION}; use one cryptobench binary"
                ));
                break;
            }
            Ok(WorkerMessage::Done) => done = true,
            Ok(WorkerMessage::Unavailable { reason, .. }) => unavailable = Some(reason),
            Ok(WorkerMessage::Activity { what }) => activity = what,
            Ok(message) => on_message(message),
            Err(e) => {
                protocol_error = Some(format!(
                    "worker wrote a line that is not a message ({e}): {}",
                    line.chars().take(200).collect::<String>()
                ));
                break;
            }
        }
    }
    if protocol_error.is_some() || timed_out.is_some() {
        let _ = child.kill();
    }
    let status = child.wait().context("cannot wait for the worker")?;
    drop(lines);
    let _ = stdout_reader.join();
    let stderr_tail = stderr_reader.join().unwrap_or_default();
    if let Some(reason) = timed_out {
        return Ok(WorkerEnd::TimedOut(reason));
    }
    if let Some(reason) = protocol_error {
        return Ok(WorkerEnd::Crashed(reason));
    }
    if let Some(reason) = unavailable {
        return Ok(WorkerEnd::Unavailable(reason));
    }
    if done && status.success() {
        return Ok(WorkerEnd::Completed);
    }
    if let Err(e) = sent {
        // The worker went away before reading its job: what it printed says why.
        let mut reason = format!("the worker did not take its job ({e})");
        if let Some(last) = stderr_tail.lines().rev().find(|l| !l.trim().is_empty()) {
            reason.push_str(&format!("; its last words: {}", last.trim()));
        }
        return Ok(WorkerEnd::Crashed(reason));
    }
    Ok(WorkerEnd::Crashed(describe_death(status, done, &stderr_tail)))
}

/// Reads a worker's stderr to its end on a thread and keeps the last
/// [`STDERR_TAIL`] bytes, for crash reports.
pub fn stderr_tail(mut stderr: std::process::ChildStderr) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        let start = text.len().saturating_sub(STDERR_TAIL);
        let start = (start..text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
        text[start..].trim().to_string()
    })
}

/// A job that only loads the configuration and says hello (the base of `verify` jobs too).
pub fn probe_job(configuration: &ConfigurationSpec, pin_cpu: Option<usize>) -> Job {
    Job {
        protocol: PROTOCOL_VERSION,
        configuration: configuration.clone(),
        probe_only: true,
        cells: Vec::new(),
        timing: cryptobench_harness::quick_timing(),
        pin_cpu,
        verify: None,
        barrier: false,
        skip_clock: Vec::new(),
        replicates: 1,
    }
}

/// Loads the configuration in a worker (pinned where given) and reads its hello.
pub fn probe(configuration: &ConfigurationSpec, pin_cpu: Option<usize>) -> Result<Probe> {
    probe_within(configuration, pin_cpu, PROBE_SILENCE_LIMIT)
}

/// [`probe`], killing a worker silent for `silence_limit` (a library that hangs while it loads).
pub fn probe_within(configuration: &ConfigurationSpec, pin_cpu: Option<usize>, silence_limit: Duration) -> Result<Probe> {
    let job = probe_job(configuration, pin_cpu);
    let mut hello = None;
    let end = run_job(&job, silence_limit, |m| {
        if let WorkerMessage::Hello {
            backend,
            supported,
            platform,
            barrier,
            extra_work,
            ..
        } = m
        {
            hello = Some((backend, supported, platform, barrier, extra_work));
        }
    })?;
    Ok(match (end, hello) {
        (WorkerEnd::Completed, Some((backend, supported, platform, barrier, extra_work))) => Probe::Available {
            backend,
            supported,
            platform: platform.map(Box::new),
            barrier,
            extra_work,
        },
        (WorkerEnd::Completed, None) => Probe::Unavailable("the worker said nothing about its backend".into()),
        (WorkerEnd::Unavailable(reason), _) => Probe::Unavailable(reason),
        // The library was loaded and then crashed or hung (in its initialisers, or
        // while the worker checked what it supports): not an absence, a failure.
        (WorkerEnd::Crashed(reason), _) => Probe::Failed(ConfigurationStatus::Crashed {
            reason: format!("while loading the library and checking what it supports: {reason}"),
        }),
        (WorkerEnd::TimedOut(reason), _) => Probe::Failed(ConfigurationStatus::TimedOut {
            reason: format!("while loading the library and checking what it supports: {reason}"),
        }),
    })
}

/// The probes made so far in a run, by configuration and CPU: each
/// configuration is loaded once before measuring, and what decides the
/// plan first (`--algos openssl-speed`: OpenSSL's version; `audit`: the
/// library's capability vector) reads the probe the run then uses.
pub struct Probes {
    made: Vec<(ConfigurationSpec, Option<usize>, Probe)>,
    /// How long a probing worker may stay silent (`--worker-timeout` where given).
    silence_limit: Duration,
}

impl Default for Probes {
    fn default() -> Probes {
        Probes::within(PROBE_SILENCE_LIMIT)
    }
}

impl Probes {
    /// Probes whose workers may stay silent for `silence_limit` at most.
    pub fn within(silence_limit: Duration) -> Probes {
        Probes {
            made: Vec::new(),
            silence_limit,
        }
    }

    /// The probe of `configuration` pinned to `pin_cpu`: made now, or the one made before.
    pub fn get(&mut self, configuration: &ConfigurationSpec, pin_cpu: Option<usize>) -> Result<&Probe> {
        let i = match self.made.iter().position(|(c, pin, _)| c == configuration && *pin == pin_cpu) {
            Some(i) => i,
            None => {
                let probe = probe_within(configuration, pin_cpu, self.silence_limit)?;
                self.made.push((configuration.clone(), pin_cpu, probe));
                self.made.len() - 1
            }
        };
        Ok(&self.made[i].2)
    }
}

pub fn describe_death(status: std::process::ExitStatus, said_done: bool, stderr_tail: &str) -> String {
    let mut reason = signal_of(&status)
        .map(|(n, name)| format!("worker killed by signal {n} ({name})"))
        .unwrap_or_else(|| match status.code() {
            Some(code) if said_done => format!("worker finished but exited with status {code}"),
            Some(code) => format!("worker exited with status {code} before finishing"),
            None => "worker ended abnormally".to_string(),
        });
    if let Some(last) = stderr_tail.lines().rev().find(|l| !l.trim().is_empty()) {
        reason.push_str(&format!("; its last words: {}", last.trim()));
    }
    reason
}

#[cfg(unix)]
fn signal_of(status: &std::process::ExitStatus) -> Option<(i32, String)> {
    use std::os::unix::process::ExitStatusExt;
    let n = status.signal()?;
    // SAFETY: strsignal returns a static description or NULL for any number.
    let name = unsafe { libc::strsignal(n) };
    let name = if name.is_null() {
        "unknown".into()
    } else {
        unsafe { std::ffi::CStr::from_ptr(name) }.to_string_lossy().into_owned()
    };
    Some((n, name))
}

#[cfg(not(unix))]
fn signal_of(_status: &std::process::ExitStatus) -> Option<(i32, String)> {
    None
}

//! Several workers measuring the same cells at the same time, each pinned
//! to its own CPU (`run --threads`), held in step by barriers: a worker
//! says where it waits (before its clock, before a cell's warm-up, before
//! each sample) and the orchestrator answers every worker once all of them
//! wait — `go`, or `stop` when every worker's own stop rule is met. So
//! sample k of every worker starts at once and the workers overlap for the
//! whole measurement. This is what `openssl speed -multi` approximates by
//! forking N children that run the same loop for the same time (apps/speed.c,
//! `do_multi`); here the overlap is enforced per sample instead of hoped for.
//!
//! One silence limit covers the group: a worker waiting at a barrier is
//! silent because another is busy, so only silence of all of them counts.
//! When one worker dies, the others are stopped: an aggregate of fewer
//! workers would not be the figure asked for.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use anyhow::{Context, Result};
use cryptobench_core::protocol::{read_message, write_line, BarrierPoint, Job, WorkerMessage, BARRIER_GO, BARRIER_STOP, PROTOCOL_VERSION};

use super::worker_client::{describe_death, stderr_tail, worker_command, WorkerEnd};

enum Event {
    Line(usize, String),
    Closed(usize),
}

/// Where a worker waits: (point, cell, its own rule met).
type Waiting = (BarrierPoint, usize, bool);

struct Member {
    child: Child,
    stdin: Option<ChildStdin>,
    live: bool,
    waiting: Option<Waiting>,
    done: bool,
    unavailable: Option<String>,
    activity: String,
    /// Stopped by the orchestrator because another worker failed.
    stopped: Option<String>,
}

/// Answers every waiting worker once all live workers wait.
fn release(members: &mut [Member]) {
    let live: Vec<usize> = (0..members.len()).filter(|&i| members[i].live).collect();
    if live.is_empty() || live.iter().any(|&i| members[i].waiting.is_none()) {
        return;
    }
    let first = members[live[0]].waiting.expect("all wait");
    let same = live.iter().all(|&i| {
        let w = members[i].waiting.expect("all wait");
        (w.0, w.1) == (first.0, first.1)
    });
    let all_done = live.iter().all(|&i| members[i].waiting.is_some_and(|w| w.2));
    for &i in &live {
        let (point, _, done) = members[i].waiting.take().expect("all wait");
        // In step, sampling stops only when every worker's rule is met; out of
        // step (a worker skipped a cell the others measure), each goes by its own.
        let stop = point == BarrierPoint::Sample && if same { all_done } else { done };
        if let Some(stdin) = members[i].stdin.as_mut() {
            // A worker that died meanwhile is seen when its stdout closes.
            let _ = writeln!(stdin, "{}", if stop { BARRIER_STOP } else { BARRIER_GO }).and_then(|_| stdin.flush());
        }
    }
}

fn stop_all(members: &mut [Member], why: &str) {
    for m in members.iter_mut().filter(|m| m.live) {
        m.stopped.get_or_insert_with(|| why.to_string());
        let _ = m.child.kill();
    }
}

/// Runs `jobs` (one per worker, each with `barrier` set and its own
/// `pin_cpu`) to their end, handing every other message to `on_message`
/// with the worker's position; returns how each worker ended.
pub fn run_group(jobs: &[Job], silence_limit: Duration, mut on_message: impl FnMut(usize, WorkerMessage)) -> Result<Vec<WorkerEnd>> {
    let (events_tx, events) = mpsc::channel::<Event>();
    let mut members = Vec::new();
    let mut stderr_readers = Vec::new();
    let mut stdout_readers = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        let mut child = match worker_command(&job.configuration)?
            .envs(&job.configuration.env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| {
                format!(
                    "cannot start worker {} of {} for {}",
                    i + 1,
                    jobs.len(),
                    job.configuration.display()
                )
            }) {
            Ok(c) => c,
            Err(e) => {
                stop_all(&mut members, "another worker could not be started");
                for m in &mut members {
                    let _ = m.child.wait();
                }
                return Err(e);
            }
        };
        let mut stdin = child.stdin.take().expect("piped");
        // The job is the first line; stdin stays open for the barrier's answers.
        let sent = write_line(&mut stdin, job);
        stderr_readers.push(stderr_tail(child.stderr.take().expect("piped")));
        let stdout = child.stdout.take().expect("piped");
        let tx = events_tx.clone();
        stdout_readers.push(std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(Event::Line(i, line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Event::Closed(i));
        }));
        members.push(Member {
            child,
            stdin: sent.is_ok().then_some(stdin),
            live: true,
            waiting: None,
            done: false,
            unavailable: None,
            activity: "starting".into(),
            stopped: None,
        });
    }
    drop(events_tx);
    let mut failure: Option<(usize, String)> = None;
    let mut timed_out: Option<String> = None;
    while members.iter().any(|m| m.live) {
        let event = match events.recv_timeout(silence_limit) {
            Ok(e) => e,
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                let doing: Vec<String> = members
                    .iter()
                    .zip(jobs)
                    .filter(|(m, _)| m.live && m.waiting.is_none())
                    .map(|(m, j)| format!("CPU {}: {}", j.pin_cpu.map(|c| c.to_string()).unwrap_or("?".into()), m.activity))
                    .collect();
                timed_out = Some(format!(
                    "the workers said nothing for {} ({}); they were killed (raise --worker-timeout if the library is just slow)",
                    humantime::format_duration(silence_limit),
                    doing.join("; ")
                ));
                stop_all(&mut members, "timed out");
                break;
            }
        };
        match event {
            Event::Closed(i) => {
                members[i].live = false;
                members[i].waiting = None;
                if !members[i].done && failure.is_none() && members[i].stopped.is_none() {
                    failure = Some((i, String::new()));
                    stop_all(&mut members, "another worker of the group ended before finishing");
                }
                release(&mut members);
            }
            Event::Line(i, line) => match read_message(&line) {
                Ok(WorkerMessage::Hello { protocol, .. } | WorkerMessage::Unavailable { protocol, .. }) if protocol != PROTOCOL_VERSION => {
                    failure.get_or_insert((
                        i,
                        format!("worker speaks protocol {protocol}, this orchestrator {PROTOCOL_VERSION}; use one cryptobench binary"),
                    ));
                    stop_all(&mut members, "another worker broke the protocol");
                }
                Ok(WorkerMessage::Barrier { point, cell, done }) => {
                    members[i].waiting = Some((point, cell, done));
                    release(&mut members);
                }
                Ok(WorkerMessage::Done) => members[i].done = true,
                Ok(WorkerMessage::Unavailable { reason, .. }) => members[i].unavailable = Some(reason),
                Ok(WorkerMessage::Activity { what }) => members[i].activity = what,
                Ok(message) => on_message(i, message),
                Err(e) => {
                    failure.get_or_insert((
                        i,
                        format!(
                            "worker wrote a line that is not a message ({e}): {}",
                            line.chars().take(200).collect::<String>()
                        ),
                    ));
                    stop_all(&mut members, "another worker broke the protocol");
                }
            },
        }
    }
    let mut ends = Vec::new();
    for ((m, reader), stdout_reader) in members.iter_mut().zip(stderr_readers).zip(stdout_readers) {
        m.stdin = None;
        let status = m.child.wait().context("cannot wait for a worker")?;
        let _ = stdout_reader.join();
        let tail = reader.join().unwrap_or_default();
        ends.push(if let Some(reason) = &timed_out {
            WorkerEnd::TimedOut(reason.clone())
        } else if let Some(reason) = m.unavailable.take() {
            WorkerEnd::Unavailable(reason)
        } else if m.done && status.success() {
            WorkerEnd::Completed
        } else if let Some(why) = m.stopped.as_ref().filter(|_| !m.done) {
            WorkerEnd::Crashed(format!("stopped: {why}"))
        } else {
            WorkerEnd::Crashed(describe_death(status, m.done, &tail))
        });
    }
    // A protocol error is the reason of the worker that made it.
    if let Some((i, reason)) = failure.filter(|(_, r)| !r.is_empty()) {
        ends[i] = WorkerEnd::Crashed(reason);
    }
    Ok(ends)
}

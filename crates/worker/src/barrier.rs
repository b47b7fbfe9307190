//! The worker's side of the barrier that keeps several workers measuring
//! the same cells in step (`run --threads`; protocol in
//! crates/core/src/protocol.rs): say where it waits, then read the
//! orchestrator's answer, `go` or `stop`, from stdin.
//!
//! Before a sample the worker waits for the answer busily for up to
//! [`SPIN`], as a worker that never stops computing would keep its CPU: a
//! task that sleeps and wakes every sample is favoured by the scheduler
//! over CPU-bound neighbours (Linux's EEVDF places a waking task ahead of
//! those that ran), which on a busy machine would give the workers more of
//! their CPUs than `openssl speed -multi`'s always-running children get.
//! Waits longer than that (another worker still verifying) block.

use std::io::{BufRead, Write};
use std::time::Duration;

use cryptobench_core::protocol::{write_line, BarrierPoint, WorkerMessage, BARRIER_GO, BARRIER_STOP};
use cryptobench_harness::Gate;

/// The longest a worker waits busily for the answer before it blocks.
pub const SPIN: Duration = Duration::from_millis(5);

/// Where the answers are read: the reader, and the file descriptor under
/// it to wait on busily (None: block at once, e.g. in tests).
pub struct Answers<'a> {
    pub reader: &'a mut dyn BufRead,
    pub fd: Option<i32>,
}

/// Waits busily until `fd` is readable or `limit` has passed.
#[cfg(unix)]
fn spin_until_readable(fd: i32, limit: Duration) {
    let start = std::time::Instant::now();
    let mut pfd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    while start.elapsed() < limit {
        // SAFETY: one valid pollfd, no timeout: returns at once.
        if unsafe { libc::poll(&mut pfd, 1, 0) } != 0 {
            return;
        }
        for _ in 0..64 {
            std::hint::spin_loop();
        }
    }
}

#[cfg(not(unix))]
fn spin_until_readable(_fd: i32, _limit: Duration) {}

/// Waits at `point` of cell `cell`; true for `go`, false for `stop`.
pub fn wait(out: &mut dyn Write, answers: &mut Answers, point: BarrierPoint, cell: usize, done: bool) -> Result<bool, String> {
    write_line(&mut &mut *out, &WorkerMessage::Barrier { point, cell, done }).map_err(|e| format!("cannot tell the orchestrator: {e}"))?;
    if let (Some(fd), BarrierPoint::Sample) = (answers.fd, point) {
        spin_until_readable(fd, SPIN);
    }
    let input = &mut *answers.reader;
    let mut line = String::new();
    match input.read_line(&mut line) {
        Ok(0) => Err("the orchestrator closed stdin while the worker waited at a barrier".into()),
        Ok(_) => match line.trim() {
            BARRIER_GO => Ok(true),
            BARRIER_STOP => Ok(false),
            other => Err(format!(
                "the orchestrator answered '{other}' at a barrier; expected {BARRIER_GO} or {BARRIER_STOP}"
            )),
        },
        Err(e) => Err(format!("cannot read the orchestrator's answer: {e}")),
    }
}

/// The barrier of one cell: before its warm-up and before each sample.
pub struct CellGate<'a, 'b> {
    out: &'a mut dyn Write,
    answers: &'a mut Answers<'b>,
    cell: usize,
}

impl<'a, 'b> CellGate<'a, 'b> {
    pub fn new(out: &'a mut dyn Write, answers: &'a mut Answers<'b>, cell: usize) -> CellGate<'a, 'b> {
        CellGate { out, answers, cell }
    }
}

impl Gate for CellGate<'_, '_> {
    fn start(&mut self) -> Result<(), String> {
        wait(self.out, self.answers, BarrierPoint::Cell, self.cell, false).map(|_| ())
    }

    fn next(&mut self, done: bool) -> Result<bool, String> {
        wait(self.out, self.answers, BarrierPoint::Sample, self.cell, done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_line_by_line() {
        let mut out = Vec::new();
        let mut input = std::io::Cursor::new(b"go\nstop\nmaybe\n".to_vec());
        let mut answers = Answers {
            reader: &mut input,
            fd: None,
        };
        let mut gate = CellGate::new(&mut out, &mut answers, 3);
        assert_eq!(gate.next(false), Ok(true));
        assert_eq!(gate.next(true), Ok(false));
        assert!(gate.next(true).unwrap_err().contains("'maybe'"));
        assert!(gate.next(true).unwrap_err().contains("closed stdin"));
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.lines()
                .next()
                .unwrap()
                .contains(r#""type":"barrier","point":"sample","cell":3,"done":false"#),
            "{text}"
        );
    }
}

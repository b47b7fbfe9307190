//! The worker's side of the barrier that keeps several workers measuring
//! the same cells in step (`run --threads`; protocol in
//! crates/core/src/protocol.rs): say where it waits, then read the
//! orchestrator's answer, `go` or `stop`, from stdin.

use std::io::{BufRead, Write};

use cryptobench_core::protocol::{BarrierPoint, WorkerMessage, BARRIER_GO, BARRIER_STOP};
use cryptobench_harness::Gate;

use crate::worker_client::send;

/// Waits at `point` of cell `cell`; true for `go`, false for `stop`.
pub fn wait(out: &mut dyn Write, input: &mut dyn BufRead, point: BarrierPoint, cell: usize, done: bool) -> Result<bool, String> {
    send(&mut &mut *out, &WorkerMessage::Barrier { point, cell, done }).map_err(|e| format!("cannot tell the orchestrator: {e}"))?;
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
pub struct CellGate<'a> {
    out: &'a mut dyn Write,
    input: &'a mut dyn BufRead,
    cell: usize,
}

impl<'a> CellGate<'a> {
    pub fn new(out: &'a mut dyn Write, input: &'a mut dyn BufRead, cell: usize) -> CellGate<'a> {
        CellGate { out, input, cell }
    }
}

impl Gate for CellGate<'_> {
    fn start(&mut self) -> Result<(), String> {
        wait(self.out, self.input, BarrierPoint::Cell, self.cell, false).map(|_| ())
    }

    fn next(&mut self, done: bool) -> Result<bool, String> {
        wait(self.out, self.input, BarrierPoint::Sample, self.cell, done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_line_by_line() {
        let mut out = Vec::new();
        let mut input = std::io::Cursor::new(b"go\nstop\nmaybe\n".to_vec());
        let mut gate = CellGate::new(&mut out, &mut input, 3);
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

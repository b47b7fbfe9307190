//! The timed interface the harness drives: one prepared cell. The loops
//! that implement it are written once (crates/backends/src/timed/); a
//! library supplies sessions, never a `Primitive` of its own, except a
//! language runtime, whose loop runs inside the runtime and is forwarded
//! (crates/backends/src/libraries/runtime/forwarded.rs).

use crate::error::BackendError;
use crate::named::Allocation;

/// One prepared operation. The loop lives inside `run`, so dynamic dispatch
/// costs once per sample, not once per call.
pub trait Primitive {
    /// Performs the operation `iterations` times over `buf` (in place, or
    /// into `buf` from the prepared ciphertext when decrypting messages).
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError>;
    /// The digest or tag of the last call, where the operation has one.
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(None)
    }
    /// Which code path ran, where the library says so (e.g. "aesni", "soft").
    fn implementation(&self) -> Option<String> {
        None
    }
    /// Work each call does beyond what its mode names, which the library
    /// cannot avoid: a named exception (docs/METHOD.md, "Equal work").
    fn extra_work(&self) -> Option<String> {
        None
    }
    /// Why a timed call allocates on the heap, where the library cannot
    /// avoid it, and on which heap: a named exception (docs/METHOD.md);
    /// None: no call allocates.
    fn allocates(&self) -> Option<Allocation> {
        None
    }
    /// The last `run`'s wall time and, where known, CPU time in nanoseconds,
    /// as measured inside the code that ran the loop. Runtime backends time
    /// their loop inside the runtime (the pipe to the driver is then no part
    /// of a sample); the harness uses this instead of its own clock when present.
    fn inside_timing(&self) -> Option<(u64, Option<u64>)> {
        None
    }
    /// Whether each message sets the key again although the cell does not
    /// ask for it (a runtime whose keyed objects end with their message);
    /// `extra_work` then says so in words.
    fn keys_every_message(&self) -> bool {
        false
    }
    /// The CPU time of the timed thread and of the whole process over the
    /// last `samples` runs, where the code that ran the loop reports both
    /// (runtimes). None where it does not, or where those runs were not all
    /// of one length (so not the samples alone).
    fn cpu_times(&self, samples: usize) -> Option<cryptobench_core::result::CpuTimes> {
        let _ = samples;
        None
    }
    /// The least warm-up, in nanoseconds, before this primitive's samples are
    /// representative: a JIT compiler must first compile the loop and the
    /// library's hot methods. The harness warms up at least this long.
    fn min_warmup_ns(&self) -> u64 {
        0
    }
}

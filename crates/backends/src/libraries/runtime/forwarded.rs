//! A cell prepared inside a driver, known on the Rust side by its handle:
//! the one timed primitive that is not a loop of crates/backends/src/timed/,
//! since a runtime times its own loop. `run` sends the buffer, the driver
//! runs the calls in its own loop, times the loop itself (wall clock, the
//! thread's and the process's CPU time) and sends the buffer back; nothing
//! here allocates. A driver whose API cannot keep a keyed object across
//! messages says so when the cell is prepared, and the cell names it.

use std::cell::RefCell;

use cryptobench_core::result::CpuTimes;
use cryptobench_core::{CellSpec, Mode, Operation};

use super::pipe::Driver;
use crate::backend::{CellInputs, Sealed};
use crate::error::BackendError;
use crate::primitive::Primitive;

/// A cell as the driver's `prepare` request names it.
pub struct CellRequest<'c> {
    pub handle: u64,
    pub cell: &'c CellSpec,
    /// The catalog id (symmetric or public key).
    pub alg: &'c str,
    /// A digest's cell sends no key and no IV.
    pub keyless: bool,
    /// Key and IV; a public-key cell sends its private key (PKCS#8) as the
    /// key and its public key (SubjectPublicKeyInfo) as the IV (runtime/pk.rs).
    pub inputs: &'c CellInputs,
    /// The buffer's length the cell is prepared for.
    pub size: usize,
    /// The genuine message a message decryption decrypts (empty otherwise).
    pub sealed: &'c Sealed,
}

fn operation(op: Operation) -> &'static str {
    match op {
        Operation::Encrypt => "encrypt",
        Operation::Decrypt => "decrypt",
        Operation::Digest => "digest",
        Operation::Mac => "mac",
        // Public-key cells (runtime/pk.rs).
        Operation::Sign => "sign",
        Operation::Verify => "verify",
        Operation::Keygen => "keygen",
        Operation::Encaps => "encaps",
        Operation::Decaps => "decaps",
        Operation::Derive => "derive",
    }
}

pub struct RuntimePrimitive<'a> {
    driver: &'a RefCell<Driver>,
    name: &'static str,
    handle: u64,
    /// A message decryption decrypts the prepared ciphertext: the buffer must have its length.
    fixed_len: Option<usize>,
    /// The runtime's call per iteration, as the driver names it.
    call: String,
    warmup_ns: u64,
    /// Wall and thread CPU nanoseconds of the last `run`, measured inside the runtime.
    last: Option<(u64, Option<u64>)>,
    /// The driver says each message sets the key again, the cell asking for none.
    keys_every_message: bool,
    /// CPU times of the latest runs of one length (the samples, once sampling began).
    cpu: CpuRuns,
}

/// Thread and process CPU time summed over consecutive runs of one
/// iteration count: the harness samples with one count after warming up
/// and calibrating with others, so after a measurement these are its
/// samples' (crates/harness/src/measure.rs), counted to be sure.
#[derive(Default)]
struct CpuRuns {
    iterations: u64,
    runs: usize,
    thread_ns: Option<u64>,
    process_ns: Option<u64>,
}

impl CpuRuns {
    fn add(&mut self, iterations: u64, thread_ns: Option<u64>, process_ns: Option<u64>) {
        if iterations != self.iterations || self.runs == 0 {
            *self = CpuRuns {
                iterations,
                runs: 0,
                thread_ns: Some(0),
                process_ns: Some(0),
            };
        }
        self.runs += 1;
        self.thread_ns = self.thread_ns.zip(thread_ns).map(|(a, b)| a + b);
        self.process_ns = self.process_ns.zip(process_ns).map(|(a, b)| a + b);
    }
}

impl<'a> RuntimePrimitive<'a> {
    /// Prepares `c` in the driver (`prepare H ALG OP MODE REKEY SIZE …`, docs/ARCHITECTURE.md).
    /// Stream mode carries no AAD (as in every library).
    pub fn prepare(driver: &'a RefCell<Driver>, name: &'static str, c: CellRequest<'_>, warmup_ns: u64) -> Result<Self, BackendError> {
        let (cell, alg) = (c.cell, c.alg);
        let aad: &[u8] = if cell.mode == Mode::Message { &c.inputs.aad } else { &[] };
        let (key, iv): (&[u8], &[u8]) = if c.keyless { (&[], &[]) } else { (&c.inputs.key, &c.inputs.iv) };
        let (ciphertext, tag) = (&c.sealed.ciphertext, &c.sealed.tag);
        let call = {
            let mut d = driver.borrow_mut();
            d.send(
                format_args!(
                    "prepare {} {} {} {} {} {} {} {} {} {} {}",
                    c.handle,
                    alg,
                    operation(cell.operation),
                    cell.mode.name(),
                    u8::from(cell.rekey),
                    c.size,
                    key.len(),
                    iv.len(),
                    aad.len(),
                    ciphertext.len(),
                    tag.len()
                ),
                &[key, iv, aad, ciphertext, tag],
            )?;
            let v = d.ok()?;
            let call = String::from_utf8_lossy(&d.read_vec(v.get(0, name)?)?).into_owned();
            // `ok N K`: K = 1 where each message sets the key again (absent from older drivers).
            (call, v.optional(1) == Some(1))
        };
        let (call, keyed) = call;
        let decrypts_message = cell.operation == Operation::Decrypt && cell.mode == Mode::Message;
        Ok(RuntimePrimitive {
            driver,
            name,
            handle: c.handle,
            fixed_len: decrypts_message.then_some(c.size),
            call,
            warmup_ns,
            last: None,
            keys_every_message: keyed && cell.mode == Mode::Message && !cell.rekey,
            cpu: CpuRuns::default(),
        })
    }
}

impl Primitive for RuntimePrimitive<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        if let Some(n) = self.fixed_len.filter(|&n| n != buf.len()) {
            return Err(BackendError::Invalid(format!(
                "the buffer has {} bytes, the prepared message {n}",
                buf.len()
            )));
        }
        let mut d = self.driver.borrow_mut();
        d.send(format_args!("run {} {iterations} {}", self.handle, buf.len()), &[buf])?;
        // `ok WALL THREAD_CPU PROCESS_CPU` (`-` where unknown; older drivers send no process CPU).
        let v = d.ok()?;
        d.read_into(buf)?;
        self.last = Some((v.get(0, self.name)?.max(1), v.optional(1)));
        self.cpu.add(iterations, v.optional(1), v.optional(2));
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        let mut d = self.driver.borrow_mut();
        d.send(format_args!("output {}", self.handle), &[])?;
        match d.reply()? {
            None => Ok(None),
            Some(v) => Ok(Some(d.read_vec(v.get(0, self.name)?)?)),
        }
    }

    fn implementation(&self) -> Option<String> {
        Some(self.call.clone())
    }

    fn inside_timing(&self) -> Option<(u64, Option<u64>)> {
        self.last
    }

    fn extra_work(&self) -> Option<String> {
        self.keys_every_message.then(|| {
            format!(
                "sets the key for every message, the cell asking for none: the runtime keeps no keyed object across messages ({}); \
                 its binding cost is taken against the C library's message+rekey row",
                self.call
            )
        })
    }

    fn keys_every_message(&self) -> bool {
        self.keys_every_message
    }

    fn cpu_times(&self, samples: usize) -> Option<CpuTimes> {
        if samples == 0 || self.cpu.runs != samples {
            return None;
        }
        Some(CpuTimes {
            thread_ns: self.cpu.thread_ns?,
            process_ns: self.cpu.process_ns?,
        })
    }

    fn min_warmup_ns(&self) -> u64 {
        self.warmup_ns
    }
}

impl Drop for RuntimePrimitive<'_> {
    /// The driver forgets the cell (its objects and buffers).
    fn drop(&mut self) {
        let mut d = self.driver.borrow_mut();
        if d.send(format_args!("free {}", self.handle), &[]).is_ok() {
            let _ = d.reply();
        }
    }
}

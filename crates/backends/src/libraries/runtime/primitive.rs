//! A cell prepared inside a driver, known on the Rust side by its handle.
//! `run` sends the buffer, the driver runs the calls in its own loop, times
//! the loop itself and sends the buffer back; nothing here allocates.

use std::cell::RefCell;

use super::pipe::Driver;
use crate::error::BackendError;
use crate::primitive::Primitive;

pub struct RuntimePrimitive<'a> {
    driver: &'a RefCell<Driver>,
    name: &'static str,
    handle: u64,
    /// A message decryption decrypts the prepared ciphertext: the buffer must have its length.
    fixed_len: Option<usize>,
    /// The runtime's call per iteration, as the driver names it.
    call: String,
    warmup_ns: u64,
    /// Wall and CPU nanoseconds of the last `run`, measured inside the runtime.
    last: Option<(u64, Option<u64>)>,
}

impl<'a> RuntimePrimitive<'a> {
    pub fn new(
        driver: &'a RefCell<Driver>,
        name: &'static str,
        handle: u64,
        fixed_len: Option<usize>,
        call: String,
        warmup_ns: u64,
    ) -> Self {
        RuntimePrimitive {
            driver,
            name,
            handle,
            fixed_len,
            call,
            warmup_ns,
            last: None,
        }
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
        let v = d.ok()?;
        d.read_into(buf)?;
        self.last = Some((v.get(0, self.name)?.max(1), v.optional(1)));
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

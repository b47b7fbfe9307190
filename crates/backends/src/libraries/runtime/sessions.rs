//! The sessions of a runtime, for everything but its timed cells: each
//! call is one of the driver's one-shot requests (`encrypt`, `decrypt`,
//! `digest`, `mac`; docs/ARCHITECTURE.md, "The pipe protocol"), so the
//! known answers, round trips, tamper checks, agreement and Wycheproof
//! vectors of the Rust side reach the runtime's library unchanged. A
//! runtime's timed cells never use these sessions: their loop runs in the
//! driver (forwarded.rs), and so does every stream.

use std::cell::RefCell;

use super::pipe::Driver;
use crate::error::BackendError;
use crate::sessions::{unsupported, CipherSession, DigestSession};

/// Copies what the driver returned into `out`, which must be as long.
fn fill(name: &'static str, got: &[u8], out: &mut [u8], what: &str) -> Result<(), BackendError> {
    if got.len() != out.len() {
        return Err(BackendError::Call {
            call: name,
            detail: format!("it returned {} bytes of {what} where {} were due", got.len(), out.len()),
        });
    }
    out.copy_from_slice(got);
    Ok(())
}

/// A cipher of the runtime under one key: every message is one request.
pub struct DriverCipher<'a> {
    pub driver: &'a RefCell<Driver>,
    pub name: &'static str,
    pub alg: &'static str,
    pub key: Vec<u8>,
}

impl CipherSession for DriverCipher<'_> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.key = key.to_vec();
        Ok(())
    }

    fn update(&mut self, _buf: &mut [u8]) -> Result<(), BackendError> {
        Err(unsupported(format!(
            "{} streamed outside the driver (a runtime streams in the cells its driver prepares)",
            self.alg
        )))
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let mut d = self.driver.borrow_mut();
        d.send(
            format_args!("encrypt {} {} {} {} {}", self.alg, self.key.len(), iv.len(), aad.len(), buf.len()),
            &[&self.key, iv, aad, buf],
        )?;
        let v = d.ok()?;
        let ciphertext = d.read_vec(v.get(0, self.name)?)?;
        let tag_out = d.read_vec(v.get(1, self.name)?)?;
        fill(self.name, &ciphertext, buf, "ciphertext")?;
        fill(self.name, &tag_out, tag, "tag")
    }

    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        let mut d = self.driver.borrow_mut();
        d.send(
            format_args!(
                "decrypt {} {} {} {} {} {}",
                self.alg,
                self.key.len(),
                iv.len(),
                aad.len(),
                input.len(),
                tag.len()
            ),
            &[&self.key, iv, aad, input, tag],
        )?;
        let v = d.ok()?;
        let plaintext = d.read_vec(v.get(0, self.name)?)?;
        fill(self.name, &plaintext, out, "plaintext")
    }
}

/// A digest of the runtime, or a MAC under `key`: `message` is one
/// request; what `stream` updates is kept here and sent whole as one
/// request when read (these sessions are never timed).
pub struct DriverDigest<'a> {
    pub driver: &'a RefCell<Driver>,
    pub name: &'static str,
    pub alg: &'static str,
    /// A MAC's key; None for a digest.
    pub key: Option<Vec<u8>>,
    /// Everything updated so far.
    pub updated: Vec<u8>,
}

impl DriverDigest<'_> {
    /// The digest or tag of `msg`, one request.
    fn request(&self, msg: &[u8]) -> Result<Vec<u8>, BackendError> {
        let mut d = self.driver.borrow_mut();
        match &self.key {
            None => d.send(format_args!("digest {} {}", self.alg, msg.len()), &[msg])?,
            Some(key) => d.send(format_args!("mac {} {} {}", self.alg, key.len(), msg.len()), &[key, msg])?,
        }
        let v = d.ok()?;
        d.read_vec(v.get(0, self.name)?)
    }
}

impl DigestSession for DriverDigest<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        fill(self.name, &self.request(msg)?, out, "digest")
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        self.updated.extend_from_slice(msg);
        Ok(())
    }

    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        self.request(&self.updated)
    }
}

//! The timed operations over AF_ALG operation sockets: every call is at
//! least one `sendmsg` and one `read` system call, which is the price of the
//! kernel path and part of what is measured.

use super::socket::{Control, Op, Tfm, CHUNK};
use super::{aead_read, aead_send, hash, os_error, skcipher};
use crate::error::BackendError;
use crate::primitive::Primitive;

/// `stream`: one operation socket; the first update carries the operation and
/// IV, later ones only data with MSG_MORE, so the kernel chains through its
/// IV. XTS: every update is one data unit under the IV.
pub struct CipherStream {
    pub _tfm: Tfm,
    pub op: Op,
    pub encrypt: bool,
    pub iv: Vec<u8>,
    pub xts: bool,
    pub started: bool,
    pub implementation: Option<String>,
}

impl Primitive for CipherStream {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let op = if self.encrypt { libc::ALG_OP_ENCRYPT } else { libc::ALG_OP_DECRYPT };
        for _ in 0..iterations {
            if self.xts {
                skcipher(&self.op, self.encrypt, &self.iv, true, None, buf)?;
                continue;
            }
            let mut at = 0;
            while at < buf.len() {
                let n = CHUNK.min(buf.len() - at);
                let control = if self.started {
                    Control::default()
                } else {
                    Control {
                        op: Some(op),
                        iv: (!self.iv.is_empty()).then_some(&self.iv[..]),
                        assoclen: None,
                    }
                };
                self.op
                    .send(&control, &[&buf[at..at + n]], true)
                    .map_err(|e| os_error("sendmsg", e))?;
                self.started = true;
                self.op.read(&mut buf[at..at + n]).map_err(|e| os_error("read", e))?;
                at += n;
            }
        }
        Ok(())
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

/// `message` for plain ciphers: one request per call with the operation and
/// IV (key kept on the socket); encryption sends the buffer and reads the
/// result back into it, decryption sends the prepared ciphertext.
pub struct CipherMessage {
    pub _tfm: Tfm,
    pub op: Op,
    pub encrypt: bool,
    pub iv: Vec<u8>,
    pub xts: bool,
    pub ciphertext: Vec<u8>,
    pub implementation: Option<String>,
}

impl Primitive for CipherMessage {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        if !self.encrypt && self.ciphertext.len() != buf.len() {
            return Err(BackendError::Invalid("buffer and prepared ciphertext differ in length".into()));
        }
        let input = (!self.encrypt).then_some(&self.ciphertext[..]);
        for _ in 0..iterations {
            skcipher(&self.op, self.encrypt, &self.iv, self.xts, input, buf)?;
        }
        Ok(())
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

/// AEAD `message`: one request per call (operation, IV, AAD length; AAD ‖ data
/// in; AAD ‖ data ‖ tag out, read straight into a scratch for the AAD, the
/// buffer and the tag); decryption sends the prepared ciphertext and the
/// genuine tag and fails with EBADMSG otherwise.
pub struct AeadMessage {
    pub _tfm: Tfm,
    pub op: Op,
    pub encrypt: bool,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
    pub tag: Vec<u8>,
    pub ciphertext: Vec<u8>,
    /// Where the kernel's copy of the AAD is read to.
    pub aad_out: Vec<u8>,
    pub implementation: Option<String>,
}

impl Primitive for AeadMessage {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        if !self.encrypt && self.ciphertext.len() != buf.len() {
            return Err(BackendError::Invalid("buffer and prepared ciphertext differ in length".into()));
        }
        for _ in 0..iterations {
            if self.encrypt {
                aead_send(&self.op, true, &self.iv, &self.aad, &[&*buf])?;
                aead_read(&self.op, &mut [&mut self.aad_out, buf, &mut self.tag])?;
            } else {
                aead_send(&self.op, false, &self.iv, &self.aad, &[&self.ciphertext, &self.tag])?;
                aead_read(&self.op, &mut [&mut self.aad_out, buf])?;
            }
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.tag.clone()))
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

/// Digest `message`: the message with MSG_MORE, the final, and a read of the digest.
pub struct DigestMessage {
    pub _tfm: Tfm,
    pub op: Op,
    pub out: Vec<u8>,
    pub implementation: Option<String>,
}

impl Primitive for DigestMessage {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            hash(&self.op, buf, &mut self.out)?;
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out.clone()))
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

/// Digest `stream`: updates with MSG_MORE; the value is read from a copy of
/// the state (`accept` on the operation socket, algif_hash `hash_accept`).
pub struct DigestStream {
    pub _tfm: Tfm,
    pub op: Op,
    pub out: Vec<u8>,
    pub implementation: Option<String>,
}

impl Primitive for DigestStream {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            for chunk in buf.chunks(CHUNK) {
                self.op
                    .send(&Control::default(), &[chunk], true)
                    .map_err(|e| os_error("sendmsg", e))?;
            }
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        let copy = self.op.clone_state().map_err(|e| os_error("accept", e))?;
        copy.read(&mut self.out).map_err(|e| os_error("read", e))?;
        Ok(Some(self.out.clone()))
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

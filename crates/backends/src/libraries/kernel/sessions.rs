//! The kernel's calls behind the shared timed loops
//! (crates/backends/src/timed/): a session owns a bound, keyed
//! transformation socket and one operation socket accepted from it, and each
//! call is one request on the operation socket (calls.rs).

use super::calls::{aead_read, aead_send, hash, hash_update, os_error, skcipher, skcipher_update};
use super::socket::{Op, Tfm, CHUNK};
use crate::error::BackendError;
use crate::sessions::{unsupported, CipherSession, DigestSession};

/// Why the kernel cannot rekey: the reason of `--rekey` cells.
pub const NO_REKEY: &str = "AF_ALG refuses a new key while an operation socket is open";

/// Why an AEAD socket cannot stream: the reason of its `stream` cells.
pub const NO_AEAD_STREAM: &str = "algif_aead processes whole messages only; use --mode message";

/// A skcipher or AEAD operation socket. `stream`: the first update carries
/// the operation and IV, later ones only data with MSG_MORE, so the kernel
/// chains through its IV (XTS: every update is one data unit under the IV).
/// `message`: one request per call with the operation and IV, the key kept
/// on the socket; an AEAD request is AAD ‖ data in, AAD ‖ data ‖ tag out,
/// and its decryption reads ciphertext ‖ tag ([`CipherSession::tag_appended`]).
pub struct KernelCipher {
    pub _tfm: Tfm,
    pub op: Op,
    /// The direction of `stream` updates.
    pub encrypt: bool,
    pub aead: bool,
    pub xts: bool,
    /// The cipher's block: a stream update is a whole number of them.
    pub block: usize,
    /// The IV a stream starts from.
    pub iv: Vec<u8>,
    /// Whether the stream's first update (operation and IV) was sent.
    pub started: bool,
    /// Where the kernel's copy of an AEAD's AAD is read to: room for the
    /// most a request holds, so that no call allocates (empty for other
    /// ciphers). The kernel reads the AAD back from there, so it must be
    /// as long as the AAD.
    pub aad_out: Vec<u8>,
}

/// The part of `scratch` that the kernel's copy of an AAD of `len` bytes is read to.
fn aad_out(scratch: &mut [u8], len: usize) -> Result<&mut [u8], BackendError> {
    scratch
        .get_mut(..len)
        .ok_or_else(|| unsupported(format!("kernel AEAD AAD above {CHUNK} bytes (algif_aead takes one request whole)")))
}

/// The scratch of [`KernelCipher::aad_out`] for a cipher (`aead`) or none.
pub fn aad_scratch(aead: bool) -> Vec<u8> {
    if aead {
        vec![0; CHUNK]
    } else {
        Vec::new()
    }
}

impl CipherSession for KernelCipher {
    fn rekey(&mut self, _key: &[u8]) -> Result<(), BackendError> {
        Err(unsupported(format!("--rekey ({NO_REKEY})")))
    }

    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        if self.aead {
            return Err(unsupported(format!("an AEAD socket in stream mode ({NO_AEAD_STREAM})")));
        }
        if self.xts {
            return skcipher(&self.op, self.encrypt, &self.iv, true, None, buf);
        }
        skcipher_update(&self.op, self.encrypt, &self.iv, self.block, &mut self.started, buf)
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        if !self.aead {
            return skcipher(&self.op, true, iv, self.xts, None, buf);
        }
        aead_send(&self.op, true, iv, aad, buf)?;
        let aad_out = aad_out(&mut self.aad_out, aad.len())?;
        aead_read(&self.op, &mut [aad_out, buf, tag])
    }

    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        if !self.aead {
            return skcipher(&self.op, false, iv, self.xts, Some(input), out);
        }
        aead_send(&self.op, false, iv, aad, input)?;
        let aad_out = aad_out(&mut self.aad_out, aad.len())?;
        aead_read(&self.op, &mut [aad_out, out])
    }

    fn tag_appended(&self) -> bool {
        self.aead
    }
}

/// A hash operation socket. `message`: the message with MSG_MORE, the
/// final, and a read of the digest; `stream`: updates with MSG_MORE, the
/// value read from a copy of the state (`accept` on the operation socket,
/// algif_hash `hash_accept`).
pub struct KernelDigest {
    pub _tfm: Tfm,
    pub op: Op,
    pub len: usize,
}

impl DigestSession for KernelDigest {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        hash(&self.op, msg, out)
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        hash_update(&self.op, msg)
    }

    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let copy = self.op.clone_state().map_err(|e| os_error("accept", e))?;
        let mut out = vec![0u8; self.len];
        copy.read(&mut out).map_err(|e| os_error("read", e))?;
        Ok(out)
    }
}

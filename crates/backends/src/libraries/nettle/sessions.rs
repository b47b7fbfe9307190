//! Nettle's sessions behind the shared timed loops
//! (crates/backends/src/timed/; docs/METHOD.md lists the calls per mode):
//! a keyed cipher context (cipher.rs) and a `struct nettle_hash` context.

use super::api::NettleHash;
use super::cipher::Keyed;
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::sessions::{CipherSession, DigestSession};

/// One keyed context for one direction. `stream` is one mode call in place
/// per call, the chaining value (CBC/CFB IV, CTR counter, GCM/ChaCha state)
/// carried on (only the last update of a stream may be a partial block:
/// the library refuses sizes that would make every update partial);
/// `message` is the IV or nonce on the kept key (`--rekey`: the key
/// schedule first), an AEAD's AAD (`*_update`), one mode call over the
/// message and the tag (`*_digest`). Decryption compares the computed tag
/// with the genuine one (Nettle 3.8 has no verifying decrypt).
pub struct NettleCipher<'a> {
    pub keyed: Keyed<'a>,
    pub aead: bool,
}

impl NettleCipher<'_> {
    /// IV, AAD and one mode call from `src` into `dst` (the same pointer for in place).
    ///
    /// # Safety
    /// `src` and `dst` must be valid for `len` bytes.
    unsafe fn message(&mut self, iv: &[u8], aad: &[u8], dst: *mut u8, src: *const u8, len: usize) {
        self.keyed.set_iv(iv);
        if self.aead {
            self.keyed.aad(aad);
        }
        // SAFETY: per the contract.
        unsafe { self.keyed.crypt(dst, src, len) };
    }
}

impl CipherSession for NettleCipher<'_> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.keyed.set_key(key)
    }

    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let p = buf.as_mut_ptr();
        // SAFETY: in place over the buffer.
        unsafe { self.keyed.crypt(p, p, buf.len()) };
        Ok(())
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let p = buf.as_mut_ptr();
        // SAFETY: in place over the buffer.
        unsafe { self.message(iv, aad, p, p, buf.len()) };
        if self.aead {
            self.keyed.digest(tag);
        }
        Ok(())
    }

    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        if input.len() != out.len() {
            return Err(BackendError::Invalid("ciphertext and output differ in length".into()));
        }
        // SAFETY: both cover the same length.
        unsafe { self.message(iv, aad, out.as_mut_ptr(), input.as_ptr(), input.len()) };
        if self.aead {
            let mut computed = [0u8; 16];
            let computed = computed.get_mut(..tag.len()).ok_or(BackendError::AuthenticationFailed)?;
            self.keyed.digest(computed);
            if !self.keyed.tags_equal(computed, tag) {
                return Err(BackendError::AuthenticationFailed);
            }
        }
        Ok(())
    }
}

/// A digest described by its `struct nettle_hash`: `message` is init,
/// update, digest (Nettle has no one-shot hash call); `stream` updates one
/// context, the value read from a byte copy of it.
pub struct HashSession<'a> {
    hash: &'a NettleHash,
    ctx: CtxMem,
}

impl<'a> HashSession<'a> {
    /// A context of the hash's size, initialised for `stream` updates.
    pub fn new(hash: &'a NettleHash) -> HashSession<'a> {
        let mut ctx = CtxMem::new(hash.context_size as usize);
        // SAFETY: the context has the hash's context_size.
        unsafe { (hash.init)(ctx.ptr()) };
        HashSession { hash, ctx }
    }

    fn len(&self) -> usize {
        self.hash.digest_size as usize
    }
}

impl DigestSession for HashSession<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        let (h, len) = (self.hash, self.len());
        if out.len() < len {
            return Err(BackendError::Invalid("the digest buffer is shorter than the digest".into()));
        }
        // SAFETY: the context has the hash's context_size; out holds its digest_size.
        unsafe {
            (h.init)(self.ctx.ptr());
            (h.update)(self.ctx.ptr(), msg.len(), msg.as_ptr());
            (h.digest)(self.ctx.ptr(), len, out.as_mut_ptr());
        }
        Ok(())
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: an initialised context of the hash's size.
        unsafe { (self.hash.update)(self.ctx.ptr(), msg.len(), msg.as_ptr()) };
        Ok(())
    }

    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut copy = self.ctx.clone();
        let mut out = vec![0u8; self.len()];
        // SAFETY: as above.
        unsafe { (self.hash.digest)(copy.ptr(), out.len(), out.as_mut_ptr()) };
        Ok(out)
    }
}

//! Nettle's timed operations (docs/METHOD.md lists the calls per mode).

use super::api::NettleHash;
use super::cipher::Keyed;
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::primitive::Primitive;

/// `stream`: one keyed context; each call is one mode call in place,
/// the chaining value (CBC/CFB IV, CTR counter, GCM/ChaCha state) carried on.
/// Only the last update of a stream may be a partial block (`prepare` refuses
/// sizes that would make every update partial).
pub struct CipherStream<'a> {
    pub keyed: Keyed<'a>,
}

impl Primitive for CipherStream<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let (p, n) = (buf.as_mut_ptr(), buf.len());
        for _ in 0..iterations {
            // SAFETY: in place over `n` bytes of `buf`.
            unsafe { self.keyed.crypt(p, p, n) };
        }
        Ok(())
    }
}

/// `message`: IV/nonce on the kept key (`rekey`: key schedule first), AEAD:
/// AAD, one mode call over the message, tag (`*_digest`); decryption
/// decrypts the prepared ciphertext into the buffer and compares the
/// computed tag with the genuine one (Nettle 3.8 has no verifying decrypt).
pub struct CipherMessage<'a> {
    pub keyed: Keyed<'a>,
    pub encrypt: bool,
    pub rekey: bool,
    pub aead: bool,
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
    pub tag: Vec<u8>,
    pub expected_tag: Vec<u8>,
    pub ciphertext: Vec<u8>,
}

impl Primitive for CipherMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        if !self.encrypt && self.ciphertext.len() != buf.len() {
            return Err(BackendError::Invalid("buffer and prepared ciphertext differ in length".into()));
        }
        let (out, n) = (buf.as_mut_ptr(), buf.len());
        let src = if self.encrypt { out as *const u8 } else { self.ciphertext.as_ptr() };
        for _ in 0..iterations {
            if self.rekey {
                self.keyed.set_key(&self.key)?;
            }
            self.keyed.set_iv(&self.iv);
            if self.aead {
                self.keyed.aad(&self.aad);
            }
            // SAFETY: `src` and `out` cover `n` bytes.
            unsafe { self.keyed.crypt(out, src, n) };
            if self.aead {
                self.keyed.digest(&mut self.tag);
                if !self.encrypt && !self.keyed.tags_equal(&self.tag, &self.expected_tag) {
                    return Err(BackendError::AuthenticationFailed);
                }
            }
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(self.aead.then(|| self.tag.clone()))
    }
}

/// Digest `message`: Nettle has no one-shot hash call, so init, update, digest per message.
pub struct DigestMessage<'a> {
    pub hash: &'a NettleHash,
    pub ctx: CtxMem,
    pub out: Vec<u8>,
}

impl Primitive for DigestMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let h = self.hash;
        for _ in 0..iterations {
            // SAFETY: the context has the hash's context_size; out has its digest_size.
            unsafe {
                (h.init)(self.ctx.ptr());
                (h.update)(self.ctx.ptr(), buf.len(), buf.as_ptr());
                (h.digest)(self.ctx.ptr(), self.out.len(), self.out.as_mut_ptr());
            }
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out.clone()))
    }
}

/// Digest `stream`: updates on one context; the value is read from a byte copy of it.
pub struct DigestStream<'a> {
    pub hash: &'a NettleHash,
    pub ctx: CtxMem,
}

impl Primitive for DigestStream<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: initialised context of the hash's size.
            unsafe { (self.hash.update)(self.ctx.ptr(), buf.len(), buf.as_ptr()) };
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        let mut copy = self.ctx.clone();
        let mut out = vec![0u8; self.hash.digest_size as usize];
        // SAFETY: as above.
        unsafe { (self.hash.digest)(copy.ptr(), out.len(), out.as_mut_ptr()) };
        Ok(Some(out))
    }
}

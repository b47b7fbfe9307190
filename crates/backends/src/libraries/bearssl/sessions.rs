//! BearSSL's ciphers behind the shared timed loops (crate::timed): AES-CBC,
//! 3DES-CBC and AES-CTR through the chosen block-cipher vtables (impls.rs), AES-GCM
//! through `br_gcm_*` on the CTR context, ChaCha20 through `br_chacha20_run`
//! and ChaCha20-Poly1305 through `br_poly1305_run`, which does a whole
//! message in one call (no stream). BearSSL keeps every state in the
//! caller's memory: nothing here allocates after the session is made.

use std::ffi::{c_int, c_void};

use super::api::*;
use super::impls::Impls;
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::sessions::CipherSession;

/// The modes mapped here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Cbc,
    Des3Cbc,
    Ctr,
    Gcm,
    Ccm,
    ChaCha20,
    ChaPoly,
}

pub struct Cipher<'a> {
    api: &'a Api,
    impls: &'a Impls,
    kind: Kind,
    encrypt: bool,
    /// The block cipher's context (first field: its vtable pointer).
    keys: CtxMem,
    /// `br_gcm_context` or `br_ccm_context`, which points at `keys` (both stay where they are: heap memory).
    gcm: CtxMem,
    /// The ChaCha20 key, which BearSSL takes per call.
    key: [u8; 32],
    /// CBC: the chaining value; CTR: the first 12 bytes are the nonce; ChaCha20: bytes 4..16.
    iv: [u8; 16],
    /// The 32-bit block counter of CTR and ChaCha20.
    cc: u32,
}

fn invalid(what: String) -> BackendError {
    BackendError::Invalid(what)
}

impl<'a> Cipher<'a> {
    pub fn new(api: &'a Api, impls: &'a Impls, kind: Kind, key: &[u8], iv: &[u8], encrypt: bool) -> Result<Cipher<'a>, BackendError> {
        let mut c = Cipher {
            api,
            impls,
            kind,
            encrypt,
            keys: CtxMem::new(CTX_BYTES),
            gcm: CtxMem::new(CTX_BYTES),
            key: [0; 32],
            iv: [0; 16],
            cc: 0,
        };
        c.rekey(key)?;
        c.start(iv)?;
        if kind == Kind::Gcm {
            // A stream: AEAD state without AAD (br_gcm_flip ends the AAD, bearssl_aead.h:434).
            // SAFETY: the context was initialised by rekey and reset by start.
            unsafe { (api.br_gcm_flip)(c.gcm.ptr()) };
        }
        Ok(c)
    }

    /// Starts a message or stream at `iv` (GCM: `br_gcm_reset`).
    fn start(&mut self, iv: &[u8]) -> Result<(), BackendError> {
        match self.kind {
            Kind::Cbc => {
                self.iv = iv.try_into().map_err(|_| invalid("AES-CBC takes a 16-byte IV".into()))?;
            }
            Kind::Des3Cbc => {
                let iv: [u8; 8] = iv.try_into().map_err(|_| invalid("3DES-CBC takes an 8-byte IV".into()))?;
                self.iv[..8].copy_from_slice(&iv);
            }
            Kind::Ctr => {
                let iv: [u8; 16] = iv.try_into().map_err(|_| invalid("AES-CTR takes a 16-byte counter block".into()))?;
                self.iv = iv;
                self.cc = u32::from_be_bytes([iv[12], iv[13], iv[14], iv[15]]);
            }
            Kind::ChaCha20 => {
                let iv: [u8; 16] = iv
                    .try_into()
                    .map_err(|_| invalid("ChaCha20 takes a 16-byte IV (32-bit counter, then the 96-bit nonce)".into()))?;
                self.iv = iv;
                self.cc = u32::from_le_bytes([iv[0], iv[1], iv[2], iv[3]]);
            }
            Kind::Gcm => {
                if iv.is_empty() {
                    return Err(invalid(
                        "AES-GCM takes an IV of at least one byte (NIST SP 800-38D §5.2.1.1)".into(),
                    ));
                }
                // SAFETY: initialised context; BearSSL reads iv.len() bytes.
                unsafe { (self.api.br_gcm_reset)(self.gcm.ptr(), iv.as_ptr().cast(), iv.len()) };
            }
            Kind::Ccm => {}
            Kind::ChaPoly => {
                if iv.len() != 12 {
                    return Err(invalid("ChaCha20-Poly1305 takes a 12-byte nonce".into()));
                }
            }
        }
        Ok(())
    }

    /// The CBC class of the session's cipher and direction.
    fn cbc_class(&self) -> *const CbcClass {
        let i = self.impls;
        match (self.kind, self.encrypt) {
            (Kind::Des3Cbc, true) => i.des_cbcenc,
            (Kind::Des3Cbc, false) => i.des_cbcdec,
            (_, true) => i.cbcenc,
            (_, false) => i.cbcdec,
        }
    }

    /// AES-CTR over `data` from the kept counter, carrying a 32-bit
    /// counter overflow into the nonce: BearSSL's CTR counts in the last 32
    /// bits only (bearssl_block.h:540), the catalog's in all 128.
    fn ctr(&mut self, data: &mut [u8]) {
        let class = self.impls.ctr;
        let mut rest = data;
        while !rest.is_empty() {
            let room = (1u64 << 32) - u64::from(self.cc);
            let take = (room.saturating_mul(16)).min(rest.len() as u64) as usize;
            let (now, later) = rest.split_at_mut(take);
            // SAFETY: keyed context of this class; BearSSL reads 12 IV bytes and works in place.
            self.cc = unsafe {
                ((*class).run)(
                    self.keys.as_const(),
                    self.iv.as_ptr().cast(),
                    self.cc,
                    now.as_mut_ptr().cast(),
                    now.len(),
                )
            };
            if self.cc == 0 && take as u64 == room * 16 {
                // The counter wrapped: carry into the 96-bit nonce (big-endian).
                for b in self.iv[..12].iter_mut().rev() {
                    *b = b.wrapping_add(1);
                    if *b != 0 {
                        break;
                    }
                }
            }
            rest = later;
        }
    }

    /// One pass in place, the chaining state carried on.
    fn pass(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let (p, n) = (buf.as_mut_ptr().cast::<c_void>(), buf.len());
        // SAFETY: each call works in place over n bytes on a keyed context or the kept key.
        unsafe {
            match self.kind {
                Kind::Cbc | Kind::Des3Cbc => {
                    let class = self.cbc_class();
                    let block = (*class).block_size as usize;
                    if !n.is_multiple_of(block) {
                        return Err(invalid(format!("CBC works on whole {block}-byte blocks")));
                    }
                    ((*class).run)(self.keys.as_const(), self.iv.as_mut_ptr().cast(), p, n);
                }
                Kind::Ctr => self.ctr(buf),
                Kind::Gcm => (self.api.br_gcm_run)(self.gcm.ptr(), c_int::from(self.encrypt), p, n),
                Kind::ChaCha20 => {
                    self.cc = (self.impls.chacha20)(self.key.as_ptr().cast(), self.iv[4..].as_ptr().cast(), self.cc, p, n);
                }
                Kind::ChaPoly => {
                    return Err(BackendError::Unsupported(
                        "ChaCha20-Poly1305 in stream mode (br_poly1305_run does a whole message per call)".into(),
                    ))
                }
                Kind::Ccm => {
                    return Err(BackendError::Unsupported(
                        "AES-CCM in stream mode (br_ccm_reset takes the message length first)".into(),
                    ))
                }
            }
        }
        Ok(())
    }

    /// Starts a CCM message: nonce and lengths (`br_ccm_reset`, which
    /// refuses a nonce of other than 7 to 13 bytes or an odd tag length,
    /// bearssl_aead.h:940-944), the AAD, then `br_ccm_flip`.
    fn ccm_start(&mut self, nonce: &[u8], aad: &[u8], len: usize, tag_len: usize) -> Result<(), BackendError> {
        let ctx = self.gcm.ptr();
        // SAFETY: a CCM context initialised by rekey; the inputs cover their lengths.
        unsafe {
            if (self.api.br_ccm_reset)(ctx, nonce.as_ptr().cast(), nonce.len(), aad.len() as u64, len as u64, tag_len) != 1 {
                return Err(invalid(format!(
                    "AES-CCM takes a 7 to 13-byte nonce and a tag of 4 to 16 bytes, even (br_ccm_reset refused {} and {})",
                    nonce.len(),
                    tag_len
                )));
            }
            (self.api.br_ccm_aad_inject)(ctx, aad.as_ptr().cast(), aad.len());
            (self.api.br_ccm_flip)(ctx);
        }
        Ok(())
    }

    /// A whole ChaCha20-Poly1305 message in place; the tag into `tag`.
    fn chapoly(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8; 16], encrypt: bool) {
        // SAFETY: key 32 bytes, nonce 12 (checked by start), buffers cover their lengths.
        unsafe {
            (self.impls.poly1305)(
                self.key.as_ptr().cast(),
                iv.as_ptr().cast(),
                buf.as_mut_ptr().cast(),
                buf.len(),
                aad.as_ptr().cast(),
                aad.len(),
                tag.as_mut_ptr().cast(),
                self.impls.chacha20,
                c_int::from(encrypt),
            )
        };
    }
}

/// Whether two tags are equal, reading every byte (BearSSL leaves the
/// check of a ChaCha20-Poly1305 tag to the caller, bearssl_block.h:2500).
fn same_tag(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl CipherSession for Cipher<'_> {
    /// The class's `init` (AES key schedule; GCM then `br_gcm_init`, which
    /// computes H); ChaCha20 keeps the key, which each call takes.
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        let keys = self.keys.ptr();
        // SAFETY: the memory exceeds every key schedule (api.rs); init writes the vtable pointer first.
        unsafe {
            match self.kind {
                Kind::Cbc | Kind::Des3Cbc => {
                    ((*self.cbc_class()).init)(keys, key.as_ptr().cast(), key.len());
                }
                Kind::Ctr | Kind::Gcm => {
                    ((*self.impls.ctr).init)(keys, key.as_ptr().cast(), key.len());
                    if self.kind == Kind::Gcm {
                        (self.api.br_gcm_init)(self.gcm.ptr(), keys.cast_const().cast(), self.impls.ghash);
                    }
                }
                Kind::Ccm => {
                    ((*self.impls.ctrcbc).init)(keys, key.as_ptr().cast(), key.len());
                    (self.api.br_ccm_init)(self.gcm.ptr(), keys.cast_const().cast());
                }
                Kind::ChaCha20 | Kind::ChaPoly => {
                    self.key = key.try_into().map_err(|_| invalid("ChaCha20 takes a 32-byte key".into()))?;
                }
            }
        }
        Ok(())
    }

    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        self.pass(buf)
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        self.start(iv)?;
        match self.kind {
            Kind::Gcm => {
                let ctx = self.gcm.ptr();
                // SAFETY: reset context; buffers cover their lengths; tag.len() ≤ 16 bytes written.
                unsafe {
                    (self.api.br_gcm_aad_inject)(ctx, aad.as_ptr().cast(), aad.len());
                    (self.api.br_gcm_flip)(ctx);
                    (self.api.br_gcm_run)(ctx, 1, buf.as_mut_ptr().cast(), buf.len());
                    if tag.len() > 16 {
                        return Err(invalid("AES-GCM tags are at most 16 bytes".into()));
                    }
                    (self.api.br_gcm_get_tag_trunc)(ctx, tag.as_mut_ptr().cast(), tag.len());
                }
                Ok(())
            }
            Kind::Ccm => {
                self.ccm_start(iv, aad, buf.len(), tag.len())?;
                let ctx = self.gcm.ptr();
                // SAFETY: a CCM context reset for these lengths; tag holds tag.len() bytes.
                unsafe {
                    (self.api.br_ccm_run)(ctx, 1, buf.as_mut_ptr().cast(), buf.len());
                    (self.api.br_ccm_get_tag)(ctx, tag.as_mut_ptr().cast());
                }
                Ok(())
            }
            Kind::ChaPoly => {
                let out: &mut [u8; 16] = tag
                    .try_into()
                    .map_err(|_| invalid("ChaCha20-Poly1305 writes 16-byte tags".into()))?;
                self.chapoly(iv, aad, buf, out, true);
                Ok(())
            }
            _ => self.pass(buf),
        }
    }

    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        if input.len() != out.len() {
            return Err(invalid("input and output differ in length".into()));
        }
        out.copy_from_slice(input);
        self.start(iv)?;
        match self.kind {
            Kind::Gcm => {
                if tag.is_empty() || tag.len() > 16 {
                    return Err(invalid("AES-GCM tags are 1 to 16 bytes".into()));
                }
                let ctx = self.gcm.ptr();
                // SAFETY: reset context; buffers cover their lengths.
                let ok = unsafe {
                    (self.api.br_gcm_aad_inject)(ctx, aad.as_ptr().cast(), aad.len());
                    (self.api.br_gcm_flip)(ctx);
                    (self.api.br_gcm_run)(ctx, 0, out.as_mut_ptr().cast(), out.len());
                    (self.api.br_gcm_check_tag_trunc)(ctx, tag.as_ptr().cast(), tag.len())
                };
                if ok == 1 {
                    Ok(())
                } else {
                    Err(BackendError::AuthenticationFailed)
                }
            }
            Kind::Ccm => {
                self.ccm_start(iv, aad, out.len(), tag.len())?;
                let ctx = self.gcm.ptr();
                // SAFETY: as in seal; check_tag reads tag.len() bytes, the length given to reset.
                let ok = unsafe {
                    (self.api.br_ccm_run)(ctx, 0, out.as_mut_ptr().cast(), out.len());
                    (self.api.br_ccm_check_tag)(ctx, tag.as_ptr().cast())
                };
                if ok == 1 {
                    Ok(())
                } else {
                    Err(BackendError::AuthenticationFailed)
                }
            }
            Kind::ChaPoly => {
                let mut computed = [0u8; 16];
                self.chapoly(iv, aad, out, &mut computed, false);
                if same_tag(&computed, tag) {
                    Ok(())
                } else {
                    Err(BackendError::AuthenticationFailed)
                }
            }
            _ => self.pass(out),
        }
    }

    /// BearSSL encrypts and decrypts in place only (every `run` and
    /// `chacha20_run` call takes one buffer), so `open` first copies the
    /// prepared ciphertext into the output buffer.
    fn extra_work(&self) -> Option<&'static str> {
        (!self.encrypt).then_some(
            "BearSSL decrypts in place only (its run calls take one buffer): message decryption copies the ciphertext into \
             the output buffer first",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::libraries::bearssl::BearsslBackend;

    /// AES-CTR across BearSSL's 32-bit counter wrap carries into the nonce,
    /// as the catalog's 128-bit counter does: the block after counter
    /// 0xffffffff is the first block of the incremented nonce.
    #[test]
    fn ctr_carries_a_counter_wrap_into_the_nonce() {
        let bear = match BearsslBackend::open(None) {
            Ok(b) => b,
            Err(e) => return cryptobench_testkit::backend_unavailable("bearssl", e),
        };
        let key = [7u8; 16];
        let mut at_wrap = [0u8; 16];
        at_wrap[11] = 0x41;
        at_wrap[12..].copy_from_slice(&[0xff; 4]);
        let mut after = [0u8; 16];
        after[11] = 0x42;
        let cipher = |iv: &[u8]| Cipher::new(&bear.api, &bear.impls, Kind::Ctr, &key, iv, true).unwrap();

        let mut two = [0u8; 32];
        cipher(&at_wrap).seal(&at_wrap, &[], &mut two, &mut []).unwrap();
        let mut one = [0u8; 16];
        cipher(&after).seal(&after, &[], &mut one, &mut []).unwrap();
        assert_eq!(two[16..], one);

        // The same in a stream of whole blocks, one update per block.
        let mut stream = cipher(&at_wrap);
        let (mut first, mut second) = ([0u8; 16], [0u8; 16]);
        stream.update(&mut first).unwrap();
        stream.update(&mut second).unwrap();
        assert_eq!(first[..], two[..16]);
        assert_eq!(second, one);
    }
}

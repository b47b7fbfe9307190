//! CommonCrypto's sessions. AES-ECB and AES-CBC on one `CCCryptorRef`
//! (`CCCryptorCreateWithMode`, no padding): a stream is `CCCryptorUpdate`
//! carrying the chaining state on; a message sets the IV again with
//! `CCCryptorReset` (the key schedule is kept). Digests: the one-shot
//! `CC_SHA256` & co. for a message, `CC_*_Init`/`Update` on a context for a
//! stream, read from a copy with `CC_*_Final`. HMAC: the one-shot `CCHmac`,
//! `CCHmacInit`/`Update` on a `CCHmacContext` for a stream.

#![cfg_attr(not(target_os = "macos"), allow(dead_code))]

use std::ffi::c_void;

use super::api::*;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::native::CtxMem;
use crate::sessions::{CipherSession, DigestSession};

pub struct AesSession<'a> {
    api: &'a Api,
    mode: u32,
    encrypt: bool,
    cryptor: *mut c_void,
}

impl<'a> AesSession<'a> {
    /// `mode`: K_CC_MODE_ECB or K_CC_MODE_CBC.
    pub fn new(api: &'a Api, mode: u32, key: &[u8], iv: &[u8], encrypt: bool) -> Result<Self, BackendError> {
        let mut s = AesSession {
            api,
            mode,
            encrypt,
            cryptor: std::ptr::null_mut(),
        };
        s.create(key, iv)?;
        Ok(s)
    }

    fn create(&mut self, key: &[u8], iv: &[u8]) -> Result<(), BackendError> {
        self.release();
        let op = if self.encrypt { K_CC_ENCRYPT } else { K_CC_DECRYPT };
        let iv = if iv.is_empty() { std::ptr::null() } else { iv.as_ptr().cast() };
        // SAFETY: CCCryptorCreateWithMode(3cc): key and IV are read; the cryptor is written to `self.cryptor`.
        let status = unsafe {
            (self.api.CCCryptorCreateWithMode)(
                op,
                self.mode,
                K_CC_ALGORITHM_AES,
                CC_NO_PADDING,
                iv,
                key.as_ptr().cast(),
                key.len(),
                std::ptr::null(),
                0,
                0,
                0,
                &mut self.cryptor,
            )
        };
        check(status, "CCCryptorCreateWithMode")
    }

    fn release(&mut self) {
        if !self.cryptor.is_null() {
            // SAFETY: a cryptor made by CCCryptorCreateWithMode, released once.
            unsafe { (self.api.CCCryptorRelease)(self.cryptor) };
            self.cryptor = std::ptr::null_mut();
        }
    }

    fn run(&mut self, input: *const u8, out: *mut u8, len: usize) -> Result<(), BackendError> {
        let mut moved = 0usize;
        // SAFETY: `input` and `out` hold `len` bytes (CCCryptorUpdate allows them to be the same buffer).
        let status = unsafe { (self.api.CCCryptorUpdate)(self.cryptor, input.cast(), len, out.cast(), len, &mut moved) };
        check(status, "CCCryptorUpdate")?;
        if moved != len {
            return Err(BackendError::Call {
                call: "CCCryptorUpdate",
                detail: format!("moved {moved} bytes of {len}"),
            });
        }
        Ok(())
    }

    fn reset(&mut self, iv: &[u8]) -> Result<(), BackendError> {
        let iv = if iv.is_empty() { std::ptr::null() } else { iv.as_ptr().cast() };
        // SAFETY: the session's cryptor; the IV (a block, or none for ECB) is read.
        check(unsafe { (self.api.CCCryptorReset)(self.cryptor, iv) }, "CCCryptorReset")
    }
}

impl Drop for AesSession<'_> {
    fn drop(&mut self) {
        self.release();
    }
}

impl CipherSession for AesSession<'_> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        // The IV is set by the message's reset.
        self.create(key, &[])
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let p = buf.as_mut_ptr();
        self.run(p, p, buf.len())
    }
    fn seal(&mut self, iv: &[u8], _aad: &[u8], buf: &mut [u8], _tag: &mut [u8]) -> Result<(), BackendError> {
        self.reset(iv)?;
        let p = buf.as_mut_ptr();
        self.run(p, p, buf.len())
    }
    fn open(&mut self, iv: &[u8], _aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        self.reset(iv)?;
        self.run(input.as_ptr(), out.as_mut_ptr(), input.len())
    }
    fn allocates(&self, _mode: cryptobench_core::Mode, rekey: bool) -> Option<Allocation> {
        rekey.then_some(Allocation::in_c(
            "CCCryptorCreateWithMode allocates the cryptor it returns (CommonCrypto has no call that keys a cryptor again)",
        ))
    }
}

/// A digest of CommonDigest.h: its length and its four calls.
#[derive(Clone, Copy)]
pub struct Digest {
    pub len: usize,
    once: unsafe extern "C" fn(*const c_void, u32, *mut u8) -> *mut u8,
    init: unsafe extern "C" fn(*mut c_void) -> std::ffi::c_int,
    update: unsafe extern "C" fn(*mut c_void, *const c_void, u32) -> std::ffi::c_int,
    finish: unsafe extern "C" fn(*mut u8, *mut c_void) -> std::ffi::c_int,
}

impl Digest {
    /// The digest of a catalog id.
    pub fn of(api: &Api, id: &str) -> Option<Digest> {
        let d = |len, once, init, update, finish| Digest {
            len,
            once,
            init,
            update,
            finish,
        };
        Some(match id {
            "md5" => d(16, api.CC_MD5, api.CC_MD5_Init, api.CC_MD5_Update, api.CC_MD5_Final),
            "sha1" => d(20, api.CC_SHA1, api.CC_SHA1_Init, api.CC_SHA1_Update, api.CC_SHA1_Final),
            "sha224" => d(28, api.CC_SHA224, api.CC_SHA224_Init, api.CC_SHA224_Update, api.CC_SHA224_Final),
            "sha256" => d(32, api.CC_SHA256, api.CC_SHA256_Init, api.CC_SHA256_Update, api.CC_SHA256_Final),
            "sha384" => d(48, api.CC_SHA384, api.CC_SHA384_Init, api.CC_SHA384_Update, api.CC_SHA384_Final),
            "sha512" => d(64, api.CC_SHA512, api.CC_SHA512_Init, api.CC_SHA512_Update, api.CC_SHA512_Final),
            _ => return None,
        })
    }
}

/// `len` bytes of input as a `CC_LONG`, which the digest calls take.
fn cc_long(len: usize) -> Result<u32, BackendError> {
    u32::try_from(len).map_err(|_| BackendError::Invalid(format!("{len} bytes: CommonDigest takes at most 4 GiB - 1 per call (CC_LONG)")))
}

pub struct DigestSessionCc {
    digest: Digest,
    state: CtxMem,
}

impl DigestSessionCc {
    pub fn new(digest: Digest) -> Self {
        let mut state = CtxMem::new(CC_DIGEST_CONTEXT_BYTES);
        // SAFETY: the context memory is at least the size of the largest CC_*_CTX.
        unsafe { (digest.init)(state.ptr()) };
        DigestSessionCc { digest, state }
    }
}

impl DigestSession for DigestSessionCc {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        if out.len() < self.digest.len {
            return Err(BackendError::Invalid("the digest buffer is shorter than the digest".into()));
        }
        // SAFETY: `out` holds the digest (checked above).
        unsafe { (self.digest.once)(msg.as_ptr().cast(), cc_long(msg.len())?, out.as_mut_ptr()) };
        Ok(())
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: the context was initialised by the same digest's Init.
        unsafe { (self.digest.update)(self.state.ptr(), msg.as_ptr().cast(), cc_long(msg.len())?) };
        Ok(())
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut copy = self.state.clone();
        let mut out = vec![0u8; self.digest.len];
        // SAFETY: a byte copy of an initialised context (plain C structs); `out` has the digest's length.
        unsafe { (self.digest.finish)(out.as_mut_ptr(), copy.ptr()) };
        Ok(out)
    }
}

/// The `CCHmacAlgorithm` and tag length of a catalog HMAC id.
pub fn hmac_of(id: &str) -> Option<(u32, usize)> {
    Some(match id {
        "hmac-md5" => (K_CC_HMAC_ALG_MD5, 16),
        "hmac-sha1" => (K_CC_HMAC_ALG_SHA1, 20),
        "hmac-sha224" => (K_CC_HMAC_ALG_SHA224, 28),
        "hmac-sha256" => (K_CC_HMAC_ALG_SHA256, 32),
        "hmac-sha384" => (K_CC_HMAC_ALG_SHA384, 48),
        "hmac-sha512" => (K_CC_HMAC_ALG_SHA512, 64),
        _ => return None,
    })
}

pub struct HmacSession<'a> {
    api: &'a Api,
    alg: u32,
    len: usize,
    key: Vec<u8>,
    state: CtxMem,
}

impl<'a> HmacSession<'a> {
    pub fn new(api: &'a Api, (alg, len): (u32, usize), key: &[u8]) -> Self {
        let mut state = CtxMem::new(CC_HMAC_CONTEXT_BYTES);
        // SAFETY: a CCHmacContext-sized context; the key is copied into it.
        unsafe { (api.CCHmacInit)(state.ptr(), alg, key.as_ptr().cast(), key.len()) };
        HmacSession {
            api,
            alg,
            len,
            key: key.to_vec(),
            state,
        }
    }
}

impl DigestSession for HmacSession<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        if out.len() < self.len {
            return Err(BackendError::Invalid("the MAC buffer is shorter than the tag".into()));
        }
        // SAFETY: CCHmac(3cc) reads key and message and writes the tag into `out` (checked above).
        unsafe {
            (self.api.CCHmac)(
                self.alg,
                self.key.as_ptr().cast(),
                self.key.len(),
                msg.as_ptr().cast(),
                msg.len(),
                out.as_mut_ptr().cast(),
            )
        };
        Ok(())
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: the context was set up by CCHmacInit.
        unsafe { (self.api.CCHmacUpdate)(self.state.ptr(), msg.as_ptr().cast(), msg.len()) };
        Ok(())
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut copy = self.state.clone();
        let mut out = vec![0u8; self.len];
        // SAFETY: a byte copy of an initialised CCHmacContext; `out` has the tag's length.
        unsafe { (self.api.CCHmacFinal)(copy.ptr(), out.as_mut_ptr().cast()) };
        Ok(out)
    }
}

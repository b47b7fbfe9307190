//! LibTomCrypt's calls behind the shared timed loops (crate::timed): one
//! mode state per cipher (`symmetric_ECB`/`CBC`/`CFB`/`CTR`/`xts`,
//! `gcm_state`, `chacha20poly1305_state`, sized by `crypt_get_size`) over a
//! registered cipher descriptor (aes_desc, des3_desc), and the hash calls
//! `hash_memory` (one-shot) and init/process/done.

use std::ffi::{c_int, c_ulong, CString};

use super::api::*;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::native::{text, CtxMem};
use crate::sessions::{CipherSession, DigestSession};

/// A LibTomCrypt return code as a Result, with its own message.
pub fn check(api: &Api, rc: c_int, call: &'static str) -> Result<(), BackendError> {
    if rc == CRYPT_OK {
        return Ok(());
    }
    // SAFETY: error_to_string returns a static string for any code.
    let detail = text(unsafe { (api.error_to_string)(rc) }).unwrap_or_else(|| format!("error {rc}"));
    Err(BackendError::Call { call, detail })
}

pub fn missing(what: &str) -> BackendError {
    BackendError::Unsupported(format!("{what} (not built into this LibTomCrypt)"))
}

pub fn ulong(n: usize) -> c_ulong {
    n as c_ulong
}

/// Memory for the library's structure `name`, of the size the library reports.
pub fn state_for(api: &Api, name: &str) -> Result<CtxMem, BackendError> {
    let c = CString::new(name).map_err(|_| BackendError::Invalid("structure name with a NUL".into()))?;
    let mut size = 0;
    // SAFETY: documented query (crypt_sizes.c); `size` receives the byte count.
    if unsafe { (api.crypt_get_size)(c.as_ptr(), &mut size) } != 0 || size == 0 {
        return Err(BackendError::Call {
            call: "crypt_get_size",
            detail: format!("no size for {name}"),
        });
    }
    Ok(CtxMem::new(size as usize))
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Ecb,
    Cbc,
    Cfb,
    Ctr,
    Xts,
    Gcm,
    ChaPoly,
}

impl Kind {
    fn structure(self) -> &'static str {
        match self {
            Kind::Ecb => "symmetric_ECB",
            Kind::Cbc => "symmetric_CBC",
            Kind::Cfb => "symmetric_CFB",
            Kind::Ctr => "symmetric_CTR",
            Kind::Xts => "symmetric_xts",
            Kind::Gcm => "gcm_state",
            Kind::ChaPoly => "chacha20poly1305_state",
        }
    }
}

pub struct Cipher<'a> {
    api: &'a Api,
    kind: Kind,
    /// Index of the registered cipher descriptor (unused for ChaCha20-Poly1305).
    cipher: c_int,
    encrypt: bool,
    state: CtxMem,
    started: bool,
    /// The IV the mode was started with (the *_start calls take it with the key).
    iv: Vec<u8>,
    /// The XTS tweak (xts_encrypt takes it as a non-const pointer).
    tweak: [u8; 16],
    /// The ChaCha20-Poly1305 key: `chacha20poly1305_done` wipes the whole
    /// state, key included (seen here: a second message on the kept state
    /// gets another tag than chacha20poly1305_memory), so every message
    /// starts with `chacha20poly1305_init`.
    key: Vec<u8>,
}

impl<'a> Cipher<'a> {
    pub fn new(api: &'a Api, kind: Kind, cipher: c_int, key: &[u8], iv: &[u8], encrypt: bool) -> Result<Cipher<'a>, BackendError> {
        let mut c = Cipher {
            api,
            kind,
            cipher,
            encrypt,
            state: state_for(api, kind.structure())?,
            started: false,
            iv: iv.to_vec(),
            tweak: [0; 16],
            key: key.to_vec(),
        };
        c.rekey(key)?;
        c.start(iv)?;
        Ok(c)
    }

    fn done(&mut self) {
        if !self.started {
            return;
        }
        let api = self.api;
        let st = self.state.ptr();
        // SAFETY: started state, released once.
        unsafe {
            match self.kind {
                Kind::Ecb => drop((api.ecb_done)(st)),
                Kind::Cbc => drop((api.cbc_done)(st)),
                Kind::Cfb => drop((api.cfb_done)(st)),
                Kind::Ctr => drop((api.ctr_done)(st)),
                Kind::Xts => {
                    if let Some(f) = api.xts_done {
                        f(st);
                    }
                }
                Kind::Gcm | Kind::ChaPoly => {}
            }
        }
        self.started = false;
    }

    /// Starts a stream or message at `iv` on the kept key.
    fn start(&mut self, iv: &[u8]) -> Result<(), BackendError> {
        let api = self.api;
        let st = self.state.ptr();
        let n = ulong(iv.len());
        // SAFETY: keyed state; iv has the catalog's length for the mode.
        unsafe {
            match self.kind {
                Kind::Ecb => Ok(()),
                Kind::Cbc => check(api, (api.cbc_setiv)(iv.as_ptr(), n, st), "cbc_setiv"),
                Kind::Cfb => check(api, (api.cfb_setiv)(iv.as_ptr(), n, st), "cfb_setiv"),
                Kind::Ctr => check(api, (api.ctr_setiv)(iv.as_ptr(), n, st), "ctr_setiv"),
                Kind::Xts => {
                    self.tweak.copy_from_slice(iv);
                    Ok(())
                }
                Kind::Gcm => {
                    check(api, (api.gcm_reset.ok_or_else(|| missing("GCM"))?)(st), "gcm_reset")?;
                    check(
                        api,
                        (api.gcm_add_iv.ok_or_else(|| missing("GCM"))?)(st, iv.as_ptr(), n),
                        "gcm_add_iv",
                    )
                }
                Kind::ChaPoly => {
                    let init = api.chacha20poly1305_init.ok_or_else(|| missing("ChaCha20-Poly1305"))?;
                    check(api, init(st, self.key.as_ptr(), ulong(self.key.len())), "chacha20poly1305_init")?;
                    check(
                        api,
                        (api.chacha20poly1305_setiv.ok_or_else(|| missing("ChaCha20-Poly1305"))?)(st, iv.as_ptr(), n),
                        "chacha20poly1305_setiv",
                    )
                }
            }
        }
    }

    fn aad(&mut self, aad: &[u8]) -> Result<(), BackendError> {
        let api = self.api;
        let st = self.state.ptr();
        // SAFETY: started AEAD state.
        unsafe {
            match self.kind {
                Kind::Gcm => check(
                    api,
                    (api.gcm_add_aad.ok_or_else(|| missing("GCM"))?)(st, aad.as_ptr(), ulong(aad.len())),
                    "gcm_add_aad",
                ),
                Kind::ChaPoly => check(
                    api,
                    (api.chacha20poly1305_add_aad.ok_or_else(|| missing("ChaCha20-Poly1305"))?)(st, aad.as_ptr(), ulong(aad.len())),
                    "chacha20poly1305_add_aad",
                ),
                _ => Ok(()),
            }
        }
    }

    /// One pass from `src` to `dst` (equal for in place), the mode's state carried on.
    ///
    /// # Safety
    /// `src` and `dst` must be valid for `len` bytes.
    unsafe fn pass(&mut self, encrypt: bool, src: *const u8, dst: *mut u8, len: usize) -> Result<(), BackendError> {
        let api = self.api;
        let st = self.state.ptr();
        let n = ulong(len);
        // SAFETY: per the contract.
        unsafe {
            match (self.kind, encrypt) {
                (Kind::Ecb, true) => check(api, (api.ecb_encrypt)(src, dst, n, st), "ecb_encrypt"),
                (Kind::Ecb, false) => check(api, (api.ecb_decrypt)(src, dst, n, st), "ecb_decrypt"),
                (Kind::Cbc, true) => check(api, (api.cbc_encrypt)(src, dst, n, st), "cbc_encrypt"),
                (Kind::Cbc, false) => check(api, (api.cbc_decrypt)(src, dst, n, st), "cbc_decrypt"),
                (Kind::Cfb, true) => check(api, (api.cfb_encrypt)(src, dst, n, st), "cfb_encrypt"),
                (Kind::Cfb, false) => check(api, (api.cfb_decrypt)(src, dst, n, st), "cfb_decrypt"),
                (Kind::Ctr, true) => check(api, (api.ctr_encrypt)(src, dst, n, st), "ctr_encrypt"),
                (Kind::Ctr, false) => check(api, (api.ctr_decrypt)(src, dst, n, st), "ctr_decrypt"),
                (Kind::Xts, true) => check(
                    api,
                    (api.xts_encrypt.ok_or_else(|| missing("XTS"))?)(src, n, dst, self.tweak.as_mut_ptr(), st),
                    "xts_encrypt",
                ),
                (Kind::Xts, false) => check(
                    api,
                    (api.xts_decrypt.ok_or_else(|| missing("XTS"))?)(src, n, dst, self.tweak.as_mut_ptr(), st),
                    "xts_decrypt",
                ),
                // gcm_process(gcm, pt, ptlen, ct, direction): encryption reads pt, decryption reads ct.
                (Kind::Gcm, true) => check(
                    api,
                    (api.gcm_process.ok_or_else(|| missing("GCM"))?)(st, src.cast_mut(), n, dst, GCM_ENCRYPT),
                    "gcm_process",
                ),
                (Kind::Gcm, false) => check(
                    api,
                    (api.gcm_process.ok_or_else(|| missing("GCM"))?)(st, dst, n, src.cast_mut(), GCM_DECRYPT),
                    "gcm_process",
                ),
                (Kind::ChaPoly, true) => check(
                    api,
                    (api.chacha20poly1305_encrypt.ok_or_else(|| missing("ChaCha20-Poly1305"))?)(st, src, n, dst),
                    "chacha20poly1305_encrypt",
                ),
                (Kind::ChaPoly, false) => check(
                    api,
                    (api.chacha20poly1305_decrypt.ok_or_else(|| missing("ChaCha20-Poly1305"))?)(st, src, n, dst),
                    "chacha20poly1305_decrypt",
                ),
            }
        }
    }

    /// The tag of the AEAD message just processed, into `tag`.
    fn finish(&mut self, tag: &mut [u8]) -> Result<(), BackendError> {
        let api = self.api;
        let st = self.state.ptr();
        let mut n = ulong(tag.len());
        // SAFETY: started AEAD state; tag holds n bytes.
        unsafe {
            match self.kind {
                Kind::Gcm => check(
                    api,
                    (api.gcm_done.ok_or_else(|| missing("GCM"))?)(st, tag.as_mut_ptr(), &mut n),
                    "gcm_done",
                ),
                Kind::ChaPoly => check(
                    api,
                    (api.chacha20poly1305_done.ok_or_else(|| missing("ChaCha20-Poly1305"))?)(st, tag.as_mut_ptr(), &mut n),
                    "chacha20poly1305_done",
                ),
                _ => Ok(()),
            }
        }
    }

    fn aead(&self) -> bool {
        matches!(self.kind, Kind::Gcm | Kind::ChaPoly)
    }
}

impl Drop for Cipher<'_> {
    fn drop(&mut self) {
        self.done();
    }
}

impl CipherSession for Cipher<'_> {
    /// The key schedule: `*_start` of the mode (which also takes the IV),
    /// `gcm_init` (key and GHASH tables); ChaCha20-Poly1305 keeps the key
    /// for the `chacha20poly1305_init` every message starts with.
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.done();
        let api = self.api;
        let st = self.state.ptr();
        let (idx, iv) = (self.cipher, self.iv.as_ptr());
        let keylen = key.len() as c_int;
        // SAFETY: state memory of the library's size; key lengths checked against the catalog.
        unsafe {
            match self.kind {
                Kind::Ecb => check(api, (api.ecb_start)(idx, key.as_ptr(), keylen, 0, st), "ecb_start")?,
                Kind::Cbc => check(api, (api.cbc_start)(idx, iv, key.as_ptr(), keylen, 0, st), "cbc_start")?,
                Kind::Cfb => check(api, (api.cfb_start)(idx, iv, key.as_ptr(), keylen, 0, st), "cfb_start")?,
                Kind::Ctr => check(
                    api,
                    (api.ctr_start)(idx, iv, key.as_ptr(), keylen, 0, CTR_COUNTER_BIG_ENDIAN, st),
                    "ctr_start",
                )?,
                Kind::Xts => {
                    // Key1 || Key2, each of the cipher's key length (IEEE 1619).
                    let half = key.len() / 2;
                    let f = api.xts_start.ok_or_else(|| missing("XTS"))?;
                    check(api, f(idx, key.as_ptr(), key[half..].as_ptr(), ulong(half), 0, st), "xts_start")?
                }
                Kind::Gcm => check(
                    api,
                    (api.gcm_init.ok_or_else(|| missing("GCM"))?)(st, idx, key.as_ptr(), keylen),
                    "gcm_init",
                )?,
                // No key schedule: the key is loaded by chacha20poly1305_init at each start.
                Kind::ChaPoly => {
                    self.key.clear();
                    self.key.extend_from_slice(key);
                }
            }
        }
        self.started = true;
        Ok(())
    }

    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let p = buf.as_mut_ptr();
        // SAFETY: in place over buf.
        unsafe { self.pass(self.encrypt, p, p, buf.len()) }
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        self.start(iv)?;
        self.aad(aad)?;
        let p = buf.as_mut_ptr();
        // SAFETY: in place over buf.
        unsafe { self.pass(true, p, p, buf.len())? };
        self.finish(tag)
    }

    /// AEADs: LibTomCrypt 1.18's `gcm_done`/`chacha20poly1305_done` only
    /// compute the tag; it is compared with the genuine one by `mem_neq`
    /// (constant time).
    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        if input.len() != out.len() {
            return Err(BackendError::Invalid("input and output differ in length".into()));
        }
        self.start(iv)?;
        self.aad(aad)?;
        // SAFETY: input and out cover the length and do not overlap.
        unsafe { self.pass(false, input.as_ptr(), out.as_mut_ptr(), input.len())? };
        if !self.aead() {
            return Ok(());
        }
        let mut computed = [0u8; 16];
        self.finish(&mut computed)?;
        // SAFETY: both cover 16 bytes.
        if tag.len() != 16 || unsafe { (self.api.mem_neq)(computed.as_ptr().cast(), tag.as_ptr().cast(), 16) } != 0 {
            return Err(BackendError::AuthenticationFailed);
        }
        Ok(())
    }
}

/// init/process/done of one hash.
#[derive(Clone, Copy)]
pub struct HashFns {
    pub init: HashInit,
    pub process: HashProcess,
    pub done: HashDone,
}

/// A hash: `hash_memory` (the library's one-shot call) per message,
/// `*_process` on a kept `hash_state` for streams.
pub struct Hash<'a> {
    api: &'a Api,
    index: c_int,
    fns: HashFns,
    state: CtxMem,
    len: usize,
}

impl<'a> Hash<'a> {
    pub fn new(api: &'a Api, index: c_int, fns: HashFns, len: usize) -> Result<Hash<'a>, BackendError> {
        let mut state = state_for(api, "hash_state")?;
        // SAFETY: memory of hash_state's size.
        check(api, unsafe { (fns.init)(state.ptr()) }, "hash init")?;
        Ok(Hash {
            api,
            index,
            fns,
            state,
            len,
        })
    }
}

impl DigestSession for Hash<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        let mut n = ulong(out.len());
        // SAFETY: registered hash; out holds n bytes.
        check(
            self.api,
            unsafe { (self.api.hash_memory)(self.index, msg.as_ptr(), ulong(msg.len()), out.as_mut_ptr(), &mut n) },
            "hash_memory",
        )
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: initialised state.
        check(
            self.api,
            unsafe { (self.fns.process)(self.state.ptr(), msg.as_ptr(), ulong(msg.len())) },
            "hash process",
        )
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        // hash_state is plain data (tomcrypt_hash.h), so a byte copy is a copy of the state.
        let mut copy = self.state.clone();
        let mut out = vec![0u8; self.len];
        // SAFETY: initialised state; out holds the digest.
        check(self.api, unsafe { (self.fns.done)(copy.ptr(), out.as_mut_ptr()) }, "hash done")?;
        Ok(out)
    }
    /// `hash_memory` (hashes/helper/hash_memory.c) allocates the
    /// `hash_state` it runs the hash in, and frees it.
    fn allocates(&self, message: bool) -> Option<Allocation> {
        message.then_some(Allocation::in_c(
            "LibTomCrypt's one-shot hash_memory allocates the hash_state it hashes in (XMALLOC) and frees it: \
             1 allocation per message",
        ))
    }
}

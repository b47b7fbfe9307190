//! Botan's C API behind the shared timed loops (crate::timed).
//!
//! A `botan_cipher_t` runs one Botan `Cipher_Mode`. Its
//! `botan_cipher_update` (ffi_cipher.cpp) copies each chunk through an
//! internal buffer, takes only whole `update_granularity()` chunks per
//! non-final call, and returns the final call's output — for AEAD
//! encryption the last partial chunk followed by the tag — in one output
//! buffer; decryption reads ciphertext ‖ tag in one input buffer. ECB has
//! no cipher mode in Botan: it runs on the `botan_block_cipher_t` itself.

use std::ffi::{c_int, CString};

use cryptobench_core::Mode;

use super::api::*;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::native::text;
use crate::sessions::{CipherSession, DigestSession};

/// A Botan FFI return code as a Result, with Botan's own description.
pub fn check(api: &Api, rc: c_int, call: &'static str) -> Result<(), BackendError> {
    if rc == 0 {
        return Ok(());
    }
    if rc == BOTAN_FFI_ERROR_BAD_MAC {
        return Err(BackendError::AuthenticationFailed);
    }
    // SAFETY: botan_error_description returns a static string for any code.
    let detail = text(unsafe { (api.botan_error_description)(rc) }).unwrap_or_else(|| format!("error {rc}"));
    Err(BackendError::Call { call, detail })
}

fn c_name(name: &str) -> Result<CString, BackendError> {
    CString::new(name).map_err(|_| BackendError::Invalid("algorithm name with a NUL".into()))
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `botan_block_cipher_*` over whole blocks.
    Ecb,
    /// A cipher mode whose updates continue a stream (CBC, CFB, CTR, GCM, ChaCha20Poly1305).
    Chained,
    /// XTS: each update is a data unit of its own (start, final).
    Xts,
}

enum Object {
    Mode(Cipher),
    Block(BlockCipher),
}

pub struct BotanCipher<'a> {
    api: &'a Api,
    object: Object,
    shape: Shape,
    aead: bool,
    encrypt: bool,
    /// `botan_cipher_get_update_granularity`.
    granularity: usize,
    /// The IV a stream starts at (XTS: the tweak every update is a data unit under).
    iv: Vec<u8>,
    /// Whether a stream has been started (at its first update: a started
    /// message would refuse the AAD of a later `seal`).
    streaming: bool,
    /// Where the final call of an AEAD encryption writes its last partial
    /// chunk and the tag (granularity + tag bytes, prepared here).
    tail: Vec<u8>,
    /// GCM, whose key schedule allocates (see `allocates`).
    gcm: bool,
}

impl<'a> BotanCipher<'a> {
    /// `name` is Botan's name of the mode (e.g. "AES-128/GCM") or of the
    /// block cipher for ECB ("AES-128").
    pub fn new(api: &'a Api, name: &str, shape: Shape, key: &[u8], iv: &[u8], encrypt: bool) -> Result<BotanCipher<'a>, BackendError> {
        let cname = c_name(name)?;
        let mut c = if shape == Shape::Ecb {
            let mut bc: BlockCipher = std::ptr::null_mut();
            // SAFETY: documented call; `bc` receives the object.
            check(
                api,
                unsafe { (api.botan_block_cipher_init)(&mut bc, cname.as_ptr()) },
                "botan_block_cipher_init",
            )?;
            BotanCipher {
                api,
                object: Object::Block(bc),
                shape,
                aead: false,
                encrypt,
                granularity: 16,
                iv: Vec::new(),
                streaming: false,
                tail: Vec::new(),
                gcm: name.ends_with("/GCM"),
            }
        } else {
            let flags = if encrypt {
                BOTAN_CIPHER_INIT_FLAG_ENCRYPT
            } else {
                BOTAN_CIPHER_INIT_FLAG_DECRYPT
            };
            let mut cipher: Cipher = std::ptr::null_mut();
            // SAFETY: documented call; `cipher` receives the object.
            check(
                api,
                unsafe { (api.botan_cipher_init)(&mut cipher, cname.as_ptr(), flags) },
                "botan_cipher_init",
            )?;
            let mut c = BotanCipher {
                api,
                object: Object::Mode(cipher),
                shape,
                aead: false,
                encrypt,
                granularity: 1,
                iv: iv.to_vec(),
                streaming: false,
                tail: Vec::new(),
                gcm: name.ends_with("/GCM"),
            };
            let (mut granularity, mut tag) = (0usize, 0usize);
            // SAFETY: live object; plain queries.
            unsafe {
                check(
                    api,
                    (api.botan_cipher_get_update_granularity)(cipher, &mut granularity),
                    "botan_cipher_get_update_granularity",
                )?;
                check(
                    api,
                    (api.botan_cipher_get_tag_length)(cipher, &mut tag),
                    "botan_cipher_get_tag_length",
                )?;
            }
            c.granularity = granularity.max(1);
            c.aead = tag > 0;
            c.tail = vec![0; c.granularity + tag];
            c
        };
        c.rekey(key)?;
        Ok(c)
    }

    /// Bytes a non-final update must be a multiple of.
    pub fn granularity(&self) -> usize {
        self.granularity
    }

    fn mode(&self) -> Result<Cipher, BackendError> {
        match self.object {
            Object::Mode(c) => Ok(c),
            Object::Block(_) => Err(BackendError::Invalid("internal: a cipher-mode call on a block cipher".into())),
        }
    }

    fn start(&mut self, iv: &[u8]) -> Result<(), BackendError> {
        let c = self.mode()?;
        // SAFETY: live, keyed object; Botan copies the nonce.
        check(
            self.api,
            unsafe { (self.api.botan_cipher_start)(c, iv.as_ptr(), iv.len()) },
            "botan_cipher_start",
        )
    }

    /// Starts a message: the AAD first (Botan takes it before the nonce:
    /// `botan_cipher_set_associated_data` after start is an invalid object
    /// state), then `botan_cipher_start` with the nonce.
    fn begin(&mut self, iv: &[u8], aad: &[u8]) -> Result<(), BackendError> {
        if self.aead {
            let c = self.mode()?;
            // SAFETY: live object; Botan copies the AAD.
            check(
                self.api,
                unsafe { (self.api.botan_cipher_set_associated_data)(c, aad.as_ptr(), aad.len()) },
                "botan_cipher_set_associated_data",
            )?;
        }
        self.start(iv)
    }

    /// One `botan_cipher_update` from `input` into `out`; returns (written, consumed).
    ///
    /// # Safety
    /// `input` and `out` must be valid for the lengths given (they may be the same buffer).
    unsafe fn call(
        &self,
        last: bool,
        out: *mut u8,
        out_len: usize,
        input: *const u8,
        in_len: usize,
    ) -> Result<(usize, usize), BackendError> {
        let c = self.mode()?;
        let (mut written, mut consumed) = (0usize, 0usize);
        let flags = if last { BOTAN_CIPHER_UPDATE_FLAG_FINAL } else { 0 };
        // SAFETY: per the contract; the FFI copies each chunk before writing its output.
        let rc = unsafe { (self.api.botan_cipher_update)(c, flags, out, out_len, &mut written, input, in_len, &mut consumed) };
        check(self.api, rc, "botan_cipher_update")?;
        Ok((written, consumed))
    }

    /// Non-final updates over the whole multiples of the granularity; returns how many bytes they took.
    ///
    /// # Safety
    /// As [`BotanCipher::call`], for `len` bytes.
    unsafe fn bulk(&self, out: *mut u8, input: *const u8, len: usize) -> Result<usize, BackendError> {
        let whole = len - len % self.granularity;
        if whole == 0 {
            return Ok(0);
        }
        // SAFETY: per the contract.
        let (written, consumed) = unsafe { self.call(false, out, whole, input, whole)? };
        if written != whole || consumed != whole {
            return Err(BackendError::Call {
                call: "botan_cipher_update",
                detail: format!("took {consumed} and gave {written} of {whole} bytes"),
            });
        }
        Ok(whole)
    }

    fn block(&self, encrypt: bool, input: *const u8, out: *mut u8, len: usize) -> Result<(), BackendError> {
        let Object::Block(bc) = self.object else {
            return Err(BackendError::Invalid("internal: a block call on a cipher mode".into()));
        };
        let (f, call) = if encrypt {
            (self.api.botan_block_cipher_encrypt_blocks, "botan_block_cipher_encrypt_blocks")
        } else {
            (self.api.botan_block_cipher_decrypt_blocks, "botan_block_cipher_decrypt_blocks")
        };
        // SAFETY: input and out cover len bytes (whole blocks: the catalog's granularity).
        check(self.api, unsafe { f(bc, input, out, len / 16) }, call)
    }
}

impl Drop for BotanCipher<'_> {
    fn drop(&mut self) {
        // SAFETY: created by the matching *_init, destroyed once.
        unsafe {
            match self.object {
                Object::Mode(c) => drop((self.api.botan_cipher_destroy)(c)),
                Object::Block(b) => drop((self.api.botan_block_cipher_destroy)(b)),
            }
        }
    }
}

impl CipherSession for BotanCipher<'_> {
    /// `botan_cipher_set_key` / `botan_block_cipher_set_key`.
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        let api = self.api;
        // SAFETY: live object; Botan copies the key.
        unsafe {
            match self.object {
                Object::Mode(c) => check(api, (api.botan_cipher_set_key)(c, key.as_ptr(), key.len()), "botan_cipher_set_key"),
                Object::Block(b) => check(
                    api,
                    (api.botan_block_cipher_set_key)(b, key.as_ptr(), key.len()),
                    "botan_block_cipher_set_key",
                ),
            }
        }
    }

    /// A non-final `botan_cipher_update` in place (ECB: the block cipher;
    /// XTS: a data unit, start and final). Updates must be whole multiples
    /// of the granularity (the library refuses other cell sizes; a chunk of
    /// another length is refused here).
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let (p, n) = (buf.as_mut_ptr(), buf.len());
        match self.shape {
            Shape::Ecb => self.block(self.encrypt, p, p, n),
            Shape::Xts => {
                let iv = std::mem::take(&mut self.iv);
                let r = self.start(&iv).and_then(|()| {
                    // SAFETY: in place over buf; the final output of XTS has the input's length.
                    unsafe { self.call(true, p, n, p, n) }.map(drop)
                });
                self.iv = iv;
                r
            }
            Shape::Chained => {
                if !self.streaming {
                    let iv = std::mem::take(&mut self.iv);
                    let r = self.start(&iv);
                    self.iv = iv;
                    r?;
                    self.streaming = true;
                }
                if n % self.granularity != 0 {
                    return Err(BackendError::Unsupported(format!(
                        "a {n}-byte update (Botan's FFI takes whole {}-byte chunks per non-final update)",
                        self.granularity
                    )));
                }
                // SAFETY: in place over buf.
                unsafe { self.bulk(p, p, n) }.map(drop)
            }
        }
    }

    /// AAD, nonce, then non-final updates in place over the whole chunks and
    /// the final call over the rest. For AEADs the final call writes the
    /// last partial chunk and the tag into the prepared tail buffer, from
    /// which they are moved into `buf` and `tag` (Botan's FFI has no output
    /// for a separate tag; at most granularity − 1 + 16 bytes).
    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let (p, n) = (buf.as_mut_ptr(), buf.len());
        if self.shape == Shape::Ecb {
            return self.block(true, p, p, n);
        }
        self.begin(iv, aad)?;
        if !self.aead {
            // SAFETY: the final output of a plain mode has the input's length: in place over buf.
            let (written, _) = unsafe { self.call(true, p, n, p, n)? };
            return if written == n {
                Ok(())
            } else {
                Err(BackendError::Call {
                    call: "botan_cipher_update",
                    detail: format!("final output of {written} bytes for {n}"),
                })
            };
        }
        // SAFETY: in place over the whole chunks of buf.
        let done = unsafe { self.bulk(p, p, n)? };
        let rest = n - done;
        let tail = self.tail.as_mut_ptr();
        // SAFETY: the tail buffer holds granularity + tag bytes; rest < granularity.
        let (written, _) = unsafe { self.call(true, tail, self.tail.len(), p.add(done).cast_const(), rest)? };
        if written != rest + tag.len() {
            return Err(BackendError::Call {
                call: "botan_cipher_update",
                detail: format!("final output of {written} bytes for {rest} and a {}-byte tag", tag.len()),
            });
        }
        buf[done..].copy_from_slice(&self.tail[..rest]);
        tag.copy_from_slice(&self.tail[rest..written]);
        Ok(())
    }

    /// AAD, nonce, then one final call from the prepared input (AEADs:
    /// ciphertext ‖ tag) into `out`; a wrong tag is BOTAN_FFI_ERROR_BAD_MAC.
    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        if self.shape == Shape::Ecb {
            if input.len() != out.len() {
                return Err(BackendError::Invalid("input and output differ in length".into()));
            }
            return self.block(false, input.as_ptr(), out.as_mut_ptr(), out.len());
        }
        self.begin(iv, aad)?;
        if !self.aead && input.is_empty() {
            // An empty message decrypts to nothing; Botan's CBC decryption
            // refuses a final call of 0 bytes ("Invalid input"; its
            // encryption and the other modes take it).
            return Ok(());
        }
        // SAFETY: input and out cover their lengths; the plaintext has out.len() bytes.
        let (written, _) = unsafe { self.call(true, out.as_mut_ptr(), out.len(), input.as_ptr(), input.len())? };
        if written != out.len() {
            return Err(BackendError::Call {
                call: "botan_cipher_update",
                detail: format!("final output of {written} bytes for {}", out.len()),
            });
        }
        Ok(())
    }

    fn tag_appended(&self) -> bool {
        self.aead
    }

    /// Botan 2's C API runs `botan_cipher_start` and `botan_cipher_update`
    /// through `ffi_guard_thunk(const char*, std::function<int()>)`
    /// (ffi.cpp) with lambdas that capture their arguments by value (24
    /// and 64 bytes), more than libstdc++'s `std::function` holds in place
    /// (16): each call allocates its `std::function` once. The other calls
    /// made here go through `apply_fn` (ffi_util.h), whose lambda captures
    /// two references and is held in place. `GCM_Mode::key_schedule`
    /// (gcm.cpp) sets the counter's IV from a `std::vector` of 16 zero
    /// bytes it makes for every key (H, a `secure_vector`, comes from
    /// Botan's locked pool). ECB runs on the block cipher's calls: none
    /// allocates.
    fn allocates(&self, mode: Mode, rekey: bool) -> Option<Allocation> {
        match (self.shape, mode) {
            (Shape::Ecb, _) => None,
            (Shape::Chained, Mode::Stream) => Some(Allocation::in_c(
                "Botan's botan_cipher_update hands ffi_guard_thunk a std::function holding a lambda of 64 bytes of \
                 captures, which libstdc++ allocates: 1 allocation per update",
            )),
            _ if rekey && self.gcm => Some(Allocation::in_c(
                "Botan's botan_cipher_set_key allocates for every GCM key (GCM_Mode::key_schedule makes a \
                 std::vector of 16 zero bytes for the counter's IV: 1 allocation), and botan_cipher_start and \
                 botan_cipher_update each hand ffi_guard_thunk a std::function holding a lambda of more than 16 \
                 bytes of captures, which libstdc++ allocates (1 per call of each): 3 allocations per message, 4 \
                 where an encryption updates over whole chunks before its final call",
            )),
            _ => Some(Allocation::in_c(
                "Botan's botan_cipher_start and botan_cipher_update each hand ffi_guard_thunk a std::function \
                 holding a lambda of more than 16 bytes of captures (24 and 64), which libstdc++ allocates: \
                 1 allocation per call of each, 2 per message and per XTS update (a data unit: start and final \
                 call), 3 where an AEAD encryption updates over whole chunks before its final call",
            )),
        }
    }
}

/// A hash: `botan_hash_update` + `botan_hash_final` (which resets the
/// object) per message — Botan's C API has no one-shot hash call —, and
/// updates on a kept object for streams.
pub struct BotanHash<'a> {
    api: &'a Api,
    hash: Hash,
    scratch: Hash,
}

impl<'a> BotanHash<'a> {
    pub fn new(api: &'a Api, name: &str) -> Result<BotanHash<'a>, BackendError> {
        let cname = c_name(name)?;
        let (mut hash, mut scratch): (Hash, Hash) = (std::ptr::null_mut(), std::ptr::null_mut());
        // SAFETY: documented calls; the handles receive the objects.
        unsafe {
            check(api, (api.botan_hash_init)(&mut hash, cname.as_ptr(), 0), "botan_hash_init")?;
            if let Err(e) = check(api, (api.botan_hash_init)(&mut scratch, cname.as_ptr(), 0), "botan_hash_init") {
                (api.botan_hash_destroy)(hash);
                return Err(e);
            }
        }
        Ok(BotanHash { api, hash, scratch })
    }

    pub fn output_length(&self) -> Result<usize, BackendError> {
        let mut n = 0;
        // SAFETY: live object; plain query.
        check(
            self.api,
            unsafe { (self.api.botan_hash_output_length)(self.hash, &mut n) },
            "botan_hash_output_length",
        )?;
        Ok(n)
    }
}

impl Drop for BotanHash<'_> {
    fn drop(&mut self) {
        // SAFETY: created by botan_hash_init, destroyed once.
        unsafe {
            (self.api.botan_hash_destroy)(self.hash);
            (self.api.botan_hash_destroy)(self.scratch);
        }
    }
}

impl DigestSession for BotanHash<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        // SAFETY: live object; out has the output length (checked when the cell was prepared).
        unsafe {
            check(
                self.api,
                (self.api.botan_hash_update)(self.scratch, msg.as_ptr(), msg.len()),
                "botan_hash_update",
            )?;
            check(
                self.api,
                (self.api.botan_hash_final)(self.scratch, out.as_mut_ptr()),
                "botan_hash_final",
            )
        }
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live object.
        check(
            self.api,
            unsafe { (self.api.botan_hash_update)(self.hash, msg.as_ptr(), msg.len()) },
            "botan_hash_update",
        )
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut copy: Hash = std::ptr::null_mut();
        let mut out = vec![0u8; self.output_length()?];
        // SAFETY: live object; the copy is finalised and destroyed here.
        unsafe {
            check(
                self.api,
                (self.api.botan_hash_copy_state)(&mut copy, self.hash),
                "botan_hash_copy_state",
            )?;
            let rc = (self.api.botan_hash_final)(copy, out.as_mut_ptr());
            (self.api.botan_hash_destroy)(copy);
            check(self.api, rc, "botan_hash_final")?;
        }
        Ok(out)
    }
}

/// A MAC (`botan_mac_*`): keyed once, a message is `botan_mac_update` and
/// `botan_mac_final`, which leaves HMAC and CMAC keyed for the next
/// message; Botan's Poly1305 clears its key in `final` (a one-time key), so
/// it is keyed again for every message, as its use demands. Botan 2's C API
/// cannot copy a MAC's state, so there is no `stream` (no tag could be read
/// without ending the stream).
pub struct BotanMac<'a> {
    api: &'a Api,
    mac: Mac,
    /// The key set again before every message (Poly1305).
    one_time_key: Option<Vec<u8>>,
}

impl<'a> BotanMac<'a> {
    pub fn new(api: &'a Api, name: &str, key: &[u8], one_time: bool) -> Result<BotanMac<'a>, BackendError> {
        let cname = c_name(name)?;
        let mut mac: Mac = std::ptr::null_mut();
        // SAFETY: documented call; the handle receives the object.
        check(api, unsafe { (api.botan_mac_init)(&mut mac, cname.as_ptr(), 0) }, "botan_mac_init")?;
        let m = BotanMac {
            api,
            mac,
            one_time_key: one_time.then(|| key.to_vec()),
        };
        m.set_key(key)?;
        Ok(m)
    }

    fn set_key(&self, key: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live object; Botan copies the key.
        check(
            self.api,
            unsafe { (self.api.botan_mac_set_key)(self.mac, key.as_ptr(), key.len()) },
            "botan_mac_set_key",
        )
    }

    pub fn output_length(&self) -> Result<usize, BackendError> {
        let mut n = 0;
        // SAFETY: live object; plain query.
        check(
            self.api,
            unsafe { (self.api.botan_mac_output_length)(self.mac, &mut n) },
            "botan_mac_output_length",
        )?;
        Ok(n)
    }
}

impl Drop for BotanMac<'_> {
    fn drop(&mut self) {
        // SAFETY: created by botan_mac_init, destroyed once.
        unsafe { (self.api.botan_mac_destroy)(self.mac) };
    }
}

impl DigestSession for BotanMac<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        if let Some(key) = &self.one_time_key {
            self.set_key(key)?;
        }
        self.update(msg)?;
        // SAFETY: live object; out has the output length (checked when the cell was prepared).
        check(
            self.api,
            unsafe { (self.api.botan_mac_final)(self.mac, out.as_mut_ptr()) },
            "botan_mac_final",
        )
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live object.
        check(
            self.api,
            unsafe { (self.api.botan_mac_update)(self.mac, msg.as_ptr(), msg.len()) },
            "botan_mac_update",
        )
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        Err(BackendError::Unsupported(
            "reading a running MAC (Botan 2's C API cannot copy a MAC's state)".into(),
        ))
    }
}

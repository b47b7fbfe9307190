//! NSS's sessions, behind the shared timed loops (crate::timed), on the PK11
//! API as Firefox calls it (pk11pub.h): a key imported once into the
//! internal slot (`PK11_ImportSymKey`) and contexts made on it
//! (`PK11_CreateContextBySymKey`). A `stream` is `PK11_CipherOp` on one
//! context; a plain cipher's `message` is `PK11_Encrypt`/`PK11_Decrypt`
//! (the only PK11 calls that take a new IV for a kept key; ECB needs none
//! and runs on the kept context); an AEAD `message` is one `PK11_AEADOp` on
//! a context of PKCS#11 v3's message interface (`CKA_NSS_MESSAGE`), which
//! keeps the key schedule and takes the nonce, AAD and tag per message.

use std::ffi::{c_int, c_uint, c_ulong};
use std::ptr;

use cryptobench_core::Mode;
use cryptoki_sys::{CKA_DECRYPT, CKA_ENCRYPT, CKA_SIGN, CKG_NO_GENERATE, CK_AES_CTR_PARAMS};

use super::api::*;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::native::text;
use crate::sessions::{CipherSession, DigestSession};

/// A `SECStatus` as a Result, with NSS's error name (`PR_ErrorToName` of `PORT_GetError`).
pub fn check(api: &Api, status: SecStatus, call: &'static str) -> Result<(), BackendError> {
    if status == SEC_SUCCESS {
        return Ok(());
    }
    Err(failed(api, call))
}

/// The error of the NSS call that just failed.
pub fn failed(api: &Api, call: &'static str) -> BackendError {
    // SAFETY: both read NSPR's per-thread error; the name is a static string or NULL.
    let code = unsafe { (api.PORT_GetError)() };
    let name = text(unsafe { (api.PR_ErrorToName)(code) }).unwrap_or_else(|| "unnamed error".into());
    BackendError::Call {
        call,
        detail: format!("{name} ({code})"),
    }
}

/// A pointer NSS returned, or the error it set.
pub fn non_null<T>(api: &Api, p: *mut T, call: &'static str) -> Result<*mut T, BackendError> {
    if p.is_null() {
        Err(failed(api, call))
    } else {
        Ok(p)
    }
}

/// A symmetric key in NSS's internal slot, freed on drop.
pub struct Key<'a> {
    api: &'a Api,
    pub key: SymKey,
}

impl<'a> Key<'a> {
    /// `PK11_ImportSymKey` of `bytes` for `mech` and the operation `op` (CKA_ENCRYPT, CKA_DECRYPT, CKA_SIGN).
    pub fn import(api: &'a Api, mech: c_ulong, op: c_ulong, bytes: &[u8]) -> Result<Key<'a>, BackendError> {
        // SAFETY: the internal slot always exists once NSS is initialised; freed below.
        let slot = non_null(api, unsafe { (api.PK11_GetInternalSlot)() }, "PK11_GetInternalSlot")?;
        let mut item = SecItem::of(bytes);
        // SAFETY: NSS copies the key bytes into the token; the slot is released after.
        let key = unsafe {
            let key = (api.PK11_ImportSymKey)(slot, mech, PK11_ORIGIN_UNWRAP, op, &mut item, ptr::null_mut());
            (api.PK11_FreeSlot)(slot);
            key
        };
        Ok(Key {
            api,
            key: non_null(api, key, "PK11_ImportSymKey")?,
        })
    }
}

impl Drop for Key<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { (self.api.PK11_FreeSymKey)(self.key) };
    }
}

/// A PK11 context, destroyed on drop.
pub struct Ctx<'a> {
    api: &'a Api,
    pub cx: Context,
}

impl<'a> Ctx<'a> {
    pub fn on_key(api: &'a Api, mech: c_ulong, op: c_ulong, key: &Key<'_>, param: &[u8]) -> Result<Ctx<'a>, BackendError> {
        let item = SecItem::of(param);
        // SAFETY: a live key; NSS copies the parameter.
        let cx = unsafe { (api.PK11_CreateContextBySymKey)(mech, op, key.key, &item) };
        Ok(Ctx {
            api,
            cx: non_null(api, cx, "PK11_CreateContextBySymKey")?,
        })
    }
}

impl Drop for Ctx<'_> {
    fn drop(&mut self) {
        // SAFETY: owned; PR_TRUE frees the context itself too.
        unsafe { (self.api.PK11_DestroyContext)(self.cx, PR_TRUE) };
    }
}

/// How a catalog cipher is asked of NSS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// ECB: no parameter.
    Ecb,
    /// CBC: the parameter is the IV.
    Iv,
    /// `CKM_AES_CTR`: `CK_AES_CTR_PARAMS`, the whole 128-bit block a counter.
    Ctr,
    /// An AEAD through `PK11_AEADOp` (AES-GCM, ChaCha20-Poly1305).
    Aead,
}

/// One keyed cipher for one direction.
pub struct Cipher<'a> {
    api: &'a Api,
    mech: c_ulong,
    shape: Shape,
    op: c_ulong,
    /// The stream's context (plain ciphers), or the message context (AEADs); dropped before the key.
    cx: Ctx<'a>,
    key: Key<'a>,
    /// The stream context's mechanism parameter (its IV), kept for `rekey`.
    stream_param: Vec<u8>,
    /// The mechanism parameter of `PK11_Encrypt`/`PK11_Decrypt`, made here
    /// once and rewritten with each message's IV (no allocation per message).
    param: Vec<u8>,
}

/// The mechanism parameter of `shape` for `iv`, written into `out` (which
/// keeps its capacity: once it has held a parameter, no message allocates).
fn write_param(shape: Shape, iv: &[u8], out: &mut Vec<u8>) {
    out.clear();
    match shape {
        Shape::Ecb | Shape::Aead => {}
        Shape::Iv => out.extend_from_slice(iv),
        Shape::Ctr => {
            let mut p = CK_AES_CTR_PARAMS {
                ulCounterBits: 128,
                cb: [0; 16],
            };
            let n = iv.len().min(16);
            p.cb[..n].copy_from_slice(&iv[..n]);
            // SAFETY: a plain C structure viewed as its bytes.
            out.extend_from_slice(unsafe {
                std::slice::from_raw_parts(
                    (&p as *const CK_AES_CTR_PARAMS).cast::<u8>(),
                    std::mem::size_of::<CK_AES_CTR_PARAMS>(),
                )
            });
        }
    }
}

/// The mechanism parameter of `shape` for `iv`.
fn param(shape: Shape, iv: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    write_param(shape, iv, &mut out);
    out
}

impl<'a> Cipher<'a> {
    pub fn new(api: &'a Api, mech: c_ulong, shape: Shape, key: &[u8], iv: &[u8], encrypt: bool) -> Result<Cipher<'a>, BackendError> {
        let op = if encrypt { CKA_ENCRYPT } else { CKA_DECRYPT };
        let key = Key::import(api, mech, op, key)?;
        let stream_param = param(shape, iv);
        let cx = Self::context(api, mech, shape, op, &key, &stream_param)?;
        Ok(Cipher {
            api,
            mech,
            shape,
            op,
            cx,
            key,
            param: stream_param.clone(),
            stream_param,
        })
    }

    /// The context on `key`: of PKCS#11 v3's message interface for an AEAD,
    /// else a stream context under `param` (the IV's mechanism parameter).
    fn context(api: &'a Api, mech: c_ulong, shape: Shape, op: c_ulong, key: &Key<'_>, param: &[u8]) -> Result<Ctx<'a>, BackendError> {
        if shape == Shape::Aead {
            if api.PK11_AEADOp.is_none() {
                return Err(BackendError::Unsupported("AEAD messages (PK11_AEADOp needs NSS 3.52+)".into()));
            }
            Ctx::on_key(api, mech, CKA_NSS_MESSAGE | op, key, &[])
        } else {
            Ctx::on_key(api, mech, op, key, param)
        }
    }

    /// `PK11_CipherOp` of `input` into `out` on the kept context.
    fn cipher_op(&self, out: *mut u8, input: *const u8, len: usize) -> Result<(), BackendError> {
        let mut n: c_int = 0;
        // SAFETY: out and input cover len bytes (the same buffer when in place, as PKCS#11 allows).
        let status = unsafe { (self.api.PK11_CipherOp)(self.cx.cx, out, &mut n, len as c_int, input, len as c_int) };
        check(self.api, status, "PK11_CipherOp")?;
        expect_len(n as usize, len, "PK11_CipherOp")
    }

    /// `PK11_Encrypt`/`PK11_Decrypt` under `iv` (its parameter written into the kept one).
    fn one_message(&mut self, iv: &[u8], out: *mut u8, input: *const u8, len: usize) -> Result<(), BackendError> {
        write_param(self.shape, iv, &mut self.param);
        let mut item = SecItem::of(&self.param);
        item.data = self.param.as_mut_ptr();
        let mut n: c_uint = 0;
        let (f, call) = if self.op == CKA_ENCRYPT {
            (self.api.PK11_Encrypt, "PK11_Encrypt")
        } else {
            (self.api.PK11_Decrypt, "PK11_Decrypt")
        };
        // SAFETY: a live key; out and input cover len bytes.
        let status = unsafe { f(self.key.key, self.mech, &mut item, out, &mut n, len as c_uint, input, len as c_uint) };
        check(self.api, status, call)?;
        expect_len(n as usize, len, call)
    }

    /// One `PK11_AEADOp` (no IV generation: the nonce is the cell's).
    #[allow(clippy::too_many_arguments)]
    fn aead_op(
        &self,
        iv: &[u8],
        aad: &[u8],
        out: *mut u8,
        input: *const u8,
        len: usize,
        tag: *mut u8,
        tag_len: usize,
    ) -> Result<(), BackendError> {
        let op = self.api.PK11_AEADOp.expect("checked when the context was made");
        let mut n: c_int = 0;
        // SAFETY: a live message context; NSS reads the IV (CKG_NO_GENERATE), the AAD and the input,
        // writes len bytes at out and, encrypting, tag_len bytes at tag.
        let status = unsafe {
            op(
                self.cx.cx,
                CKG_NO_GENERATE,
                0,
                iv.as_ptr().cast_mut(),
                iv.len() as c_int,
                aad.as_ptr(),
                aad.len() as c_int,
                out,
                &mut n,
                len as c_int,
                tag,
                tag_len as c_int,
                input,
                len as c_int,
            )
        };
        if status != SEC_SUCCESS {
            // SAFETY: reads NSPR's per-thread error.
            if self.op == CKA_DECRYPT && unsafe { (self.api.PORT_GetError)() } == SEC_ERROR_BAD_DATA {
                return Err(BackendError::AuthenticationFailed);
            }
            return Err(failed(self.api, "PK11_AEADOp"));
        }
        expect_len(n as usize, len, "PK11_AEADOp")
    }
}

fn expect_len(n: usize, len: usize, call: &'static str) -> Result<(), BackendError> {
    if n == len {
        Ok(())
    } else {
        Err(BackendError::Call {
            call,
            detail: format!("wrote {n} bytes of {len}"),
        })
    }
}

impl CipherSession for Cipher<'_> {
    /// A new key (`PK11_ImportSymKey`) and a new context on it.
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        let new = Key::import(self.api, self.mech, self.op, key)?;
        self.cx = Self::context(self.api, self.mech, self.shape, self.op, &new, &self.stream_param)?;
        self.key = new;
        Ok(())
    }

    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        if self.shape == Shape::Aead {
            return Err(BackendError::Unsupported(
                "AEAD streams (NSS's PK11_AEADOp takes whole messages)".into(),
            ));
        }
        self.cipher_op(buf.as_mut_ptr(), buf.as_ptr(), buf.len())
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let (p, len) = (buf.as_mut_ptr(), buf.len());
        match self.shape {
            Shape::Ecb => self.cipher_op(p, p, len),
            Shape::Aead => self.aead_op(iv, aad, p, p, len, tag.as_mut_ptr(), tag.len()),
            _ => self.one_message(iv, p, p, len),
        }
    }

    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        if input.len() != out.len() {
            return Err(BackendError::Invalid(format!(
                "{} bytes to decrypt into {}",
                input.len(),
                out.len()
            )));
        }
        let (o, i, len) = (out.as_mut_ptr(), input.as_ptr(), input.len());
        match self.shape {
            Shape::Ecb => self.cipher_op(o, i, len),
            // PK11_AEADOp reads the tag when decrypting; its parameter is not const.
            Shape::Aead => self.aead_op(iv, aad, o, i, len, tag.as_ptr().cast_mut(), tag.len()),
            _ => self.one_message(iv, o, i, len),
        }
    }

    fn extra_work(&self) -> Option<&'static str> {
        matches!(self.shape, Shape::Iv | Shape::Ctr).then_some(
            "NSS takes a new IV for a kept key only in PK11_Encrypt/PK11_Decrypt, which initialise an operation (C_EncryptInit) per message: softoken sets its cipher context and key schedule up again",
        )
    }

    fn allocates(&self, mode: Mode, rekey: bool) -> Option<Allocation> {
        if rekey {
            return Some(Allocation::in_c(
                "NSS sets a key up only as a new PK11SymKey (PK11_ImportSymKey) with a new context, which it allocates for every message",
            ));
        }
        (mode == Mode::Message && matches!(self.shape, Shape::Iv | Shape::Ctr)).then_some(Allocation::in_c(
            "PK11_Encrypt/PK11_Decrypt initialise an operation per message, and softoken allocates its cipher context there (sftk_CryptInit)",
        ))
    }
}

/// A digest (`PK11_CreateDigestContext`) or an HMAC (a `CKM_*_HMAC`
/// context on an imported key, `CKA_SIGN`): a `message` is
/// `PK11_DigestBegin`, `PK11_DigestOp`, `PK11_DigestFinal` on the kept
/// context, a `stream` `PK11_DigestOp`.
pub struct Hash<'a> {
    api: &'a Api,
    cx: Ctx<'a>,
    len: usize,
    /// The HMAC or CMAC key (None: a digest). softoken saves the state of a
    /// digest only (`PK11_CloneContext` of a MAC context fails with
    /// SEC_ERROR_LIBRARY_FAILURE): a MAC's value ends its operation, and its
    /// `stream` cells are refused (mod.rs).
    key: Option<Key<'a>>,
}

impl<'a> Hash<'a> {
    pub fn digest(api: &'a Api, oid: c_int, len: usize) -> Result<Hash<'a>, BackendError> {
        // SAFETY: documented call; NULL for an algorithm NSS lacks.
        let cx = non_null(api, unsafe { (api.PK11_CreateDigestContext)(oid) }, "PK11_CreateDigestContext")?;
        Hash::begun(api, Ctx { api, cx }, len, None)
    }

    pub fn hmac(api: &'a Api, mech: c_ulong, key: &[u8], len: usize) -> Result<Hash<'a>, BackendError> {
        let key = Key::import(api, mech, CKA_SIGN, key)?;
        let cx = Ctx::on_key(api, mech, CKA_SIGN, &key, &[])?;
        Hash::begun(api, cx, len, Some(key))
    }

    fn begun(api: &'a Api, cx: Ctx<'a>, len: usize, key: Option<Key<'a>>) -> Result<Hash<'a>, BackendError> {
        // SAFETY: a live context.
        check(api, unsafe { (api.PK11_DigestBegin)(cx.cx) }, "PK11_DigestBegin")?;
        Ok(Hash { api, cx, len, key })
    }

    fn finish(&self, cx: Context, out: &mut [u8]) -> Result<(), BackendError> {
        let mut n: c_uint = 0;
        // SAFETY: out has room for out.len() bytes.
        check(
            self.api,
            unsafe { (self.api.PK11_DigestFinal)(cx, out.as_mut_ptr(), &mut n, out.len() as c_uint) },
            "PK11_DigestFinal",
        )?;
        expect_len(n as usize, self.len, "PK11_DigestFinal")
    }
}

impl DigestSession for Hash<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        // SAFETY: a live context.
        check(self.api, unsafe { (self.api.PK11_DigestBegin)(self.cx.cx) }, "PK11_DigestBegin")?;
        self.update(msg)?;
        self.finish(self.cx.cx, out)
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: a live context; msg is read only.
        check(
            self.api,
            unsafe { (self.api.PK11_DigestOp)(self.cx.cx, msg.as_ptr(), msg.len() as c_uint) },
            "PK11_DigestOp",
        )
    }

    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut out = vec![0u8; self.len];
        if self.key.is_some() {
            self.finish(self.cx.cx, &mut out)?;
            // SAFETY: a live context: the next message starts again from the key.
            check(self.api, unsafe { (self.api.PK11_DigestBegin)(self.cx.cx) }, "PK11_DigestBegin")?;
            return Ok(out);
        }
        // SAFETY: a live context; the clone is destroyed by its Ctx.
        let clone = non_null(self.api, unsafe { (self.api.PK11_CloneContext)(self.cx.cx) }, "PK11_CloneContext")?;
        let clone = Ctx { api: self.api, cx: clone };
        self.finish(clone.cx, &mut out)?;
        Ok(out)
    }

    /// A MAC's message begins with `PK11_DigestBegin`, which for softoken
    /// is `C_SignInit` on the key object: the MAC is keyed anew (HMAC: the
    /// padded key hashed into the inner and outer states; CMAC: the AES key
    /// schedule and the subkeys), and softoken cannot copy a MAC's state
    /// (`PK11_CloneContext` fails) to restart from a keyed one.
    fn extra_work(&self) -> Option<&'static str> {
        self.key.as_ref().map(|_| {
            "NSS keys the MAC anew for every message: PK11_DigestBegin is softoken's C_SignInit on the key object (HMAC: \
             the padded key hashed into the inner and outer states, two compressions more than restarting from kept \
             keyed states; CMAC: the AES key schedule and subkeys), since softoken cannot copy a MAC's keyed state \
             (PK11_CloneContext fails)"
        })
    }

    fn allocates(&self, message: bool) -> Option<Allocation> {
        message.then_some(Allocation::in_c(
            "PK11_DigestBegin initialises an operation (C_DigestInit, C_SignInit), and softoken allocates its hash context there",
        ))
    }
}

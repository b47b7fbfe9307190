//! OpenSSL's calls behind the shared timed loops (crates/backends/src/timed/):
//! each session call is what `apps/speed.c` calls per iteration
//! (docs/METHOD.md cites the functions), so that figures line up with
//! `openssl speed` where semantics match.

use std::ffi::{c_int, c_uint};

use cryptobench_core::Mode;

use super::aead::{before_data, Kind};
use super::api::{Api, EVP_CTRL_AEAD_GET_TAG, EVP_CTRL_AEAD_SET_TAG};
use super::handles::{call_failed, check, Cipher, CipherCtx, Md, MdCtx};
use crate::error::BackendError;
use crate::named::Allocation;
use crate::sessions::{unsupported, CipherSession, DigestSession};

type UpdateFn = unsafe extern "C" fn(*mut std::ffi::c_void, *mut u8, *mut c_int, *const u8, c_int) -> c_int;
type FinalFn = unsafe extern "C" fn(*mut std::ffi::c_void, *mut u8, *mut c_int) -> c_int;

fn c_len(len: usize) -> Result<c_int, BackendError> {
    c_int::try_from(len).map_err(|_| BackendError::Invalid(format!("{len} bytes is more than OpenSSL takes in one call")))
}

/// One EVP cipher context, keyed once, for one direction.
pub struct EvpCipherSession<'a> {
    pub api: &'a Api,
    pub _cipher: Cipher<'a>,
    pub ctx: CipherCtx<'a>,
    pub encrypt: bool,
    pub kind: Kind,
    pub key: Vec<u8>,
    /// The IV a stream restarts from when a counter or length limit is reached.
    pub iv: Vec<u8>,
    /// GCM-SIV: the keyed context every message starts from a copy of (see `Kind::GcmSiv`).
    pub pristine: Option<CipherCtx<'a>>,
    /// Set by `rekey`: the next message sets the key with its IV, in one
    /// `EVP_CipherInit_ex` as `openssl speed` 3.x does per message.
    pub rekey: bool,
    pub version: &'a str,
}

impl EvpCipherSession<'_> {
    fn update_fn(&self) -> UpdateFn {
        if self.encrypt {
            self.api.EVP_EncryptUpdate
        } else {
            self.api.EVP_DecryptUpdate
        }
    }

    fn final_fn(&self) -> FinalFn {
        if self.encrypt {
            self.api.EVP_EncryptFinal_ex
        } else {
            self.api.EVP_DecryptFinal_ex
        }
    }

    /// One whole message from `src` into `out` (they may be the same buffer):
    /// IV (with the key after `rekey`, and always for SIV), [tag to verify],
    /// [CCM length], AAD, update, final, [tag out].
    ///
    /// # Safety
    /// `src` and `out` cover `len` bytes.
    unsafe fn message(
        &mut self,
        iv: &[u8],
        aad: &[u8],
        src: *const u8,
        out: *mut u8,
        len: usize,
        tag: &mut [u8],
    ) -> Result<(), BackendError> {
        if self.kind == Kind::Siv && len == 0 {
            // EVP_CipherUpdate returns before the provider sees 0 bytes, and SIV's final then fails.
            return Err(unsupported(format!(
                "SIV of an empty message ({} cannot: EVP_CipherUpdate skips 0-byte data and SIV's final then fails)",
                self.version
            )));
        }
        let api = self.api;
        let (update, finish) = (self.update_fn(), self.final_fn());
        let len = c_len(len)?;
        c_len(aad.len())?;
        let aead = self.kind != Kind::Plain;
        let rekey = std::mem::take(&mut self.rekey) || self.kind == Kind::Siv;
        let key = if rekey { self.key.as_ptr() } else { std::ptr::null() };
        let iv = if iv.is_empty() { std::ptr::null() } else { iv.as_ptr() };
        let tag_len = tag.len() as c_int;
        let (mut outl, mut finl): (c_int, c_int) = (0, 0);
        // SAFETY: the context holds a cipher; pointers cover the lengths passed.
        unsafe {
            if let Some(pristine) = &self.pristine {
                let copy = api.EVP_CIPHER_CTX_copy.expect("checked when the session was made");
                check(api, copy(self.ctx.ptr, pristine.ptr), "EVP_CIPHER_CTX_copy")?;
            }
            check(
                api,
                (api.EVP_CipherInit_ex)(self.ctx.ptr, std::ptr::null(), std::ptr::null_mut(), key, iv, -1),
                "EVP_CipherInit_ex",
            )?;
            if aead && !self.encrypt {
                check(
                    api,
                    (api.EVP_CIPHER_CTX_ctrl)(self.ctx.ptr, EVP_CTRL_AEAD_SET_TAG, tag_len, tag.as_mut_ptr().cast()),
                    "EVP_CTRL_AEAD_SET_TAG",
                )?;
            }
            before_data(api, self.ctx.ptr, update, self.kind, len, aad, &[])?;
            if update(self.ctx.ptr, out, &mut outl, src, len) != 1 {
                // CCM verifies its tag in the decrypting update (EVP_EncryptInit(3)).
                return Err(if aead && !self.encrypt {
                    super::handles::error_queue(api);
                    BackendError::AuthenticationFailed
                } else {
                    call_failed(api, "EVP_CipherUpdate")
                });
            }
            if finish(self.ctx.ptr, out.add(outl as usize), &mut finl) != 1 {
                return Err(if aead && !self.encrypt {
                    super::handles::error_queue(api);
                    BackendError::AuthenticationFailed
                } else {
                    call_failed(api, "EVP_CipherFinal_ex")
                });
            }
            if aead && self.encrypt {
                check(
                    api,
                    (api.EVP_CIPHER_CTX_ctrl)(self.ctx.ptr, EVP_CTRL_AEAD_GET_TAG, tag_len, tag.as_mut_ptr().cast()),
                    "EVP_CTRL_AEAD_GET_TAG",
                )?;
            }
        }
        Ok(())
    }
}

impl CipherSession for EvpCipherSession<'_> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.key.copy_from_slice(key);
        self.rekey = true;
        Ok(())
    }

    /// `stream`: one update in place on the kept context (apps/speed.c `EVP_Update_loop`).
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let update = self.update_fn();
        let len = c_len(buf.len())?;
        let p = buf.as_mut_ptr();
        let mut outl: c_int = 0;
        // SAFETY: in-place update over `len` bytes of `buf`, which OpenSSL permits.
        if unsafe { update(self.ctx.ptr, p, &mut outl, p, len) } != 1 {
            // As apps/speed.c does: a counter or length limit was reached; restart the IV.
            let iv = if self.iv.is_empty() { std::ptr::null() } else { self.iv.as_ptr() };
            unsafe { (self.api.EVP_CipherInit_ex)(self.ctx.ptr, std::ptr::null(), std::ptr::null_mut(), std::ptr::null(), iv, -1) };
            check(self.api, unsafe { update(self.ctx.ptr, p, &mut outl, p, len) }, "EVP_CipherUpdate")?;
        }
        Ok(())
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let p = buf.as_mut_ptr();
        // SAFETY: in place over buf, which OpenSSL permits.
        unsafe { self.message(iv, aad, p, p, buf.len(), tag) }
    }

    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        if input.len() != out.len() {
            return Err(BackendError::Invalid("ciphertext and output differ in length".into()));
        }
        let mut tag_buf = [0u8; 16];
        let tag_buf = tag_buf
            .get_mut(..tag.len())
            .ok_or_else(|| BackendError::Invalid("a tag longer than 16 bytes".into()))?;
        tag_buf.copy_from_slice(tag);
        // SAFETY: input and out cover the same length.
        unsafe { self.message(iv, aad, input.as_ptr(), out.as_mut_ptr(), input.len(), tag_buf) }
    }

    fn extra_work(&self) -> Option<&'static str> {
        match self.kind {
            Kind::Siv => Some(
                "OpenSSL's AES-SIV restarts only through its key: the key schedule is set up again for every message (siv_init resets nothing else)",
            ),
            Kind::GcmSiv => Some(
                "OpenSSL's AES-GCM-SIV context keeps every message's AAD: each message starts from a copy of the keyed context (EVP_CIPHER_CTX_copy)",
            ),
            _ => None,
        }
    }

    /// What OpenSSL allocates inside a timed call (found by the allocation
    /// test, which counts C's `malloc`; tests/c_heap).
    fn allocates(&self, _mode: Mode, rekey: bool) -> Option<Allocation> {
        match (self.kind, rekey) {
            (Kind::Siv, _) => Some(Allocation::in_c(
                "OpenSSL's AES-SIV sets its key up for every message (its extra work), and that key setup allocates: \
                 EVP_CipherInit_ex with the key → CRYPTO_siv128_init fetches AES-CTR and CMAC and makes their contexts \
                 (EVP_CIPHER_fetch, EVP_MAC_fetch, EVP_MAC_CTX_new, EVP_CIPHER_CTX_new), and every S2V step duplicates \
                 the CMAC context (EVP_MAC_CTX_dup): 26 allocations per message in OpenSSL 3.0",
            )),
            (Kind::Ocb, true) => Some(Allocation::in_c(
                "OpenSSL's OCB key setup (EVP_CipherInit_ex with the key → CRYPTO_ocb128_init) allocates its table of \
                 L values anew, and a message of more than 31 blocks grows it (ocb_lookup_l: OPENSSL_realloc)",
            )),
            (Kind::Ocb, false) => Some(Allocation::in_c(
                "OpenSSL's OCB computes its table of L values as messages need them: the first message longer than \
                 any before on the context grows the table (ocb_lookup_l: OPENSSL_realloc), once; later messages \
                 allocate nothing",
            )),
            _ => None,
        }
    }
}

/// A fetched digest with one context: `message` is the one-shot
/// `EVP_Digest` (apps/speed.c `EVP_Digest_loop`), or for an extendable-output
/// function init, update and `EVP_DigestFinalXOF` on the context, as
/// `openssl speed` 3.5+ times XOFs (`EVP_Digest` would read the default
/// length, which 3.x versions do not agree on); `stream` updates the context.
pub struct EvpDigestSession<'a> {
    pub api: &'a Api,
    pub md: Md<'a>,
    pub ctx: MdCtx<'a>,
    /// SHAKE: the output length read with `EVP_DigestFinalXOF`.
    pub xof_len: Option<usize>,
    /// The length `EVP_Digest` writes (EVP_MD_get_size).
    pub len: usize,
}

impl<'a> EvpDigestSession<'a> {
    /// A session whose context is initialised for `stream` updates; `len`
    /// is the catalog's digest length, which the library's must equal.
    pub fn new(api: &'a Api, md: Md<'a>, xof_len: Option<usize>, len: usize) -> Result<Self, BackendError> {
        if xof_len.is_none() {
            // SAFETY: a fetched or looked-up digest.
            let size = match (api.EVP_MD_get_size, api.EVP_MD_size) {
                (Some(f), _) | (None, Some(f)) => unsafe { f(md.ptr) },
                (None, None) => {
                    return Err(BackendError::Unsupported(
                        "this libcrypto exports neither EVP_MD_get_size nor EVP_MD_size".into(),
                    ))
                }
            };
            if usize::try_from(size).ok() != Some(len) {
                return Err(BackendError::Invalid(format!(
                    "the digest is {size} bytes long in this library, {len} in the catalog"
                )));
            }
        }
        let ctx = MdCtx::new(api)?;
        // SAFETY: live context and digest.
        check(
            api,
            unsafe { (api.EVP_DigestInit_ex)(ctx.ptr, md.ptr, std::ptr::null_mut()) },
            "EVP_DigestInit_ex",
        )?;
        Ok(EvpDigestSession {
            api,
            md,
            ctx,
            xof_len,
            len,
        })
    }
}

impl DigestSession for EvpDigestSession<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        let api = self.api;
        if let Some(len) = self.xof_len {
            // SAFETY: live context and digest; `out` has the length passed.
            unsafe {
                check(
                    api,
                    (api.EVP_DigestInit_ex)(self.ctx.ptr, self.md.ptr, std::ptr::null_mut()),
                    "EVP_DigestInit_ex",
                )?;
                check(
                    api,
                    (api.EVP_DigestUpdate)(self.ctx.ptr, msg.as_ptr().cast(), msg.len()),
                    "EVP_DigestUpdate",
                )?;
                let xof = api.EVP_DigestFinalXOF.expect("checked when the digest was found");
                return check(api, xof(self.ctx.ptr, out.as_mut_ptr(), len.min(out.len())), "EVP_DigestFinalXOF");
            }
        }
        if out.len() < self.len {
            return Err(BackendError::Invalid("the digest buffer is shorter than the digest".into()));
        }
        let mut n: c_uint = 0;
        // SAFETY: `out` holds the digest (checked above).
        let rc = unsafe {
            (api.EVP_Digest)(
                msg.as_ptr().cast(),
                msg.len(),
                out.as_mut_ptr(),
                &mut n,
                self.md.ptr,
                std::ptr::null_mut(),
            )
        };
        check(api, rc, "EVP_Digest")
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: reads msg.len() bytes of msg.
        check(
            self.api,
            unsafe { (self.api.EVP_DigestUpdate)(self.ctx.ptr, msg.as_ptr().cast(), msg.len()) },
            "EVP_DigestUpdate",
        )
    }

    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let api = self.api;
        let copy = MdCtx::new(api)?;
        let mut out = [0u8; 64];
        let mut n: c_uint = 0;
        // SAFETY: both contexts are live; out holds EVP_MAX_MD_SIZE bytes.
        check(
            api,
            unsafe { (api.EVP_MD_CTX_copy_ex)(copy.ptr, self.ctx.ptr) },
            "EVP_MD_CTX_copy_ex",
        )?;
        if let Some(len) = self.xof_len {
            let xof = api.EVP_DigestFinalXOF.expect("checked when the digest was found");
            check(api, unsafe { xof(copy.ptr, out.as_mut_ptr(), len) }, "EVP_DigestFinalXOF")?;
            return Ok(out[..len].to_vec());
        }
        check(
            api,
            unsafe { (api.EVP_DigestFinal_ex)(copy.ptr, out.as_mut_ptr(), &mut n) },
            "EVP_DigestFinal_ex",
        )?;
        Ok(out[..n as usize].to_vec())
    }

    /// What OpenSSL allocates inside a timed `message` call (found by the
    /// allocation test, which counts C's `malloc`; tests/c_heap); `stream`
    /// updates allocate nothing.
    fn allocates(&self, message: bool) -> Option<Allocation> {
        message.then_some(Allocation::in_c(if self.xof_len.is_some() {
            "EVP_DigestInit_ex on the kept context frees the provider's digest context and makes a new one \
             (OpenSSL 3.0's evp_md_init_internal; 1 allocation per message)"
        } else {
            "EVP_Digest, the one-shot call `openssl speed` times, makes and frees an EVP_MD_CTX and the \
             provider's digest context per call (EVP_MD_CTX_new, the digest's newctx; 2 allocations per message)"
        }))
    }
}

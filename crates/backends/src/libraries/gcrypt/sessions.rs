//! libgcrypt's sessions behind the shared timed loops
//! (crates/backends/src/timed/): one `gcry_cipher_hd_t` keyed once, and
//! one `gcry_md_hd_t` per digest (API: libgcrypt manual, "Symmetric
//! cryptography" and "Hashing"; docs/METHOD.md lists the calls).

use std::ffi::c_int;

use super::aead;
use super::api::{Api, GCRY_MD_MD5};
use super::handles::{check, set_iv, CipherHd, MdHd};
use crate::error::BackendError;
use crate::named::Allocation;
use crate::sessions::{CipherSession, DigestSession};

/// `gcry_md_extract`'s type (1.7+).
type ExtractFn = unsafe extern "C" fn(super::api::Hd, c_int, *mut std::ffi::c_void, usize) -> super::api::GcryError;

/// A handle keyed once for one direction. `stream` is one
/// `gcry_cipher_encrypt` (or `_decrypt`) in place per call (in = NULL,
/// inlen = 0), the chaining state kept (AEADs: data without AAD or tag);
/// `message` is `gcry_cipher_setiv` (CTR: `gcry_cipher_setctr`) on the kept
/// key and one encrypt or decrypt over the message, an AEAD's the steps of
/// aead.rs (AAD by `gcry_cipher_authenticate`, the tag read by
/// `gcry_cipher_gettag` or verified by `gcry_cipher_checktag`); `--rekey`
/// is `gcry_cipher_setkey` first.
pub struct GcryptCipher<'a> {
    api: &'a Api,
    hd: CipherHd<'a>,
    mode: c_int,
    aead: bool,
    encrypt: bool,
}

impl<'a> GcryptCipher<'a> {
    /// A handle of `algo` in `mode` with the key set, and the IV where one is given.
    pub fn keyed(
        api: &'a Api,
        (algo, mode): (c_int, c_int),
        aead: bool,
        encrypt: bool,
        key: &[u8],
        iv: &[u8],
    ) -> Result<Self, BackendError> {
        let mut s = GcryptCipher {
            api,
            hd: CipherHd::open(api, algo, mode)?,
            mode,
            aead,
            encrypt,
        };
        s.rekey(key)?;
        set_iv(api, s.hd.hd, mode, iv)?;
        Ok(s)
    }

    /// One AEAD message from `input` into `out` with the IV and tag lengths
    /// given (test vectors); `tag` is written when encrypting, read when decrypting.
    pub fn aead_apart(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        if input.len() != out.len() {
            return Err(BackendError::Invalid("input and output differ in length".into()));
        }
        // SAFETY: a keyed handle of `mode`; the buffers cover the lengths passed.
        unsafe {
            aead::message(
                self.api,
                self.hd.hd,
                self.mode,
                self.encrypt,
                iv,
                aad,
                input.as_ptr(),
                out.as_mut_ptr(),
                out.len(),
                tag.as_mut_ptr(),
                tag.len(),
            )
        }
    }
}

impl CipherSession for GcryptCipher<'_> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live handle; key covers its length.
        check(
            self.api,
            unsafe { (self.api.gcry_cipher_setkey)(self.hd.hd, key.as_ptr().cast(), key.len()) },
            "gcry_cipher_setkey",
        )
    }

    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let f = if self.encrypt {
            self.api.gcry_cipher_encrypt
        } else {
            self.api.gcry_cipher_decrypt
        };
        // SAFETY: in-place operation over the buffer, which libgcrypt documents.
        check(
            self.api,
            unsafe { f(self.hd.hd, buf.as_mut_ptr().cast(), buf.len(), std::ptr::null(), 0) },
            "gcry_cipher_encrypt/decrypt",
        )
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let (api, hd, p, n) = (self.api, self.hd.hd, buf.as_mut_ptr(), buf.len());
        if self.aead {
            // SAFETY: in place over `buf`; the tag covers its length.
            return unsafe { aead::message(api, hd, self.mode, true, iv, aad, p, p, n, tag.as_mut_ptr(), tag.len()) };
        }
        set_iv(api, hd, self.mode, iv)?;
        // SAFETY: in place over `buf`.
        check(
            api,
            unsafe { (api.gcry_cipher_encrypt)(hd, p.cast(), n, std::ptr::null(), 0) },
            "gcry_cipher_encrypt",
        )
    }

    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        if input.len() != out.len() {
            return Err(BackendError::Invalid("ciphertext and output differ in length".into()));
        }
        let (api, hd, n) = (self.api, self.hd.hd, out.len());
        if self.aead {
            // SAFETY: `input` and `out` cover `n` bytes; decrypting, libgcrypt only reads the tag.
            return unsafe {
                aead::message(
                    api,
                    hd,
                    self.mode,
                    false,
                    iv,
                    aad,
                    input.as_ptr(),
                    out.as_mut_ptr(),
                    n,
                    tag.as_ptr().cast_mut(),
                    tag.len(),
                )
            };
        }
        set_iv(api, hd, self.mode, iv)?;
        // SAFETY: out-of-place with equal lengths.
        check(
            api,
            unsafe { (api.gcry_cipher_decrypt)(hd, out.as_mut_ptr().cast(), n, input.as_ptr().cast(), n) },
            "gcry_cipher_decrypt",
        )
    }
}

/// A fixed-length digest: `message` is the one-shot `gcry_md_hash_buffer`;
/// `stream` is `gcry_md_write` on one handle, the value read from a `gcry_md_copy`.
pub struct HashSession<'a> {
    pub api: &'a Api,
    pub hd: MdHd<'a>,
    pub algo: c_int,
    /// `gcry_md_get_algo_dlen`.
    pub len: usize,
}

impl DigestSession for HashSession<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        if out.len() < self.len {
            return Err(BackendError::Invalid("the digest buffer is shorter than the digest".into()));
        }
        // SAFETY: `out` holds the algorithm's digest length (checked above).
        unsafe { (self.api.gcry_md_hash_buffer)(self.algo, out.as_mut_ptr().cast(), msg.as_ptr().cast(), msg.len()) };
        Ok(())
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live handle; reads msg.len() bytes.
        unsafe { (self.api.gcry_md_write)(self.hd.hd, msg.as_ptr().cast(), msg.len()) };
        Ok(())
    }

    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        self.hd.copy()?.read(self.algo, self.len)
    }

    /// libgcrypt 1.10's `gcry_md_hash_buffer` runs an algorithm whose
    /// digest spec has no `hash_buffers` function (MD5's, cipher/md5.c)
    /// through a handle of its own (cipher/md.c: `md_open`, which allocates
    /// the handle and the digest's context entry, then write, final,
    /// `md_close`); the others hash the buffer directly.
    fn allocates(&self, message: bool) -> Option<Allocation> {
        (message && self.algo == GCRY_MD_MD5).then_some(Allocation::in_c(
            "libgcrypt's gcry_md_hash_buffer has no direct path for MD5 (its digest spec has no hash_buffers): \
             it opens a handle per call (md_open allocates the handle and the digest's context entry) and \
             closes it: 2 allocations per message",
        ))
    }
}

/// SHAKE: `message` is `gcry_md_reset`, `gcry_md_write` and
/// `gcry_md_extract` on one handle; `stream` writes on it, the output
/// extracted from a copy.
pub struct XofSession<'a> {
    pub api: &'a Api,
    pub hd: MdHd<'a>,
    pub algo: c_int,
    /// The catalog's output length.
    pub len: usize,
    pub extract: ExtractFn,
}

impl XofSession<'_> {
    fn extract(&self, hd: &MdHd<'_>, out: &mut [u8]) -> Result<(), BackendError> {
        // SAFETY: live handle of `algo`; `out` covers its length.
        check(
            self.api,
            unsafe { (self.extract)(hd.hd, self.algo, out.as_mut_ptr().cast(), out.len()) },
            "gcry_md_extract",
        )
    }
}

impl DigestSession for XofSession<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        // SAFETY: live handle; reads msg.len() bytes.
        unsafe {
            (self.api.gcry_md_reset)(self.hd.hd);
            (self.api.gcry_md_write)(self.hd.hd, msg.as_ptr().cast(), msg.len());
        }
        self.extract(&self.hd, out)
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live handle; reads msg.len() bytes.
        unsafe { (self.api.gcry_md_write)(self.hd.hd, msg.as_ptr().cast(), msg.len()) };
        Ok(())
    }

    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let copy = self.hd.copy()?;
        let mut out = vec![0u8; self.len];
        self.extract(&copy, &mut out)?;
        Ok(out)
    }
}

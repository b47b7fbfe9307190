//! BoringSSL's calls (through boring-sys, the FFI crate of `boring`)
//! behind the shared timed loops (crate::timed): plain ciphers and AEAD
//! streams on an `EVP_CIPHER_CTX` (crypto/cipher/cipher.c), AEAD messages
//! on an `EVP_AEAD_CTX` (include/openssl/aead.h: `EVP_AEAD_CTX_seal_scatter`
//! encrypts in place with the tag apart, `EVP_AEAD_CTX_open_gather`
//! decrypts into a separate buffer against a separate tag), digests with
//! the one-shot `EVP_Digest` and `EVP_DigestUpdate`.

use std::ffi::c_int;

use boring_sys as ffi;

use crate::error::BackendError;
use crate::named::Allocation;
use crate::sessions::{CipherSession, DigestSession};

pub fn check(ok: c_int, call: &'static str) -> Result<(), BackendError> {
    if ok == 1 {
        return Ok(());
    }
    // SAFETY: drops this thread's queued errors, which describe the failure just reported.
    unsafe { ffi::ERR_clear_error() };
    Err(BackendError::Call {
        call,
        detail: "BoringSSL returned 0".into(),
    })
}

fn len_c(n: usize) -> Result<c_int, BackendError> {
    c_int::try_from(n).map_err(|_| BackendError::Invalid("EVP_CipherUpdate takes at most 2 GiB per call".into()))
}

/// What one catalog cipher is in BoringSSL.
#[derive(Clone, Copy)]
pub enum Scheme {
    /// An `EVP_CIPHER` without authentication.
    Plain(*const ffi::EVP_CIPHER),
    /// An `EVP_AEAD` for messages, and the `EVP_CIPHER` for streams where BoringSSL has one.
    Aead(*const ffi::EVP_AEAD, Option<*const ffi::EVP_CIPHER>),
}

pub struct Cipher {
    scheme: Scheme,
    ctx: *mut ffi::EVP_CIPHER_CTX,
    aead: *mut ffi::EVP_AEAD_CTX,
    /// The tag length of the AEAD (16 for the catalog's).
    tag_len: usize,
    /// The AEAD decrypts only through `EVP_AEAD_CTX_open`, reading ciphertext ‖ tag:
    /// BoringSSL's AES-GCM-SIV has no `open_gather` (crypto/cipher/e_aesgcmsiv.c),
    /// and `EVP_AEAD_CTX_open_gather` refuses it.
    open_whole: bool,
}

/// Whether `aead` lacks `open_gather` (see [`Cipher::open_whole`]).
fn opens_whole(aead: *const ffi::EVP_AEAD) -> bool {
    // SAFETY: the getters return static descriptors.
    unsafe { aead == ffi::EVP_aead_aes_128_gcm_siv() || aead == ffi::EVP_aead_aes_256_gcm_siv() }
}

impl Cipher {
    pub fn new(scheme: Scheme, key: &[u8], iv: &[u8], encrypt: bool, tag_len: usize) -> Result<Cipher, BackendError> {
        let mut c = Cipher {
            scheme,
            ctx: std::ptr::null_mut(),
            aead: std::ptr::null_mut(),
            tag_len,
            open_whole: matches!(scheme, Scheme::Aead(aead, _) if opens_whole(aead)),
        };
        let cipher = match scheme {
            Scheme::Plain(cipher) => Some(cipher),
            Scheme::Aead(aead, cipher) => {
                // SAFETY: documented constructor; the key covers key_len.
                c.aead = unsafe { ffi::EVP_AEAD_CTX_new(aead, key.as_ptr(), key.len(), tag_len) };
                if c.aead.is_null() {
                    check(0, "EVP_AEAD_CTX_new")?;
                }
                cipher
            }
        };
        if let Some(cipher) = cipher {
            // SAFETY: documented calls; key and IV have the cipher's lengths (checked against the catalog).
            unsafe {
                c.ctx = ffi::EVP_CIPHER_CTX_new();
                if c.ctx.is_null() {
                    check(0, "EVP_CIPHER_CTX_new")?;
                }
                let ivp = if iv.is_empty() { std::ptr::null() } else { iv.as_ptr() };
                check(
                    ffi::EVP_CipherInit_ex(c.ctx, cipher, std::ptr::null_mut(), key.as_ptr(), ivp, c_int::from(encrypt)),
                    "EVP_CipherInit_ex",
                )?;
                check(ffi::EVP_CIPHER_CTX_set_padding(c.ctx, 0), "EVP_CIPHER_CTX_set_padding")?;
            }
        }
        Ok(c)
    }

    fn cipher_ctx(&self) -> Result<*mut ffi::EVP_CIPHER_CTX, BackendError> {
        if self.ctx.is_null() {
            return Err(BackendError::Unsupported(
                "streaming updates (BoringSSL has this AEAD only as an EVP_AEAD, which seals whole messages)".into(),
            ));
        }
        Ok(self.ctx)
    }

    /// `EVP_CipherUpdate` from `src` to `dst` (equal for in place).
    ///
    /// # Safety
    /// `src` and `dst` must be valid for `len` bytes.
    unsafe fn pass(&self, src: *const u8, dst: *mut u8, len: usize) -> Result<(), BackendError> {
        let ctx = self.cipher_ctx()?;
        let mut out_len: c_int = 0;
        // SAFETY: per the contract; BoringSSL allows in == out.
        check(
            unsafe { ffi::EVP_CipherUpdate(ctx, dst, &mut out_len, src, len_c(len)?) },
            "EVP_CipherUpdate",
        )?;
        if out_len as usize != len {
            return Err(BackendError::Call {
                call: "EVP_CipherUpdate",
                detail: format!("gave {out_len} of {len} bytes"),
            });
        }
        Ok(())
    }
}

impl Cipher {
    /// The IV on the kept key: `EVP_CipherInit_ex` with NULL cipher and key.
    fn restart(&mut self, iv: &[u8]) -> Result<(), BackendError> {
        let ivp = if iv.is_empty() { std::ptr::null() } else { iv.as_ptr() };
        // SAFETY: live context; the IV has the cipher's length (checked against the catalog).
        check(
            unsafe { ffi::EVP_CipherInit_ex(self.ctx, std::ptr::null(), std::ptr::null_mut(), std::ptr::null(), ivp, -1) },
            "EVP_CipherInit_ex",
        )
    }
}

impl Drop for Cipher {
    fn drop(&mut self) {
        // SAFETY: created by the matching *_new, freed once (free accepts NULL).
        unsafe {
            ffi::EVP_CIPHER_CTX_free(self.ctx);
            ffi::EVP_AEAD_CTX_free(self.aead);
        }
    }
}

impl Cipher {
    /// `EVP_AEAD_CTX_open` of ciphertext ‖ tag into `out`.
    fn open_whole(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        if input.len() != out.len() + self.tag_len {
            return Err(BackendError::Invalid("input is not the ciphertext and its tag".into()));
        }
        let mut n = 0usize;
        // SAFETY: live context; `out` holds input.len() - tag_len bytes, as many as the plaintext.
        let ok = unsafe {
            ffi::EVP_AEAD_CTX_open(
                self.aead,
                out.as_mut_ptr(),
                &mut n,
                out.len(),
                iv.as_ptr(),
                iv.len(),
                input.as_ptr(),
                input.len(),
                aad.as_ptr(),
                aad.len(),
            )
        };
        if ok == 1 && n == out.len() {
            return Ok(());
        }
        // SAFETY: clears the queued error of this thread.
        unsafe { ffi::ERR_clear_error() };
        Err(BackendError::AuthenticationFailed)
    }
}

impl CipherSession for Cipher {
    /// `EVP_AEAD_CTX_cleanup` + `EVP_AEAD_CTX_init` on the kept context
    /// (AEADs); `EVP_CipherInit_ex` with the key (plain ciphers).
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live contexts; key lengths checked against the catalog.
        unsafe {
            match self.scheme {
                Scheme::Aead(aead, _) => {
                    ffi::EVP_AEAD_CTX_cleanup(self.aead);
                    check(
                        ffi::EVP_AEAD_CTX_init(self.aead, aead, key.as_ptr(), key.len(), self.tag_len, std::ptr::null_mut()),
                        "EVP_AEAD_CTX_init",
                    )
                }
                Scheme::Plain(_) => check(
                    ffi::EVP_CipherInit_ex(self.ctx, std::ptr::null(), std::ptr::null_mut(), key.as_ptr(), std::ptr::null(), -1),
                    "EVP_CipherInit_ex",
                ),
            }
        }
    }

    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let p = buf.as_mut_ptr();
        // SAFETY: in place over buf.
        unsafe { self.pass(p, p, buf.len()) }
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let (p, n) = (buf.as_mut_ptr(), buf.len());
        match self.scheme {
            Scheme::Aead(..) => {
                let mut tag_len = 0usize;
                // SAFETY: live context; BoringSSL allows out == in; tag holds tag.len() bytes.
                check(
                    unsafe {
                        ffi::EVP_AEAD_CTX_seal_scatter(
                            self.aead,
                            p,
                            tag.as_mut_ptr(),
                            &mut tag_len,
                            tag.len(),
                            iv.as_ptr(),
                            iv.len(),
                            p,
                            n,
                            std::ptr::null(),
                            0,
                            aad.as_ptr(),
                            aad.len(),
                        )
                    },
                    "EVP_AEAD_CTX_seal_scatter",
                )
            }
            Scheme::Plain(_) => {
                self.restart(iv)?;
                // SAFETY: in place over buf.
                unsafe { self.pass(p, p, n) }
            }
        }
    }

    fn tag_appended(&self) -> bool {
        self.open_whole
    }

    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        if self.open_whole {
            return self.open_whole(iv, aad, input, out);
        }
        if input.len() != out.len() {
            return Err(BackendError::Invalid("input and output differ in length".into()));
        }
        match self.scheme {
            Scheme::Aead(..) => {
                // SAFETY: live context; every buffer covers the length passed.
                let ok = unsafe {
                    ffi::EVP_AEAD_CTX_open_gather(
                        self.aead,
                        out.as_mut_ptr(),
                        iv.as_ptr(),
                        iv.len(),
                        input.as_ptr(),
                        input.len(),
                        tag.as_ptr(),
                        tag.len(),
                        aad.as_ptr(),
                        aad.len(),
                    )
                };
                if ok == 1 {
                    return Ok(());
                }
                // SAFETY: clears the queued CIPHER_R_BAD_DECRYPT of this thread.
                unsafe { ffi::ERR_clear_error() };
                Err(BackendError::AuthenticationFailed)
            }
            Scheme::Plain(_) => {
                self.restart(iv)?;
                // SAFETY: input and out cover out.len() bytes and do not overlap.
                unsafe { self.pass(input.as_ptr(), out.as_mut_ptr(), out.len()) }
            }
        }
    }
}

/// A digest: `EVP_Digest` per message, `EVP_DigestUpdate` on a kept context.
pub struct Hash {
    md: *const ffi::EVP_MD,
    ctx: *mut ffi::EVP_MD_CTX,
}

impl Hash {
    pub fn new(md: *const ffi::EVP_MD) -> Result<Hash, BackendError> {
        // SAFETY: documented calls.
        unsafe {
            let ctx = ffi::EVP_MD_CTX_new();
            if ctx.is_null() {
                check(0, "EVP_MD_CTX_new")?;
            }
            let h = Hash { md, ctx };
            check(ffi::EVP_DigestInit_ex(ctx, md, std::ptr::null_mut()), "EVP_DigestInit_ex")?;
            Ok(h)
        }
    }
}

impl Drop for Hash {
    fn drop(&mut self) {
        // SAFETY: created by EVP_MD_CTX_new, freed once.
        unsafe { ffi::EVP_MD_CTX_free(self.ctx) };
    }
}

impl DigestSession for Hash {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        let mut n: std::ffi::c_uint = 0;
        // SAFETY: out has the digest size (checked when the cell was prepared).
        check(
            unsafe {
                ffi::EVP_Digest(
                    msg.as_ptr().cast(),
                    msg.len(),
                    out.as_mut_ptr(),
                    &mut n,
                    self.md,
                    std::ptr::null_mut(),
                )
            },
            "EVP_Digest",
        )
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: initialised context.
        check(
            unsafe { ffi::EVP_DigestUpdate(self.ctx, msg.as_ptr().cast(), msg.len()) },
            "EVP_DigestUpdate",
        )
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let copy = Hash::new(self.md)?;
        // SAFETY: both contexts live; the copy is finalised here.
        unsafe {
            check(ffi::EVP_MD_CTX_copy_ex(copy.ctx, self.ctx), "EVP_MD_CTX_copy_ex")?;
            let mut out = vec![0u8; ffi::EVP_MD_size(self.md)];
            let mut n: std::ffi::c_uint = 0;
            check(ffi::EVP_DigestFinal_ex(copy.ctx, out.as_mut_ptr(), &mut n), "EVP_DigestFinal_ex")?;
            Ok(out)
        }
    }
    /// `EVP_Digest` (crypto/fipsmodule/digest/digest.c) runs on an
    /// `EVP_MD_CTX` on its stack, whose `EVP_DigestInit_ex` allocates the
    /// digest's state (`md_data`), freed by `EVP_MD_CTX_cleanup`.
    fn allocates(&self, message: bool) -> Option<Allocation> {
        message.then_some(Allocation::in_c(
            "BoringSSL's one-shot EVP_Digest allocates the digest's state: EVP_DigestInit_ex on its stack \
             context mallocs md_data (OPENSSL_malloc of the digest's ctx_size), EVP_MD_CTX_cleanup frees it: \
             1 allocation per message",
        ))
    }
}

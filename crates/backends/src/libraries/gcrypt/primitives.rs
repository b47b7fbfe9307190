//! libgcrypt's timed operations on one `gcry_cipher_hd_t` / `gcry_md_hd_t`
//! (API: libgcrypt manual, "Symmetric cryptography" and "Hashing").

use std::ffi::c_int;

use super::api::Api;
use super::handles::{check, check_tag, CipherHd, MdHd};
use super::set_iv;
use crate::error::BackendError;
use crate::primitive::Primitive;

/// `stream`: one handle keyed once; each call is one `gcry_cipher_encrypt`
/// (or `_decrypt`) in place (in = NULL, inlen = 0), chaining state kept.
/// For AEAD modes this streams data without AAD or tag, as OpenSSL's stream mode.
pub struct CipherStream<'a> {
    pub api: &'a Api,
    pub hd: CipherHd<'a>,
    pub encrypt: bool,
}

impl Primitive for CipherStream<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let f = if self.encrypt {
            self.api.gcry_cipher_encrypt
        } else {
            self.api.gcry_cipher_decrypt
        };
        let (p, n) = (buf.as_mut_ptr().cast(), buf.len());
        for _ in 0..iterations {
            // SAFETY: in-place operation over `n` bytes of `buf`, which libgcrypt documents.
            check(
                self.api,
                unsafe { f(self.hd.hd, p, n, std::ptr::null(), 0) },
                "gcry_cipher_encrypt/decrypt",
            )?;
        }
        Ok(())
    }
}

/// `message`: per call `gcry_cipher_setiv` (CTR: `gcry_cipher_setctr`) on the
/// kept key (`rekey`: `gcry_cipher_setkey` first), AEAD: `gcry_cipher_authenticate`
/// with the AAD; one encrypt or decrypt over the message; AEAD encryption reads
/// the tag (`gcry_cipher_gettag`), decryption verifies the genuine one (`gcry_cipher_checktag`).
pub struct CipherMessage<'a> {
    pub api: &'a Api,
    pub hd: CipherHd<'a>,
    pub mode: c_int,
    pub encrypt: bool,
    pub rekey: bool,
    pub aead: bool,
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
    pub tag: Vec<u8>,
    pub ciphertext: Vec<u8>,
}

impl Primitive for CipherMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let api = self.api;
        if !self.encrypt && self.ciphertext.len() != buf.len() {
            return Err(BackendError::Invalid("buffer and prepared ciphertext differ in length".into()));
        }
        let hd = self.hd.hd;
        let (out, n) = (buf.as_mut_ptr().cast(), buf.len());
        for _ in 0..iterations {
            // SAFETY: live handle; pointers cover the lengths passed.
            unsafe {
                if self.rekey {
                    check(
                        api,
                        (api.gcry_cipher_setkey)(hd, self.key.as_ptr().cast(), self.key.len()),
                        "gcry_cipher_setkey",
                    )?;
                }
                if self.aead {
                    let (src, dst) = if self.encrypt {
                        (out as *const u8, out as *mut u8)
                    } else {
                        (self.ciphertext.as_ptr(), out as *mut u8)
                    };
                    super::aead::message(api, hd, self.mode, self.encrypt, &self.iv, &self.aad, src, dst, n, &mut self.tag)?;
                    continue;
                }
                set_iv(api, hd, self.mode, &self.iv)?;
                if self.aead && !self.aad.is_empty() {
                    check(
                        api,
                        (api.gcry_cipher_authenticate)(hd, self.aad.as_ptr().cast(), self.aad.len()),
                        "gcry_cipher_authenticate",
                    )?;
                }
                if self.encrypt {
                    check(
                        api,
                        (api.gcry_cipher_encrypt)(hd, out, n, std::ptr::null(), 0),
                        "gcry_cipher_encrypt",
                    )?;
                    if self.aead {
                        check(
                            api,
                            (api.gcry_cipher_gettag)(hd, self.tag.as_mut_ptr().cast(), self.tag.len()),
                            "gcry_cipher_gettag",
                        )?;
                    }
                } else {
                    check(
                        api,
                        (api.gcry_cipher_decrypt)(hd, out, n, self.ciphertext.as_ptr().cast(), n),
                        "gcry_cipher_decrypt",
                    )?;
                    if self.aead {
                        check_tag(api, (api.gcry_cipher_checktag)(hd, self.tag.as_ptr().cast(), self.tag.len()))?;
                    }
                }
            }
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(self.aead.then(|| self.tag.clone()))
    }
}

/// Digest `message`: the one-shot `gcry_md_hash_buffer`.
pub struct DigestMessage<'a> {
    pub api: &'a Api,
    pub algo: c_int,
    pub out: Vec<u8>,
}

impl Primitive for DigestMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: `out` has the algorithm's digest length (gcry_md_get_algo_dlen).
            unsafe { (self.api.gcry_md_hash_buffer)(self.algo, self.out.as_mut_ptr().cast(), buf.as_ptr().cast(), buf.len()) };
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out.clone()))
    }
}

/// Digest `stream`: `gcry_md_write` on one handle; the value is read from a `gcry_md_copy`.
pub struct DigestStream<'a> {
    pub api: &'a Api,
    pub hd: MdHd<'a>,
    pub algo: c_int,
    pub len: usize,
}

impl Primitive for DigestStream<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: live handle; reads buf.len() bytes.
            unsafe { (self.api.gcry_md_write)(self.hd.hd, buf.as_ptr().cast(), buf.len()) };
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.hd.copy()?.read(self.algo, self.len)?))
    }
}

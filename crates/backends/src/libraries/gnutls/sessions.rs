//! GnuTLS's sessions, behind the shared timed loops (crate::timed).
//! Plain ciphers and AEAD streams use the classic cipher API
//! (`gnutls_cipher_*`, crypto.h), keyed once; AEAD messages use the AEAD
//! API (`gnutls_aead_cipher_*`): `encryptv2` encrypts in place with the tag
//! apart, `decrypt` reads ciphertext ‖ tag and writes the plaintext apart.

use std::ffi::{c_int, c_uint, c_void};

use cryptobench_core::Mode;

use super::api::*;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::native::text;
use crate::sessions::{CipherSession, DigestSession};

/// A GnuTLS return code as a Result, with GnuTLS's own message.
pub fn check(api: &Api, rc: c_int, call: &'static str) -> Result<(), BackendError> {
    if rc >= 0 {
        return Ok(());
    }
    if rc == GNUTLS_E_DECRYPTION_FAILED {
        return Err(BackendError::AuthenticationFailed);
    }
    // SAFETY: gnutls_strerror returns a static string for any code.
    let detail = text(unsafe { (api.gnutls_strerror)(rc) }).unwrap_or_else(|| format!("error {rc}"));
    Err(BackendError::Call { call, detail })
}

fn datum(bytes: &[u8]) -> Datum {
    Datum {
        data: bytes.as_ptr(),
        size: bytes.len() as c_uint,
    }
}

/// A classic cipher handle, deinitialised on drop.
struct Classic<'a> {
    api: &'a Api,
    hd: CipherHd,
}

impl<'a> Classic<'a> {
    fn new(api: &'a Api, algo: c_int, key: &[u8], iv: &[u8]) -> Result<Classic<'a>, BackendError> {
        let mut hd: CipherHd = std::ptr::null_mut();
        let (k, i) = (datum(key), datum(iv));
        let iv_ptr = if iv.is_empty() { std::ptr::null() } else { &i as *const Datum };
        // SAFETY: documented call; key and IV outlive it (GnuTLS copies them).
        check(
            api,
            unsafe { (api.gnutls_cipher_init)(&mut hd, algo, &k, iv_ptr) },
            "gnutls_cipher_init",
        )?;
        Ok(Classic { api, hd })
    }
}

impl Drop for Classic<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised by gnutls_cipher_init, released once.
        unsafe { (self.api.gnutls_cipher_deinit)(self.hd) };
    }
}

/// An AEAD handle, deinitialised on drop.
struct AeadHandle<'a> {
    api: &'a Api,
    hd: AeadHd,
}

impl<'a> AeadHandle<'a> {
    fn new(api: &'a Api, algo: c_int, key: &[u8]) -> Result<AeadHandle<'a>, BackendError> {
        let mut hd: AeadHd = std::ptr::null_mut();
        let k = datum(key);
        // SAFETY: documented call; GnuTLS copies the key.
        check(
            api,
            unsafe { (api.gnutls_aead_cipher_init)(&mut hd, algo, &k) },
            "gnutls_aead_cipher_init",
        )?;
        Ok(AeadHandle { api, hd })
    }
}

impl Drop for AeadHandle<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised by gnutls_aead_cipher_init, released once.
        unsafe { (self.api.gnutls_aead_cipher_deinit)(self.hd) };
    }
}

/// One keyed cipher: the classic handle (streams, plain-cipher messages)
/// and, for AEADs, the AEAD handle (messages).
pub struct Cipher<'a> {
    api: &'a Api,
    algo: c_int,
    encrypt: bool,
    classic: Classic<'a>,
    aead: Option<AeadHandle<'a>>,
    /// The IV of the classic handle, kept for `rekey` (gnutls_cipher_init takes it with the key).
    iv: Vec<u8>,
}

impl<'a> Cipher<'a> {
    pub fn new(api: &'a Api, algo: c_int, aead: bool, key: &[u8], iv: &[u8], encrypt: bool) -> Result<Cipher<'a>, BackendError> {
        Ok(Cipher {
            api,
            algo,
            encrypt,
            classic: Classic::new(api, algo, key, iv)?,
            aead: if aead { Some(AeadHandle::new(api, algo, key)?) } else { None },
            iv: iv.to_vec(),
        })
    }

    fn aead(&self) -> Result<&AeadHandle<'a>, BackendError> {
        self.aead
            .as_ref()
            .ok_or_else(|| BackendError::Invalid("internal: an AEAD call on a plain cipher".into()))
    }
}

impl CipherSession for Cipher<'_> {
    /// A new handle with the key: `gnutls_aead_cipher_init` for AEADs,
    /// `gnutls_cipher_init` for plain ciphers. `gnutls_aead_cipher_set_key`
    /// (3.7.5+) would keep the handle, but in 3.7.9 with the x86 accelerated
    /// AES-GCM the tags after it are wrong (same key and nonce, another tag:
    /// seen here with a C program against libgnutls.so.30.34.3), so it is not used.
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        if self.aead.is_some() {
            self.aead = Some(AeadHandle::new(self.api, self.algo, key)?);
        } else {
            self.classic = Classic::new(self.api, self.algo, key, &self.iv)?;
        }
        Ok(())
    }

    /// `gnutls_cipher_encrypt`/`_decrypt` in place on the classic handle.
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let api = self.api;
        let (f, call) = if self.encrypt {
            (api.gnutls_cipher_encrypt, "gnutls_cipher_encrypt")
        } else {
            (api.gnutls_cipher_decrypt, "gnutls_cipher_decrypt")
        };
        // SAFETY: live handle; in place over buf.len() bytes.
        check(api, unsafe { f(self.classic.hd, buf.as_mut_ptr().cast(), buf.len()) }, call)
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let api = self.api;
        if self.aead.is_none() {
            // SAFETY: live handle; GnuTLS copies the IV; in place over buf.
            unsafe { (api.gnutls_cipher_set_iv)(self.classic.hd, iv.as_ptr().cast_mut().cast(), iv.len()) };
            return self.update(buf);
        }
        let encryptv2 = api.gnutls_aead_cipher_encryptv2.ok_or_else(|| {
            BackendError::Unsupported("AEAD encryption in place (gnutls_aead_cipher_encryptv2 needs GnuTLS 3.6.10+)".into())
        })?;
        let auth = Iovec {
            base: aad.as_ptr().cast(),
            len: aad.len(),
        };
        let data = Iovec {
            base: buf.as_mut_ptr().cast(),
            len: buf.len(),
        };
        let mut tag_len = tag.len();
        // SAFETY: the iovecs cover aad and buf, which GnuTLS encrypts in place; tag holds tag_len bytes.
        let rc = unsafe {
            encryptv2(
                self.aead()?.hd,
                iv.as_ptr().cast(),
                iv.len(),
                &auth,
                1,
                &data,
                1,
                tag.as_mut_ptr().cast(),
                &mut tag_len,
            )
        };
        check(api, rc, "gnutls_aead_cipher_encryptv2")
    }

    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        let api = self.api;
        if self.aead.is_none() {
            // SAFETY: live handle; GnuTLS copies the IV; input and out cover the lengths passed.
            return check(
                api,
                unsafe {
                    (api.gnutls_cipher_set_iv)(self.classic.hd, iv.as_ptr().cast_mut().cast(), iv.len());
                    (api.gnutls_cipher_decrypt2)(
                        self.classic.hd,
                        input.as_ptr().cast(),
                        input.len(),
                        out.as_mut_ptr().cast(),
                        out.len(),
                    )
                },
                "gnutls_cipher_decrypt2",
            );
        }
        let mut out_len = out.len();
        // SAFETY: input is ciphertext ‖ tag (tag_appended); out holds the plaintext's length.
        let rc = unsafe {
            (api.gnutls_aead_cipher_decrypt)(
                self.aead()?.hd,
                iv.as_ptr().cast(),
                iv.len(),
                aad.as_ptr().cast(),
                aad.len(),
                tag.len(),
                input.as_ptr().cast(),
                input.len(),
                out.as_mut_ptr().cast(),
                &mut out_len,
            )
        };
        check(api, rc, "gnutls_aead_cipher_decrypt")
    }

    fn tag_appended(&self) -> bool {
        self.aead.is_some()
    }

    fn allocates(&self, _mode: Mode, rekey: bool) -> Option<Allocation> {
        rekey.then_some(Allocation::in_c(
            "GnuTLS sets a key up only in a new handle, which gnutls_aead_cipher_init (plain ciphers: gnutls_cipher_init) allocates for every message",
        ))
    }
}

/// A hash: `gnutls_hash_fast` per message, `gnutls_hash` on a kept handle for streams.
pub struct Hash<'a> {
    api: &'a Api,
    algo: c_int,
    hd: HashHd,
}

impl<'a> Hash<'a> {
    pub fn new(api: &'a Api, algo: c_int) -> Result<Hash<'a>, BackendError> {
        let mut hd: HashHd = std::ptr::null_mut();
        // SAFETY: documented call.
        check(api, unsafe { (api.gnutls_hash_init)(&mut hd, algo) }, "gnutls_hash_init")?;
        Ok(Hash { api, algo, hd })
    }
}

impl Drop for Hash<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised by gnutls_hash_init; NULL output discards the digest.
        unsafe { (self.api.gnutls_hash_deinit)(self.hd, std::ptr::null_mut()) };
    }
}

impl DigestSession for Hash<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        // SAFETY: out has the digest length (gnutls_hash_get_len, checked when the cell was prepared).
        check(
            self.api,
            unsafe { (self.api.gnutls_hash_fast)(self.algo, msg.as_ptr().cast(), msg.len(), out.as_mut_ptr().cast()) },
            "gnutls_hash_fast",
        )
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live handle.
        check(
            self.api,
            unsafe { (self.api.gnutls_hash)(self.hd, msg.as_ptr().cast(), msg.len()) },
            "gnutls_hash",
        )
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let copy = self
            .api
            .gnutls_hash_copy
            .ok_or_else(|| BackendError::Unsupported("reading a running hash (gnutls_hash_copy needs GnuTLS 3.6.9+)".into()))?;
        // SAFETY: live handle; the copy is released by gnutls_hash_deinit, which writes the digest.
        let hd = unsafe { copy(self.hd) };
        if hd.is_null() {
            return Err(BackendError::Call {
                call: "gnutls_hash_copy",
                detail: "returned NULL (this hash cannot be copied)".into(),
            });
        }
        // SAFETY: plain query.
        let mut out = vec![0u8; unsafe { (self.api.gnutls_hash_get_len)(self.algo) } as usize];
        // SAFETY: out has the digest length.
        unsafe { (self.api.gnutls_hash_deinit)(hd, out.as_mut_ptr().cast::<c_void>()) };
        Ok(out)
    }
}

/// A MAC handle keyed once (`gnutls_hmac_init`, for HMAC and CMAC alike).
/// `gnutls_hmac_output` writes the tag and resets the handle to the keyed
/// state (crypto.h: "output the current MAC value and reset the state"), so
/// a message is one `gnutls_hmac` and one output on the kept handle.
pub struct Mac<'a> {
    api: &'a Api,
    algo: c_int,
    hd: HmacHd,
}

impl<'a> Mac<'a> {
    pub fn new(api: &'a Api, algo: c_int, key: &[u8]) -> Result<Mac<'a>, BackendError> {
        let mut hd: HmacHd = std::ptr::null_mut();
        // SAFETY: documented call; GnuTLS copies the key.
        check(
            api,
            unsafe { (api.gnutls_hmac_init)(&mut hd, algo, key.as_ptr().cast(), key.len()) },
            "gnutls_hmac_init",
        )?;
        Ok(Mac { api, algo, hd })
    }

    fn len(&self) -> usize {
        // SAFETY: plain query.
        unsafe { (self.api.gnutls_hmac_get_len)(self.algo) as usize }
    }
}

impl Drop for Mac<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised by gnutls_hmac_init; NULL output discards the tag.
        unsafe { (self.api.gnutls_hmac_deinit)(self.hd, std::ptr::null_mut()) };
    }
}

impl DigestSession for Mac<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        if out.len() != self.len() {
            return Err(BackendError::Invalid(format!("GnuTLS writes {}-byte tags", self.len())));
        }
        self.update(msg)?;
        // SAFETY: out has the tag length (checked above).
        unsafe { (self.api.gnutls_hmac_output)(self.hd, out.as_mut_ptr().cast()) };
        Ok(())
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live handle.
        check(
            self.api,
            unsafe { (self.api.gnutls_hmac)(self.hd, msg.as_ptr().cast(), msg.len()) },
            "gnutls_hmac",
        )
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let copy = self
            .api
            .gnutls_hmac_copy
            .ok_or_else(|| BackendError::Unsupported("reading a running MAC (gnutls_hmac_copy needs GnuTLS 3.6.9+)".into()))?;
        // SAFETY: live handle; the copy is released by gnutls_hmac_deinit, which writes the tag.
        let hd = unsafe { copy(self.hd) };
        if hd.is_null() {
            return Err(BackendError::Call {
                call: "gnutls_hmac_copy",
                detail: "returned NULL (this MAC cannot be copied)".into(),
            });
        }
        let mut out = vec![0u8; self.len()];
        // SAFETY: out has the tag length.
        unsafe { (self.api.gnutls_hmac_deinit)(hd, out.as_mut_ptr().cast::<c_void>()) };
        Ok(out)
    }
}

//! AES sessions on CNG: one key (`BCryptGenerateSymmetricKey`) on the
//! provider of the algorithm's chaining mode; `BCryptEncrypt` and
//! `BCryptDecrypt` in place. ECB and CBC stream (CNG writes the last
//! ciphertext block back into the IV buffer, so a CBC stream carries on
//! from it); GCM and CCM seal and open whole messages through
//! BCRYPT_AUTHENTICATED_CIPHER_MODE_INFO (nonce, AAD, tag).
//! <https://learn.microsoft.com/en-us/windows/win32/api/bcrypt/nf-bcrypt-bcryptencrypt>.

use windows_sys::Win32::Security::Cryptography::{
    BCryptDecrypt, BCryptEncrypt, BCRYPT_AUTHENTICATED_CIPHER_MODE_INFO, BCRYPT_AUTHENTICATED_CIPHER_MODE_INFO_VERSION,
};

use super::calls::{check, Key, Provider};
use super::Chaining;
use crate::error::BackendError;
use crate::sessions::{unsupported, CipherSession};

pub struct AesSession<'a> {
    provider: &'a Provider,
    chaining: Chaining,
    key: Key,
    encrypt: bool,
    /// CBC's running IV (a stream carries on from it); a message copies its IV here first.
    iv: Vec<u8>,
}

impl<'a> AesSession<'a> {
    pub fn new(provider: &'a Provider, chaining: Chaining, key: &[u8], iv: &[u8], encrypt: bool) -> Result<Self, BackendError> {
        Ok(AesSession {
            provider,
            chaining,
            key: Key::new(provider, key)?,
            encrypt,
            iv: iv.to_vec(),
        })
    }

    /// ECB or CBC over `input` into `out` (the same length; may be the same
    /// buffer), chaining on from `self.iv` for CBC.
    fn block_call(&mut self, input: *const u8, out: *mut u8, len: usize) -> Result<(), BackendError> {
        let (iv, iv_len) = match self.chaining {
            Chaining::Cbc => (self.iv.as_mut_ptr(), self.iv.len() as u32),
            _ => (std::ptr::null_mut(), 0),
        };
        let mut written: u32 = 0;
        let n = len as u32;
        let k = self.key.handle();
        // SAFETY: `input` and `out` hold `len` bytes (CNG allows them to be
        // the same buffer); the IV buffer is the session's, of the block size.
        let status = unsafe {
            if self.encrypt {
                BCryptEncrypt(k, input, n, std::ptr::null(), iv, iv_len, out, n, &mut written, 0)
            } else {
                BCryptDecrypt(k, input, n, std::ptr::null(), iv, iv_len, out, n, &mut written, 0)
            }
        };
        check(status, if self.encrypt { "BCryptEncrypt" } else { "BCryptDecrypt" })?;
        if written as usize != len {
            return Err(BackendError::Call {
                call: "BCryptEncrypt",
                detail: format!("wrote {written} bytes of {len}"),
            });
        }
        Ok(())
    }

    /// GCM or CCM over `len` bytes of `input` into `out` (`io`) under
    /// `nonce` and `aad`, the tag (pointer, length) written into (sealing)
    /// or read from (opening) `tag`.
    fn aead_call(&mut self, nonce: &[u8], aad: &[u8], io: (*const u8, *mut u8, usize), tag: (*mut u8, usize)) -> Result<(), BackendError> {
        let (input, out, len) = io;
        let (tag, tag_len) = tag;
        // BCRYPT_INIT_AUTH_MODE_INFO (bcrypt.h): zeroed, with cbSize and dwInfoVersion.
        let info = BCRYPT_AUTHENTICATED_CIPHER_MODE_INFO {
            cbSize: std::mem::size_of::<BCRYPT_AUTHENTICATED_CIPHER_MODE_INFO>() as u32,
            dwInfoVersion: BCRYPT_AUTHENTICATED_CIPHER_MODE_INFO_VERSION,
            pbNonce: nonce.as_ptr().cast_mut(),
            cbNonce: nonce.len() as u32,
            pbAuthData: if aad.is_empty() {
                std::ptr::null_mut()
            } else {
                aad.as_ptr().cast_mut()
            },
            cbAuthData: aad.len() as u32,
            pbTag: tag,
            cbTag: tag_len as u32,
            ..Default::default()
        };
        let mut written: u32 = 0;
        let n = len as u32;
        let k = self.key.handle();
        let info_ptr = (&info as *const BCRYPT_AUTHENTICATED_CIPHER_MODE_INFO).cast();
        // SAFETY: as block_call; CNG reads the nonce and AAD and writes or reads the tag only.
        let status = unsafe {
            if self.encrypt {
                BCryptEncrypt(k, input, n, info_ptr, std::ptr::null_mut(), 0, out, n, &mut written, 0)
            } else {
                BCryptDecrypt(k, input, n, info_ptr, std::ptr::null_mut(), 0, out, n, &mut written, 0)
            }
        };
        check(status, if self.encrypt { "BCryptEncrypt" } else { "BCryptDecrypt" })
    }
}

/// Whether CNG seals a message with a key of `key_len` bytes in the AEAD
/// mode `chaining` (bcrypt.dll may refuse a key length with
/// STATUS_NOT_SUPPORTED only when it is used: Wine 8.0's has no AES-192-GCM):
/// None if it does, else why not. An empty message under a zero key, made
/// when the library opens, so that such a cell is n/a before verification.
pub fn aead_refusal(provider: &Provider, chaining: Chaining, key_len: usize) -> Option<String> {
    let mut session = match AesSession::new(provider, chaining, &vec![0u8; key_len], &[], true) {
        Ok(s) => s,
        Err(e) => return Some(e.to_string()),
    };
    let mut tag = [0u8; 16];
    match session.seal(&[0u8; 12], &[], &mut [], &mut tag) {
        Ok(()) => None,
        Err(e) => Some(e.to_string()),
    }
}

impl CipherSession for AesSession<'_> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.key.set(self.provider, key)
    }

    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        if self.chaining.authenticated() {
            return Err(unsupported(
                "GCM and CCM stream updates on CNG (cryptobench seals whole messages through it: use --mode message)",
            ));
        }
        let p = buf.as_mut_ptr();
        self.block_call(p, p, buf.len())
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        let p = buf.as_mut_ptr();
        if self.chaining.authenticated() {
            return self.aead_call(iv, aad, (p, p, buf.len()), (tag.as_mut_ptr(), tag.len()));
        }
        self.iv.copy_from_slice(iv);
        self.block_call(p, p, buf.len())
    }

    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        if self.chaining.authenticated() {
            // CNG only reads the tag when decrypting (pbTag is declared mutable for sealing).
            return self.aead_call(
                iv,
                aad,
                (input.as_ptr(), out.as_mut_ptr(), input.len()),
                (tag.as_ptr().cast_mut(), tag.len()),
            );
        }
        self.iv.copy_from_slice(iv);
        self.block_call(input.as_ptr(), out.as_mut_ptr(), input.len())
    }
}

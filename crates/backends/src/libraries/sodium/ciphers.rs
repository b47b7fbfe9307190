//! libsodium's cipher sessions: the AEADs (one-shot detached calls: no
//! streaming updates of the kind `stream` times) and ChaCha20 alone
//! (`crypto_stream_chacha20_ietf_xor_ic`).
//! <https://doc.libsodium.org/secret-key_cryptography/aead>,
//! <https://doc.libsodium.org/advanced/stream_ciphers/chacha20>.

use super::api::{check, Api};
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::sessions::{unsupported, CipherSession};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aead {
    Aes256Gcm,
    ChaCha20Poly1305,
    /// `crypto_aead_xchacha20poly1305_ietf_*`: libsodium's main AEAD (192-bit nonce).
    XChaCha20Poly1305,
}

impl Aead {
    fn nonce_len(self) -> usize {
        match self {
            Aead::XChaCha20Poly1305 => 24,
            _ => 12,
        }
    }
}

/// Every AEAD key and ChaCha20 key is 32 bytes; every tag 16.
const KEY_LEN: usize = 32;
const TAG_LEN: usize = 16;

fn key_of(key: &[u8]) -> Result<[u8; KEY_LEN], BackendError> {
    key.try_into()
        .map_err(|_| BackendError::Invalid(format!("libsodium's ciphers take a {KEY_LEN}-byte key")))
}

fn same_length(input: &[u8], out: &[u8]) -> Result<(), BackendError> {
    if input.len() != out.len() {
        return Err(BackendError::Invalid("input and output differ in length".into()));
    }
    Ok(())
}

/// An AEAD session: nonce, AAD, whole message, detached tag per call.
/// AES-256-GCM keeps its expanded key in a `crypto_aead_aes256gcm_state`
/// (`beforenm` once, `*_afternm` per message; `rekey` runs `beforenm`).
/// ChaCha20-Poly1305 takes the raw key per call: it has no key schedule,
/// so `rekey` only replaces the key.
pub struct AeadSession<'a> {
    api: &'a Api,
    aead: Aead,
    state: CtxMem,
    key: [u8; KEY_LEN],
}

impl<'a> AeadSession<'a> {
    /// A session on `key`; the caller has checked that this libsodium has the AEAD's calls.
    pub fn new(api: &'a Api, aead: Aead, key: &[u8]) -> Result<Self, BackendError> {
        let key = key_of(key)?;
        let mut state = CtxMem::new(0);
        if aead == Aead::Aes256Gcm {
            // SAFETY: statebytes() is the size of crypto_aead_aes256gcm_state (16-byte aligned; CtxMem gives 64).
            state = CtxMem::new(unsafe { (api.crypto_aead_aes256gcm_statebytes.expect("checked at open"))() });
        }
        let mut session = AeadSession { api, aead, state, key };
        if aead == Aead::Aes256Gcm {
            session.rekey(&key)?;
        }
        Ok(session)
    }

    fn check_lengths(&self, iv: &[u8], tag: &[u8]) -> Result<(), BackendError> {
        if iv.len() != self.aead.nonce_len() || tag.len() != TAG_LEN {
            return Err(BackendError::Invalid(format!(
                "libsodium's AEAD takes a {}-byte nonce and a {TAG_LEN}-byte tag",
                self.aead.nonce_len()
            )));
        }
        Ok(())
    }
}

impl CipherSession for AeadSession<'_> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        if self.aead != Aead::Aes256Gcm {
            self.key = key_of(key)?;
            return Ok(());
        }
        if key.len() != KEY_LEN {
            return Err(BackendError::Invalid(format!("aes-256-gcm takes a {KEY_LEN}-byte key")));
        }
        let beforenm = self.api.crypto_aead_aes256gcm_beforenm.expect("checked at open");
        // SAFETY: a state of statebytes() bytes; a 32-byte key.
        check(
            unsafe { beforenm(self.state.ptr(), key.as_ptr()) },
            "crypto_aead_aes256gcm_beforenm",
        )
    }

    fn update(&mut self, _buf: &mut [u8]) -> Result<(), BackendError> {
        Err(unsupported("stream updates (libsodium's AEAD calls seal whole messages only)"))
    }

    /// `crypto_aead_*_encrypt_detached` (AES-256-GCM: `_afternm` on the
    /// kept state) in place (c == m, which libsodium's AEAD API allows).
    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        self.check_lengths(iv, tag)?;
        let api = self.api;
        let (out, len) = (buf.as_mut_ptr(), buf.len() as u64);
        let (a, alen) = (aad.as_ptr(), aad.len() as u64);
        let mut tag_len = 0u64;
        // SAFETY: buffers cover the lengths passed (nonce and tag checked above); the state was set up by beforenm.
        let rc = unsafe {
            match self.aead {
                Aead::Aes256Gcm => (api.crypto_aead_aes256gcm_encrypt_detached_afternm.expect("checked at open"))(
                    out,
                    tag.as_mut_ptr(),
                    &mut tag_len,
                    out,
                    len,
                    a,
                    alen,
                    std::ptr::null(),
                    iv.as_ptr(),
                    self.state.as_const(),
                ),
                Aead::ChaCha20Poly1305 | Aead::XChaCha20Poly1305 => (self.encrypt_fn())(
                    out,
                    tag.as_mut_ptr(),
                    &mut tag_len,
                    out,
                    len,
                    a,
                    alen,
                    std::ptr::null(),
                    iv.as_ptr(),
                    self.key.as_ptr(),
                ),
            }
        };
        check(rc, "crypto_aead_*_encrypt_detached")
    }

    /// `crypto_aead_*_decrypt_detached` (AES-256-GCM: `_afternm`) from
    /// `input` into `out`; a tag that does not verify fails.
    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        self.check_lengths(iv, tag)?;
        same_length(input, out)?;
        let api = self.api;
        let (a, alen) = (aad.as_ptr(), aad.len() as u64);
        // SAFETY: as for `seal`; `input` and `out` cover the same length.
        let rc = unsafe {
            match self.aead {
                Aead::Aes256Gcm => (api.crypto_aead_aes256gcm_decrypt_detached_afternm.expect("checked at open"))(
                    out.as_mut_ptr(),
                    std::ptr::null_mut(),
                    input.as_ptr(),
                    input.len() as u64,
                    tag.as_ptr(),
                    a,
                    alen,
                    iv.as_ptr(),
                    self.state.as_const(),
                ),
                Aead::ChaCha20Poly1305 | Aead::XChaCha20Poly1305 => (self.decrypt_fn())(
                    out.as_mut_ptr(),
                    std::ptr::null_mut(),
                    input.as_ptr(),
                    input.len() as u64,
                    tag.as_ptr(),
                    a,
                    alen,
                    iv.as_ptr(),
                    self.key.as_ptr(),
                ),
            }
        };
        if rc != 0 {
            return Err(BackendError::AuthenticationFailed);
        }
        Ok(())
    }

    /// The verified one-shot path: the raw-key call, independent of the
    /// timed `*_afternm` one for AES-256-GCM, from `input` into `out`.
    fn seal_into(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        self.check_lengths(iv, tag)?;
        same_length(input, out)?;
        let mut tag_len = 0u64;
        // SAFETY: lengths checked above.
        let rc = unsafe {
            (self.encrypt_fn())(
                out.as_mut_ptr(),
                tag.as_mut_ptr(),
                &mut tag_len,
                input.as_ptr(),
                input.len() as u64,
                aad.as_ptr(),
                aad.len() as u64,
                std::ptr::null(),
                iv.as_ptr(),
                self.key.as_ptr(),
            )
        };
        check(rc, "crypto_aead_*_encrypt_detached")
    }
}

type EncryptFn = unsafe extern "C" fn(*mut u8, *mut u8, *mut u64, *const u8, u64, *const u8, u64, *const u8, *const u8, *const u8) -> i32;
type DecryptFn = unsafe extern "C" fn(*mut u8, *mut u8, *const u8, u64, *const u8, *const u8, u64, *const u8, *const u8) -> i32;

impl AeadSession<'_> {
    /// The raw-key encrypting call of the AEAD.
    fn encrypt_fn(&self) -> EncryptFn {
        match self.aead {
            Aead::Aes256Gcm => self.api.crypto_aead_aes256gcm_encrypt_detached.expect("checked at open"),
            Aead::ChaCha20Poly1305 => self.api.crypto_aead_chacha20poly1305_ietf_encrypt_detached,
            Aead::XChaCha20Poly1305 => self
                .api
                .crypto_aead_xchacha20poly1305_ietf_encrypt_detached
                .expect("checked when the AEAD was looked up"),
        }
    }

    /// The raw-key decrypting call of a ChaCha20-Poly1305 AEAD.
    fn decrypt_fn(&self) -> DecryptFn {
        match self.aead {
            Aead::XChaCha20Poly1305 => self
                .api
                .crypto_aead_xchacha20poly1305_ietf_decrypt_detached
                .expect("checked when the AEAD was looked up"),
            _ => self.api.crypto_aead_chacha20poly1305_ietf_decrypt_detached,
        }
    }
}

/// ChaCha20 with the catalog's 16-byte IV: the little-endian block counter, then the nonce.
pub fn split_iv(iv: &[u8]) -> Result<(u32, [u8; 12]), BackendError> {
    let (counter, nonce) = iv
        .split_first_chunk::<4>()
        .filter(|(_, n)| n.len() == 12)
        .ok_or_else(|| BackendError::Invalid("chacha20 takes a 16-byte IV (counter and nonce)".into()))?;
    Ok((u32::from_le_bytes(*counter), nonce.try_into().expect("checked")))
}

/// ChaCha20: `crypto_stream_chacha20_ietf_xor_ic` from a block counter.
/// `stream` carries the counter on from call to call (so updates must be
/// whole 64-byte blocks: the library refuses other sizes), `message`
/// starts at the IV's counter; decryption reads the ciphertext.
pub struct ChaChaSession<'a> {
    api: &'a Api,
    key: [u8; KEY_LEN],
    nonce: [u8; 12],
    /// The block the next `stream` update starts at.
    counter: u32,
}

impl<'a> ChaChaSession<'a> {
    pub fn new(api: &'a Api, key: &[u8], iv: &[u8]) -> Result<Self, BackendError> {
        if api.crypto_stream_chacha20_ietf_xor_ic.is_none() {
            return Err(unsupported("chacha20 (this libsodium has no crypto_stream_chacha20_ietf_xor_ic)"));
        }
        let (counter, nonce) = split_iv(iv)?;
        Ok(ChaChaSession {
            api,
            key: key_of(key)?,
            nonce,
            counter,
        })
    }

    /// # Safety
    /// `src` and `out` cover `len` bytes (they may be the same buffer).
    unsafe fn xor(&self, out: *mut u8, src: *const u8, len: usize, nonce: &[u8; 12], counter: u32) -> Result<(), BackendError> {
        let f = self
            .api
            .crypto_stream_chacha20_ietf_xor_ic
            .expect("checked when the session was made");
        // SAFETY: per the contract; a 12-byte nonce and a 32-byte key.
        check(
            unsafe { f(out, src, len as u64, nonce.as_ptr(), counter, self.key.as_ptr()) },
            "crypto_stream_chacha20_ietf_xor_ic",
        )
    }
}

impl CipherSession for ChaChaSession<'_> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.key = key_of(key)?;
        Ok(())
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let p = buf.as_mut_ptr();
        // SAFETY: in place over buf.
        unsafe { self.xor(p, p, buf.len(), &self.nonce, self.counter)? };
        self.counter = self.counter.wrapping_add((buf.len() / 64) as u32);
        Ok(())
    }
    fn seal(&mut self, iv: &[u8], _aad: &[u8], buf: &mut [u8], _tag: &mut [u8]) -> Result<(), BackendError> {
        let (counter, nonce) = split_iv(iv)?;
        let p = buf.as_mut_ptr();
        // SAFETY: in place over buf.
        unsafe { self.xor(p, p, buf.len(), &nonce, counter) }
    }
    fn open(&mut self, iv: &[u8], _aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        same_length(input, out)?;
        let (counter, nonce) = split_iv(iv)?;
        // SAFETY: input and out cover the same length.
        unsafe { self.xor(out.as_mut_ptr(), input.as_ptr(), input.len(), &nonce, counter) }
    }
}

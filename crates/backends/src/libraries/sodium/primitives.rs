//! libsodium's timed operations. libsodium has one-shot AEAD and digest
//! calls and streaming digests (init/update/final), but no streaming AEAD
//! updates of the kind `stream` mode times, and no plain ciphers of the catalog.

use std::ffi::c_int;

use super::api::Api;
use super::{Aead, Hash};
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::primitive::Primitive;

pub fn check(rc: c_int, call: &'static str) -> Result<(), BackendError> {
    if rc == 0 {
        Ok(())
    } else {
        Err(BackendError::Call {
            call,
            detail: format!("returned {rc}"),
        })
    }
}

/// AEAD `message`: nonce, AAD, whole message, detached tag.
/// AES-256-GCM keeps its expanded key in a `crypto_aead_aes256gcm_state`
/// (`beforenm` once, `*_afternm` per message; `rekey` runs `beforenm` per
/// message). ChaCha20-Poly1305 takes the raw key per call: it has no key
/// schedule, so `rekey` changes nothing there.
pub struct AeadMessage<'a> {
    pub api: &'a Api,
    pub aead: Aead,
    pub state: CtxMem,
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
    pub encrypt: bool,
    pub rekey: bool,
    pub tag: Vec<u8>,
    pub ciphertext: Vec<u8>,
}

impl Primitive for AeadMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let api = self.api;
        if !self.encrypt && self.ciphertext.len() != buf.len() {
            return Err(BackendError::Invalid("buffer and prepared ciphertext differ in length".into()));
        }
        let (len, aad_len) = (buf.len() as u64, self.aad.len() as u64);
        let out = buf.as_mut_ptr();
        let mut tag_len = 0u64;
        for _ in 0..iterations {
            // SAFETY: buffers cover the lengths passed; the state was set up by beforenm; in-place
            // encryption (c == m) is allowed by libsodium's AEAD API.
            let rc = unsafe {
                match (self.aead, self.encrypt) {
                    (Aead::Aes256Gcm, enc) => {
                        if self.rekey {
                            check(
                                (api.crypto_aead_aes256gcm_beforenm.expect("checked at open"))(self.state.ptr(), self.key.as_ptr()),
                                "crypto_aead_aes256gcm_beforenm",
                            )?;
                        }
                        if enc {
                            (api.crypto_aead_aes256gcm_encrypt_detached_afternm.expect("checked at open"))(
                                out,
                                self.tag.as_mut_ptr(),
                                &mut tag_len,
                                out,
                                len,
                                self.aad.as_ptr(),
                                aad_len,
                                std::ptr::null(),
                                self.iv.as_ptr(),
                                self.state.as_const(),
                            )
                        } else {
                            (api.crypto_aead_aes256gcm_decrypt_detached_afternm.expect("checked at open"))(
                                out,
                                std::ptr::null_mut(),
                                self.ciphertext.as_ptr(),
                                len,
                                self.tag.as_ptr(),
                                self.aad.as_ptr(),
                                aad_len,
                                self.iv.as_ptr(),
                                self.state.as_const(),
                            )
                        }
                    }
                    (Aead::ChaCha20Poly1305 | Aead::XChaCha20Poly1305, true) => (if self.aead == Aead::XChaCha20Poly1305 {
                        api.crypto_aead_xchacha20poly1305_ietf_encrypt_detached.expect("checked in aead_of")
                    } else {
                        api.crypto_aead_chacha20poly1305_ietf_encrypt_detached
                    })(
                        out,
                        self.tag.as_mut_ptr(),
                        &mut tag_len,
                        out,
                        len,
                        self.aad.as_ptr(),
                        aad_len,
                        std::ptr::null(),
                        self.iv.as_ptr(),
                        self.key.as_ptr(),
                    ),
                    (Aead::ChaCha20Poly1305 | Aead::XChaCha20Poly1305, false) => (if self.aead == Aead::XChaCha20Poly1305 {
                        api.crypto_aead_xchacha20poly1305_ietf_decrypt_detached.expect("checked in aead_of")
                    } else {
                        api.crypto_aead_chacha20poly1305_ietf_decrypt_detached
                    })(
                        out,
                        std::ptr::null_mut(),
                        self.ciphertext.as_ptr(),
                        len,
                        self.tag.as_ptr(),
                        self.aad.as_ptr(),
                        aad_len,
                        self.iv.as_ptr(),
                        self.key.as_ptr(),
                    ),
                }
            };
            if rc != 0 {
                return Err(if self.encrypt {
                    BackendError::Call {
                        call: "crypto_aead_*_encrypt_detached",
                        detail: format!("returned {rc}"),
                    }
                } else {
                    BackendError::AuthenticationFailed
                });
            }
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.tag.clone()))
    }
}

/// Digest `message`: the one-shot `crypto_hash_sha256`/`crypto_hash_sha512`/`crypto_generichash_blake2b`.
pub struct DigestMessage<'a> {
    pub api: &'a Api,
    pub hash: Hash,
    pub out: Vec<u8>,
}

impl Primitive for DigestMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            super::hash_once(self.api, self.hash, buf, &mut self.out)?;
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out.clone()))
    }
}

/// Digest `stream`: `*_update` on one state; the value is read from a byte copy of it.
pub struct DigestStream<'a> {
    pub api: &'a Api,
    pub hash: Hash,
    pub state: CtxMem,
}

impl Primitive for DigestStream<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            super::hash_update(self.api, self.hash, &mut self.state, buf)?;
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        let mut copy = self.state.clone();
        Ok(Some(super::hash_final(self.api, self.hash, &mut copy)?))
    }
}

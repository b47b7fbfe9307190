//! libsodium's ChaCha20 alone (`crypto_stream_chacha20_ietf_xor_ic`),
//! Poly1305 (`crypto_onetimeauth_poly1305*`) and HMAC-SHA-256/512
//! (`crypto_auth_hmacsha256_*`/`_hmacsha512_*`, which take keys of any
//! length; libsodium has no HMAC-SHA-1, HMAC-MD5 or CMAC).
//! <https://doc.libsodium.org/advanced/stream_ciphers/chacha20>,
//! <https://doc.libsodium.org/advanced/poly1305>,
//! <https://doc.libsodium.org/advanced/hmac-sha2>.

use super::api::Api;
use super::primitives::check;
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::primitive::Primitive;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mac {
    Poly1305,
    HmacSha256,
    HmacSha512,
}

impl Mac {
    pub fn of(id: &str) -> Option<Mac> {
        Some(match id {
            "poly1305" => Mac::Poly1305,
            "hmac-sha256" => Mac::HmacSha256,
            "hmac-sha512" => Mac::HmacSha512,
            _ => return None,
        })
    }

    fn len(self) -> usize {
        match self {
            Mac::Poly1305 => 16,
            Mac::HmacSha256 => 32,
            Mac::HmacSha512 => 64,
        }
    }

    /// Whether this libsodium exports every call the MAC needs.
    pub fn available(self, api: &Api) -> bool {
        match self {
            Mac::Poly1305 => {
                api.crypto_onetimeauth_poly1305.is_some()
                    && api.crypto_onetimeauth_poly1305_statebytes.is_some()
                    && api.crypto_onetimeauth_poly1305_init.is_some()
                    && api.crypto_onetimeauth_poly1305_update.is_some()
                    && api.crypto_onetimeauth_poly1305_final.is_some()
            }
            Mac::HmacSha256 => {
                api.crypto_auth_hmacsha256_statebytes.is_some()
                    && api.crypto_auth_hmacsha256_init.is_some()
                    && api.crypto_auth_hmacsha256_update.is_some()
                    && api.crypto_auth_hmacsha256_final.is_some()
            }
            Mac::HmacSha512 => {
                api.crypto_auth_hmacsha512_statebytes.is_some()
                    && api.crypto_auth_hmacsha512_init.is_some()
                    && api.crypto_auth_hmacsha512_update.is_some()
                    && api.crypto_auth_hmacsha512_final.is_some()
            }
        }
    }
}

/// A keyed state (`*_init`) in memory of the size libsodium reports.
pub fn init(api: &Api, mac: Mac, key: &[u8]) -> Result<CtxMem, BackendError> {
    // SAFETY: `available` was checked by the caller; the memory has *_statebytes() bytes, 64-byte aligned.
    unsafe {
        match mac {
            Mac::Poly1305 => {
                if key.len() != 32 {
                    return Err(BackendError::Invalid("poly1305 takes a 32-byte key".into()));
                }
                let mut s = CtxMem::new((api.crypto_onetimeauth_poly1305_statebytes.expect("checked"))());
                check(
                    (api.crypto_onetimeauth_poly1305_init.expect("checked"))(s.ptr(), key.as_ptr()),
                    "crypto_onetimeauth_poly1305_init",
                )?;
                Ok(s)
            }
            Mac::HmacSha256 => {
                let mut s = CtxMem::new((api.crypto_auth_hmacsha256_statebytes.expect("checked"))());
                check(
                    (api.crypto_auth_hmacsha256_init.expect("checked"))(s.ptr(), key.as_ptr(), key.len()),
                    "crypto_auth_hmacsha256_init",
                )?;
                Ok(s)
            }
            Mac::HmacSha512 => {
                let mut s = CtxMem::new((api.crypto_auth_hmacsha512_statebytes.expect("checked"))());
                check(
                    (api.crypto_auth_hmacsha512_init.expect("checked"))(s.ptr(), key.as_ptr(), key.len()),
                    "crypto_auth_hmacsha512_init",
                )?;
                Ok(s)
            }
        }
    }
}

pub fn update(api: &Api, mac: Mac, state: &mut CtxMem, data: &[u8]) -> Result<(), BackendError> {
    let (p, n) = (data.as_ptr(), data.len() as u64);
    // SAFETY: a state initialised by `init` for the same MAC.
    unsafe {
        match mac {
            Mac::Poly1305 => check(
                (api.crypto_onetimeauth_poly1305_update.expect("checked"))(state.ptr(), p, n),
                "crypto_onetimeauth_poly1305_update",
            ),
            Mac::HmacSha256 => check(
                (api.crypto_auth_hmacsha256_update.expect("checked"))(state.ptr(), p, n),
                "crypto_auth_hmacsha256_update",
            ),
            Mac::HmacSha512 => check(
                (api.crypto_auth_hmacsha512_update.expect("checked"))(state.ptr(), p, n),
                "crypto_auth_hmacsha512_update",
            ),
        }
    }
}

/// Writes the tag into `out[..len]` and returns the length.
pub fn finish(api: &Api, mac: Mac, state: &mut CtxMem, out: &mut [u8; 64]) -> Result<usize, BackendError> {
    // SAFETY: as `update`; `out` holds 64 bytes, the longest tag.
    unsafe {
        match mac {
            Mac::Poly1305 => check(
                (api.crypto_onetimeauth_poly1305_final.expect("checked"))(state.ptr(), out.as_mut_ptr()),
                "crypto_onetimeauth_poly1305_final",
            )?,
            Mac::HmacSha256 => check(
                (api.crypto_auth_hmacsha256_final.expect("checked"))(state.ptr(), out.as_mut_ptr()),
                "crypto_auth_hmacsha256_final",
            )?,
            Mac::HmacSha512 => check(
                (api.crypto_auth_hmacsha512_final.expect("checked"))(state.ptr(), out.as_mut_ptr()),
                "crypto_auth_hmacsha512_final",
            )?,
        }
    }
    Ok(mac.len())
}

/// MAC `message`. HMAC: a copy of the keyed state (no allocation), update, final.
/// Poly1305: the one-shot `crypto_onetimeauth_poly1305` with its one-time key.
pub struct MacMessage<'a> {
    pub api: &'a Api,
    pub mac: Mac,
    pub key: Vec<u8>,
    pub keyed: CtxMem,
    pub work: CtxMem,
    pub out: [u8; 64],
}

impl Primitive for MacMessage<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            if self.mac == Mac::Poly1305 {
                // SAFETY: checked present; `out` holds 16 bytes, the key 32.
                let rc = unsafe {
                    (self.api.crypto_onetimeauth_poly1305.expect("checked"))(
                        self.out.as_mut_ptr(),
                        buf.as_ptr(),
                        buf.len() as u64,
                        self.key.as_ptr(),
                    )
                };
                check(rc, "crypto_onetimeauth_poly1305")?;
                continue;
            }
            self.work.copy_from(&self.keyed);
            update(self.api, self.mac, &mut self.work, buf)?;
            finish(self.api, self.mac, &mut self.work, &mut self.out)?;
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out[..self.mac.len()].to_vec()))
    }
}

/// MAC `stream`: `*_update` on one state; the tag is read from a byte copy.
pub struct MacStream<'a> {
    pub api: &'a Api,
    pub mac: Mac,
    pub state: CtxMem,
}

impl Primitive for MacStream<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            update(self.api, self.mac, &mut self.state, buf)?;
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        let mut copy = self.state.clone();
        let mut out = [0u8; 64];
        let n = finish(self.api, self.mac, &mut copy, &mut out)?;
        Ok(Some(out[..n].to_vec()))
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

/// `crypto_stream_chacha20_ietf_xor_ic` from block `counter`; `src` may be `out`.
///
/// # Safety
/// `src` and `out` must cover `len` bytes; the key 32 bytes.
pub unsafe fn chacha_xor(
    api: &Api,
    out: *mut u8,
    src: *const u8,
    len: usize,
    nonce: &[u8; 12],
    counter: u32,
    key: &[u8],
) -> Result<(), BackendError> {
    let f = api
        .crypto_stream_chacha20_ietf_xor_ic
        .ok_or_else(|| BackendError::Unsupported("chacha20 (this libsodium has no crypto_stream_chacha20_ietf_xor_ic)".into()))?;
    // SAFETY: per the contract.
    check(
        unsafe { f(out, src, len as u64, nonce.as_ptr(), counter, key.as_ptr()) },
        "crypto_stream_chacha20_ietf_xor_ic",
    )
}

/// ChaCha20 `stream` (updates carry the block counter on, so they must be whole
/// 64-byte blocks) or `message` (each call from the IV's counter; decryption
/// reads the prepared ciphertext).
pub struct ChaCha<'a> {
    pub api: &'a Api,
    pub key: Vec<u8>,
    pub nonce: [u8; 12],
    pub start: u32,
    pub counter: u32,
    pub stream: bool,
    pub ciphertext: Vec<u8>,
}

impl Primitive for ChaCha<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let (out, len) = (buf.as_mut_ptr(), buf.len());
        let src = if self.ciphertext.is_empty() {
            out as *const u8
        } else {
            self.ciphertext.as_ptr()
        };
        if !self.ciphertext.is_empty() && self.ciphertext.len() != len {
            return Err(BackendError::Invalid("buffer and prepared ciphertext differ in length".into()));
        }
        for _ in 0..iterations {
            let counter = if self.stream { self.counter } else { self.start };
            // SAFETY: `src` and `out` cover `len` bytes; the key is 32 bytes (checked in prepare).
            unsafe { chacha_xor(self.api, out, src, len, &self.nonce, counter, &self.key)? };
            if self.stream {
                self.counter = self.counter.wrapping_add((len / 64) as u32);
            }
        }
        Ok(())
    }
}

//! libsodium's MACs: Poly1305 (`crypto_onetimeauth_poly1305*`) and
//! HMAC-SHA-256/512 (`crypto_auth_hmacsha256_*`/`_hmacsha512_*`, which take
//! keys of any length; libsodium has no HMAC-SHA-1, HMAC-MD5 or CMAC).
//! <https://doc.libsodium.org/advanced/poly1305>,
//! <https://doc.libsodium.org/advanced/hmac-sha2>.

use super::api::{check, Api};
use crate::error::BackendError;
use crate::native::CtxMem;
use crate::sessions::DigestSession;

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
fn init(api: &Api, mac: Mac, key: &[u8]) -> Result<CtxMem, BackendError> {
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

fn update(api: &Api, mac: Mac, state: &mut CtxMem, data: &[u8]) -> Result<(), BackendError> {
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
fn finish(api: &Api, mac: Mac, state: &mut CtxMem, out: &mut [u8]) -> Result<usize, BackendError> {
    if out.len() < mac.len() {
        return Err(BackendError::Invalid("the tag buffer is shorter than the tag".into()));
    }
    // SAFETY: as `update`; `out` holds the tag (checked above).
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

/// A keyed MAC. `message`: HMAC from a copy of the keyed state (no
/// allocation), update, final; Poly1305 the one-shot
/// `crypto_onetimeauth_poly1305` with its one-time key. `stream`: `*_update`
/// on one state, the tag read from a byte copy.
pub struct MacSession<'a> {
    api: &'a Api,
    mac: Mac,
    key: Vec<u8>,
    keyed: CtxMem,
    work: CtxMem,
    state: CtxMem,
}

impl<'a> MacSession<'a> {
    /// A session keyed with `key`; the caller has checked that the MAC is `available`.
    pub fn new(api: &'a Api, mac: Mac, key: &[u8]) -> Result<Self, BackendError> {
        let keyed = init(api, mac, key)?;
        Ok(MacSession {
            api,
            mac,
            key: key.to_vec(),
            work: keyed.clone(),
            state: keyed.clone(),
            keyed,
        })
    }
}

impl DigestSession for MacSession<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        if self.mac == Mac::Poly1305 {
            if out.len() < 16 {
                return Err(BackendError::Invalid("the tag buffer is shorter than the tag".into()));
            }
            // SAFETY: checked present; `out` holds 16 bytes, the key 32 (checked by `init`).
            let rc = unsafe {
                (self.api.crypto_onetimeauth_poly1305.expect("checked"))(
                    out.as_mut_ptr(),
                    msg.as_ptr(),
                    msg.len() as u64,
                    self.key.as_ptr(),
                )
            };
            return check(rc, "crypto_onetimeauth_poly1305");
        }
        self.work.copy_from(&self.keyed);
        update(self.api, self.mac, &mut self.work, msg)?;
        finish(self.api, self.mac, &mut self.work, out).map(drop)
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        update(self.api, self.mac, &mut self.state, msg)
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut copy = self.state.clone();
        let mut out = [0u8; 64];
        let n = finish(self.api, self.mac, &mut copy, &mut out)?;
        Ok(out[..n].to_vec())
    }
}

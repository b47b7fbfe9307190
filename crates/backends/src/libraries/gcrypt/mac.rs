//! libgcrypt's MACs (`gcry_mac_*`: HMAC, CMAC, Poly1305). A MAC `message`
//! is `gcry_mac_reset` (the key is kept), one `gcry_mac_write`,
//! `gcry_mac_read`. libgcrypt cannot copy a MAC handle, so a stream's tag
//! cannot be read without ending it: MAC `stream` cells are refused (mod.rs).

use std::ffi::c_int;

use super::api::*;
use super::handles::MacHd;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::sessions::DigestSession;

/// The libgcrypt MAC of a catalog id.
pub fn mac_of(id: &str) -> Option<c_int> {
    Some(match id {
        "hmac-md5" => GCRY_MAC_HMAC_MD5,
        "hmac-sha1" => GCRY_MAC_HMAC_SHA1,
        "hmac-sha256" => GCRY_MAC_HMAC_SHA256,
        "hmac-sha512" => GCRY_MAC_HMAC_SHA512,
        "aes-128-cmac" => GCRY_MAC_CMAC_AES,
        "poly1305" => GCRY_MAC_POLY1305,
        _ => return None,
    })
}

/// A keyed MAC handle.
pub struct MacSession<'a> {
    mac: MacHd<'a>,
    hmac: bool,
}

impl<'a> MacSession<'a> {
    /// A handle of the MAC `algo` keyed with `key`.
    pub fn keyed(api: &'a Api, algo: c_int, key: &[u8]) -> Result<MacSession<'a>, BackendError> {
        Ok(MacSession {
            mac: MacHd::keyed(api, algo, key)?,
            hmac: matches!(
                algo,
                GCRY_MAC_HMAC_MD5 | GCRY_MAC_HMAC_SHA1 | GCRY_MAC_HMAC_SHA256 | GCRY_MAC_HMAC_SHA512
            ),
        })
    }
}

impl DigestSession for MacSession<'_> {
    /// Reset (key kept), write, read.
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        self.mac.reset()?;
        self.mac.write(msg)?;
        self.mac.read(out).map(drop)
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        self.mac.write(msg)
    }

    /// The tag of what was written, read from the handle itself, which ends
    /// the MAC (no copy can be made): the one-shot MAC's write and read,
    /// never a stream's tag (those cells are refused).
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut out = [0u8; 64];
        let n = self.mac.read(&mut out)?;
        Ok(out[..n].to_vec())
    }

    /// libgcrypt's HMAC runs on a digest handle in HMAC mode, whose
    /// finalisation (cipher/md.c: `md_final`, reached from `gcry_mac_read`
    /// → `hmac_read` → `_gcry_md_read`) copies the inner hash into a buffer
    /// it allocates, to hash it into the outer context. CMAC and Poly1305
    /// allocate nothing.
    fn allocates(&self, message: bool) -> Option<Allocation> {
        (message && self.hmac).then_some(Allocation::in_c(
            "libgcrypt's HMAC ends a message by copying the inner digest into a buffer it allocates and frees \
             (gcry_mac_read → md_final: xtrymalloc of the digest's length): 1 allocation per message",
        ))
    }
}

//! Crypto++'s calls (through the shim) behind the shared timed loops
//! (crate::timed); shim.cpp says which Crypto++ calls each one makes.

use std::ffi::c_int;

use cryptobench_core::Mode;

use super::api::*;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::native::text;
use crate::sessions::{CipherSession, DigestSession};

/// A shim return code as a Result, with Crypto++'s exception text.
pub fn check(api: &Api, rc: c_int, call: &'static str) -> Result<(), BackendError> {
    match rc {
        0 => Ok(()),
        BAD_TAG => Err(BackendError::AuthenticationFailed),
        _ => Err(BackendError::Call {
            call,
            // SAFETY: a thread-local string of the shim, valid until its next failing call.
            detail: text(unsafe { (api.cbcp_last_error)() }).unwrap_or_default(),
        }),
    }
}

pub struct Cipher<'a> {
    api: &'a Api,
    handle: Handle,
    /// The shim's kind (`K_*`): ECB is keyed without an IV.
    kind: c_int,
    encrypt: bool,
}

impl<'a> Cipher<'a> {
    pub fn new(api: &'a Api, kind: c_int, key: &[u8], iv: &[u8], encrypt: bool) -> Result<Cipher<'a>, BackendError> {
        // SAFETY: key and iv cover the lengths passed; the shim copies them.
        let handle = unsafe { (api.cbcp_cipher_new)(kind, c_int::from(encrypt), key.as_ptr(), key.len(), iv.as_ptr(), iv.len()) };
        if handle.is_null() {
            check(api, -1, "cbcp_cipher_new")?;
        }
        Ok(Cipher {
            api,
            handle,
            kind,
            encrypt,
        })
    }

    /// What Crypto++ says it runs (`AlgorithmProvider()`: "AESNI", "SSSE3", "C++", …).
    pub fn provider(&self) -> Option<String> {
        // SAFETY: live handle; a thread-local string of the shim.
        text(unsafe { (self.api.cbcp_cipher_provider)(self.handle) }).filter(|s| !s.is_empty())
    }
}

impl Drop for Cipher<'_> {
    fn drop(&mut self) {
        // SAFETY: created by cbcp_cipher_new, freed once.
        unsafe { (self.api.cbcp_cipher_free)(self.handle) };
    }
}

impl CipherSession for Cipher<'_> {
    /// `SetKeyWithIV` on the mode object.
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live handle.
        check(
            self.api,
            unsafe { (self.api.cbcp_cipher_rekey)(self.handle, key.as_ptr(), key.len()) },
            "SetKeyWithIV",
        )
    }
    /// `ProcessData` in place (XTS: one data unit).
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        // SAFETY: live handle; in place over buf.
        check(
            self.api,
            unsafe { (self.api.cbcp_cipher_update)(self.handle, buf.as_mut_ptr(), buf.len()) },
            "ProcessData",
        )
    }
    /// Plain modes: `Resynchronize` + `ProcessData` in place; AEADs: `EncryptAndAuthenticate` in place.
    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        // SAFETY: live handle; every buffer covers the length passed.
        let rc = unsafe {
            (self.api.cbcp_cipher_seal)(
                self.handle,
                iv.as_ptr(),
                iv.len(),
                aad.as_ptr(),
                aad.len(),
                buf.as_mut_ptr(),
                buf.len(),
                tag.as_mut_ptr(),
                tag.len(),
            )
        };
        check(self.api, rc, "ProcessData/EncryptAndAuthenticate")
    }
    /// Plain modes: `Resynchronize` + `ProcessData` from `input` into `out`; AEADs: `DecryptAndVerify`.
    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
        if input.len() != out.len() {
            return Err(BackendError::Invalid("input and output differ in length".into()));
        }
        // SAFETY: live handle; every buffer covers the length passed.
        let rc = unsafe {
            (self.api.cbcp_cipher_open)(
                self.handle,
                iv.as_ptr(),
                iv.len(),
                aad.as_ptr(),
                aad.len(),
                input.as_ptr(),
                out.as_mut_ptr(),
                out.len(),
                tag.as_ptr(),
                tag.len(),
            )
        };
        check(self.api, rc, "ProcessData/DecryptAndVerify")
    }

    /// Under `--rekey`, `SetKeyWithIV` builds its IV parameter on the heap
    /// (`MakeParameters`), and some key schedules allocate too (3DES,
    /// ChaCha20Poly1305); ECB is keyed with `SetKey` alone. Every message of
    /// ChaCha20-Poly1305 keys ChaCha20 and Poly1305 anew from the nonce
    /// (chachapoly.cpp: `Resync` → `RekeyCipherAndMac`), and a decryption
    /// that verifies a tag (`DecryptAndVerify` → `TruncatedVerify`,
    /// cryptlib.cpp) computes the tag into a `SecByteBlock` first. Streams
    /// allocate nothing.
    fn allocates(&self, mode: Mode, rekey: bool) -> Option<Allocation> {
        if mode == Mode::Stream {
            return None;
        }
        Some(Allocation::in_c(match (self.kind, self.encrypt, rekey) {
            (K_CHAPOLY, true, false) => CHAPOLY_SEAL,
            (K_CHAPOLY, false, false) => CHAPOLY_OPEN,
            (K_GCM, false, false) => VERIFY,
            (K_CHAPOLY, _, true) => REKEY_CHAPOLY,
            (K_GCM, false, true) => REKEY_VERIFY,
            (K_ECB, _, _) | (_, _, false) => return None,
            (_, _, true) => REKEY,
        }))
    }
}

/// `--rekey`: `SetKeyWithIV`.
const REKEY: &str = "Crypto++'s SetKeyWithIV allocates for every key: its IV parameter is built on the heap \
     (MakeParameters), and the 3DES key setup allocates more";

/// GCM decryption: `DecryptAndVerify` → `TruncatedVerify`.
const VERIFY: &str = "Crypto++'s DecryptAndVerify computes the tag into a SecByteBlock before it compares it \
     (HashTransformation::TruncatedVerify, cryptlib.cpp): 1 allocation per message";

/// GCM decryption under `--rekey`.
const REKEY_VERIFY: &str = "Crypto++'s SetKeyWithIV allocates for every key: its IV parameter is built on the heap \
     (MakeParameters); DecryptAndVerify computes the tag into a SecByteBlock before it compares it (TruncatedVerify)";

/// ChaCha20-Poly1305 encryption: the keys of every nonce.
const CHAPOLY_SEAL: &str = "Crypto++'s ChaCha20Poly1305 keys ChaCha20 and Poly1305 anew for every nonce \
     (Resynchronize → ChaCha20Poly1305_Base::RekeyCipherAndMac, chachapoly.cpp): three AlgorithmParameters built on \
     the heap (MakeParameters: the IV, InitialBlock 0 and 1) and a SecByteBlock for the Poly1305 key, \
     4 allocations per message";

/// ChaCha20-Poly1305 decryption: the keys of every nonce, and the tag compared.
const CHAPOLY_OPEN: &str = "Crypto++'s ChaCha20Poly1305 keys ChaCha20 and Poly1305 anew for every nonce \
     (Resynchronize → RekeyCipherAndMac: three AlgorithmParameters built on the heap by MakeParameters, and a \
     SecByteBlock for the Poly1305 key), and DecryptAndVerify computes the tag into a SecByteBlock before it \
     compares it (TruncatedVerify): 5 allocations per message";

/// ChaCha20-Poly1305 under `--rekey`.
const REKEY_CHAPOLY: &str = "Crypto++'s SetKeyWithIV builds its IV parameter on the heap (MakeParameters), and \
     ChaCha20Poly1305 keys ChaCha20 and Poly1305 anew for every nonce (RekeyCipherAndMac: three AlgorithmParameters \
     and a SecByteBlock), and a decryption computes its tag into a SecByteBlock to compare it (TruncatedVerify)";

pub struct Hash<'a> {
    api: &'a Api,
    handle: Handle,
}

impl<'a> Hash<'a> {
    pub fn new(api: &'a Api, kind: c_int) -> Result<Hash<'a>, BackendError> {
        // SAFETY: plain constructor call.
        let handle = unsafe { (api.cbcp_hash_new)(kind) };
        if handle.is_null() {
            check(api, -1, "cbcp_hash_new")?;
        }
        Ok(Hash { api, handle })
    }
    /// A MAC keyed with `key` (`cbcp_mac_new`): the same calls as a hash.
    pub fn mac(api: &'a Api, kind: c_int, key: &[u8]) -> Result<Hash<'a>, BackendError> {
        let new = api
            .cbcp_mac_new
            .ok_or_else(|| BackendError::Unsupported("MACs (this build of the Crypto++ shim has no cbcp_mac_new; rebuild it)".into()))?;
        // SAFETY: plain constructor call; the key is copied by Crypto++.
        let handle = unsafe { new(kind, key.as_ptr(), key.len()) };
        if handle.is_null() {
            check(api, -1, "cbcp_mac_new")?;
        }
        Ok(Hash { api, handle })
    }
    pub fn size(&self) -> usize {
        // SAFETY: live handle.
        unsafe { (self.api.cbcp_hash_size)(self.handle) }
    }
    pub fn provider(&self) -> Option<String> {
        // SAFETY: live handle; a thread-local string of the shim.
        text(unsafe { (self.api.cbcp_hash_provider)(self.handle) }).filter(|s| !s.is_empty())
    }
}

impl Drop for Hash<'_> {
    fn drop(&mut self) {
        // SAFETY: created by cbcp_hash_new, freed once.
        unsafe { (self.api.cbcp_hash_free)(self.handle) };
    }
}

impl DigestSession for Hash<'_> {
    /// `HashTransformation::CalculateDigest` (Update + Final).
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        // SAFETY: live handle; out has the digest size (checked when the cell was prepared).
        check(
            self.api,
            unsafe { (self.api.cbcp_hash_digest)(self.handle, msg.as_ptr(), msg.len(), out.as_mut_ptr()) },
            "CalculateDigest",
        )
    }
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: live handle.
        check(
            self.api,
            unsafe { (self.api.cbcp_hash_update)(self.handle, msg.as_ptr(), msg.len()) },
            "Update",
        )
    }
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut out = vec![0u8; self.size()];
        // SAFETY: live handle; out has the digest size.
        check(
            self.api,
            unsafe { (self.api.cbcp_hash_peek)(self.handle, out.as_mut_ptr()) },
            "Final (of a copy)",
        )?;
        Ok(out)
    }
}

//! Digests and HMACs on CNG. A digest's `message` is the one-shot
//! `BCryptHash`; an HMAC's is `BCryptHashData` + `BCryptFinishHash` on a
//! reusable hash object keyed once (`BCRYPT_HASH_REUSABLE_FLAG`, Windows 8
//! and later: after `BCryptFinishHash` the object starts a new hash under
//! its key), where `BCryptHash` would take the secret and set the key up
//! in every call. `stream` is `BCryptHashData` on one hash object
//! (`BCryptCreateHash`), whose value is read from a duplicate
//! (`BCryptDuplicateHash`, `BCryptFinishHash`) so that the stream goes on.
//! <https://learn.microsoft.com/en-us/windows/win32/api/bcrypt/nf-bcrypt-bcrypthash>,
//! <https://learn.microsoft.com/en-us/windows/win32/api/bcrypt/nf-bcrypt-bcryptcreatehash>.
//!
//! Wine's bcrypt.dll keeps no keyed state: its `BCryptFinishHash` of a
//! reusable object sets the HMAC key up again (`hash_finalize` calls
//! `hash_prepare`, which hashes the padded key into the inner and outer
//! states; dlls/bcrypt/bcrypt_main.c), which the session names as extra
//! work under Wine.

use windows_sys::Win32::Security::Cryptography::{
    BCryptCreateHash, BCryptDestroyHash, BCryptDuplicateHash, BCryptFinishHash, BCryptHash, BCryptHashData, BCRYPT_HASH_HANDLE,
    BCRYPT_HASH_REUSABLE_FLAG,
};

use super::calls::{check, Provider};
use crate::error::BackendError;
use crate::sessions::DigestSession;

pub struct HashSession<'a> {
    provider: &'a Provider,
    /// The HMAC key; empty for a plain digest.
    key: Vec<u8>,
    /// The stream's hash object.
    state: BCRYPT_HASH_HANDLE,
    /// An HMAC's reusable hash object, keyed once, for messages (None: a digest).
    keyed: Option<BCRYPT_HASH_HANDLE>,
    len: usize,
    /// Where this runs under Wine, whose reusable HMAC objects set their key up again per message.
    wine: bool,
}

/// A hash object of `provider` under `key` (none where it is empty), CNG allocating it.
fn create(provider: &Provider, key: &[u8], flags: u32) -> Result<BCRYPT_HASH_HANDLE, BackendError> {
    let mut state: BCRYPT_HASH_HANDLE = std::ptr::null_mut();
    let (k, kn) = secret(key);
    // SAFETY: CNG allocates the hash object (null, 0); the key is copied by the call.
    check(
        unsafe { BCryptCreateHash(provider.handle(), &mut state, std::ptr::null_mut(), 0, k, kn, flags) },
        "BCryptCreateHash",
    )?;
    Ok(state)
}

impl<'a> HashSession<'a> {
    /// A session of `provider` (an HMAC provider where `key` is given) whose digest is `len` bytes.
    pub fn new(provider: &'a Provider, key: &[u8], len: usize) -> Result<Self, BackendError> {
        let state = create(provider, key, 0)?;
        let keyed = match key.is_empty() {
            true => None,
            false => match create(provider, key, BCRYPT_HASH_REUSABLE_FLAG) {
                Ok(h) => Some(h),
                Err(e) => {
                    // SAFETY: made above, destroyed once.
                    unsafe { BCryptDestroyHash(state) };
                    return Err(e);
                }
            },
        };
        Ok(HashSession {
            provider,
            key: key.to_vec(),
            state,
            keyed,
            len,
            wine: cryptobench_cpu::windows::wine_version().is_some(),
        })
    }
}

/// A key as CNG takes it: null and 0 for none.
fn secret(key: &[u8]) -> (*const u8, u32) {
    if key.is_empty() {
        (std::ptr::null(), 0)
    } else {
        (key.as_ptr(), key.len() as u32)
    }
}

impl DigestSession for HashSession<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        if out.len() < self.len {
            return Err(BackendError::Invalid("the digest buffer is shorter than the digest".into()));
        }
        if let Some(keyed) = self.keyed {
            // SAFETY: the reusable object is this session's; CNG reads `msg` and writes the
            // digest's length into `out` (checked above), then starts again under the key.
            check(
                unsafe { BCryptHashData(keyed, msg.as_ptr(), msg.len() as u32, 0) },
                "BCryptHashData",
            )?;
            return check(
                unsafe { BCryptFinishHash(keyed, out.as_mut_ptr(), self.len as u32, 0) },
                "BCryptFinishHash",
            );
        }
        let (k, kn) = secret(&self.key);
        // SAFETY: `out` holds the digest (checked above); CNG reads `msg` and the key.
        let status = unsafe {
            BCryptHash(
                self.provider.handle(),
                k,
                kn,
                msg.as_ptr(),
                msg.len() as u32,
                out.as_mut_ptr(),
                self.len as u32,
            )
        };
        check(status, "BCryptHash")
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        // SAFETY: the hash object is this session's; CNG reads `msg`.
        check(
            unsafe { BCryptHashData(self.state, msg.as_ptr(), msg.len() as u32, 0) },
            "BCryptHashData",
        )
    }

    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        let mut copy: BCRYPT_HASH_HANDLE = std::ptr::null_mut();
        // SAFETY: duplicates this session's hash object into one CNG allocates.
        check(
            unsafe { BCryptDuplicateHash(self.state, &mut copy, std::ptr::null_mut(), 0, 0) },
            "BCryptDuplicateHash",
        )?;
        let mut out = vec![0u8; self.len];
        // SAFETY: `out` has the digest's length; the copy is destroyed right after.
        let status = unsafe { BCryptFinishHash(copy, out.as_mut_ptr(), self.len as u32, 0) };
        // SAFETY: the duplicate is destroyed once.
        unsafe { BCryptDestroyHash(copy) };
        check(status, "BCryptFinishHash")?;
        Ok(out)
    }

    /// Under Wine only: its reusable HMAC object sets the key up again in
    /// every `BCryptFinishHash` (see the module's notes).
    fn extra_work(&self) -> Option<&'static str> {
        (self.wine && self.keyed.is_some()).then_some(
            "Wine's bcrypt.dll keeps no keyed HMAC state: BCryptFinishHash of the reusable hash object sets the key up \
             again for the next message (hash_finalize → hash_prepare: the padded key hashed into the inner and outer \
             states, dlls/bcrypt/bcrypt_main.c)",
        )
    }
}

impl Drop for HashSession<'_> {
    fn drop(&mut self) {
        // SAFETY: made by BCryptCreateHash, each destroyed once.
        unsafe {
            BCryptDestroyHash(self.state);
            if let Some(keyed) = self.keyed {
                BCryptDestroyHash(keyed);
            }
        }
    }
}

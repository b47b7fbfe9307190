//! Digests and HMACs on CNG. `message` is the one-shot `BCryptHash`
//! (Windows 10 and later; the HMAC key is its secret), `stream` is
//! `BCryptHashData` on one hash object (`BCryptCreateHash`), whose value is
//! read from a duplicate (`BCryptDuplicateHash`, `BCryptFinishHash`) so
//! that the stream goes on.
//! <https://learn.microsoft.com/en-us/windows/win32/api/bcrypt/nf-bcrypt-bcrypthash>.

use windows_sys::Win32::Security::Cryptography::{
    BCryptCreateHash, BCryptDestroyHash, BCryptDuplicateHash, BCryptFinishHash, BCryptHash, BCryptHashData, BCRYPT_HASH_HANDLE,
};

use super::calls::{check, Provider};
use crate::error::BackendError;
use crate::sessions::DigestSession;

pub struct HashSession<'a> {
    provider: &'a Provider,
    /// The HMAC key; empty for a plain digest.
    key: Vec<u8>,
    state: BCRYPT_HASH_HANDLE,
    len: usize,
}

impl<'a> HashSession<'a> {
    /// A session of `provider` (an HMAC provider where `key` is given) whose digest is `len` bytes.
    pub fn new(provider: &'a Provider, key: &[u8], len: usize) -> Result<Self, BackendError> {
        let mut state: BCRYPT_HASH_HANDLE = std::ptr::null_mut();
        let (k, kn) = secret(key);
        // SAFETY: CNG allocates the hash object (null, 0); the key is copied by the call.
        check(
            unsafe { BCryptCreateHash(provider.handle(), &mut state, std::ptr::null_mut(), 0, k, kn, 0) },
            "BCryptCreateHash",
        )?;
        Ok(HashSession {
            provider,
            key: key.to_vec(),
            state,
            len,
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
}

impl Drop for HashSession<'_> {
    fn drop(&mut self) {
        // SAFETY: made by BCryptCreateHash, destroyed once.
        unsafe { BCryptDestroyHash(self.state) };
    }
}

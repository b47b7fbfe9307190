//! CNG's handles and status codes: an algorithm provider (closed on drop),
//! a symmetric key in memory the session owns (destroyed on drop), and
//! NTSTATUS as a [`BackendError`].

use windows_sys::core::PCWSTR;
use windows_sys::Win32::Security::Cryptography::{
    BCryptCloseAlgorithmProvider, BCryptDestroyKey, BCryptGenerateSymmetricKey, BCryptGetProperty, BCryptOpenAlgorithmProvider,
    BCryptSetProperty, BCRYPT_ALG_HANDLE, BCRYPT_CHAINING_MODE, BCRYPT_KEY_HANDLE, BCRYPT_OBJECT_LENGTH,
};

use crate::error::BackendError;

/// STATUS_AUTH_TAG_MISMATCH (ntstatus.h: 0xC000A002), what BCryptDecrypt
/// returns when a GCM or CCM tag does not verify.
const STATUS_AUTH_TAG_MISMATCH: i32 = 0xC000_A002_u32 as i32;
/// STATUS_NOT_SUPPORTED (ntstatus.h: 0xC00000BB): e.g. Wine 8.0's bcrypt.dll
/// for AES-192-GCM, which Windows has.
const STATUS_NOT_SUPPORTED: i32 = 0xC000_00BB_u32 as i32;

/// An NTSTATUS as a result: success and information codes are >= 0.
pub fn check(status: i32, call: &'static str) -> Result<(), BackendError> {
    match status {
        s if s >= 0 => Ok(()),
        STATUS_AUTH_TAG_MISMATCH => Err(BackendError::AuthenticationFailed),
        STATUS_NOT_SUPPORTED => Err(BackendError::Call {
            call,
            detail: "STATUS_NOT_SUPPORTED (0xc00000bb)".into(),
        }),
        s => Err(BackendError::Call {
            call,
            detail: format!("NTSTATUS {:#010x}", s as u32),
        }),
    }
}

/// The bytes of a NUL-terminated UTF-16 string, NUL included (how
/// BCryptSetProperty takes a string property).
fn wide_bytes(s: PCWSTR) -> u32 {
    let mut n = 0;
    // SAFETY: `s` is one of windows-sys's NUL-terminated constants.
    while unsafe { *s.add(n) } != 0 {
        n += 1;
    }
    ((n + 1) * 2) as u32
}

/// The text of a windows-sys wide constant, for messages.
pub fn wide_text(s: PCWSTR) -> String {
    let len = wide_bytes(s) as usize / 2 - 1;
    // SAFETY: `len` UTF-16 units precede the NUL (counted above).
    String::from_utf16_lossy(unsafe { std::slice::from_raw_parts(s, len) })
}

/// An open algorithm provider (`BCryptOpenAlgorithmProvider`).
pub struct Provider {
    handle: BCRYPT_ALG_HANDLE,
    /// Bytes of the key or hash object this provider's keys need (BCRYPT_OBJECT_LENGTH).
    object_len: usize,
}

// SAFETY: CNG's algorithm handles may be used from any thread ("BCrypt
// functions are thread safe" for distinct key and hash objects; the
// provider handle is only read after it is set up).
unsafe impl Send for Provider {}
unsafe impl Sync for Provider {}

impl Provider {
    /// Opens `algorithm` (a `BCRYPT_*_ALGORITHM`) with `flags`
    /// (`BCRYPT_ALG_HANDLE_HMAC_FLAG` for HMAC), and sets its chaining mode
    /// where one is given; the error says which call refused.
    pub fn open(algorithm: PCWSTR, flags: u32, chaining: Option<PCWSTR>) -> Result<Provider, String> {
        let mut handle: BCRYPT_ALG_HANDLE = std::ptr::null_mut();
        // SAFETY: `handle` receives the provider; the name is a NUL-terminated constant.
        let status = unsafe { BCryptOpenAlgorithmProvider(&mut handle, algorithm, std::ptr::null(), flags) };
        check(status, "BCryptOpenAlgorithmProvider").map_err(|e| format!("{} ({e})", wide_text(algorithm)))?;
        let mut provider = Provider { handle, object_len: 0 };
        if let Some(mode) = chaining {
            // SAFETY: the property value is the NUL-terminated mode name, its length in bytes.
            let status = unsafe { BCryptSetProperty(handle, BCRYPT_CHAINING_MODE, mode.cast(), wide_bytes(mode), 0) };
            check(status, "BCryptSetProperty(ChainingMode)").map_err(|e| format!("{} {} ({e})", wide_text(algorithm), wide_text(mode)))?;
        }
        let mut len: u32 = 0;
        let mut got: u32 = 0;
        // SAFETY: reads one DWORD property into `len`.
        let status = unsafe { BCryptGetProperty(handle, BCRYPT_OBJECT_LENGTH, (&mut len as *mut u32).cast(), 4, &mut got, 0) };
        if status >= 0 && got == 4 {
            provider.object_len = len as usize;
        }
        Ok(provider)
    }

    pub fn handle(&self) -> BCRYPT_ALG_HANDLE {
        self.handle
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        // SAFETY: the handle was opened by BCryptOpenAlgorithmProvider and is closed once.
        unsafe { BCryptCloseAlgorithmProvider(self.handle, 0) };
    }
}

/// A symmetric key (`BCryptGenerateSymmetricKey`) in a key object the
/// session allocated once (BCRYPT_OBJECT_LENGTH bytes), so that `--rekey`
/// sets the key up again without allocating.
pub struct Key {
    handle: BCRYPT_KEY_HANDLE,
    object: Vec<u8>,
}

impl Key {
    pub fn new(provider: &Provider, secret: &[u8]) -> Result<Key, BackendError> {
        let mut key = Key {
            handle: std::ptr::null_mut(),
            object: vec![0u8; provider.object_len],
        };
        key.set(provider, secret)?;
        Ok(key)
    }

    /// Destroys the key and makes it again from `secret` in the same object memory.
    pub fn set(&mut self, provider: &Provider, secret: &[u8]) -> Result<(), BackendError> {
        self.destroy();
        let (object, object_len) = if self.object.is_empty() {
            (std::ptr::null_mut(), 0) // CNG allocates it (the provider did not say its size)
        } else {
            (self.object.as_mut_ptr(), self.object.len() as u32)
        };
        // SAFETY: `object` lives as long as the key (it is destroyed before the memory is dropped or reused).
        let status = unsafe {
            BCryptGenerateSymmetricKey(
                provider.handle(),
                &mut self.handle,
                object,
                object_len,
                secret.as_ptr(),
                secret.len() as u32,
                0,
            )
        };
        check(status, "BCryptGenerateSymmetricKey")
    }

    pub fn handle(&self) -> BCRYPT_KEY_HANDLE {
        self.handle
    }

    fn destroy(&mut self) {
        if !self.handle.is_null() {
            // SAFETY: a key made by BCryptGenerateSymmetricKey, destroyed once.
            unsafe { BCryptDestroyKey(self.handle) };
            self.handle = std::ptr::null_mut();
        }
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        self.destroy();
    }
}

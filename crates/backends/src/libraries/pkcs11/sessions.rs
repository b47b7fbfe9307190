//! The sessions over a PKCS#11 token: each cryptobench session is a
//! PKCS#11 session of its own, holding its key as a session object (made
//! with `C_CreateObject`, `CKA_TOKEN` false: gone when the session closes).
//!
//! A `message` is the module's single-part call after its init:
//! `C_EncryptInit` + `C_Encrypt` (PKCS#11 takes an IV only in the
//! mechanism of an init), `C_DigestInit` + `C_Digest`, `C_SignInit` +
//! `C_Sign`; a `stream` is `C_EncryptUpdate` / `C_DecryptUpdate` on one
//! operation. PKCS#11 v2.40 lets the plaintext and ciphertext of
//! `C_Encrypt`, `C_EncryptUpdate` and their decrypting twins be the same
//! buffer (base specification, 5.8 and 5.9), so a plain cipher works in place.

use std::ffi::c_void;
use std::ptr;

use cryptoki_sys::*;

use super::module::{attr, attr_bytes, ck, func, rv_error, Module};
use crate::error::BackendError;
use crate::named::Allocation;
use crate::sessions::{CipherSession, DigestSession};

/// What a call into a module allocates is the module's own (SoftHSM2 copies
/// every input and output into C++ `ByteString`s and makes an OpenSSL context
/// per `C_*Init`): named for every timed cell.
pub const MODULE_ALLOCATES: Allocation = Allocation::in_c(
    "a PKCS#11 module's calls allocate as the module does (SoftHSM2: a C++ ByteString per input and output and an OpenSSL context per C_*Init)",
);

/// How a catalog cipher is asked of the token.
#[derive(Debug, Clone, Copy)]
pub enum Cipher {
    /// A mechanism without parameter (ECB).
    Plain(CK_MECHANISM_TYPE),
    /// A mechanism whose parameter is the IV (CBC).
    WithIv(CK_MECHANISM_TYPE),
    /// `CKM_AES_CTR`, the whole 128-bit block a counter (`CK_AES_CTR_PARAMS`).
    Ctr,
    /// `CKM_AES_GCM` (`CK_GCM_PARAMS`) with a tag of `tag` bytes, appended to the ciphertext.
    Gcm { tag: usize },
}

/// A session object holding a secret `key` of `key_type`, usable for every operation.
pub fn secret_key(m: &Module, session: CK_SESSION_HANDLE, key_type: CK_KEY_TYPE, key: &[u8]) -> Result<CK_OBJECT_HANDLE, BackendError> {
    let (class, yes, no) = (CKO_SECRET_KEY, CK_TRUE, CK_FALSE);
    let mut template = [
        attr(CKA_CLASS, &class),
        attr(CKA_KEY_TYPE, &key_type),
        attr(CKA_TOKEN, &no),
        attr(CKA_PRIVATE, &no),
        attr(CKA_SENSITIVE, &no),
        attr(CKA_ENCRYPT, &yes),
        attr(CKA_DECRYPT, &yes),
        attr(CKA_SIGN, &yes),
        attr(CKA_VERIFY, &yes),
        attr_bytes(CKA_VALUE, key),
    ];
    m.create(session, &mut template)
}

/// A cipher keyed once, in a session of its own, for one direction.
pub struct P11Cipher<'a> {
    m: &'a Module,
    session: CK_SESSION_HANDLE,
    key: CK_OBJECT_HANDLE,
    key_type: CK_KEY_TYPE,
    cipher: Cipher,
    encrypt: bool,
    /// The IV a `stream` starts from.
    iv: Vec<u8>,
    /// Whether a `stream` operation has been initialised.
    streaming: bool,
    /// GCM's output (ciphertext and tag), sized before the timing for the
    /// message length (`reserve`).
    scratch: Vec<u8>,
}

impl<'a> P11Cipher<'a> {
    pub fn new(m: &'a Module, cipher: Cipher, key_type: CK_KEY_TYPE, key: &[u8], iv: &[u8], encrypt: bool) -> Result<Self, BackendError> {
        let session = m.session()?;
        let key = match secret_key(m, session, key_type, key) {
            Ok(k) => k,
            Err(e) => {
                m.close(session);
                return Err(e);
            }
        };
        Ok(P11Cipher {
            m,
            session,
            key,
            key_type,
            cipher,
            encrypt,
            iv: iv.to_vec(),
            streaming: false,
            scratch: Vec::new(),
        })
    }

    /// `C_EncryptInit` or `C_DecryptInit` under `iv` (and `aad`, for GCM).
    fn init(&mut self, iv: &[u8], aad: &[u8]) -> Result<(), BackendError> {
        let mut ctr = CK_AES_CTR_PARAMS {
            ulCounterBits: 128,
            cb: [0; 16],
        };
        let mut gcm = CK_GCM_PARAMS {
            pIv: iv.as_ptr() as *mut u8,
            ulIvLen: iv.len() as CK_ULONG,
            ulIvBits: (iv.len() * 8) as CK_ULONG,
            pAAD: aad.as_ptr() as *mut u8,
            ulAADLen: aad.len() as CK_ULONG,
            ulTagBits: 0,
        };
        let (mechanism, param, len): (CK_MECHANISM_TYPE, *mut c_void, usize) = match self.cipher {
            Cipher::Plain(m) => (m, ptr::null_mut(), 0),
            Cipher::WithIv(m) => (m, iv.as_ptr() as *mut c_void, iv.len()),
            Cipher::Ctr => {
                ctr.cb.copy_from_slice(iv);
                (CKM_AES_CTR, &mut ctr as *mut _ as *mut c_void, std::mem::size_of_val(&ctr))
            }
            Cipher::Gcm { tag } => {
                gcm.ulTagBits = (tag * 8) as CK_ULONG;
                (CKM_AES_GCM, &mut gcm as *mut _ as *mut c_void, std::mem::size_of_val(&gcm))
            }
        };
        let mut mech = CK_MECHANISM {
            mechanism,
            pParameter: param,
            ulParameterLen: len as CK_ULONG,
        };
        // SAFETY: the mechanism's parameter and what it points at (iv, aad) live through the call.
        if self.encrypt {
            ck("C_EncryptInit", unsafe {
                func!(self.m, C_EncryptInit)(self.session, &mut mech, self.key)
            })
        } else {
            ck("C_DecryptInit", unsafe {
                func!(self.m, C_DecryptInit)(self.session, &mut mech, self.key)
            })
        }
    }

    /// One single-part call from `input` into `out`; the length written.
    fn single(&mut self, input: *const u8, len: usize, out: *mut u8, room: usize) -> Result<usize, BackendError> {
        let mut written = room as CK_ULONG;
        let (name, rv) = if self.encrypt {
            // SAFETY: `input` holds `len` bytes and `out` `room` (the same buffer is allowed, PKCS#11 5.8).
            ("C_Encrypt", unsafe {
                func!(self.m, C_Encrypt)(self.session, input as *mut u8, len as CK_ULONG, out, &mut written)
            })
        } else {
            ("C_Decrypt", unsafe {
                func!(self.m, C_Decrypt)(self.session, input as *mut u8, len as CK_ULONG, out, &mut written)
            })
        };
        match rv {
            CKR_OK => Ok(written as usize),
            // Where a module reports a tag that does not verify (SoftHSM2: CKR_ENCRYPTED_DATA_INVALID).
            CKR_ENCRYPTED_DATA_INVALID | CKR_SIGNATURE_INVALID | CKR_GENERAL_ERROR
                if !self.encrypt && matches!(self.cipher, Cipher::Gcm { .. }) =>
            {
                Err(BackendError::AuthenticationFailed)
            }
            _ => Err(rv_error(name, rv)),
        }
    }
}

fn wrote(call: &'static str, written: usize, expected: usize) -> Result<(), BackendError> {
    if written == expected {
        Ok(())
    } else {
        Err(BackendError::Call {
            call,
            detail: format!("wrote {written} bytes where {expected} were expected"),
        })
    }
}

impl CipherSession for P11Cipher<'_> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.m.destroy(self.session, self.key)?;
        self.key = secret_key(self.m, self.session, self.key_type, key)?;
        Ok(())
    }

    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        if !self.streaming {
            let iv = std::mem::take(&mut self.iv);
            let r = self.init(&iv, &[]);
            self.iv = iv;
            r?;
            self.streaming = true;
        }
        let mut written = buf.len() as CK_ULONG;
        let p = buf.as_mut_ptr();
        let (name, rv) = if self.encrypt {
            // SAFETY: in place, allowed by PKCS#11 5.8; `buf` holds its length.
            ("C_EncryptUpdate", unsafe {
                func!(self.m, C_EncryptUpdate)(self.session, p, buf.len() as CK_ULONG, p, &mut written)
            })
        } else {
            ("C_DecryptUpdate", unsafe {
                func!(self.m, C_DecryptUpdate)(self.session, p, buf.len() as CK_ULONG, p, &mut written)
            })
        };
        ck(name, rv)?;
        wrote(name, written as usize, buf.len())
    }

    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        self.init(iv, aad)?;
        let len = buf.len();
        if let Cipher::Gcm { .. } = self.cipher {
            // The module writes ciphertext ‖ tag: into the scratch buffer, then split.
            self.scratch.resize(len + tag.len(), 0);
            let (out, room) = (self.scratch.as_mut_ptr(), self.scratch.len());
            let n = self.single(buf.as_ptr(), len, out, room)?;
            wrote("C_Encrypt", n, room)?;
            buf.copy_from_slice(&self.scratch[..len]);
            tag.copy_from_slice(&self.scratch[len..]);
            return Ok(());
        }
        let p = buf.as_mut_ptr();
        let n = self.single(p, len, p, len)?;
        wrote("C_Encrypt", n, len)
    }

    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        self.init(iv, aad)?;
        if let Cipher::Gcm { .. } = self.cipher {
            // Modules size the output by the input, tag included (SoftHSM2 returns
            // CKR_BUFFER_TOO_SMALL for less): into the scratch buffer, then copied.
            self.scratch.resize(input.len(), 0);
            let (o, room) = (self.scratch.as_mut_ptr(), self.scratch.len());
            let n = self.single(input.as_ptr(), input.len(), o, room)?;
            wrote("C_Decrypt", n, out.len())?;
            out.copy_from_slice(&self.scratch[..n]);
            return Ok(());
        }
        let n = self.single(input.as_ptr(), input.len(), out.as_mut_ptr(), out.len())?;
        wrote("C_Decrypt", n, out.len())
    }

    fn tag_appended(&self) -> bool {
        matches!(self.cipher, Cipher::Gcm { .. })
    }

    /// GCM's scratch buffer holds ciphertext ‖ tag.
    fn reserve(&mut self, message_len: usize) {
        if let Cipher::Gcm { tag } = self.cipher {
            self.scratch.reserve(message_len + tag);
        }
    }

    /// Every message initialises an operation (the IV is a parameter of
    /// the init only, and a single-part call ends the operation, ECB's
    /// too); GCM also goes through the kept scratch buffer: the
    /// module writes ciphertext ‖ tag, and wants room for ciphertext ‖ tag
    /// when it decrypts (SoftHSM2: CKR_BUFFER_TOO_SMALL for less).
    fn extra_work(&self) -> Option<&'static str> {
        Some(match (self.cipher, self.encrypt) {
            (Cipher::Gcm { .. }, true) => {
                "PKCS#11 takes the IV only in C_EncryptInit, so each message initialises an operation on the key object \
                 (SoftHSM2 sets its OpenSSL context up there); and C_Encrypt writes ciphertext ‖ tag into a kept buffer, \
                 from which both are copied into the cell's buffer and tag"
            }
            (Cipher::Gcm { .. }, false) => {
                "PKCS#11 takes the IV only in C_DecryptInit, so each message initialises an operation on the key object \
                 (SoftHSM2 sets its OpenSSL context up there); and C_Decrypt writes the plaintext into a kept buffer of \
                 ciphertext ‖ tag's length (SoftHSM2 wants that much room), from which it is copied into the cell's buffer"
            }
            _ => {
                "PKCS#11 takes the IV only in C_EncryptInit/C_DecryptInit, and a single-part C_Encrypt/C_Decrypt ends its \
                 operation, so each message initialises an operation on the key object (SoftHSM2 sets its OpenSSL \
                 context up there)"
            }
        })
    }

    fn allocates(&self, _mode: cryptobench_core::Mode, _rekey: bool) -> Option<Allocation> {
        Some(MODULE_ALLOCATES)
    }
}

impl Drop for P11Cipher<'_> {
    fn drop(&mut self) {
        // Closing the session ends its operation and destroys its key object.
        self.m.close(self.session);
    }
}

/// A digest (`key` None) or a MAC through `C_Sign*` on a key object.
pub struct P11Digest<'a> {
    m: &'a Module,
    session: CK_SESSION_HANDLE,
    mechanism: CK_MECHANISM_TYPE,
    key: Option<CK_OBJECT_HANDLE>,
    len: usize,
    /// Whether a multi-part operation is under way.
    active: bool,
}

impl<'a> P11Digest<'a> {
    /// A digest session of `mechanism` (`len`-byte output), or a MAC keyed with `key` of `key_type`.
    pub fn new(m: &'a Module, mechanism: CK_MECHANISM_TYPE, len: usize, key: Option<(CK_KEY_TYPE, &[u8])>) -> Result<Self, BackendError> {
        let session = m.session()?;
        let key = match key.map(|(t, k)| secret_key(m, session, t, k)).transpose() {
            Ok(k) => k,
            Err(e) => {
                m.close(session);
                return Err(e);
            }
        };
        Ok(P11Digest {
            m,
            session,
            mechanism,
            key,
            len,
            active: false,
        })
    }

    fn init(&mut self) -> Result<(), BackendError> {
        let mut mech = CK_MECHANISM {
            mechanism: self.mechanism,
            pParameter: ptr::null_mut(),
            ulParameterLen: 0,
        };
        // SAFETY: a mechanism without parameter; handles of this module.
        match self.key {
            None => ck("C_DigestInit", unsafe { func!(self.m, C_DigestInit)(self.session, &mut mech) }),
            Some(key) => match unsafe { func!(self.m, C_SignInit)(self.session, &mut mech, key) } {
                // A key length the module does not take (SoftHSM2's HMAC keys are at least
                // as long as the hash's output, after FIPS 198-1's guidance): refused, not wrong.
                CKR_KEY_SIZE_RANGE => Err(BackendError::Invalid(
                    "the module refuses this key length for the mechanism (CKR_KEY_SIZE_RANGE)".into(),
                )),
                rv => ck("C_SignInit", rv),
            },
        }
    }
}

impl DigestSession for P11Digest<'_> {
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        self.init()?;
        let mut written = out.len() as CK_ULONG;
        let (p, n, o) = (msg.as_ptr() as *mut u8, msg.len() as CK_ULONG, out.as_mut_ptr());
        let (name, rv) = match self.key {
            // SAFETY: `msg` and `out` hold their lengths.
            None => ("C_Digest", unsafe { func!(self.m, C_Digest)(self.session, p, n, o, &mut written) }),
            Some(_) => ("C_Sign", unsafe { func!(self.m, C_Sign)(self.session, p, n, o, &mut written) }),
        };
        ck(name, rv)?;
        wrote(name, written as usize, self.len.min(out.len()))
    }

    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError> {
        if !self.active {
            self.init()?;
            self.active = true;
        }
        let (p, n) = (msg.as_ptr() as *mut u8, msg.len() as CK_ULONG);
        // SAFETY: `msg` holds its length.
        match self.key {
            None => ck("C_DigestUpdate", unsafe { func!(self.m, C_DigestUpdate)(self.session, p, n) }),
            Some(_) => ck("C_SignUpdate", unsafe { func!(self.m, C_SignUpdate)(self.session, p, n) }),
        }
    }

    /// The value of what was updated, through `C_DigestFinal`/`C_SignFinal`,
    /// which ends the operation: the state does not go on, so the library
    /// refuses `stream` cells (mod.rs) and this serves the one-shot checks.
    fn peek(&mut self) -> Result<Vec<u8>, BackendError> {
        if !self.active {
            self.init()?;
        }
        self.active = false;
        let mut out = vec![0u8; self.len];
        let mut written = out.len() as CK_ULONG;
        let o = out.as_mut_ptr();
        // SAFETY: `out` holds `len` bytes.
        match self.key {
            None => ck("C_DigestFinal", unsafe {
                func!(self.m, C_DigestFinal)(self.session, o, &mut written)
            })?,
            Some(_) => ck("C_SignFinal", unsafe { func!(self.m, C_SignFinal)(self.session, o, &mut written) })?,
        }
        out.truncate(written as usize);
        Ok(out)
    }

    /// A MAC's message is `C_SignInit` on the key object and `C_Sign`, which
    /// ends the operation: PKCS#11 has no call that restarts a keyed MAC, so
    /// the module keys it for every message.
    fn extra_work(&self) -> Option<&'static str> {
        self.key.map(|_| {
            "PKCS#11 ends a MAC with C_Sign and restarts it only with C_SignInit on the key object, so each message keys \
             the MAC anew (SoftHSM2: an OpenSSL MAC context keyed per C_SignInit: HMAC's padded key hashed into the \
             inner and outer states, CMAC's key schedule and subkeys)"
        })
    }

    fn allocates(&self, _message: bool) -> Option<Allocation> {
        Some(MODULE_ALLOCATES)
    }
}

impl Drop for P11Digest<'_> {
    fn drop(&mut self) {
        self.m.close(self.session);
    }
}

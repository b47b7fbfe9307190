//! Key agreement through a token: `C_DeriveKey` with `CKM_ECDH1_DERIVE`
//! (no KDF, `CKD_NULL`; the peer's public key as `pPublicData`: the
//! uncompressed point on the NIST curves, the raw u-coordinate for X25519;
//! PKCS#11 v3.0 Current Mechanisms 2.3.16) into a session object of
//! `CKK_GENERIC_SECRET`, whose `CKA_VALUE` is read with
//! `C_GetAttributeValue` and which is destroyed again: a token keeps a
//! derived secret as an object, so this is what one agreement costs there.

use cryptoki_sys::*;

use super::module::{attr, ck, func, Module};
use super::sessions::MODULE_ALLOCATES;
use crate::error::BackendError;
use crate::named::Allocation;
use crate::pk::{fill, PkSession};

pub struct DeriveSession<'a> {
    pub m: &'a Module,
    pub session: CK_SESSION_HANDLE,
    pub key: CK_OBJECT_HANDLE,
    /// The peer's public key as the mechanism takes it.
    pub peer: Vec<u8>,
    /// The secret's length (the field's).
    pub len: usize,
}

impl PkSession for DeriveSession<'_> {
    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let mut params = CK_ECDH1_DERIVE_PARAMS {
            kdf: CKD_NULL,
            ulSharedDataLen: 0,
            pSharedData: std::ptr::null_mut(),
            ulPublicDataLen: self.peer.len() as CK_ULONG,
            pPublicData: self.peer.as_mut_ptr(),
        };
        let mut mech = CK_MECHANISM {
            mechanism: CKM_ECDH1_DERIVE,
            pParameter: &mut params as *mut CK_ECDH1_DERIVE_PARAMS as *mut std::ffi::c_void,
            ulParameterLen: std::mem::size_of::<CK_ECDH1_DERIVE_PARAMS>() as CK_ULONG,
        };
        let (class, kind, yes, no, len) = (CKO_SECRET_KEY, CKK_GENERIC_SECRET, CK_TRUE, CK_FALSE, self.len as CK_ULONG);
        let mut template = [
            attr(CKA_CLASS, &class),
            attr(CKA_KEY_TYPE, &kind),
            attr(CKA_TOKEN, &no),
            attr(CKA_SENSITIVE, &no),
            attr(CKA_EXTRACTABLE, &yes),
            attr(CKA_VALUE_LEN, &len),
        ];
        let mut object: CK_OBJECT_HANDLE = 0;
        // SAFETY: the mechanism's parameters and the template's values live for the call.
        ck("C_DeriveKey", unsafe {
            func!(self.m, C_DeriveKey)(
                self.session,
                &mut mech,
                self.key,
                template.as_mut_ptr(),
                template.len() as CK_ULONG,
                &mut object,
            )
        })?;
        let (m, session, max) = (self.m, self.session, self.len);
        let read = fill(secret, max, |out| {
            let mut value = CK_ATTRIBUTE {
                type_: CKA_VALUE,
                pValue: out as *mut std::ffi::c_void,
                ulValueLen: max as CK_ULONG,
            };
            // SAFETY: `out` has room for `max` bytes; the object is this session's.
            ck("C_GetAttributeValue", unsafe {
                func!(m, C_GetAttributeValue)(session, object, &mut value, 1)
            })?;
            Ok(value.ulValueLen as usize)
        });
        let destroyed = self.m.destroy(self.session, object);
        read.and(destroyed)
    }

    fn allocates(&self) -> Option<Allocation> {
        Some(MODULE_ALLOCATES)
    }
}

impl Drop for DeriveSession<'_> {
    fn drop(&mut self) {
        self.m.close(self.session);
    }
}

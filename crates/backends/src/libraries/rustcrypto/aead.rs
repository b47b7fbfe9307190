//! AEADs through RustCrypto's `aead` 0.6 API (`AeadInOut`): one call seals
//! or opens a whole message with a detached tag. The API has no streaming
//! updates, so AEAD `stream` cells are unsupported here.

use aead::array::Array;
use aead::inout::InOutBuf;
use aead::{AeadInOut, KeyInit};

use crate::error::BackendError;

pub fn new<A: KeyInit>(key: &[u8]) -> Result<A, BackendError> {
    A::new_from_slice(key).map_err(|_| BackendError::Invalid("wrong key length for this AEAD".into()))
}

/// Encrypts `buf` in place and writes the tag into `tag`.
pub fn seal<A: AeadInOut>(a: &A, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
    let nonce = Array::try_from(iv).map_err(|_| BackendError::Invalid("wrong nonce length for this AEAD".into()))?;
    let t = a
        .encrypt_inout_detached(&nonce, aad, InOutBuf::from(buf))
        .map_err(|_| BackendError::Call {
            call: "AeadInOut::encrypt_inout_detached",
            detail: "message or AAD too long".into(),
        })?;
    if tag.len() != t.len() {
        return Err(BackendError::Invalid(format!("tags are {} bytes here", t.len())));
    }
    tag.copy_from_slice(&t);
    Ok(())
}

/// Decrypts `ciphertext` into `out` and verifies `tag`.
pub fn open<A: AeadInOut>(a: &A, iv: &[u8], aad: &[u8], ciphertext: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
    let nonce = Array::try_from(iv).map_err(|_| BackendError::Invalid("wrong nonce length for this AEAD".into()))?;
    let tag = Array::try_from(tag).map_err(|_| BackendError::Invalid("wrong tag length for this AEAD".into()))?;
    let buf = InOutBuf::new(ciphertext, out).map_err(|_| BackendError::Invalid("output and input differ in length".into()))?;
    a.decrypt_inout_detached(&nonce, aad, buf, &tag)
        .map_err(|_| BackendError::AuthenticationFailed)
}

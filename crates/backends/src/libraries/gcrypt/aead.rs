//! One whole AEAD message on a keyed libgcrypt handle, mode by mode
//! (libgcrypt manual, "Working with cipher handles"): the nonce by
//! `gcry_cipher_setiv`; CCM wants the lengths first
//! (`GCRYCTL_SET_CCM_LENGTHS`: message, AAD, tag); OCB wants
//! `gcry_cipher_final` before its last data; SIV takes each
//! `gcry_cipher_authenticate` as one associated-data component and a nonce
//! (where a vector has one) by `setiv` after them (RFC 5297 §3); SIV and
//! GCM-SIV decrypt against a tag given first (`GCRYCTL_SET_DECRYPTION_TAG`)
//! and fail the decryption itself when it does not verify. Used by the
//! cipher session's `message` calls and by the vectors' lengths alike.

use std::ffi::c_void;

use super::api::*;
use super::handles::{check, check_tag, set_iv};
use crate::error::BackendError;

/// The steps of one message: nonce, lengths, AAD, data (in place when `input` is
/// `out`), tag (written when encrypting, verified when decrypting).
///
/// # Safety
/// `hd` must be a keyed handle of `mode`; `input` and `out` must cover `len`
/// bytes, `tag` `tag_len` bytes. When decrypting libgcrypt only reads the tag
/// (`gcry_cipher_checktag`, `GCRYCTL_SET_DECRYPTION_TAG`), so it may point
/// to memory the caller only reads.
#[allow(clippy::too_many_arguments)] // the parts of an AEAD message
pub unsafe fn message(
    api: &Api,
    hd: Hd,
    mode: std::ffi::c_int,
    encrypt: bool,
    iv: &[u8],
    aad: &[u8],
    input: *const u8,
    out: *mut u8,
    len: usize,
    tag: *mut u8,
    tag_len: usize,
) -> Result<(), BackendError> {
    let siv = mode == GCRY_CIPHER_MODE_SIV;
    let tag_first = !encrypt && (siv || mode == GCRY_CIPHER_MODE_GCM_SIV);
    // SAFETY: per the contract; every buffer covers the length passed.
    unsafe {
        if siv || mode == GCRY_CIPHER_MODE_GCM_SIV {
            // These modes keep the last message's state: start afresh (the key is kept).
            check(
                api,
                (api.gcry_cipher_ctl)(hd, GCRYCTL_RESET, std::ptr::null_mut(), 0),
                "gcry_cipher_reset",
            )?;
        }
        if !siv {
            set_iv(api, hd, mode, iv)?;
        }
        if mode == GCRY_CIPHER_MODE_CCM {
            let mut lengths = [len as u64, aad.len() as u64, tag_len as u64];
            check(
                api,
                (api.gcry_cipher_ctl)(
                    hd,
                    GCRYCTL_SET_CCM_LENGTHS,
                    lengths.as_mut_ptr().cast(),
                    std::mem::size_of_val(&lengths),
                ),
                "gcry_cipher_ctl(GCRYCTL_SET_CCM_LENGTHS)",
            )?;
        }
        if !aad.is_empty() || siv {
            check(
                api,
                (api.gcry_cipher_authenticate)(hd, aad.as_ptr().cast(), aad.len()),
                "gcry_cipher_authenticate",
            )?;
        }
        if siv && !iv.is_empty() {
            check(api, (api.gcry_cipher_setiv)(hd, iv.as_ptr().cast(), iv.len()), "gcry_cipher_setiv")?;
        }
        if tag_first {
            check(
                api,
                (api.gcry_cipher_ctl)(hd, GCRYCTL_SET_DECRYPTION_TAG, tag.cast(), tag_len),
                "gcry_cipher_ctl(GCRYCTL_SET_DECRYPTION_TAG)",
            )?;
        }
        if mode == GCRY_CIPHER_MODE_OCB {
            check(
                api,
                (api.gcry_cipher_ctl)(hd, GCRYCTL_FINALIZE, std::ptr::null_mut(), 0),
                "gcry_cipher_final",
            )?;
        }
        let (f, name) = if encrypt {
            (api.gcry_cipher_encrypt, "gcry_cipher_encrypt")
        } else {
            (api.gcry_cipher_decrypt, "gcry_cipher_decrypt")
        };
        let (src, src_len) = if std::ptr::eq(input, out) {
            (std::ptr::null(), 0)
        } else {
            (input as *const c_void, len)
        };
        let rc = f(hd, out.cast(), len, src, src_len);
        if tag_first {
            check_tag(api, rc)?;
        } else {
            check(api, rc, name)?;
        }
        if encrypt {
            check(api, (api.gcry_cipher_gettag)(hd, tag.cast(), tag_len), "gcry_cipher_gettag")?;
        } else if !tag_first {
            check_tag(api, (api.gcry_cipher_checktag)(hd, tag.cast_const().cast(), tag_len))?;
        }
    }
    Ok(())
}

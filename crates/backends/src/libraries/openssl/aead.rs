//! What each AEAD mode of EVP needs around the usual init/update/final
//! (EVP_EncryptInit(3), "AEAD Interface"): GCM, CCM and OCB take their IV
//! length by `EVP_CTRL_AEAD_SET_IVLEN` before the IV is set; CCM and OCB
//! take the tag length by `EVP_CTRL_AEAD_SET_TAG` before the key (with the
//! tag itself when decrypting CCM), and CCM the message length before the
//! AAD; SIV has no IV: a nonce, where a vector has one, is one more AAD
//! component (RFC 5297 §3).

use std::ffi::c_int;

use cryptobench_core::{AlgorithmClass, AlgorithmSpec};

use super::api::{Api, EvpCipherCtx, EVP_CTRL_AEAD_GET_TAG, EVP_CTRL_AEAD_SET_IVLEN, EVP_CTRL_AEAD_SET_TAG};
use super::handles::{call_failed, check, Cipher, CipherCtx};
use crate::error::BackendError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Not an AEAD.
    Plain,
    Gcm,
    Ccm,
    Ocb,
    Siv,
    /// GCM-SIV (3.2+). Its context appends every message's AAD to the last one's
    /// (providers/implementations/ciphers/cipher_aes_gcm_siv_hw.c `aes_gcm_siv_aad`:
    /// only a 0-byte AAD call resets it, and EVP_CipherUpdate never passes one on),
    /// so every message starts from a copy of the keyed context.
    GcmSiv,
    /// ChaCha20-Poly1305: IV length settable, tag set after the key.
    Other,
}

impl Kind {
    pub fn of(alg: &AlgorithmSpec) -> Kind {
        if alg.class != AlgorithmClass::Aead {
            Kind::Plain
        } else if alg.id.ends_with("-gcm") {
            Kind::Gcm
        } else if alg.id.ends_with("-ccm") {
            Kind::Ccm
        } else if alg.id.ends_with("-ocb") {
            Kind::Ocb
        } else if alg.id.ends_with("-gcm-siv") {
            Kind::GcmSiv
        } else if alg.id.ends_with("-siv") {
            Kind::Siv
        } else {
            Kind::Other
        }
    }

    /// The tag length goes in before the key.
    pub fn tag_first(self) -> bool {
        matches!(self, Kind::Ccm | Kind::Ocb)
    }
}

fn ctrl(api: &Api, ctx: *mut EvpCipherCtx, op: c_int, arg: usize, ptr: *mut u8) -> c_int {
    // SAFETY: live context; `ptr` is NULL or covers `arg` bytes.
    unsafe { (api.EVP_CIPHER_CTX_ctrl)(ctx, op, arg as c_int, ptr.cast()) }
}

/// A context for `cipher` with the IV length and (CCM, OCB) the tag set, then key and IV.
/// `tag` is the tag to verify when decrypting CCM, else only its length counts.
/// A length the library refuses is `Unsupported`, naming it.
#[allow(clippy::too_many_arguments)] // the parameters of an EVP AEAD context
pub fn context<'a>(
    api: &'a Api,
    cipher: &Cipher<'a>,
    kind: Kind,
    key: &[u8],
    iv: &[u8],
    tag: &mut [u8],
    encrypt: bool,
    version: &str,
) -> Result<CipherCtx<'a>, BackendError> {
    let ctx = CipherCtx::new(api)?;
    // SAFETY: live context and cipher; key and IV are set below, after the lengths.
    check(
        api,
        unsafe {
            (api.EVP_CipherInit_ex)(
                ctx.ptr,
                cipher.ptr,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
                c_int::from(encrypt),
            )
        },
        "EVP_CipherInit_ex",
    )?;
    check(
        api,
        unsafe { (api.EVP_CIPHER_CTX_set_padding)(ctx.ptr, 0) },
        "EVP_CIPHER_CTX_set_padding",
    )?;
    if !matches!(kind, Kind::Plain | Kind::Siv) && ctrl(api, ctx.ptr, EVP_CTRL_AEAD_SET_IVLEN, iv.len(), std::ptr::null_mut()) != 1 {
        super::handles::error_queue(api);
        return Err(BackendError::Unsupported(format!(
            "an IV length {version} refuses (EVP_CTRL_AEAD_SET_IVLEN fails)"
        )));
    }
    if kind.tag_first() {
        let p = if encrypt { std::ptr::null_mut() } else { tag.as_mut_ptr() };
        if ctrl(api, ctx.ptr, EVP_CTRL_AEAD_SET_TAG, tag.len(), p) != 1 {
            super::handles::error_queue(api);
            return Err(BackendError::Unsupported(format!(
                "a tag length {version} refuses (EVP_CTRL_AEAD_SET_TAG fails)"
            )));
        }
    }
    let iv_ptr = if iv.is_empty() || kind == Kind::Siv {
        std::ptr::null()
    } else {
        iv.as_ptr()
    };
    // SAFETY: key and IV have the lengths the context was told.
    check(
        api,
        unsafe { (api.EVP_CipherInit_ex)(ctx.ptr, std::ptr::null(), std::ptr::null_mut(), key.as_ptr(), iv_ptr, -1) },
        "EVP_CipherInit_ex",
    )?;
    Ok(ctx)
}

/// Sets the tag to verify (GCM, SIV, ChaCha20-Poly1305, OCB again: harmless), before the data.
pub fn set_tag(api: &Api, ctx: *mut EvpCipherCtx, tag: &mut [u8], version: &str) -> Result<(), BackendError> {
    if ctrl(api, ctx, EVP_CTRL_AEAD_SET_TAG, tag.len(), tag.as_mut_ptr()) != 1 {
        super::handles::error_queue(api);
        return Err(BackendError::Unsupported(format!(
            "a tag length {version} refuses (EVP_CTRL_AEAD_SET_TAG fails)"
        )));
    }
    Ok(())
}

pub fn get_tag(api: &Api, ctx: *mut EvpCipherCtx, tag: &mut [u8]) -> Result<(), BackendError> {
    if ctrl(api, ctx, EVP_CTRL_AEAD_GET_TAG, tag.len(), tag.as_mut_ptr()) != 1 {
        return Err(call_failed(api, "EVP_CTRL_AEAD_GET_TAG"));
    }
    Ok(())
}

type UpdateFn = unsafe extern "C" fn(*mut EvpCipherCtx, *mut u8, *mut c_int, *const u8, c_int) -> c_int;

/// CCM's message length, then the AAD (SIV: the AAD, then a nonce as its own component).
///
/// # Safety
/// `ctx` must be a keyed context of `kind`.
pub unsafe fn before_data(
    api: &Api,
    ctx: *mut EvpCipherCtx,
    update: UpdateFn,
    kind: Kind,
    len: c_int,
    aad: &[u8],
    nonce: &[u8],
) -> Result<(), BackendError> {
    let mut n: c_int = 0;
    // SAFETY: per the contract; NULL output means "length" (CCM) or "AAD" (EVP_EncryptUpdate(3)).
    unsafe {
        if kind == Kind::Ccm {
            check(
                api,
                update(ctx, std::ptr::null_mut(), &mut n, std::ptr::null(), len),
                "EVP_CipherUpdate(CCM length)",
            )?;
        }
        if kind != Kind::Plain && (!aad.is_empty() || kind == Kind::Siv) {
            check(
                api,
                update(ctx, std::ptr::null_mut(), &mut n, aad.as_ptr(), aad.len() as c_int),
                "EVP_CipherUpdate(AAD)",
            )?;
        }
        if kind == Kind::Siv && !nonce.is_empty() {
            check(
                api,
                update(ctx, std::ptr::null_mut(), &mut n, nonce.as_ptr(), nonce.len() as c_int),
                "EVP_CipherUpdate(SIV nonce)",
            )?;
        }
    }
    Ok(())
}

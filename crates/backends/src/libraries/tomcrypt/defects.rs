//! Defects of a LibTomCrypt build found at load time, so that its cells say
//! why instead of timing wrong output.
//!
//! LibTomCrypt 1.18.2's ChaCha20-Poly1305 gets the tag of a message with
//! no data wrong when its AAD is not a multiple of 16 bytes: Project
//! Wycheproof's chacha20_poly1305 case 3 (8 bytes of AAD, no data) fails
//! here, through the step-by-step calls (with or without a zero-length
//! `chacha20poly1305_encrypt`) and through `chacha20poly1305_memory`
//! alike (checked with a C program against libtomcrypt.so.1.0.1). The check computes
//! such a message with the library and with the RustCrypto crate linked
//! into cryptobench (an independent implementation of RFC 8439) and
//! compares the tags.

use std::ffi::c_ulong;

use aead::array::Array;
use aead::inout::InOutBuf;
use aead::{AeadInOut, KeyInit};

use super::api::Api;

/// `CHACHA20POLY1305_ENCRYPT` (tomcrypt_mac.h).
const CHACHA20POLY1305_ENCRYPT: std::ffi::c_int = 0;

/// Why this build's ChaCha20-Poly1305 cannot be trusted, if it cannot.
pub fn chacha20poly1305(api: &Api, version: &str) -> Option<String> {
    let memory = api.chacha20poly1305_memory?;
    let key: Vec<u8> = (0u8..32).collect();
    let nonce: Vec<u8> = (100u8..112).collect();
    let aad = [0x5au8; 8];
    let mut theirs = [0u8; 16];
    let mut taglen: c_ulong = 16;
    let mut empty = [0u8; 1];
    // SAFETY: documented one-shot call (tomcrypt_mac.h); an empty message with 8 bytes of AAD.
    let rc = unsafe {
        memory(
            key.as_ptr(),
            32,
            nonce.as_ptr(),
            12,
            aad.as_ptr(),
            aad.len() as c_ulong,
            empty.as_ptr(),
            0,
            empty.as_mut_ptr(),
            theirs.as_mut_ptr(),
            &mut taglen,
            CHACHA20POLY1305_ENCRYPT,
        )
    };
    let cipher = chacha20poly1305::ChaCha20Poly1305::new_from_slice(&key).ok()?;
    let ours = cipher
        .encrypt_inout_detached(&Array::try_from(&nonce[..]).ok()?, &aad, InOutBuf::from(&mut [][..]))
        .ok()?;
    (rc != 0 || theirs[..] != ours[..]).then(|| {
        format!(
            "LibTomCrypt {version} computes wrong ChaCha20-Poly1305 tags for empty messages with AAD of a length that is not a multiple of 16 (checked against RustCrypto at load; Wycheproof chacha20_poly1305 case 3)"
        )
    })
}

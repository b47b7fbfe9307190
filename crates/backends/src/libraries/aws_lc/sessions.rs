//! aws-lc-rs's sessions: AEADs, digests and HMAC as ring's
//! (crate::libraries::provider, one definition for both crates; AEADs
//! decrypt with `open_separate_gather` into the buffer), and the plain AES
//! modes as `cipher::EncryptingKey` (`less_safe_encrypt` in place with the
//! IV as `EncryptionContext`).
//!
//! Key setup allocates in aws-lc-rs, and `--rekey` names it
//! ([`CipherSession::allocates`]): `UnboundKey::new` allocates the
//! `EVP_AEAD_CTX` (`OPENSSL_malloc`, src/aead/aead_ctx.rs), and
//! `UnboundCipherKey::new` copies the key into a `Vec` (src/cipher.rs).
//! A SHA-3 `message` allocates too (`sha3_allocates`).

use aws_lc_rs::cipher::{DecryptingKey, DecryptionContext, EncryptingKey, EncryptionContext, OperatingMode, UnboundCipherKey};
use aws_lc_rs::iv::FixedLength;
use cryptobench_core::Mode;

use crate::error::BackendError;
use crate::named::Allocation;
use crate::sessions::{unsupported, CipherSession};

crate::libraries::provider::provider_sessions!(
    aws_lc_rs,
    "aws-lc-rs",
    open: separate_gather,
    rekey_allocates: Some(Allocation::in_c(
        "aws-lc-rs's AEAD key setup allocates: UnboundKey::new allocates its EVP_AEAD_CTX (OPENSSL_malloc, src/aead/aead_ctx.rs)"
    )),
    digest_allocates: sha3_allocates
);

/// aws-lc-rs's `digest::digest` calls AWS-LC's one-shot functions (`SHA256`
/// and so on) for SHA-1 and SHA-2, which hash on the stack; SHA-3 has no
/// such call there (src/digest/sha.rs: `sha3_256_digest` makes a
/// `digest::Context`), and the context's `EVP_DigestInit_ex` allocates the
/// digest's state (`md_data`, crypto/fipsmodule/digest/digest.c).
fn sha3_allocates(algorithm: &'static aws_lc_rs::digest::Algorithm) -> Option<Allocation> {
    use aws_lc_rs::digest::{SHA3_256, SHA3_384, SHA3_512};
    [&SHA3_256, &SHA3_384, &SHA3_512].contains(&algorithm).then_some(Allocation::in_c(
        "aws-lc-rs's digest::digest hashes SHA-3 through a digest::Context (src/digest/sha.rs), whose \
         EVP_DigestInit_ex allocates the digest's state (OPENSSL_malloc of md_data), freed when the context \
         drops: 1 allocation per message",
    ))
}

/// A plain AES mode; `EncryptingKey` keeps the expanded key. The raw key is
/// kept for `open`, which serves verification only.
pub struct Block {
    algorithm: &'static aws_lc_rs::cipher::Algorithm,
    mode: OperatingMode,
    key: EncryptingKey,
    raw: Vec<u8>,
}

fn unbound(algorithm: &'static aws_lc_rs::cipher::Algorithm, key: &[u8]) -> Result<UnboundCipherKey, BackendError> {
    UnboundCipherKey::new(algorithm, key).map_err(|_| failed("UnboundCipherKey::new"))
}

fn encrypting(algorithm: &'static aws_lc_rs::cipher::Algorithm, mode: OperatingMode, key: &[u8]) -> Result<EncryptingKey, BackendError> {
    let key = unbound(algorithm, key)?;
    match mode {
        OperatingMode::ECB => EncryptingKey::ecb(key),
        OperatingMode::CBC => EncryptingKey::cbc(key),
        OperatingMode::CTR => EncryptingKey::ctr(key),
        _ => EncryptingKey::cfb128(key),
    }
    .map_err(|_| failed("EncryptingKey::new"))
}

fn iv128(iv: &[u8]) -> Result<FixedLength<16>, BackendError> {
    FixedLength::<16>::try_from(iv).map_err(|_| BackendError::Invalid("AES modes take a 16-byte IV".into()))
}

impl Block {
    pub fn new(algorithm: &'static aws_lc_rs::cipher::Algorithm, mode: OperatingMode, key: &[u8]) -> Result<Block, BackendError> {
        Ok(Block {
            algorithm,
            mode,
            key: encrypting(algorithm, mode, key)?,
            raw: key.to_vec(),
        })
    }
}

impl CipherSession for Block {
    /// `UnboundCipherKey::new` and `EncryptingKey::ecb`/`cbc`/`ctr`/`cfb128`.
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.key = encrypting(self.algorithm, self.mode, key)?;
        Ok(())
    }

    fn update(&mut self, _buf: &mut [u8]) -> Result<(), BackendError> {
        Err(unsupported(
            "in-place stream updates (aws-lc-rs's StreamingEncryptingKey::update writes into a separate output buffer)",
        ))
    }

    fn seal(&mut self, iv: &[u8], _aad: &[u8], buf: &mut [u8], _tag: &mut [u8]) -> Result<(), BackendError> {
        let context = if self.mode == OperatingMode::ECB {
            EncryptionContext::None
        } else {
            EncryptionContext::Iv128(iv128(iv)?)
        };
        self.key
            .less_safe_encrypt(buf, context)
            .map(drop)
            .map_err(|_| failed("EncryptingKey::less_safe_encrypt"))
    }

    /// Verification only (aws-lc-rs's plain-cipher decryption is refused for timing):
    /// `DecryptingKey::decrypt` works in place, so the input is copied into `out` first.
    fn open(&mut self, iv: &[u8], _aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        let key = unbound(self.algorithm, &self.raw)?;
        let key = match self.mode {
            OperatingMode::ECB => DecryptingKey::ecb(key),
            OperatingMode::CBC => DecryptingKey::cbc(key),
            OperatingMode::CTR => DecryptingKey::ctr(key),
            _ => DecryptingKey::cfb128(key),
        }
        .map_err(|_| failed("DecryptingKey::new"))?;
        let context = if self.mode == OperatingMode::ECB {
            DecryptionContext::None
        } else {
            DecryptionContext::Iv128(iv128(iv)?)
        };
        out.copy_from_slice(input);
        key.decrypt(out, context).map(drop).map_err(|_| failed("DecryptingKey::decrypt"))
    }

    fn allocates(&self, _mode: Mode, rekey: bool) -> Option<Allocation> {
        rekey.then_some(Allocation::in_rust(
            "aws-lc-rs's plain-cipher key setup allocates: UnboundCipherKey::new copies the key into a Vec (src/cipher.rs)",
        ))
    }
}

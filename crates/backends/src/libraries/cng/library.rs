//! The cng library: its providers, opened once (one AES provider per
//! chaining mode, since the mode is a property of the algorithm handle; a
//! plain and an HMAC provider per hash), and its sessions.

use std::collections::BTreeMap;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode};
use windows_sys::core::PCWSTR;
use windows_sys::Win32::Security::Cryptography::{
    BCRYPT_AES_ALGORITHM, BCRYPT_ALG_HANDLE_HMAC_FLAG, BCRYPT_CHAIN_MODE_CBC, BCRYPT_CHAIN_MODE_CCM, BCRYPT_CHAIN_MODE_ECB,
    BCRYPT_CHAIN_MODE_GCM, BCRYPT_MD5_ALGORITHM, BCRYPT_SHA1_ALGORITHM, BCRYPT_SHA256_ALGORITHM, BCRYPT_SHA384_ALGORITHM,
    BCRYPT_SHA512_ALGORITHM,
};

use super::calls::Provider;
use super::cipher::{aead_refusal, AesSession};
use super::hash::HashSession;
use super::{chaining_of, hash_of, Chaining, HashAlg, ENTRY};
use crate::error::{BackendError, OpenError};
use crate::library::{CipherTask, DigestTask, Library};
use crate::sessions::unsupported;

fn chain_mode(c: Chaining) -> PCWSTR {
    match c {
        Chaining::Ecb => BCRYPT_CHAIN_MODE_ECB,
        Chaining::Cbc => BCRYPT_CHAIN_MODE_CBC,
        Chaining::Gcm => BCRYPT_CHAIN_MODE_GCM,
        Chaining::Ccm => BCRYPT_CHAIN_MODE_CCM,
    }
}

fn hash_name(h: HashAlg) -> PCWSTR {
    match h {
        HashAlg::Md5 => BCRYPT_MD5_ALGORITHM,
        HashAlg::Sha1 => BCRYPT_SHA1_ALGORITHM,
        HashAlg::Sha256 => BCRYPT_SHA256_ALGORITHM,
        HashAlg::Sha384 => BCRYPT_SHA384_ALGORITHM,
        HashAlg::Sha512 => BCRYPT_SHA512_ALGORITHM,
    }
}

pub struct Cng {
    /// AES per chaining mode, or why CNG refused to open it.
    aes: Vec<(Chaining, Result<Provider, String>)>,
    /// (AEAD mode, key length) that bcrypt.dll refused to seal with, and why (cipher::aead_refusal).
    refused_keys: Vec<((Chaining, usize), String)>,
    /// (hash, HMAC?) and its provider, or why CNG refused it.
    hashes: Vec<((HashAlg, bool), Result<Provider, String>)>,
    /// bcrypt.dll's path as the loader found it.
    path: Option<String>,
    /// "under Wine 8.0 (bcrypt.dll is Wine's)" where this runs under Wine.
    wine: Option<String>,
}

impl Cng {
    pub fn open() -> Result<Cng, OpenError> {
        let aes: Vec<_> = Chaining::ALL
            .iter()
            .map(|&c| (c, Provider::open(BCRYPT_AES_ALGORITHM, 0, Some(chain_mode(c)))))
            .collect();
        let mut hashes = Vec::new();
        for h in HashAlg::ALL {
            hashes.push(((h, false), Provider::open(hash_name(h), 0, None)));
            hashes.push(((h, true), Provider::open(hash_name(h), BCRYPT_ALG_HANDLE_HMAC_FLAG, None)));
        }
        if aes.iter().all(|(_, p)| p.is_err()) && hashes.iter().all(|(_, p)| p.is_err()) {
            let why = aes.iter().filter_map(|(_, p)| p.as_ref().err()).next().cloned().unwrap_or_default();
            return Err(OpenError::Load {
                path: "bcrypt.dll".into(),
                reason: format!("CNG opened no algorithm provider: {why}"),
            });
        }
        let mut refused_keys = Vec::new();
        for (c, p) in &aes {
            if let (true, Ok(p)) = (c.authenticated(), p) {
                for key_len in [16, 24, 32] {
                    if let Some(why) = aead_refusal(p, *c, key_len) {
                        refused_keys.push(((*c, key_len), why));
                    }
                }
            }
        }
        Ok(Cng {
            aes,
            refused_keys,
            hashes,
            path: cryptobench_cpu::windows::module_path("bcrypt.dll"),
            wine: cryptobench_cpu::windows::wine_note(),
        })
    }

    fn aes(&self, alg: &AlgorithmSpec) -> Result<(Chaining, &Provider), BackendError> {
        let chaining = chaining_of(alg.id).ok_or_else(|| unsupported(format!("{} (not mapped to CNG)", alg.id)))?;
        match self.aes.iter().find(|(c, _)| *c == chaining) {
            Some((_, Ok(p))) => match self.refused_keys.iter().find(|(k, _)| *k == (chaining, alg.key_len)) {
                Some((_, why)) => Err(unsupported(format!(
                    "{} (this bcrypt.dll refuses {}-bit keys in that mode: {why})",
                    alg.id,
                    alg.key_len * 8
                ))),
                None => Ok((chaining, p)),
            },
            Some((_, Err(why))) => Err(unsupported(format!("{} (CNG refused its provider: {why})", alg.id))),
            None => Err(unsupported(format!("{} (not mapped to CNG)", alg.id))),
        }
    }

    fn hash(&self, alg: &AlgorithmSpec, hmac: bool) -> Result<&Provider, BackendError> {
        let found = hash_of(alg.id).filter(|(_, h)| *h == hmac);
        match found.and_then(|k| self.hashes.iter().find(|(key, _)| *key == k)) {
            Some((_, Ok(p))) => Ok(p),
            Some((_, Err(why))) => Err(unsupported(format!("{} (CNG refused its provider: {why})", alg.id))),
            None => Err(unsupported(format!("{} (not mapped to CNG)", alg.id))),
        }
    }
}

impl Library for Cng {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        let refused: Vec<String> = self
            .aes
            .iter()
            .filter_map(|(_, p)| p.as_ref().err().cloned())
            .chain(self.hashes.iter().filter_map(|(_, p)| p.as_ref().err().cloned()))
            .collect();
        if !refused.is_empty() {
            details.insert("providers_refused".to_string(), refused.join("; "));
        }
        if !self.refused_keys.is_empty() {
            let keys: Vec<String> = self
                .refused_keys
                .iter()
                .map(|((c, n), why)| format!("{c:?} {}-bit: {why}", n * 8))
                .collect();
            details.insert("keys_refused".to_string(), keys.join("; "));
        }
        if let Some(wine) = &self.wine {
            details.insert("under_wine".to_string(), wine.clone());
        }
        let version = match &self.wine {
            Some(wine) => format!("CNG (bcrypt.dll) {wine}"),
            None => "CNG (bcrypt.dll)".to_string(),
        };
        ENTRY.info(version, self.path.clone(), None, details)
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let (chaining, provider) = self.aes(alg)?;
        task.with(|encrypt| AesSession::new(provider, chaining, key, iv, encrypt))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(HashSession::new(self.hash(alg, false)?, &[], alg.digest_len)?)
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(HashSession::new(self.hash(alg, true)?, key, alg.digest_len)?)
    }

    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        (cell.mode == Mode::Stream && alg.class == AlgorithmClass::Aead).then(|| {
            format!(
                "{} in stream mode (cryptobench seals whole GCM and CCM messages through CNG; use --mode message)",
                alg.id
            )
        })
    }
}

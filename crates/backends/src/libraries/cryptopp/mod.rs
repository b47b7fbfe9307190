//! Crypto++ (`libcrypto++.so.8`), a C++ template library with no C API,
//! through a small C shim built with cryptobench (shim.cpp in this folder,
//! [`load`]): AES ECB/CBC/CFB/CTR/XTS/GCM, ChaCha20Poly1305,
//! 3DES-CBC, Camellia-, ARIA- and SM4-CBC, MD5, SHA-1, SHA-2, SHA3, SM3 and
//! BLAKE2, HMAC, CMAC and Poly1305
//! (Crypto++'s `Poly1305TLS`, RFC 8439; its GHASH is internal to GCM). Its
//! CPU view is cpu.h's `HasAESNI()`, `HasCLMUL()`, `HasSHA()`, …; each cell
//! reports the implementation Crypto++ names (`AlgorithmProvider()`).
//! Crypto++ has no switch to mask its CPU features. Public key: RSA
//! PKCS#1 v1.5 and OAEP, ECDSA, Ed25519, X25519 and ECDH ([`pk`]).

mod api;
mod defects;
mod load;
mod pk;
mod pk_api;
mod sessions;

use std::collections::BTreeMap;
use std::ffi::c_int;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec};

use self::api::*;
use self::sessions::{Cipher, Hash};
use crate::error::{BackendError, OpenError};
use crate::libraries::block_mode::BlockMode;
use crate::library::{CipherTask, DigestTask, Library};
use crate::native;
use crate::registry::Entry;
use crate::sessions::unsupported;

pub struct CryptoppBackend {
    api: Api,
    /// The shim's public-key table (pk_api.rs), or the first symbol it lacks.
    pk: Result<pk_api::PkApi, &'static str>,
    path: String,
    version: String,
    cpu: String,
    _loaded: load::Loaded,
}

/// The cipher kind of shim.cpp (`cbcp_cipher_new`) of a catalog cipher.
fn kind_of(alg: &AlgorithmSpec) -> Result<c_int, BackendError> {
    match alg.id {
        "aria-128-cbc" => return Ok(K_ARIA_CBC),
        "sm4-cbc" => return Ok(K_SM4_CBC),
        id @ ("aes-128-ccm" | "aes-256-ccm" | "xchacha20-poly1305" | "chacha20") => {
            return Err(crate::sessions::not_mapped(id, "Crypto++"))
        }
        _ => {}
    }
    Ok(match BlockMode::of(alg) {
        Some(BlockMode::Ecb) => K_ECB,
        Some(BlockMode::Cbc) => K_CBC,
        Some(BlockMode::Cfb) => K_CFB,
        Some(BlockMode::Ctr) => K_CTR,
        Some(BlockMode::Xts) => K_XTS,
        Some(BlockMode::Gcm) => K_GCM,
        Some(BlockMode::ChaPoly) => K_CHAPOLY,
        Some(BlockMode::Des3) => K_DES3_CBC,
        Some(BlockMode::CamelliaCbc) => K_CAMELLIA_CBC,
        None => return Err(unsupported(format!("{} (not in Crypto++)", alg.id))),
    })
}

/// Hash kinds of shim.cpp (`cbcp_hash_new`).
fn hash_kind(alg: &AlgorithmSpec) -> Result<c_int, BackendError> {
    Ok(match alg.id {
        "md5" => 0,
        "sha1" => 1,
        "sha224" => 2,
        "sha256" => 3,
        "sha384" => 4,
        "sha512" => 5,
        "sha3-256" => 6,
        "sha3-512" => 7,
        "blake2b512" => 8,
        "blake2s256" => 9,
        "sha3-224" => 10,
        "sha3-384" => 11,
        "sm3" => 12,
        id @ ("shake128" | "shake256") => return Err(crate::sessions::not_mapped(id, "Crypto++")),
        id => return Err(unsupported(format!("{id} (not in Crypto++)"))),
    })
}

/// MAC kinds of shim.cpp (`cbcp_mac_new`), with the key length checked where the MAC has one.
fn mac_kind(alg: &AlgorithmSpec, key: &[u8]) -> Result<c_int, BackendError> {
    let kind = match alg.id {
        "hmac-md5" => return Ok(M_HMAC_MD5),
        "hmac-sha1" => return Ok(M_HMAC_SHA1),
        "hmac-sha256" => return Ok(M_HMAC_SHA256),
        "hmac-sha512" => return Ok(M_HMAC_SHA512),
        "aes-128-cmac" => M_CMAC_AES,
        "poly1305" => M_POLY1305_TLS,
        id => return Err(unsupported(format!("{id} (not in Crypto++'s MACs: its GHASH is internal to GCM)"))),
    };
    crate::sessions::check_mac_key(alg, key)?;
    Ok(kind)
}

impl CryptoppBackend {
    pub fn open(path: Option<&str>) -> Result<CryptoppBackend, OpenError> {
        let loaded = load::load(path)?;
        // SAFETY: the shim built from shim.cpp; kept alive beside the table.
        let api = unsafe { Api::load(loaded.shim) }.map_err(native::missing_symbol(
            "the embedded Crypto++ shim",
            "cryptobench's Crypto++ shim",
            env!("CARGO_PKG_VERSION"),
        ))?;
        // SAFETY: the same shim, kept alive beside the table.
        let pk = unsafe { pk_api::PkApi::load(loaded.shim) };
        // SAFETY: plain calls into Crypto++ through the shim.
        let (number, anchor, cpu) = unsafe { ((api.cbcp_library_version)(), (api.cbcp_anchor)(), native::text((api.cbcp_cpu)())) };
        Ok(CryptoppBackend {
            path: native::file_of(anchor, path.unwrap_or("libcrypto++.so.8")),
            // LibraryVersion() is CRYPTOPP_VERSION: 870 for 8.7.0 (config_ver.h).
            version: format!("{}.{}.{}", number / 100, number / 10 % 10, number % 10),
            cpu: cpu.unwrap_or_default(),
            api,
            pk,
            _loaded: loaded,
        })
    }

    fn hash(&self, alg: &AlgorithmSpec) -> Result<Hash<'_>, BackendError> {
        let h = Hash::new(&self.api, hash_kind(alg)?)?;
        if h.size() != alg.digest_len {
            return Err(unsupported(format!("{} (Crypto++'s default has another digest size)", alg.id)));
        }
        Ok(h)
    }

    fn keyed_mac(&self, alg: &AlgorithmSpec, key: &[u8]) -> Result<Hash<'_>, BackendError> {
        let m = Hash::mac(&self.api, mac_kind(alg, key)?, key)?;
        if m.size() != alg.digest_len {
            return Err(unsupported(format!("{} (Crypto++'s has another tag size)", alg.id)));
        }
        Ok(m)
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded(
    "cryptopp",
    "Crypto++",
    "apt-get install libcrypto++8 (and, when building cryptobench, g++ libcrypto++-dev for its Crypto++ shim)",
    |path| Ok(Box::new(CryptoppBackend::open(path)?)),
)
.with_defects(defects::KNOWN_DEFECTS);

impl Library for CryptoppBackend {
    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }

    fn info(&self) -> BackendInfo {
        ENTRY.info(
            format!("Crypto++ {}", self.version),
            Some(self.path.clone()),
            Some(format!("crypto++: {}", self.cpu)),
            BTreeMap::new(),
        )
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let kind = kind_of(alg)?;
        task.with(|encrypt| Cipher::new(&self.api, kind, key, iv, encrypt))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(self.hash(alg)?)
    }

    /// Its one-shot check (the default) is update and a copy's `Final` on a
    /// fresh object; the timed message is `CalculateDigest`.
    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(self.keyed_mac(alg, key)?)
    }

    /// What Crypto++ names (`AlgorithmProvider()`) for an object of `alg`.
    fn implementation(&self, alg: &AlgorithmSpec) -> Option<String> {
        let inputs = crate::backend::inputs_for(alg, 1);
        match alg.class {
            AlgorithmClass::Digest => self.hash(alg).ok()?.provider(),
            AlgorithmClass::Mac => self.keyed_mac(alg, &inputs.key).ok()?.provider(),
            _ => Cipher::new(&self.api, kind_of(alg).ok()?, &inputs.key, &inputs.iv, true)
                .ok()?
                .provider(),
        }
    }
}

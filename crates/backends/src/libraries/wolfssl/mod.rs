//! wolfSSL's wolfCrypt (`libwolfssl.so.35`), loaded at run time, through
//! its native `wc_*` API (wolfssl/wolfcrypt/*.h; wolfSSL manual, "wolfCrypt
//! API Reference"): AES ECB/CBC/CFB/CTR/XTS/GCM, ChaCha20-Poly1305,
//! 3DES-CBC, Camellia-CBC, MD5, SHA-1, SHA-2, SHA3 and BLAKE2, HMAC, AES-CMAC and
//! Poly1305 ([`mac`]), and public key ([`pk`]: RSA, ECDSA, ECDH, EdDSA,
//! X25519/X448), as far as the build has them (each is looked up; a
//! missing one is `n/a`). wolfSSL 5.5 exports no
//! call that reads its CPU flags (`cpuid_get_flags` is internal; the
//! exported `cpuid_select_flags`/`cpuid_set_flag`/`cpuid_clear_flag` only
//! write them) and does not read `OPENSSL_ia32cap`, so it reports no CPU
//! view and offers no mask.

mod api;
mod defects;
mod mac;
mod pk;
mod pk_api;
mod pk_keys;
mod pk_sessions;
mod sessions;

use std::collections::BTreeMap;
use std::ffi::c_int;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};

use self::api::*;
use self::mac::{Mac, MacKind};
use self::sessions::{Blake2Fns, Cipher, Hash};
use crate::error::{BackendError, OpenError};
use crate::libraries::block_mode::BlockMode;
use crate::library::{CipherTask, DigestTask, Library};
use crate::native;
use crate::registry::Entry;
use crate::sessions::{unsupported, DigestSession};

const DEFAULT_LIBRARIES: &[&str] = native::per_platform(
    &["libwolfssl.35.dylib", "libwolfssl.dylib"],
    &["wolfssl.dll"],
    &["libwolfssl.so.35", "libwolfssl.so.42", "libwolfssl.so"],
);

pub struct WolfsslBackend {
    api: Api,
    /// The public-key calls (pk_api.rs), each optional.
    pk: pk_api::PkApi,
    path: String,
    version: String,
    _library: libloading::Library,
}

/// The block mode of a catalog cipher, where wolfCrypt has it and cryptobench maps it.
fn kind_of(alg: &AlgorithmSpec) -> Result<BlockMode, BackendError> {
    match alg.id {
        id @ ("aes-128-ccm" | "aes-256-ccm" | "aes-128-siv" | "xchacha20-poly1305" | "chacha20") => {
            Err(crate::sessions::not_mapped(id, "wolfCrypt"))
        }
        _ => BlockMode::of(alg).ok_or_else(|| unsupported(format!("{} (not in wolfCrypt)", alg.id))),
    }
}

impl WolfsslBackend {
    pub fn open(path: Option<&str>) -> Result<WolfsslBackend, OpenError> {
        let loaded = native::load(path, DEFAULT_LIBRARIES, "wolfSSL", "wolfssl")?;
        // SAFETY: `const char* wolfSSL_lib_version(void)` (ssl.h), a static string.
        let (probe, path) = unsafe { loaded.probe::<unsafe extern "C" fn() -> *const std::ffi::c_char>("wolfSSL_lib_version", "wolfSSL") }?;
        // SAFETY: as above.
        let version = native::text(unsafe { probe() }).unwrap_or_default();
        // SAFETY: the library is wolfSSL; kept alive beside the table.
        let api = unsafe { Api::load(&loaded.library) }.map_err(native::missing_symbol(&path, "wolfSSL", &version))?;
        // SAFETY: as above; every symbol optional, so this cannot fail.
        let pk = unsafe { pk_api::PkApi::load(&loaded.library) }.map_err(native::missing_symbol(&path, "wolfSSL", &version))?;
        // SAFETY: documented initialiser (wc_port.h), reference counted.
        let rc = unsafe { (api.wolfCrypt_Init)() };
        if rc != 0 {
            return Err(OpenError::Load {
                path,
                reason: format!("wolfCrypt_Init() returned {rc}"),
            });
        }
        Ok(WolfsslBackend {
            api,
            pk,
            path,
            version,
            _library: loaded.library,
        })
    }

    fn hash(&self, alg: &AlgorithmSpec) -> Result<Hash<'_>, BackendError> {
        let a = &self.api;
        let not_built = || unsupported(format!("{} (not built into this wolfSSL {})", alg.id, self.version));
        let blake2 = |init, update, finish| match (init, update, finish) {
            (Some(init), Some(update), Some(finish)) => Hash::blake2(a, Blake2Fns { init, update, finish }, alg.digest_len),
            _ => Err(not_built()),
        };
        let (kind, copy): (c_int, _) = match alg.id {
            "blake2b512" => return blake2(a.wc_InitBlake2b, a.wc_Blake2bUpdate, a.wc_Blake2bFinal),
            "blake2s256" => return blake2(a.wc_InitBlake2s, a.wc_Blake2sUpdate, a.wc_Blake2sFinal),
            "md5" => (WC_HASH_TYPE_MD5, a.wc_Md5Copy),
            "sha1" => (WC_HASH_TYPE_SHA, a.wc_ShaCopy),
            "sha224" => (WC_HASH_TYPE_SHA224, a.wc_Sha224Copy),
            "sha256" => (WC_HASH_TYPE_SHA256, a.wc_Sha256Copy),
            "sha384" => (WC_HASH_TYPE_SHA384, a.wc_Sha384Copy),
            "sha512" => (WC_HASH_TYPE_SHA512, a.wc_Sha512Copy),
            "sha3-224" => (WC_HASH_TYPE_SHA3_224, a.wc_Sha3_224_Copy),
            "sha3-256" => (WC_HASH_TYPE_SHA3_256, a.wc_Sha3_256_Copy),
            "sha3-384" => (WC_HASH_TYPE_SHA3_384, a.wc_Sha3_384_Copy),
            "sha3-512" => (WC_HASH_TYPE_SHA3_512, a.wc_Sha3_512_Copy),
            "shake256" => return Err(crate::sessions::not_mapped("shake256", "wolfCrypt")),
            id => return Err(unsupported(format!("{id} (not in wolfCrypt)"))),
        };
        // SAFETY: plain query; negative when the type is not built in.
        if unsafe { (a.wc_HashGetDigestSize)(kind) } != alg.digest_len as c_int {
            return Err(not_built());
        }
        Hash::generic(a, kind, copy.ok_or_else(not_built)?)
    }
}

impl WolfsslBackend {
    /// The calls of a catalog MAC, with the key length checked where the MAC has one.
    fn mac_kind(&self, alg: &AlgorithmSpec, key: &[u8]) -> Result<MacKind, BackendError> {
        let a = &self.api;
        let not_built = || unsupported(format!("{} (not built into this wolfSSL {})", alg.id, self.version));
        let hmac = |hash: c_int, copy: Option<CopyFn>| match (a.wc_HmacSetKey, copy) {
            (Some(_), Some(copy)) => Ok(MacKind::Hmac(hash, copy)),
            _ => Err(not_built()),
        };
        let kind = match alg.id {
            "hmac-md5" => return hmac(WC_HASH_TYPE_MD5, a.wc_Md5Copy),
            "hmac-sha1" => return hmac(WC_HASH_TYPE_SHA, a.wc_ShaCopy),
            "hmac-sha256" => return hmac(WC_HASH_TYPE_SHA256, a.wc_Sha256Copy),
            "hmac-sha512" => return hmac(WC_HASH_TYPE_SHA512, a.wc_Sha512Copy),
            "aes-128-cmac" if a.wc_InitCmac.is_some() => MacKind::Cmac,
            "poly1305" if a.wc_Poly1305SetKey.is_some() => MacKind::Poly1305,
            "aes-128-cmac" | "poly1305" => return Err(not_built()),
            id => return Err(unsupported(format!("{id} (not in wolfCrypt: its GHASH is internal to GCM)"))),
        };
        crate::sessions::check_mac_key(alg, key)?;
        Ok(kind)
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded("wolfssl", "wolfSSL", "apt-get install libwolfssl35", |path| {
    Ok(Box::new(WolfsslBackend::open(path)?))
})
.with_defects(defects::KNOWN_DEFECTS);

impl Library for WolfsslBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert(
            "cpu".to_string(),
            "wolfSSL exports no call that reads its CPU flags (cpuid_get_flags is internal) and ignores OPENSSL_ia32cap".to_string(),
        );
        ENTRY.info(format!("wolfSSL {}", self.version), Some(self.path.clone()), None, details)
    }

    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let kind = kind_of(alg)?;
        task.with(|encrypt| Cipher::new(&self.api, kind, key, iv, encrypt))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(self.hash(alg)?)
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(Mac::new(&self.api, self.mac_kind(alg, key)?, key)?)
    }

    /// CMAC through `wc_AesCmacGenerate`; HMAC and Poly1305 through a fresh object's message call.
    fn one_shot_mac(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        match self.mac_kind(alg, key)? {
            MacKind::Cmac => mac::cmac_once(&self.api, key, message),
            kind => {
                let mut out = vec![0u8; alg.digest_len];
                Mac::new(&self.api, kind, key)?.digest(message, &mut out)?;
                Ok(out)
            }
        }
    }

    /// In-place XTS of partial blocks, and AEAD streams where the build
    /// lacks the streaming calls.
    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        if !matches!(alg.class, AlgorithmClass::Cipher | AlgorithmClass::Aead) {
            return None;
        }
        let kind = kind_of(alg).ok()?;
        let in_place = cell.mode == Mode::Stream || cell.operation == Operation::Encrypt;
        if kind == BlockMode::Xts && in_place && !cell.size.is_multiple_of(16) {
            return Some(format!(
                "{} in place on {} bytes (wolfSSL's wc_AesXtsEncrypt steals ciphertext wrongly in place; whole 16-byte blocks only)",
                alg.id, cell.size
            ));
        }
        let streaming = match kind {
            BlockMode::Gcm => self.api.wc_AesGcmEncryptUpdate.is_some(),
            BlockMode::ChaPoly => self.api.wc_ChaCha20Poly1305_UpdateData.is_some(),
            _ => true,
        };
        (cell.mode == Mode::Stream && !streaming).then(|| {
            format!(
                "{} in stream mode (this wolfSSL was built without its streaming AEAD calls)",
                alg.id
            )
        })
    }
}

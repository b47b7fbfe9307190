//! libsodium (`libsodium.so.23`), loaded at run time: AES-256-GCM (only
//! where `crypto_aead_aes256gcm_is_available()` says the CPU has AES-NI and
//! PCLMUL; libsodium has no portable AES), ChaCha20-Poly1305 (IETF, 96-bit
//! nonce, RFC 8439) and XChaCha20-Poly1305, ChaCha20, SHA-256, SHA-512,
//! BLAKE2b-512, HMAC-SHA-256/512 and Poly1305; Ed25519 and X25519 (pk.rs).
//! API: <https://doc.libsodium.org/secret-key_cryptography/aead>,
//! <https://doc.libsodium.org/advanced/sha-2_hash_function>,
//! <https://doc.libsodium.org/hashing/generic_hashing>.

mod api;
mod ciphers;
mod hash;
mod mac;
mod pk;
mod pk_api;

use std::collections::BTreeMap;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode};

use self::api::Api;
use self::ciphers::{Aead, AeadSession, ChaChaSession};
use self::hash::{Hash, HashSession};
use self::mac::{Mac, MacSession};
use crate::error::{BackendError, OpenError};
use crate::library::{CipherTask, DigestTask, Library};
use crate::native;
use crate::registry::Entry;

const DEFAULT_LIBRARIES: &[&str] = native::per_platform(
    &["libsodium.26.dylib", "libsodium.23.dylib", "libsodium.dylib"],
    &["libsodium.dll"],
    &["libsodium.so.23", "libsodium.so.26", "libsodium.so"],
);

pub struct SodiumBackend {
    api: Api,
    path: String,
    version: String,
    aes_gcm: bool,
    /// Ed25519 and X25519 (pk_api.rs), or the first function this libsodium lacks.
    pk_api: Result<pk_api::PkApi, &'static str>,
    _library: libloading::Library,
}

impl SodiumBackend {
    pub fn open(path: Option<&str>) -> Result<SodiumBackend, OpenError> {
        let loaded = native::load(path, DEFAULT_LIBRARIES, "libsodium", "sodium")?;
        // SAFETY: the symbol is looked up by its documented name; checked below before use.
        let probe = unsafe {
            loaded
                .library
                .get::<unsafe extern "C" fn() -> *const std::ffi::c_char>(b"sodium_version_string\0")
        }
        .map_err(|_| OpenError::NotThatLibrary {
            path: loaded.tried.clone(),
            expected: "libsodium",
            symbol: "sodium_version_string",
        })?;
        let path = native::file_of(*probe as *const std::ffi::c_void, &loaded.tried);
        // SAFETY: `sodium_version_string(void)` returns a static string.
        let version = native::text(unsafe { probe() }).unwrap_or_default();
        // SAFETY: the library is libsodium (it exports sodium_version_string); kept alive beside the table.
        let api = unsafe { Api::load(&loaded.library) }.map_err(|symbol| OpenError::MissingSymbol {
            path: path.clone(),
            symbol,
            library: "libsodium",
            version: version.clone(),
        })?;
        // SAFETY: documented initialiser; 0 = initialised, 1 = already, -1 = failure.
        if unsafe { (api.sodium_init)() } < 0 {
            return Err(OpenError::Load {
                path,
                reason: "sodium_init() failed".into(),
            });
        }
        // Must be asked after sodium_init, which runs the CPU detection.
        let aes_gcm = api.crypto_aead_aes256gcm_is_available.is_some_and(|f| unsafe { f() } == 1)
            && api.crypto_aead_aes256gcm_beforenm.is_some()
            && api.crypto_aead_aes256gcm_encrypt_detached_afternm.is_some()
            && api.crypto_aead_aes256gcm_decrypt_detached_afternm.is_some()
            && api.crypto_aead_aes256gcm_encrypt_detached.is_some()
            && api.crypto_aead_aes256gcm_decrypt_detached.is_some()
            && api.crypto_aead_aes256gcm_statebytes.is_some();
        // SAFETY: as for `api`.
        let pk_api = unsafe { pk_api::PkApi::load(&loaded.library) };
        Ok(SodiumBackend {
            api,
            path,
            version: format!("libsodium {version}"),
            aes_gcm,
            pk_api,
            _library: loaded.library,
        })
    }

    fn aead_of(&self, alg: &AlgorithmSpec) -> Result<Aead, BackendError> {
        match alg.id {
            "chacha20-poly1305" => Ok(Aead::ChaCha20Poly1305),
            "xchacha20-poly1305"
                if self.api.crypto_aead_xchacha20poly1305_ietf_encrypt_detached.is_some()
                    && self.api.crypto_aead_xchacha20poly1305_ietf_decrypt_detached.is_some() =>
            {
                Ok(Aead::XChaCha20Poly1305)
            }
            "aes-256-gcm" if self.aes_gcm => Ok(Aead::Aes256Gcm),
            "aes-256-gcm" => Err(BackendError::Unsupported(
                "aes-256-gcm (crypto_aead_aes256gcm_is_available() is false: libsodium's AES-GCM needs AES-NI and PCLMUL)".into(),
            )),
            "aes-128-gcm" | "aes-192-gcm" => Err(BackendError::Unsupported(format!("{} (libsodium has AES-256-GCM only)", alg.id))),
            _ => Err(BackendError::Unsupported(format!("{} (not in libsodium)", alg.id))),
        }
    }

    fn hash(&self, alg: &AlgorithmSpec) -> Result<Hash, BackendError> {
        Hash::of(alg.id).ok_or_else(|| BackendError::Unsupported(format!("{} (not in libsodium)", alg.id)))
    }

    fn find_mac(&self, alg: &AlgorithmSpec) -> Result<Mac, BackendError> {
        match Mac::of(alg.id) {
            Some(m) if m.available(&self.api) => Ok(m),
            Some(_) => Err(BackendError::Unsupported(format!(
                "{} (this {} lacks its calls)",
                alg.id, self.version
            ))),
            None => Err(BackendError::Unsupported(format!("{} (not in libsodium)", alg.id))),
        }
    }

    fn runtime_flags(&self) -> String {
        let flags = [
            ("aesni", self.api.sodium_runtime_has_aesni),
            ("pclmul", self.api.sodium_runtime_has_pclmul),
            ("avx2", self.api.sodium_runtime_has_avx2),
            ("ssse3", self.api.sodium_runtime_has_ssse3),
            ("sse41", self.api.sodium_runtime_has_sse41),
        ];
        flags
            .iter()
            // SAFETY: documented `int sodium_runtime_has_*(void)`, valid after sodium_init.
            .filter_map(|(name, f)| f.map(|f| format!("{name}={}", unsafe { f() })))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded("sodium", "libsodium", "apt-get install libsodium23", |path| {
    Ok(Box::new(SodiumBackend::open(path)?))
});

impl Library for SodiumBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert("aes256gcm_is_available".to_string(), self.aes_gcm.to_string());
        ENTRY.info(
            self.version.clone(),
            Some(self.path.clone()),
            Some(format!("sodium_runtime_has: {}", self.runtime_flags())),
            details,
        )
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let api = &self.api;
        match alg.class {
            AlgorithmClass::Cipher if alg.id == "chacha20" && api.crypto_stream_chacha20_ietf_xor_ic.is_some() => {
                task.with(|_| ChaChaSession::new(api, key, iv))
            }
            AlgorithmClass::Cipher => Err(BackendError::Unsupported(format!(
                "{} (libsodium offers no unauthenticated block cipher modes)",
                alg.id
            ))),
            _ => {
                let aead = self.aead_of(alg)?;
                task.with(|_| AeadSession::new(api, aead, key))
            }
        }
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(HashSession::new(&self.api, self.hash(alg)?)?)
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(MacSession::new(&self.api, self.find_mac(alg)?, key)?)
    }

    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        if cell.mode != Mode::Stream {
            return None;
        }
        match alg.class {
            AlgorithmClass::Aead => Some(format!(
                "{} in stream mode (libsodium's AEAD calls seal whole messages only; use --mode message)",
                alg.id
            )),
            _ if alg.id == "chacha20" && !cell.size.is_multiple_of(64) => Some(format!(
                "chacha20 in stream mode with {}-byte updates (crypto_stream_chacha20_ietf_xor_ic restarts at a block: updates must be whole 64-byte blocks)",
                cell.size
            )),
            _ => None,
        }
    }

    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }
}

//! LibTomCrypt (`libtomcrypt.so.1`), loaded at run time: AES in ECB, CBC,
//! CFB, CTR, XTS and GCM, ChaCha20-Poly1305 (1.18+), 3DES-CBC, Camellia-CBC,
//! MD5, SHA-1, SHA-2, SHA3 and BLAKE2, HMAC, AES-CMAC and Poly1305 ([`mac`]), through
//! the modes of tomcrypt_cipher.h/tomcrypt_mac.h over registered
//! descriptors (`register_cipher(&aes_desc)`, `register_hash(&sha256_desc)`).
//! LibTomCrypt 1.18 detects nothing about the CPU at run time (its AES is
//! portable C; AES-NI arrived after 1.18), so it reports no CPU view and
//! has no mask; its compile-time settings (`crypt_build_settings`) are kept
//! in the details.

mod api;
mod defects;
mod mac;
mod sessions;

use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, c_void};
use std::sync::Mutex;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode};

use self::api::Api;
use self::mac::{Mac, MacKind};
use self::sessions::{Cipher, Hash, HashFns, Kind};
use crate::error::{BackendError, OpenError};
use crate::libraries::block_mode::BlockMode;
use crate::library::{CipherTask, DigestTask, Library};
use crate::native;
use crate::registry::Entry;
use crate::sessions::unsupported;

const DEFAULT_LIBRARIES: &[&str] = native::per_platform(
    &["libtomcrypt.1.dylib", "libtomcrypt.dylib"],
    &["tomcrypt.dll"],
    &["libtomcrypt.so.1", "libtomcrypt.so"],
);

/// The descriptors looked up, by catalog id (tomcrypt_cipher.h, tomcrypt_hash.h).
const CIPHER_DESCRIPTORS: &[(&str, &str)] = &[("aes", "aes_desc"), ("3des", "des3_desc"), ("camellia", "camellia_desc")];
const HASH_DESCRIPTORS: &[(&str, &str)] = &[
    ("md5", "md5_desc"),
    ("sha1", "sha1_desc"),
    ("sha224", "sha224_desc"),
    ("sha256", "sha256_desc"),
    ("sha384", "sha384_desc"),
    ("sha512", "sha512_desc"),
    ("sha3-224", "sha3_224_desc"),
    ("sha3-256", "sha3_256_desc"),
    ("sha3-384", "sha3_384_desc"),
    ("sha3-512", "sha3_512_desc"),
    ("blake2b512", "blake2b_512_desc"),
    ("blake2s256", "blake2s_256_desc"),
];

/// LibTomCrypt's descriptor tables are process-wide; registration is serialised here.
static REGISTER: Mutex<()> = Mutex::new(());

pub struct TomcryptBackend {
    api: Api,
    path: String,
    version: String,
    settings: String,
    /// Registered cipher and hash indices by short name.
    ciphers: BTreeMap<&'static str, c_int>,
    hashes: BTreeMap<&'static str, c_int>,
    /// Why ChaCha20-Poly1305 is not trusted here, where this build gets it wrong.
    chacha_defect: Option<String>,
    _library: libloading::Library,
}

/// The address of a data symbol (a descriptor), if the library exports it.
fn data_symbol(lib: &libloading::Library, name: &str) -> Option<*const c_void> {
    let c = std::ffi::CString::new(name).ok()?;
    // SAFETY: the symbol is used only as an address, never called.
    unsafe { lib.get::<*const c_void>(c.as_bytes_with_nul()) }.ok().map(|s| *s)
}

/// The mode and the cipher descriptor's name of a catalog cipher: 3DES and
/// Camellia are CBC over their own descriptors (ChaCha20-Poly1305 has none).
fn kind_of(alg: &AlgorithmSpec) -> Result<(Kind, &'static str), BackendError> {
    if let id @ ("aes-128-ccm" | "aes-256-ccm" | "aes-128-ocb" | "aes-256-ocb" | "chacha20") = alg.id {
        return Err(crate::sessions::not_mapped(id, "LibTomCrypt"));
    }
    Ok(match BlockMode::of(alg) {
        Some(BlockMode::Ecb) => (Kind::Ecb, "aes"),
        Some(BlockMode::Cbc) => (Kind::Cbc, "aes"),
        Some(BlockMode::Cfb) => (Kind::Cfb, "aes"),
        Some(BlockMode::Ctr) => (Kind::Ctr, "aes"),
        Some(BlockMode::Xts) => (Kind::Xts, "aes"),
        Some(BlockMode::Gcm) => (Kind::Gcm, "aes"),
        Some(BlockMode::ChaPoly) => (Kind::ChaPoly, "aes"),
        Some(BlockMode::Des3) => (Kind::Cbc, "3des"),
        Some(BlockMode::CamelliaCbc) => (Kind::Cbc, "camellia"),
        None => return Err(unsupported(format!("{} (not in LibTomCrypt)", alg.id))),
    })
}

impl TomcryptBackend {
    pub fn open(path: Option<&str>) -> Result<TomcryptBackend, OpenError> {
        let loaded = native::load(path, DEFAULT_LIBRARIES, "LibTomCrypt", "tomcrypt")?;
        // `const char *crypt_build_settings` (tomcrypt_misc.h): a pointer variable.
        let settings_ptr = data_symbol(&loaded.library, "crypt_build_settings").ok_or_else(|| OpenError::NotThatLibrary {
            path: loaded.tried.clone(),
            expected: "LibTomCrypt",
            symbol: "crypt_build_settings",
        })?;
        let path = native::file_of(settings_ptr, &loaded.tried);
        // SAFETY: the variable holds a static NUL-terminated string.
        let settings = native::text(unsafe { *settings_ptr.cast::<*const c_char>() }).unwrap_or_default();
        // "LibTomCrypt 1.18.2 (www.libtom.net)" is its first line (crypt.c).
        let version = settings
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("LibTomCrypt "))
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or("(version not stated)")
            .to_string();
        // SAFETY: the library is LibTomCrypt; kept alive beside the table.
        let api = unsafe { Api::load(&loaded.library) }.map_err(native::missing_symbol(&path, "LibTomCrypt", &version))?;
        let _guard = REGISTER.lock().unwrap_or_else(|e| e.into_inner());
        let mut ciphers = BTreeMap::new();
        for (name, symbol) in CIPHER_DESCRIPTORS {
            if let Some(desc) = data_symbol(&loaded.library, symbol) {
                // SAFETY: a cipher descriptor of this library; registering twice returns the same index.
                let idx = unsafe { (api.register_cipher)(desc) };
                if idx >= 0 {
                    ciphers.insert(*name, idx);
                }
            }
        }
        let mut hashes = BTreeMap::new();
        for (name, symbol) in HASH_DESCRIPTORS {
            if let Some(desc) = data_symbol(&loaded.library, symbol) {
                // SAFETY: as above, for a hash descriptor.
                let idx = unsafe { (api.register_hash)(desc) };
                if idx >= 0 {
                    hashes.insert(*name, idx);
                }
            }
        }
        let chacha_defect = defects::chacha20poly1305(&api, &version);
        Ok(TomcryptBackend {
            chacha_defect,
            api,
            path,
            version,
            settings,
            ciphers,
            hashes,
            _library: loaded.library,
        })
    }

    /// The mode and the registered cipher index of a catalog cipher.
    fn cipher_of(&self, alg: &AlgorithmSpec) -> Result<(Kind, c_int), BackendError> {
        let (kind, cipher) = kind_of(alg)?;
        if let (Kind::ChaPoly, Some(defect)) = (kind, &self.chacha_defect) {
            return Err(unsupported(format!("{} ({defect})", alg.id)));
        }
        let index = match kind {
            Kind::ChaPoly => -1,
            _ => *self
                .ciphers
                .get(cipher)
                .ok_or_else(|| unsupported(format!("{} (this LibTomCrypt has no {cipher} descriptor)", alg.id)))?,
        };
        Ok((kind, index))
    }

    fn hash(&self, alg: &AlgorithmSpec) -> Result<Hash<'_>, BackendError> {
        let a = &self.api;
        let fns = |init, process, done| match (init, process, done) {
            (Some(init), Some(process), Some(done)) => Some(HashFns { init, process, done }),
            _ => None,
        };
        let found = match alg.id {
            "md5" => fns(a.md5_init, a.md5_process, a.md5_done),
            "sha1" => fns(a.sha1_init, a.sha1_process, a.sha1_done),
            "sha224" => fns(a.sha224_init, a.sha256_process, a.sha224_done),
            "sha256" => fns(a.sha256_init, a.sha256_process, a.sha256_done),
            "sha384" => fns(a.sha384_init, a.sha512_process, a.sha384_done),
            "sha512" => fns(a.sha512_init, a.sha512_process, a.sha512_done),
            "sha3-224" => fns(a.sha3_224_init, a.sha3_process, a.sha3_done),
            "sha3-256" => fns(a.sha3_256_init, a.sha3_process, a.sha3_done),
            "sha3-384" => fns(a.sha3_384_init, a.sha3_process, a.sha3_done),
            "sha3-512" => fns(a.sha3_512_init, a.sha3_process, a.sha3_done),
            "blake2b512" => fns(a.blake2b_512_init, a.blake2b_process, a.blake2b_done),
            "blake2s256" => fns(a.blake2s_256_init, a.blake2s_process, a.blake2s_done),
            id @ ("shake128" | "shake256") => return Err(crate::sessions::not_mapped(id, "LibTomCrypt")),
            id => return Err(unsupported(format!("{id} (not in LibTomCrypt)"))),
        };
        match (found, self.hashes.get(alg.id)) {
            (Some(fns), Some(&index)) => Hash::new(a, index, fns, alg.digest_len),
            _ => Err(unsupported(format!(
                "{} (not built into this LibTomCrypt {})",
                alg.id, self.version
            ))),
        }
    }
}

impl TomcryptBackend {
    /// The calls of a catalog MAC, with the key length checked where the MAC has one.
    fn mac_kind(&self, alg: &AlgorithmSpec, key: &[u8]) -> Result<MacKind, BackendError> {
        let not_built = |what: &str| unsupported(format!("{} (this LibTomCrypt {} has no {what})", alg.id, self.version));
        let hmac = |hash: &str| match (self.api.hmac_init, self.hashes.get(hash)) {
            (Some(_), Some(&index)) => Ok(MacKind::Hmac(index)),
            _ => Err(not_built(&format!("HMAC over {hash}"))),
        };
        let kind = match alg.id {
            "hmac-md5" => return hmac("md5"),
            "hmac-sha1" => return hmac("sha1"),
            "hmac-sha256" => return hmac("sha256"),
            "hmac-sha512" => return hmac("sha512"),
            "aes-128-cmac" => match (self.api.omac_init, self.ciphers.get("aes")) {
                (Some(_), Some(&index)) => MacKind::Cmac(index),
                _ => return Err(not_built("OMAC (CMAC) over AES")),
            },
            "poly1305" if self.api.poly1305_init.is_some() => MacKind::Poly1305,
            "poly1305" => return Err(not_built("Poly1305")),
            id => return Err(unsupported(format!("{id} (not in LibTomCrypt: its GHASH is internal to GCM)"))),
        };
        crate::sessions::check_mac_key(alg, key)?;
        Ok(kind)
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded("tomcrypt", "LibTomCrypt", "apt-get install libtomcrypt1", |path| {
    Ok(Box::new(TomcryptBackend::open(path)?))
});

impl Library for TomcryptBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert(
            "cpu".to_string(),
            "LibTomCrypt 1.18 chooses no code path at run time (portable C AES, no CPU detection)".to_string(),
        );
        details.insert("crypt_build_settings".to_string(), self.settings.clone());
        ENTRY.info(format!("LibTomCrypt {}", self.version), Some(self.path.clone()), None, details)
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let (kind, index) = self.cipher_of(alg)?;
        task.with(|encrypt| Cipher::new(&self.api, kind, index, key, iv, encrypt))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(self.hash(alg)?)
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(Mac::new(&self.api, self.mac_kind(alg, key)?, key, alg.digest_len)?)
    }

    /// The one-shot calls `hmac_memory`, `omac_memory`, `poly1305_memory`.
    fn one_shot_mac(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        mac::mac_once(&self.api, self.mac_kind(alg, key)?, key, message, alg.digest_len)
    }

    /// HMAC streams: a running HMAC cannot be copied to read its tag.
    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        let hmac = alg.class == AlgorithmClass::Mac
            && matches!(self.mac_kind(alg, &crate::backend::inputs_for(alg, 1).key), Ok(kind) if !kind.streams());
        (hmac && cell.mode == Mode::Stream).then(|| {
            format!(
                "{} in stream mode (LibTomCrypt's hmac_done frees the key its state points to: a running HMAC cannot be copied to read its tag)",
                alg.id
            )
        })
    }
}

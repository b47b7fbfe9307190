//! Botan (`libbotan-2.so.19`), a C++ library, through its C API (botan/ffi.h;
//! Botan handbook, "FFI (C Binding)"), loaded at run time: AES ECB (block
//! cipher), CBC, CFB, CTR, XTS and GCM, ChaCha20Poly1305, 3DES-CBC,
//! Camellia-, ARIA- and SM4-CBC, MD5, SHA-1, SHA-2, SHA-3, SM3 and BLAKE2b; HMAC, CMAC and Poly1305 (`botan_mac_*`).
//! Botan 2 has no BLAKE2s, and no GHASH outside GCM and GMAC. Its CPU view is
//! its CPUID bit set (cpuid.rs), and `BOTAN_CLEAR_CPUID` masks it ([`capabilities`]).

mod api;
pub mod capabilities;
mod cpuid;
mod defects;
mod pk;
mod pk_api;
mod pk_keys;
mod sessions;

use std::collections::BTreeMap;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode};

use self::api::Api;
use self::capabilities::CLEAR_CPUID_ENV;
use self::sessions::{BotanCipher, BotanHash, BotanMac, Shape};
use crate::error::{BackendError, OpenError};
use crate::library::{CipherTask, DigestTask, Library};
use crate::native;
use crate::registry::Entry;
use crate::sessions::{unsupported, DigestSession};

const DEFAULT_LIBRARIES: &[&str] = native::per_platform(
    &["libbotan-2.19.dylib", "libbotan-2.dylib"],
    &["botan.dll"],
    &["libbotan-2.so.19", "libbotan-2.so"],
);

pub struct BotanBackend {
    api: Api,
    /// The public-key functions (pk_api.rs), or the first one this Botan lacks.
    pk: Result<pk_api::PkApi, &'static str>,
    path: String,
    version: String,
    cpu: Result<cpuid::View, String>,
    _library: libloading::Library,
}

/// Botan's name for a catalog cipher (Botan handbook, "Cipher Modes").
fn cipher_name(alg: &AlgorithmSpec) -> Result<(String, Shape), BackendError> {
    match alg.id {
        "chacha20-poly1305" => return Ok(("ChaCha20Poly1305".into(), Shape::Chained)),
        "des-ede3-cbc" => return Ok(("TripleDES/CBC/NoPadding".into(), Shape::Chained)),
        "camellia-128-cbc" => return Ok(("Camellia-128/CBC/NoPadding".into(), Shape::Chained)),
        "camellia-192-cbc" => return Ok(("Camellia-192/CBC/NoPadding".into(), Shape::Chained)),
        "camellia-256-cbc" => return Ok(("Camellia-256/CBC/NoPadding".into(), Shape::Chained)),
        "aria-128-cbc" => return Ok(("ARIA-128/CBC/NoPadding".into(), Shape::Chained)),
        "sm4-cbc" => return Ok(("SM4/CBC/NoPadding".into(), Shape::Chained)),
        id @ ("aes-128-ccm" | "aes-256-ccm" | "aes-128-ocb" | "aes-256-ocb" | "aes-128-siv" | "chacha20" | "xchacha20-poly1305") => {
            return Err(crate::sessions::not_mapped(id, "Botan"))
        }
        _ => {}
    }
    let Some((bits, mode)) = alg.id.strip_prefix("aes-").and_then(|r| r.split_once('-')) else {
        return Err(unsupported(format!("{} (not in Botan)", alg.id)));
    };
    Ok(match mode {
        "ecb" => (format!("AES-{bits}"), Shape::Ecb),
        "cbc" => (format!("AES-{bits}/CBC/NoPadding"), Shape::Chained),
        "cfb128" => (format!("AES-{bits}/CFB"), Shape::Chained),
        "ctr" => (format!("AES-{bits}/CTR"), Shape::Chained),
        "gcm" => (format!("AES-{bits}/GCM"), Shape::Chained),
        "xts" => (format!("AES-{bits}/XTS"), Shape::Xts),
        _ => return Err(unsupported(format!("{} (not in Botan)", alg.id))),
    })
}

fn hash_name(alg: &AlgorithmSpec) -> Result<&'static str, BackendError> {
    Ok(match alg.id {
        "md5" => "MD5",
        "sha1" => "SHA-1",
        "sha224" => "SHA-224",
        "sha256" => "SHA-256",
        "sha384" => "SHA-384",
        "sha512" => "SHA-512",
        "sha3-224" => "SHA-3(224)",
        "sha3-256" => "SHA-3(256)",
        "sha3-384" => "SHA-3(384)",
        "sha3-512" => "SHA-3(512)",
        "sm3" => "SM3",
        "blake2b512" => "BLAKE2b(512)",
        "blake2s256" => "BLAKE2s(256)",
        id @ ("shake128" | "shake256") => return Err(crate::sessions::not_mapped(id, "Botan")),
        id => return Err(unsupported(format!("{id} (not in Botan)"))),
    })
}

/// Botan's name for a catalog MAC (Botan handbook, "Message Authentication
/// Codes"), and whether its key is for one message only (Poly1305).
fn mac_name(alg: &AlgorithmSpec) -> Result<(&'static str, bool), BackendError> {
    Ok(match alg.id {
        "hmac-md5" => ("HMAC(MD5)", false),
        "hmac-sha1" => ("HMAC(SHA-1)", false),
        "hmac-sha256" => ("HMAC(SHA-256)", false),
        "hmac-sha512" => ("HMAC(SHA-512)", false),
        "aes-128-cmac" => ("CMAC(AES-128)", false),
        "poly1305" => ("Poly1305", true),
        id => {
            return Err(unsupported(format!(
                "{id} (not in Botan's MACs: GHASH is internal to GCM and GMAC)"
            )))
        }
    })
}

impl BotanBackend {
    pub fn open(path: Option<&str>) -> Result<BotanBackend, OpenError> {
        let loaded = native::load(path, DEFAULT_LIBRARIES, "Botan", "botan")?;
        // SAFETY: `const char* botan_version_string(void)` (ffi.h), a static string.
        let (probe, path) =
            unsafe { loaded.probe::<unsafe extern "C" fn() -> *const std::ffi::c_char>("botan_version_string", "Botan (with its FFI)") }?;
        // SAFETY: as above.
        let version = native::text(unsafe { probe() }).unwrap_or_default();
        // SAFETY: the library is Botan; kept alive beside the table.
        let api = unsafe { Api::load(&loaded.library) }.map_err(native::missing_symbol(&path, "Botan", &version))?;
        let cpu = cpuid::view_and_mask(&loaded.library);
        if let Err(why) = &cpu {
            if why.contains(CLEAR_CPUID_ENV) {
                return Err(OpenError::Load { path, reason: why.clone() });
            }
        }
        // SAFETY: the same Botan as `api`, kept alive beside the table.
        let pk = unsafe { pk_api::PkApi::load(&loaded.library) };
        Ok(BotanBackend {
            api,
            pk,
            path,
            version,
            cpu,
            _library: loaded.library,
        })
    }

    fn keyed(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], encrypt: bool) -> Result<BotanCipher<'_>, BackendError> {
        let (name, shape) = cipher_name(alg)?;
        BotanCipher::new(&self.api, &name, shape, key, iv, encrypt).map_err(|e| match e {
            BackendError::Call { detail, .. } if detail.contains("Not implemented") || detail.contains("not available") => {
                unsupported(format!("{} (not in this Botan: {name})", alg.id))
            }
            other => other,
        })
    }

    fn hash(&self, alg: &AlgorithmSpec) -> Result<BotanHash<'_>, BackendError> {
        let name = hash_name(alg)?;
        let h = BotanHash::new(&self.api, name).map_err(|_| unsupported(format!("{} (not in {}: {name})", alg.id, self.version)))?;
        if h.output_length()? != alg.digest_len {
            return Err(unsupported(format!("{} ({name} has another output length here)", alg.id)));
        }
        Ok(h)
    }
}

impl BotanBackend {
    fn keyed_mac(&self, alg: &AlgorithmSpec, key: &[u8]) -> Result<BotanMac<'_>, BackendError> {
        let (name, one_time) = mac_name(alg)?;
        if !alg.id.starts_with("hmac-") {
            crate::sessions::check_mac_key(alg, key)?;
        }
        let m = BotanMac::new(&self.api, name, key, one_time).map_err(|e| match e {
            BackendError::Call {
                call: "botan_mac_init", ..
            } => unsupported(format!("{} (not in {}: {name})", alg.id, self.version)),
            other => other,
        })?;
        if m.output_length()? != alg.digest_len {
            return Err(unsupported(format!("{} ({name} has another output length here)", alg.id)));
        }
        Ok(m)
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded("botan", "Botan", "apt-get install libbotan-2-19", |path| {
    Ok(Box::new(BotanBackend::open(path)?))
})
.with_cpu(Some(capabilities::view), Some(capabilities::mask))
.with_defects(defects::KNOWN_DEFECTS);

impl Library for BotanBackend {
    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }

    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        let capabilities = match &self.cpu {
            Ok((bits, cleared)) => {
                if !cleared.is_empty() {
                    details.insert(CLEAR_CPUID_ENV.to_string(), cleared.join(","));
                }
                Some(format!("botan cpuid: {}", bits.join(" ")))
            }
            Err(why) => {
                details.insert("cpu".to_string(), why.clone());
                None
            }
        };
        ENTRY.info(self.version.clone(), Some(self.path.clone()), capabilities, details)
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(|encrypt| self.keyed(alg, key, iv, encrypt))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(self.hash(alg)?)
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(self.keyed_mac(alg, key)?)
    }

    /// A fresh object's update and final (the timed loop keeps one object;
    /// Botan 2's C API cannot copy a MAC's state to read a running one).
    fn one_shot_mac(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let mut out = vec![0u8; alg.digest_len];
        self.keyed_mac(alg, key)?.digest(message, &mut out)?;
        Ok(out)
    }

    /// MAC streams (no copy of a MAC's state), and cipher streams whose
    /// updates are not whole `update_granularity()` chunks.
    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        if cell.mode != Mode::Stream {
            return None;
        }
        match alg.class {
            AlgorithmClass::Mac => mac_name(alg).ok().map(|_| {
                format!(
                    "{} in stream mode (Botan 2's C API cannot copy a MAC's state, so a stream's tag cannot be read without ending it)",
                    alg.id
                )
            }),
            AlgorithmClass::Cipher | AlgorithmClass::Aead => {
                if cipher_name(alg).ok()?.1 != Shape::Chained {
                    return None;
                }
                let inputs = crate::backend::inputs_for(alg, 1);
                let g = self.keyed(alg, &inputs.key, &inputs.iv, true).ok()?.granularity();
                (!cell.size.is_multiple_of(g)).then(|| {
                    format!(
                        "{} in stream mode with {}-byte updates (Botan's FFI takes whole {g}-byte chunks per non-final update, botan_cipher_get_update_granularity)",
                        alg.id, cell.size
                    )
                })
            }
            _ => None,
        }
    }
}

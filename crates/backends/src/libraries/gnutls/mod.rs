//! GnuTLS (`libgnutls.so.30`), loaded at run time, through its crypto API
//! (gnutls/crypto.h; manual, "Using GnuTLS as a cryptographic library"):
//! AES-CBC, AES-XTS, AES-GCM, ChaCha20-Poly1305, 3DES-CBC and Camellia-CBC;
//! MD5, SHA-1, SHA-2 and SHA3; HMAC (MD5, SHA-1, SHA-2) and AES-128-CMAC through its
//! MAC API. GnuTLS has no AES ECB, CTR or CFB-128 (only CFB8), no BLAKE2,
//! and no Poly1305 or GHASH of its own (only inside its AEADs and GMAC). Its CPU view is what it logs while registering its accelerated
//! implementations ([`accel`]); `GNUTLS_CPUID_OVERRIDE` replaces the
//! detected capabilities (the audit's mask, [`capabilities`]).

mod accel;
mod api;
pub mod capabilities;
mod defects;
mod pk;
mod pk_api;
mod sessions;

use std::collections::BTreeMap;
use std::ffi::c_int;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode};

use self::api::*;
use self::capabilities::CPUID_OVERRIDE_ENV;
use self::sessions::{Cipher, Hash, Mac};
use crate::error::{BackendError, OpenError};
use crate::library::{CipherTask, DigestTask, Library};
use crate::native;
use crate::registry::Entry;
use crate::sessions::unsupported;

const DEFAULT_LIBRARIES: &[&str] = native::per_platform(
    &["libgnutls.30.dylib", "libgnutls.dylib"],
    &["libgnutls-30.dll"],
    &["libgnutls.so.30", "libgnutls.so"],
);

pub struct GnutlsBackend {
    api: Api,
    /// The abstract key API (pk_api.rs) and `gnutls_free`, or the first symbol this GnuTLS lacks.
    pk: Result<(pk_api::PkApi, pk_api::FreeFn), &'static str>,
    path: String,
    version: String,
    detected: Vec<String>,
    _library: libloading::Library,
}

fn cipher_of(alg: &AlgorithmSpec) -> Result<c_int, BackendError> {
    Ok(match alg.id {
        "aes-128-cbc" => GNUTLS_CIPHER_AES_128_CBC,
        "aes-192-cbc" => GNUTLS_CIPHER_AES_192_CBC,
        "aes-256-cbc" => GNUTLS_CIPHER_AES_256_CBC,
        "aes-128-gcm" => GNUTLS_CIPHER_AES_128_GCM,
        "aes-192-gcm" => GNUTLS_CIPHER_AES_192_GCM,
        "aes-256-gcm" => GNUTLS_CIPHER_AES_256_GCM,
        "aes-128-xts" => GNUTLS_CIPHER_AES_128_XTS,
        "aes-256-xts" => GNUTLS_CIPHER_AES_256_XTS,
        "chacha20-poly1305" => GNUTLS_CIPHER_CHACHA20_POLY1305,
        "chacha20" => GNUTLS_CIPHER_CHACHA20_32,
        id @ ("aes-128-ccm" | "aes-256-ccm" | "aes-128-siv") => return Err(crate::sessions::not_mapped(id, "GnuTLS")),
        "des-ede3-cbc" => GNUTLS_CIPHER_3DES_CBC,
        "camellia-128-cbc" => GNUTLS_CIPHER_CAMELLIA_128_CBC,
        "camellia-192-cbc" => GNUTLS_CIPHER_CAMELLIA_192_CBC,
        "camellia-256-cbc" => GNUTLS_CIPHER_CAMELLIA_256_CBC,
        id if id.ends_with("-ecb") || id.ends_with("-ctr") || id.ends_with("-cfb128") => {
            return Err(unsupported(format!(
                "{id} (GnuTLS offers AES in CBC, CFB8, GCM, CCM, SIV and XTS only)"
            )))
        }
        id => return Err(unsupported(format!("{id} (not in GnuTLS)"))),
    })
}

fn digest_of(alg: &AlgorithmSpec) -> Result<c_int, BackendError> {
    Ok(match alg.id {
        "md5" => GNUTLS_DIG_MD5,
        "sha1" => GNUTLS_DIG_SHA1,
        "sha224" => GNUTLS_DIG_SHA224,
        "sha256" => GNUTLS_DIG_SHA256,
        "sha384" => GNUTLS_DIG_SHA384,
        "sha512" => GNUTLS_DIG_SHA512,
        "sha3-224" => GNUTLS_DIG_SHA3_224,
        "sha3-256" => GNUTLS_DIG_SHA3_256,
        "sha3-384" => GNUTLS_DIG_SHA3_384,
        "sha3-512" => GNUTLS_DIG_SHA3_512,
        id => return Err(unsupported(format!("{id} (not in GnuTLS)"))),
    })
}

fn mac_of(alg: &AlgorithmSpec) -> Result<c_int, BackendError> {
    Ok(match alg.id {
        "hmac-md5" => GNUTLS_DIG_MD5,
        "hmac-sha1" => GNUTLS_DIG_SHA1,
        "hmac-sha256" => GNUTLS_DIG_SHA256,
        "hmac-sha512" => GNUTLS_DIG_SHA512,
        "aes-128-cmac" => GNUTLS_MAC_AES_CMAC_128,
        id => {
            return Err(unsupported(format!(
                "{id} (GnuTLS's MAC API offers HMAC, CMAC, GMAC and UMAC; its Poly1305 and GHASH are internal to its AEADs)"
            )))
        }
    })
}

impl GnutlsBackend {
    pub fn open(path: Option<&str>) -> Result<GnutlsBackend, OpenError> {
        let loaded = native::load(path, DEFAULT_LIBRARIES, "GnuTLS", "gnutls")?;
        // SAFETY: the probe is looked up by its documented name and type.
        let (probe, path) = unsafe {
            loaded.probe::<unsafe extern "C" fn(*const std::ffi::c_char) -> *const std::ffi::c_char>("gnutls_check_version", "GnuTLS")
        }?;
        // SAFETY: NULL asks for no minimum; returns the static version string.
        let version = native::text(unsafe { probe(std::ptr::null()) }).unwrap_or_default();
        // SAFETY: the library is GnuTLS (it exports gnutls_check_version); kept alive beside the table.
        let api = unsafe { Api::load(&loaded.library) }.map_err(native::missing_symbol(&path, "GnuTLS", &version))?;
        let detected = accel::detected(&api).map_err(|reason| OpenError::Load {
            path: path.clone(),
            reason,
        })?;
        // SAFETY: the same GnuTLS as `api`, kept alive beside the table.
        let pk = unsafe { pk_api::PkApi::load(&loaded.library).and_then(|t| Ok((t, pk_api::free_function(&loaded.library)?))) };
        Ok(GnutlsBackend {
            api,
            pk,
            path,
            version,
            detected,
            _library: loaded.library,
        })
    }

    /// A digest the library really offers, with its length checked against the catalog's.
    fn digest_algorithm(&self, alg: &AlgorithmSpec) -> Result<c_int, BackendError> {
        let algo = digest_of(alg)?;
        // SAFETY: plain query; 0 for an algorithm this build does not know.
        let len = unsafe { (self.api.gnutls_hash_get_len)(algo) } as usize;
        if len != alg.digest_len {
            return Err(unsupported(format!("{} (not in GnuTLS {})", alg.id, self.version)));
        }
        Ok(algo)
    }

    /// A MAC the library really offers, with its tag length checked against the catalog's.
    fn mac_algorithm(&self, alg: &AlgorithmSpec) -> Result<c_int, BackendError> {
        let algo = mac_of(alg)?;
        // SAFETY: plain query; 0 for an algorithm this build does not know.
        if unsafe { (self.api.gnutls_hmac_get_len)(algo) } as usize != alg.digest_len {
            return Err(unsupported(format!("{} (not in GnuTLS {})", alg.id, self.version)));
        }
        Ok(algo)
    }

    /// The MAC `alg` names and checks `key` for it: GnuTLS aborts the process
    /// on a CMAC key of another length (lib/nettle/mac.c, `_wrap_cmac128_set_key`).
    fn mac_keyed(&self, alg: &AlgorithmSpec, key: &[u8]) -> Result<c_int, BackendError> {
        let algo = self.mac_algorithm(alg)?;
        if algo == GNUTLS_MAC_AES_CMAC_128 {
            crate::sessions::check_mac_key(alg, key)?;
        }
        Ok(algo)
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded("gnutls", "GnuTLS", "apt-get install libgnutls30", |path| {
    Ok(Box::new(GnutlsBackend::open(path)?))
})
.with_cpu(Some(capabilities::view), Some(capabilities::mask))
.with_defects(defects::KNOWN_DEFECTS);

impl Library for GnutlsBackend {
    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }

    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        if let Ok(v) = std::env::var(CPUID_OVERRIDE_ENV) {
            details.insert(CPUID_OVERRIDE_ENV.to_string(), v);
        }
        let view = if self.detected.is_empty() {
            "no accelerator detected".to_string()
        } else {
            self.detected.join("; ")
        };
        ENTRY.info(
            format!("GnuTLS {}", self.version),
            Some(self.path.clone()),
            Some(format!("gnutls: {view}")),
            details,
        )
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let algo = cipher_of(alg)?;
        let aead = alg.class == AlgorithmClass::Aead;
        task.with(|encrypt| Cipher::new(&self.api, algo, aead, key, iv, encrypt))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(Hash::new(&self.api, self.digest_algorithm(alg)?)?)
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(Mac::new(&self.api, self.mac_keyed(alg, key)?, key)?)
    }

    /// GnuTLS's GCM (its own x86 code and Nettle's) and ChaCha20-Poly1305
    /// (Nettle's) continue a stream only after whole blocks, as Nettle does.
    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        if cell.mode != Mode::Stream {
            return None;
        }
        let unit = match alg.class {
            AlgorithmClass::Aead if alg.id == "chacha20-poly1305" => 64,
            AlgorithmClass::Aead => 16,
            AlgorithmClass::Cipher if alg.id == "chacha20" => 64,
            _ => 1,
        };
        (!cell.size.is_multiple_of(unit)).then(|| {
            format!(
                "{} in stream mode with {}-byte updates (GnuTLS continues this stream only after whole {unit}-byte blocks)",
                alg.id, cell.size
            )
        })
    }

    /// `gnutls_hmac_fast`: the one-shot call, apart from the timed handle.
    fn one_shot_mac(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let algo = self.mac_keyed(alg, key)?;
        let mut out = vec![0u8; alg.digest_len];
        // SAFETY: out has the tag length (checked by `mac_algorithm`); key and message are read only.
        let rc = unsafe {
            (self.api.gnutls_hmac_fast)(
                algo,
                key.as_ptr().cast(),
                key.len(),
                message.as_ptr().cast(),
                message.len(),
                out.as_mut_ptr().cast(),
            )
        };
        sessions::check(&self.api, rc, "gnutls_hmac_fast")?;
        Ok(out)
    }
}

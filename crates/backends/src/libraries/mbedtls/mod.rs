//! Mbed TLS 2.28 (`libmbedcrypto.so.7`), loaded at run time, through its
//! module APIs (aes.h, gcm.h, chachapoly.h, des.h; what Mbed TLS's own
//! programs/test/benchmark.c times) and the generic digest layer (md.h):
//! AES ECB/CBC/CFB128/CTR/XTS/GCM, ChaCha20-Poly1305, 3DES-CBC, Camellia-CBC, MD5, SHA-1
//! and SHA-2; HMAC, AES-CMAC and Poly1305 ([`mac`]). Mbed TLS 2.28 has no
//! SHA-3, no BLAKE2 and no GHASH outside GCM. Its CPU view is
//! `mbedtls_aesni_has_support` (aesni.h); it has no switch to mask it.
//! Public key: RSA, ECDSA, ECDH and X25519 ([`pk`]).

mod api;
mod defects;
mod mac;
mod pk;
mod pk_api;
mod pk_contexts;
mod pk_sessions;
mod sessions;

use std::collections::BTreeMap;
use std::ffi::{c_char, c_int};

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};

use self::api::*;
use self::mac::{Mac, MacKind};
use self::sessions::{Cipher, Hash};
use crate::error::{BackendError, OpenError};
use crate::libraries::block_mode::BlockMode;
use crate::library::{CipherTask, DigestTask, Library};
use crate::native;
use crate::registry::Entry;
use crate::sessions::unsupported;

const DEFAULT_LIBRARIES: &[&str] = native::per_platform(
    &["libmbedcrypto.7.dylib", "libmbedcrypto.dylib"],
    &["mbedcrypto.dll"],
    &["libmbedcrypto.so.7", "libmbedcrypto.so"],
);

pub struct MbedtlsBackend {
    api: Api,
    /// The public-key table (pk_api.rs), or the first symbol this Mbed TLS lacks.
    pk: Result<pk_api::PkApi, &'static str>,
    path: String,
    version: String,
    _library: libloading::Library,
}

/// The block mode of a catalog cipher, where Mbed TLS has it and cryptobench maps it.
fn kind_of(alg: &AlgorithmSpec) -> Result<BlockMode, BackendError> {
    match alg.id {
        id @ ("aes-128-ccm" | "aes-256-ccm" | "chacha20") => Err(crate::sessions::not_mapped(id, "Mbed TLS")),
        "aria-128-cbc" => Err(unsupported(
            "aria-128-cbc (Mbed TLS has ARIA from 2.10, aria.h, but cryptobench does not map it yet)",
        )),
        _ => BlockMode::of(alg).ok_or_else(|| unsupported(format!("{} (not in Mbed TLS 2.28)", alg.id))),
    }
}

fn md_of(alg: &AlgorithmSpec) -> Result<c_int, BackendError> {
    Ok(match alg.id {
        "md5" => MBEDTLS_MD_MD5,
        "sha1" => MBEDTLS_MD_SHA1,
        "sha224" => MBEDTLS_MD_SHA224,
        "sha256" => MBEDTLS_MD_SHA256,
        "sha384" => MBEDTLS_MD_SHA384,
        "sha512" => MBEDTLS_MD_SHA512,
        id => {
            return Err(unsupported(format!(
                "{id} (not in Mbed TLS 2.28: SHA-3 arrived in 3.5, BLAKE2 never)"
            )))
        }
    })
}

impl MbedtlsBackend {
    pub fn open(path: Option<&str>) -> Result<MbedtlsBackend, OpenError> {
        let loaded = native::load(path, DEFAULT_LIBRARIES, "Mbed TLS (libmbedcrypto)", "mbedtls")?;
        // SAFETY: looked up by the documented name and type (version.h).
        let (probe, path) =
            unsafe { loaded.probe::<unsafe extern "C" fn() -> std::ffi::c_uint>("mbedtls_version_get_number", "Mbed TLS libmbedcrypto") }?;
        // SAFETY: 0xMMNNPP00 (version.h).
        let number = unsafe { probe() };
        let version = format!("{}.{}.{}", number >> 24, (number >> 16) & 0xff, (number >> 8) & 0xff);
        if number >> 24 != 2 {
            // 3.x changed mbedtls_gcm_starts/update and removed the *_ret digests.
            return Err(OpenError::UnsupportedVersion {
                path,
                library: "Mbed TLS",
                version,
                supported: "Mbed TLS 2.x (libmbedcrypto.so.7 and earlier)",
            });
        }
        // SAFETY: the library is Mbed TLS 2.x; kept alive beside the table.
        let api = unsafe { Api::load(&loaded.library) }.map_err(native::missing_symbol(&path, "Mbed TLS", &version))?;
        let mut full = [0 as c_char; 32];
        // SAFETY: version.h: the buffer must hold at least 9 bytes.
        unsafe { (api.mbedtls_version_get_string)(full.as_mut_ptr()) };
        // SAFETY: the same library as `api`, kept alive beside the table.
        let pk = unsafe { pk_api::PkApi::load(&loaded.library) };
        Ok(MbedtlsBackend {
            version: native::text(full.as_ptr()).unwrap_or(version),
            api,
            pk,
            path,
            _library: loaded.library,
        })
    }

    fn aesni(&self, what: std::ffi::c_uint) -> Option<bool> {
        // SAFETY: documented query, cached by the library.
        self.api.mbedtls_aesni_has_support.map(|f| unsafe { f(what) } != 0)
    }

    fn md_info(&self, alg: &AlgorithmSpec) -> Result<MdInfo, BackendError> {
        // SAFETY: plain lookup; NULL when the digest is not built in.
        let info = unsafe { (self.api.mbedtls_md_info_from_type)(md_of(alg)?) };
        if info.is_null() || usize::from(unsafe { (self.api.mbedtls_md_get_size)(info) }) != alg.digest_len {
            return Err(unsupported(format!("{} (not built into this Mbed TLS {})", alg.id, self.version)));
        }
        Ok(info)
    }

    /// The calls of a catalog MAC, with the key length checked where the MAC has one.
    fn mac_kind(&self, alg: &AlgorithmSpec, key: &[u8]) -> Result<MacKind, BackendError> {
        let hmac = |digest: c_int| {
            // SAFETY: plain lookup; NULL when the digest is not built in.
            let info = unsafe { (self.api.mbedtls_md_info_from_type)(digest) };
            if info.is_null() {
                return Err(unsupported(format!("{} (not built into this Mbed TLS {})", alg.id, self.version)));
            }
            Ok(MacKind::Hmac(info))
        };
        let kind = match alg.id {
            "hmac-md5" => return hmac(MBEDTLS_MD_MD5),
            "hmac-sha1" => return hmac(MBEDTLS_MD_SHA1),
            "hmac-sha256" => return hmac(MBEDTLS_MD_SHA256),
            "hmac-sha512" => return hmac(MBEDTLS_MD_SHA512),
            "aes-128-cmac" => {
                let info = match self.api.mbedtls_cipher_info_from_type {
                    // SAFETY: plain lookup; NULL when AES is not built in.
                    Some(f) => unsafe { f(MBEDTLS_CIPHER_AES_128_ECB) },
                    None => std::ptr::null(),
                };
                if info.is_null() || self.api.mbedtls_cipher_cmac_starts.is_none() {
                    return Err(unsupported(format!("{} (MBEDTLS_CMAC_C is not built into this Mbed TLS)", alg.id)));
                }
                MacKind::Cmac(info)
            }
            "poly1305" if self.api.mbedtls_poly1305_starts.is_some() => MacKind::Poly1305,
            "poly1305" => return Err(unsupported("poly1305 (MBEDTLS_POLY1305_C is not built into this Mbed TLS)")),
            id => return Err(unsupported(format!("{id} (not in Mbed TLS 2.28: its GHASH is internal to GCM)"))),
        };
        crate::sessions::check_mac_key(alg, key)?;
        Ok(kind)
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded("mbedtls", "Mbed TLS", "apt-get install libmbedcrypto7", |path| {
    Ok(Box::new(MbedtlsBackend::open(path)?))
})
.with_defects(defects::KNOWN_DEFECTS);

impl Library for MbedtlsBackend {
    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }

    fn info(&self) -> BackendInfo {
        let flag = |b: Option<bool>| b.map(|b| u8::from(b).to_string()).unwrap_or_else(|| "n/a".into());
        ENTRY.info(
            format!("Mbed TLS {}", self.version),
            Some(self.path.clone()),
            Some(format!(
                "mbedtls_aesni_has_support: aes={} clmul={}",
                flag(self.aesni(MBEDTLS_AESNI_AES)),
                flag(self.aesni(MBEDTLS_AESNI_CLMUL))
            )),
            BTreeMap::new(),
        )
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let kind = kind_of(alg)?;
        task.with(|encrypt| Cipher::new(&self.api, kind, key, iv, encrypt))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(Hash::new(&self.api, self.md_info(alg)?)?)
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(Mac::new(&self.api, self.mac_kind(alg, key)?, key)?)
    }

    /// Mbed TLS's one-shot MAC calls (`mbedtls_md_hmac`, `mbedtls_cipher_cmac`,
    /// `mbedtls_poly1305_mac`), apart from the timed context.
    fn one_shot_mac(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let mut out = vec![0u8; alg.digest_len];
        mac::mac_once(&self.api, self.mac_kind(alg, key)?, key, message, &mut out)?;
        Ok(out)
    }

    /// CMAC streams (no copy of a CMAC context), in-place XTS of partial
    /// blocks, and GCM streams (in-place decryption, partial blocks).
    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        let stream = cell.mode == Mode::Stream;
        if alg.class == AlgorithmClass::Mac {
            let cmac = matches!(self.mac_kind(alg, &crate::backend::inputs_for(alg, 1).key), Ok(kind) if !kind.streams());
            return (stream && cmac).then(|| {
                format!(
                    "{} in stream mode (Mbed TLS cannot copy a CMAC context, so a stream's tag cannot be read without ending it)",
                    alg.id
                )
            });
        }
        if !matches!(alg.class, AlgorithmClass::Cipher | AlgorithmClass::Aead) {
            return None;
        }
        let kind = kind_of(alg).ok()?;
        let in_place = stream || cell.operation == Operation::Encrypt;
        if kind == BlockMode::Xts && in_place && !cell.size.is_multiple_of(16) {
            return Some(format!(
                "{} in place on {} bytes (Mbed TLS's mbedtls_aes_crypt_xts steals ciphertext wrongly in place; whole 16-byte blocks only)",
                alg.id, cell.size
            ));
        }
        if !stream || kind != BlockMode::Gcm {
            return None;
        }
        if cell.operation == Operation::Decrypt {
            return Some(format!(
                "{} stream decryption in place (gcm.h: mbedtls_gcm_update's output cannot be its input when decrypting)",
                alg.id
            ));
        }
        (!cell.size.is_multiple_of(16)).then(|| {
            format!(
                "{} in stream mode with {}-byte updates (gcm.h: all but the last mbedtls_gcm_update take multiples of 16 bytes)",
                alg.id, cell.size
            )
        })
    }

    /// The code path Mbed TLS takes for an AES algorithm, as it says (aes.c: AES-NI when supported; gcm.c: PCLMULQDQ).
    fn implementation(&self, alg: &AlgorithmSpec) -> Option<String> {
        if !matches!(alg.class, AlgorithmClass::Cipher | AlgorithmClass::Aead) {
            return None;
        }
        let word = |b: bool| if b { "aes-ni" } else { "soft" };
        let aes = self.aesni(MBEDTLS_AESNI_AES)?;
        if alg.id.ends_with("-gcm") {
            let clmul = self.aesni(MBEDTLS_AESNI_CLMUL)?;
            return Some(format!("aes: {}, ghash: {}", word(aes), if clmul { "pclmulqdq" } else { "soft" }));
        }
        alg.id.starts_with("aes-").then(|| word(aes).to_string())
    }
}

//! wolfSSL's wolfCrypt (`libwolfssl.so.35`), loaded at run time, through
//! its native `wc_*` API (wolfssl/wolfcrypt/*.h; wolfSSL manual, "wolfCrypt
//! API Reference"): AES ECB/CBC/CFB/CTR/XTS/GCM, ChaCha20-Poly1305,
//! 3DES-CBC, Camellia-CBC, MD5, SHA-1, SHA-2, SHA3 and BLAKE2, HMAC, AES-CMAC and
//! Poly1305 ([`mac`]), as far as the build has them (each is looked up; a
//! missing one is `n/a`). wolfSSL 5.5 exports no
//! call that reads its CPU flags (`cpuid_get_flags` is internal; the
//! exported `cpuid_select_flags`/`cpuid_set_flag`/`cpuid_clear_flag` only
//! write them) and does not read `OPENSSL_ia32cap`, so it reports no CPU
//! view and offers no mask.

mod api;
mod mac;
mod sessions;

use std::collections::BTreeMap;
use std::ffi::c_int;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmSpec, CellSpec, Mode, Operation};

use self::api::*;
use self::mac::{Mac, MacKind};
use self::sessions::{Blake2Fns, Cipher, Hash, Kind};
use crate::error::{BackendError, OpenError};
use crate::native;
use crate::sessions::{digest_once, open_once, prepare_cipher, prepare_digest, seal_once, unsupported};
use crate::backend::{check_key_and_iv, Backend, CellInputs, Primitive, Sealed, Support};

#[cfg(target_os = "macos")]
const DEFAULT_LIBRARIES: &[&str] = &["libwolfssl.35.dylib", "libwolfssl.dylib"];
#[cfg(windows)]
const DEFAULT_LIBRARIES: &[&str] = &["wolfssl.dll"];
#[cfg(not(any(target_os = "macos", windows)))]
const DEFAULT_LIBRARIES: &[&str] = &["libwolfssl.so.35", "libwolfssl.so.42", "libwolfssl.so"];

pub struct WolfsslBackend {
    api: Api,
    path: String,
    version: String,
    _library: libloading::Library,
}

fn kind_of(alg: &AlgorithmSpec) -> Result<Kind, BackendError> {
    match alg.id {
        "chacha20-poly1305" => return Ok(Kind::ChaPoly),
        "des-ede3-cbc" => return Ok(Kind::Des3),
        "camellia-128-cbc" | "camellia-192-cbc" | "camellia-256-cbc" => return Ok(Kind::CamelliaCbc),
        id @ ("aes-128-ccm" | "aes-256-ccm" | "aes-128-siv" | "xchacha20-poly1305" | "chacha20") => {
            return Err(crate::sessions::not_mapped(id, "wolfCrypt"))
        }
        _ => {}
    }
    let Some((_, mode)) = alg.id.strip_prefix("aes-").and_then(|r| r.split_once('-')) else {
        return Err(unsupported(format!("{} (not in wolfCrypt)", alg.id)));
    };
    Ok(match mode {
        "ecb" => Kind::Ecb,
        "cbc" => Kind::Cbc,
        "cfb128" => Kind::Cfb,
        "ctr" => Kind::Ctr,
        "xts" => Kind::Xts,
        "gcm" => Kind::Gcm,
        _ => return Err(unsupported(format!("{} (not in wolfCrypt)", alg.id))),
    })
}

impl WolfsslBackend {
    pub fn open(path: Option<&str>) -> Result<WolfsslBackend, OpenError> {
        let loaded = native::load(path, DEFAULT_LIBRARIES, "wolfSSL", "wolfssl")?;
        // SAFETY: `const char* wolfSSL_lib_version(void)` (ssl.h), a static string.
        let probe = unsafe {
            loaded
                .library
                .get::<unsafe extern "C" fn() -> *const std::ffi::c_char>(b"wolfSSL_lib_version\0")
        }
        .map_err(|_| OpenError::NotThatLibrary {
            path: loaded.tried.clone(),
            expected: "wolfSSL",
            symbol: "wolfSSL_lib_version",
        })?;
        let path = native::file_of(*probe as *const std::ffi::c_void, &loaded.tried);
        // SAFETY: as above.
        let version = native::text(unsafe { probe() }).unwrap_or_default();
        // SAFETY: the library is wolfSSL; kept alive beside the table.
        let api = unsafe { Api::load(&loaded.library) }.map_err(|symbol| OpenError::MissingSymbol {
            path: path.clone(),
            symbol,
            library: "wolfSSL",
            version: version.clone(),
        })?;
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
            path,
            version,
            _library: loaded.library,
        })
    }

    fn keyed(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], encrypt: bool) -> Result<Cipher<'_>, BackendError> {
        check_key_and_iv(alg, key, iv)?;
        Cipher::new(&self.api, kind_of(alg)?, key, iv, encrypt)
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
    fn mac(&self, alg: &AlgorithmSpec, key: &[u8]) -> Result<MacKind, BackendError> {
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

impl Backend for WolfsslBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert(
            "cpu".to_string(),
            "wolfSSL exports no call that reads its CPU flags (cpuid_get_flags is internal) and ignores OPENSSL_ia32cap".to_string(),
        );
        BackendInfo {
            id: "wolfssl".into(),
            name: "wolfSSL".into(),
            version: format!("wolfSSL {}", self.version),
            library_path: Some(self.path.clone()),
            cpu_capabilities: None,
            details,
        }
    }

    fn support(&self, alg: &AlgorithmSpec) -> Support {
        Support::from(if alg.is_mac() {
            let key = crate::checks::verify::inputs_for(alg, 1).key;
            self.mac(alg, &key).and_then(|kind| Mac::new(&self.api, kind, &key).map(drop))
        } else if alg.is_digest() {
            self.hash(alg).map(drop)
        } else {
            kind_of(alg).and_then(|_| {
                let inputs = crate::checks::verify::inputs_for(alg, 1);
                self.keyed(alg, &inputs.key, &inputs.iv, true).map(drop)
            })
        })
    }

    fn encrypt_once(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Sealed, BackendError> {
        if let Some(problem) = alg.size_problem(plaintext.len()) {
            return Err(BackendError::Invalid(problem));
        }
        seal_once(self.keyed(alg, key, iv, true)?, alg, iv, aad, plaintext)
    }

    fn decrypt_once(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
    ) -> Result<Vec<u8>, BackendError> {
        open_once(self.keyed(alg, key, iv, false)?, alg, iv, aad, ciphertext, tag)
    }

    fn digest_once(&self, alg: &AlgorithmSpec, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        digest_once(self.hash(alg)?, message)
    }

    /// CMAC through `wc_AesCmacGenerate`; HMAC and Poly1305 through a fresh object.
    fn mac_once(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        match self.mac(alg, key)? {
            MacKind::Cmac => mac::cmac_once(&self.api, key, message),
            kind => {
                let mut out = vec![0u8; alg.digest_len];
                crate::sessions::DigestSession::digest(&mut Mac::new(&self.api, kind, key)?, message, &mut out)?;
                Ok(out)
            }
        }
    }

    fn prepare(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        crate::backend::check_mode(alg, cell)?;
        if alg.is_digest() {
            return Ok(prepare_digest(cell, alg, self.hash(alg)?, None));
        }
        if alg.is_mac() {
            let kind = self.mac(alg, &inputs.key)?;
            return Ok(prepare_digest(cell, alg, Mac::new(&self.api, kind, &inputs.key)?, None));
        }
        let kind = kind_of(alg)?;
        let in_place = cell.mode == Mode::Stream || cell.operation == Operation::Encrypt;
        if kind == Kind::Xts && in_place && !cell.size.is_multiple_of(16) {
            return Err(unsupported(format!(
                "{} in place on {} bytes (wolfSSL's wc_AesXtsEncrypt steals ciphertext wrongly in place; whole 16-byte blocks only)",
                alg.id, cell.size
            )));
        }
        if cell.mode == Mode::Stream {
            let streaming = match kind {
                Kind::Gcm => self.api.wc_AesGcmEncryptUpdate.is_some(),
                Kind::ChaPoly => self.api.wc_ChaCha20Poly1305_UpdateData.is_some(),
                _ => true,
            };
            if !streaming {
                return Err(unsupported(format!(
                    "{} in stream mode (this wolfSSL was built without its streaming AEAD calls)",
                    alg.id
                )));
            }
        }
        prepare_cipher(
            cell,
            alg,
            inputs,
            message,
            |encrypt| self.keyed(alg, &inputs.key, &inputs.iv, encrypt),
            None,
        )
    }
}

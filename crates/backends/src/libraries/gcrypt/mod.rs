//! libgcrypt (`libgcrypt.so.20`), loaded at run time, through
//! `gcry_cipher_*` and `gcry_md_*` (libgcrypt manual, "Symmetric
//! cryptography", "Hashing"). Initialised as the manual's "Initializing the
//! library" says: `gcry_check_version` first, secure memory off,
//! `GCRYCTL_INITIALIZATION_FINISHED`. Hardware features named in
//! `CRYPTOBENCH_GCRYPT_DISABLE_HWF` (comma separated, e.g.
//! `intel-aesni,intel-pclmul`) are disabled with `GCRYCTL_DISABLE_HWF`
//! before initialisation, the only point where libgcrypt accepts it.

mod aead;
mod api;
pub mod capabilities;
mod defects;
mod handles;
mod mac;
mod pk;
mod pk_api;
mod pk_sessions;
mod pk_sexp;
mod sessions;

use std::collections::BTreeMap;
use std::ffi::{c_int, CString};

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode};

use self::api::*;
use self::capabilities::DISABLE_HWF_ENV;
use self::handles::MdHd;
use self::mac::MacSession;
use self::sessions::{GcryptCipher, HashSession, XofSession};
use crate::backend::{catalog_lengths_only, check_key_and_iv, AeadCall};
use crate::error::{BackendError, OpenError};
use crate::library::{CipherTask, DigestTask, Library};
use crate::native;
use crate::registry::Entry;

const DEFAULT_LIBRARIES: &[&str] = native::per_platform(
    &["libgcrypt.20.dylib", "libgcrypt.dylib"],
    &["libgcrypt-20.dll"],
    &["libgcrypt.so.20", "libgcrypt.so"],
);

pub struct GcryptBackend {
    api: Api,
    path: String,
    version: String,
    config: Option<String>,
    /// The gcry_pk_* functions (pk_api.rs), or the first one this libgcrypt lacks.
    pk_api: Result<pk_api::PkApi, &'static str>,
    _library: libloading::Library,
}

/// (algorithm, mode) of a catalog cipher.
fn cipher_of(alg: &AlgorithmSpec) -> Option<(c_int, c_int)> {
    if alg.id == "chacha20-poly1305" {
        return Some((GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_POLY1305));
    }
    match alg.id {
        "des-ede3-cbc" => return Some((GCRY_CIPHER_3DES, GCRY_CIPHER_MODE_CBC)),
        // A 16-byte IV is the 32-bit block counter and the 96-bit nonce (cipher/chacha20.c).
        "chacha20" => return Some((GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_STREAM)),
        "camellia-128-cbc" => return Some((GCRY_CIPHER_CAMELLIA128, GCRY_CIPHER_MODE_CBC)),
        "camellia-192-cbc" => return Some((GCRY_CIPHER_CAMELLIA192, GCRY_CIPHER_MODE_CBC)),
        "camellia-256-cbc" => return Some((GCRY_CIPHER_CAMELLIA256, GCRY_CIPHER_MODE_CBC)),
        "sm4-cbc" => return Some((GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CBC)),
        _ => {}
    }
    let rest = alg.id.strip_prefix("aes-")?;
    let (bits, mode) = rest.split_once('-')?;
    let algo = match (bits, mode) {
        ("128", _) => GCRY_CIPHER_AES128,
        ("192", _) => GCRY_CIPHER_AES192,
        ("256", _) => GCRY_CIPHER_AES256,
        _ => return None,
    };
    let mode = match mode {
        "ecb" => GCRY_CIPHER_MODE_ECB,
        "cbc" => GCRY_CIPHER_MODE_CBC,
        "cfb128" => GCRY_CIPHER_MODE_CFB,
        "ctr" => GCRY_CIPHER_MODE_CTR,
        "gcm" => GCRY_CIPHER_MODE_GCM,
        "xts" => GCRY_CIPHER_MODE_XTS,
        "ccm" => GCRY_CIPHER_MODE_CCM,
        "ocb" => GCRY_CIPHER_MODE_OCB,
        // SIV keys are two AES keys: aes-128-siv opens AES-128 with a 32-byte key.
        "siv" => GCRY_CIPHER_MODE_SIV,
        "gcm-siv" => GCRY_CIPHER_MODE_GCM_SIV,
        _ => return None,
    };
    Some((algo, mode))
}

fn md_of(alg: &AlgorithmSpec) -> Option<c_int> {
    Some(match alg.id {
        "md5" => GCRY_MD_MD5,
        "sha1" => GCRY_MD_SHA1,
        "sha224" => GCRY_MD_SHA224,
        "sha256" => GCRY_MD_SHA256,
        "sha384" => GCRY_MD_SHA384,
        "sha512" => GCRY_MD_SHA512,
        "sha3-256" => GCRY_MD_SHA3_256,
        "sha3-512" => GCRY_MD_SHA3_512,
        "blake2b512" => GCRY_MD_BLAKE2B_512,
        "blake2s256" => GCRY_MD_BLAKE2S_256,
        "sha3-224" => GCRY_MD_SHA3_224,
        "sha3-384" => GCRY_MD_SHA3_384,
        "shake128" => GCRY_MD_SHAKE128,
        "shake256" => GCRY_MD_SHAKE256,
        "sm3" => GCRY_MD_SM3,
        _ => return None,
    })
}

/// What `GCRYCTL_PRINT_CONFIG` prints (version, cpu-arch, hwflist, …), read through a memory stream.
#[cfg(target_os = "linux")]
fn print_config(control: ControlFn) -> Option<String> {
    let mut ptr: *mut std::ffi::c_char = std::ptr::null_mut();
    let mut size: libc::size_t = 0;
    // SAFETY: open_memstream allocates `ptr`, valid after fclose; freed below.
    unsafe {
        let fp = libc::open_memstream(&mut ptr, &mut size);
        if fp.is_null() {
            return None;
        }
        control(GCRYCTL_PRINT_CONFIG, fp);
        libc::fclose(fp);
        let text = native::text(ptr);
        libc::free(ptr.cast());
        text
    }
}

#[cfg(not(target_os = "linux"))]
fn print_config(_control: ControlFn) -> Option<String> {
    None
}

impl GcryptBackend {
    pub fn open(path: Option<&str>) -> Result<GcryptBackend, OpenError> {
        let loaded = native::load(path, DEFAULT_LIBRARIES, "libgcrypt", "gcrypt")?;
        // SAFETY: looked up by the documented names; the types are those of gcrypt.h.
        let control: ControlFn = *unsafe { loaded.library.get::<ControlFn>(b"gcry_control\0") }.map_err(|_| OpenError::NotThatLibrary {
            path: loaded.tried.clone(),
            expected: "libgcrypt",
            symbol: "gcry_control",
        })?;
        let api = unsafe { Api::load(&loaded.library) }.map_err(|symbol| OpenError::MissingSymbol {
            path: loaded.tried.clone(),
            symbol,
            library: "libgcrypt",
            version: "(not initialised)".into(),
        })?;
        let path = native::file_of(api.gcry_check_version as *const std::ffi::c_void, &loaded.tried);
        if let Ok(list) = std::env::var(DISABLE_HWF_ENV) {
            for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let c = CString::new(name).map_err(|_| OpenError::Load {
                    path: path.clone(),
                    reason: format!("{DISABLE_HWF_ENV} holds a name with a NUL byte"),
                })?;
                // SAFETY: documented pre-initialisation command taking a feature name and NULL.
                unsafe { control(GCRYCTL_DISABLE_HWF, c.as_ptr(), std::ptr::null::<std::ffi::c_void>()) };
            }
        }
        // SAFETY: NULL asks for no minimum and returns the version; this initialises the library.
        let version = native::text(unsafe { (api.gcry_check_version)(std::ptr::null()) }).ok_or_else(|| OpenError::Load {
            path: path.clone(),
            reason: "gcry_check_version(NULL) returned NULL".into(),
        })?;
        // SAFETY: documented initialisation commands with an int argument.
        unsafe {
            control(GCRYCTL_DISABLE_SECMEM, 0 as c_int);
            control(GCRYCTL_INITIALIZATION_FINISHED, 0 as c_int);
        }
        // SAFETY: the library is libgcrypt (checked above); kept alive beside the table.
        let pk_api = unsafe { pk_api::PkApi::load(&loaded.library) };
        Ok(GcryptBackend {
            pk_api,
            config: print_config(control),
            api,
            path,
            version,
            _library: loaded.library,
        })
    }

    fn mac_algo(&self, alg: &AlgorithmSpec) -> Result<c_int, BackendError> {
        let algo = mac::mac_of(alg.id).ok_or_else(|| BackendError::Unsupported(format!("{} (no libgcrypt MAC mapped)", alg.id)))?;
        let info = self
            .api
            .gcry_mac_algo_info
            .ok_or_else(|| BackendError::Unsupported(format!("{} (libgcrypt {} has no gcry_mac_*)", alg.id, self.version)))?;
        // SAFETY: as the gcry_mac_test_algo macro.
        if unsafe { info(algo, GCRYCTL_TEST_ALGO, std::ptr::null_mut(), std::ptr::null_mut()) } != 0 {
            return Err(BackendError::Unsupported(format!(
                "{} (not in this libgcrypt {})",
                alg.id, self.version
            )));
        }
        Ok(algo)
    }

    fn hwflist(&self) -> Option<String> {
        let line = self.config.as_deref()?.lines().find(|l| l.starts_with("hwflist:"))?;
        Some(line.trim_end_matches(':').to_string())
    }

    fn cipher_algo(&self, alg: &AlgorithmSpec) -> Result<(c_int, c_int), BackendError> {
        let (algo, mode) = cipher_of(alg).ok_or_else(|| BackendError::Unsupported(format!("{} (no libgcrypt cipher mapped)", alg.id)))?;
        // SAFETY: GCRYCTL_TEST_ALGO with NULL buffer and size, as the gcry_cipher_test_algo macro.
        if unsafe { (self.api.gcry_cipher_algo_info)(algo, GCRYCTL_TEST_ALGO, std::ptr::null_mut(), std::ptr::null_mut()) } != 0 {
            return Err(BackendError::Unsupported(format!(
                "{} (disabled in this libgcrypt {})",
                alg.id, self.version
            )));
        }
        Ok((algo, mode))
    }

    fn md_algo(&self, alg: &AlgorithmSpec) -> Result<(c_int, usize), BackendError> {
        let algo = md_of(alg).ok_or_else(|| BackendError::Unsupported(format!("{} (no libgcrypt digest mapped)", alg.id)))?;
        // SAFETY: as gcry_md_test_algo.
        if unsafe { (self.api.gcry_md_algo_info)(algo, GCRYCTL_TEST_ALGO, std::ptr::null_mut(), std::ptr::null_mut()) } != 0 {
            return Err(BackendError::Unsupported(format!(
                "{} (not in this libgcrypt {})",
                alg.id, self.version
            )));
        }
        if alg.xof {
            return Ok((algo, alg.digest_len));
        }
        // SAFETY: plain query.
        Ok((algo, unsafe { (self.api.gcry_md_get_algo_dlen)(algo) } as usize))
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded("gcrypt", "libgcrypt", "apt-get install libgcrypt20", |path| {
    Ok(Box::new(GcryptBackend::open(path)?))
})
.with_cpu(Some(capabilities::view), Some(capabilities::mask))
.with_defects(defects::KNOWN_DEFECTS);

impl Library for GcryptBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        if let Ok(list) = std::env::var(DISABLE_HWF_ENV) {
            details.insert("disabled_hwf".to_string(), list);
        }
        if let Some(config) = &self.config {
            for line in config.lines() {
                if let Some((k, v)) = line.split_once(':') {
                    if matches!(k, "cpu-arch" | "mpi-asm" | "rng-type" | "fips-mode") {
                        details.insert(k.to_string(), v.trim_end_matches(':').to_string());
                    }
                }
            }
        }
        ENTRY.info(
            format!("libgcrypt {}", self.version),
            Some(self.path.clone()),
            self.hwflist(),
            details,
        )
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let algo = self.cipher_algo(alg)?;
        let aead = alg.class == AlgorithmClass::Aead;
        task.with(|encrypt| GcryptCipher::keyed(&self.api, algo, aead, encrypt, key, iv))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        let api = &self.api;
        let (algo, len) = self.md_algo(alg)?;
        let hd = MdHd::open(api, algo)?;
        if !alg.xof {
            return task.with(HashSession { api, hd, algo, len });
        }
        let extract = api
            .gcry_md_extract
            .ok_or_else(|| BackendError::Unsupported(format!("{} (this libgcrypt has no gcry_md_extract)", alg.id)))?;
        task.with(XofSession {
            api,
            hd,
            algo,
            len,
            extract,
        })
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        task.with(MacSession::keyed(&self.api, self.mac_algo(alg)?, key)?)
    }

    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        (alg.is_mac() && cell.mode == Mode::Stream).then(|| {
            format!(
                "{} in stream mode (libgcrypt cannot copy a MAC handle, so a stream's tag cannot be read without ending it)",
                alg.id
            )
        })
    }

    /// GCM and ChaCha20-Poly1305 with the vector's IV and tag lengths (any
    /// IV, GCM tags of 16, 15, 14, 13, 12, 8 or 4 bytes): what libgcrypt
    /// refuses of those lengths is `Unsupported`, naming them.
    fn vector_message(&self, alg: &AlgorithmSpec, encrypt: bool, call: AeadCall, tag: &mut [u8]) -> Result<Vec<u8>, BackendError> {
        if alg.class != AlgorithmClass::Aead {
            return Err(catalog_lengths_only(alg));
        }
        check_key_and_iv(alg, call.key, &vec![0; alg.iv_len])?;
        let mut session = GcryptCipher::keyed(&self.api, self.cipher_algo(alg)?, true, encrypt, call.key, &[])?;
        let mut out = vec![0u8; call.data.len()];
        session
            .aead_apart(call.iv, call.aad, call.data, &mut out, tag)
            .map_err(|e| match e {
                BackendError::Call { detail, .. } => {
                    BackendError::Unsupported(format!("an IV or tag length libgcrypt {} refuses ({detail})", self.version))
                }
                other => other,
            })?;
        Ok(out)
    }

    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }
}

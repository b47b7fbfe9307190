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
mod extra;
mod handles;
mod pk;
mod primitives;

use std::collections::BTreeMap;
use std::ffi::{c_int, CString};

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};

use self::api::*;
use self::handles::{check, CipherHd, MdHd};
use self::primitives::{CipherMessage, CipherStream, DigestMessage, DigestStream};
use crate::error::{BackendError, OpenError};
use crate::native;
use crate::backend::{check_key_and_iv, one_shot_through_crypt_once, Backend, CellInputs, Primitive, Sealed, Support};

#[cfg(target_os = "macos")]
const DEFAULT_LIBRARIES: &[&str] = &["libgcrypt.20.dylib", "libgcrypt.dylib"];
#[cfg(windows)]
const DEFAULT_LIBRARIES: &[&str] = &["libgcrypt-20.dll"];
#[cfg(not(any(target_os = "macos", windows)))]
const DEFAULT_LIBRARIES: &[&str] = &["libgcrypt.so.20", "libgcrypt.so"];

/// The environment variable naming hardware features to disable (see the module docs).
pub const DISABLE_HWF_ENV: &str = "CRYPTOBENCH_GCRYPT_DISABLE_HWF";

pub struct GcryptBackend {
    api: Api,
    path: String,
    version: String,
    config: Option<String>,
    /// The gcry_pk_* functions (pk.rs), or the first one this libgcrypt lacks.
    pk_api: Result<pk::PkApi, &'static str>,
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

/// Sets the IV for a message: the counter block for CTR, nothing for ECB.
fn set_iv(api: &Api, hd: Hd, mode: c_int, iv: &[u8]) -> Result<(), BackendError> {
    // SAFETY: live handle; `iv` covers the length passed.
    unsafe {
        match mode {
            _ if iv.is_empty() => Ok(()),
            GCRY_CIPHER_MODE_ECB => Ok(()),
            GCRY_CIPHER_MODE_CTR => check(
                api,
                (api.gcry_cipher_setctr)(hd, iv.as_ptr().cast(), iv.len()),
                "gcry_cipher_setctr",
            ),
            _ => check(api, (api.gcry_cipher_setiv)(hd, iv.as_ptr().cast(), iv.len()), "gcry_cipher_setiv"),
        }
    }
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
        let pk_api = unsafe { pk::PkApi::load(&loaded.library) };
        Ok(GcryptBackend {
            pk_api,
            config: print_config(control),
            api,
            path,
            version,
            _library: loaded.library,
        })
    }

    fn mac(&self, alg: &AlgorithmSpec) -> Result<c_int, BackendError> {
        let algo = extra::mac_of(alg.id).ok_or_else(|| BackendError::Unsupported(format!("{} (no libgcrypt MAC mapped)", alg.id)))?;
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

    fn cipher(&self, alg: &AlgorithmSpec) -> Result<(c_int, c_int), BackendError> {
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

    fn md(&self, alg: &AlgorithmSpec) -> Result<(c_int, usize), BackendError> {
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

    /// A handle with the key set (and the IV, for the first message or the stream).
    fn keyed(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8]) -> Result<(CipherHd<'_>, c_int), BackendError> {
        let (algo, mode) = self.cipher(alg)?;
        let hd = CipherHd::open(&self.api, algo, mode)?;
        // SAFETY: live handle; key covers its length.
        check(
            &self.api,
            unsafe { (self.api.gcry_cipher_setkey)(hd.hd, key.as_ptr().cast(), key.len()) },
            "gcry_cipher_setkey",
        )?;
        set_iv(&self.api, hd.hd, mode, iv)?;
        Ok((hd, mode))
    }

    #[allow(clippy::too_many_arguments)] // the arguments of an AEAD call
    fn crypt_once(
        &self,
        alg: &AlgorithmSpec,
        encrypt: bool,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        input: &[u8],
        tag: &mut [u8],
    ) -> Result<Vec<u8>, BackendError> {
        check_key_and_iv(alg, key, iv)?;
        self.crypt(alg, encrypt, key, iv, aad, input, tag, false)
    }

    /// One whole message. With `vector_lengths` the IV and tag lengths are the caller's
    /// (test vectors): what libgcrypt refuses of them is `Unsupported`.
    #[allow(clippy::too_many_arguments)] // the arguments of an AEAD call
    fn crypt(
        &self,
        alg: &AlgorithmSpec,
        encrypt: bool,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        input: &[u8],
        tag: &mut [u8],
        vector_lengths: bool,
    ) -> Result<Vec<u8>, BackendError> {
        let api = &self.api;
        let refused = |what: &str, e: BackendError| match e {
            BackendError::Call { detail, .. } if vector_lengths => {
                BackendError::Unsupported(format!("{what} libgcrypt {} refuses ({detail})", self.version))
            }
            other => other,
        };
        let (algo, mode) = self.cipher(alg)?;
        let hd = CipherHd::open(api, algo, mode)?;
        // SAFETY: live handle; key covers its length.
        check(
            api,
            unsafe { (api.gcry_cipher_setkey)(hd.hd, key.as_ptr().cast(), key.len()) },
            "gcry_cipher_setkey",
        )?;
        let aead = alg.class == AlgorithmClass::Aead;
        let mut out = vec![0u8; input.len()];
        if aead {
            // SAFETY: keyed handle of `mode`; both buffers cover input.len() bytes.
            unsafe {
                aead::message(
                    api,
                    hd.hd,
                    mode,
                    encrypt,
                    iv,
                    aad,
                    input.as_ptr(),
                    out.as_mut_ptr(),
                    input.len(),
                    tag,
                )
            }
            .map_err(|e| refused("an IV or tag length", e))?;
            return Ok(out);
        }
        set_iv(api, hd.hd, mode, iv).map_err(|e| refused("an IV length", e))?;
        // SAFETY: live handle; out-of-place with equal lengths.
        unsafe {
            let f = if encrypt {
                api.gcry_cipher_encrypt
            } else {
                api.gcry_cipher_decrypt
            };
            check(
                api,
                f(hd.hd, out.as_mut_ptr().cast(), out.len(), input.as_ptr().cast(), input.len()),
                "gcry_cipher_encrypt/decrypt",
            )?;
        }
        Ok(out)
    }
}

impl Backend for GcryptBackend {
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
        BackendInfo {
            id: "gcrypt".into(),
            name: "libgcrypt".into(),
            version: format!("libgcrypt {}", self.version),
            library_path: Some(self.path.clone()),
            cpu_capabilities: self.hwflist(),
            details,
        }
    }

    fn support(&self, alg: &AlgorithmSpec) -> Support {
        let r = if alg.is_mac() {
            self.mac(alg).map(drop)
        } else if alg.is_digest() {
            self.md(alg).map(drop)
        } else {
            self.cipher(alg)
                .and_then(|(algo, mode)| CipherHd::open(&self.api, algo, mode).map(drop))
        };
        Support::from(r)
    }

    one_shot_through_crypt_once!();

    /// GCM and ChaCha20-Poly1305 with the vector's IV and tag lengths (libgcrypt's GCM takes
    /// IVs of any length and tags of 16, 15, 14, 13, 12, 8 or 4 bytes).
    fn seal_with(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        tag_len: usize,
    ) -> Result<Sealed, BackendError> {
        if alg.class != AlgorithmClass::Aead {
            return Err(crate::backend::catalog_lengths_only(alg, iv.len(), tag_len));
        }
        check_key_and_iv(alg, key, &vec![0; alg.iv_len])?;
        let mut tag = vec![0u8; tag_len];
        let ciphertext = self.crypt(alg, true, key, iv, aad, plaintext, &mut tag, true)?;
        Ok(Sealed { ciphertext, tag })
    }

    fn open_with(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
    ) -> Result<Vec<u8>, BackendError> {
        if alg.class != AlgorithmClass::Aead {
            return Err(crate::backend::catalog_lengths_only(alg, iv.len(), tag.len()));
        }
        check_key_and_iv(alg, key, &vec![0; alg.iv_len])?;
        self.crypt(alg, false, key, iv, aad, ciphertext, &mut tag.to_vec(), true)
    }

    fn digest_once(&self, alg: &AlgorithmSpec, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        // open/write/read on a handle: independent of the timed one-shot gcry_md_hash_buffer.
        let (algo, len) = self.md(alg)?;
        let hd = MdHd::open(&self.api, algo)?;
        // SAFETY: live handle.
        unsafe { (self.api.gcry_md_write)(hd.hd, message.as_ptr().cast(), message.len()) };
        if alg.xof {
            let mut out = vec![0u8; len];
            extra::extract(&self.api, &hd, algo, &mut out)?;
            return Ok(out);
        }
        hd.read(algo, len)
    }

    fn mac_once(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let mut mac = extra::MacHd::keyed(&self.api, self.mac(alg)?, key)?;
        mac.write(message)?;
        let mut out = [0u8; 64];
        let n = mac.read(&mut out)?;
        Ok(out[..n].to_vec())
    }

    fn prepare(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        let api = &self.api;
        crate::backend::check_mode(alg, cell)?;
        if alg.is_mac() {
            if cell.mode == Mode::Stream {
                return Err(BackendError::Unsupported(format!(
                    "{} in stream mode (libgcrypt cannot copy a MAC handle, so a stream's tag cannot be read without ending it)",
                    alg.id
                )));
            }
            return Ok(Box::new(extra::MacMessage {
                mac: extra::MacHd::keyed(api, self.mac(alg)?, &inputs.key)?,
                out: [0; 64],
                len: 0,
            }));
        }
        if alg.is_digest() && alg.xof {
            let (algo, len) = self.md(alg)?;
            let hd = MdHd::open(api, algo)?;
            return Ok(match cell.mode {
                Mode::Message => Box::new(extra::XofMessage {
                    api,
                    hd,
                    algo,
                    out: vec![0; len],
                }),
                Mode::Stream => Box::new(extra::XofStream { api, hd, algo, len }),
            });
        }
        if alg.is_digest() {
            let (algo, len) = self.md(alg)?;
            return Ok(match cell.mode {
                Mode::Message => Box::new(DigestMessage {
                    api,
                    algo,
                    out: vec![0; len],
                }),
                Mode::Stream => Box::new(DigestStream {
                    api,
                    hd: MdHd::open(api, algo)?,
                    algo,
                    len,
                }),
            });
        }
        check_key_and_iv(alg, &inputs.key, &inputs.iv)?;
        let encrypt = cell.operation == Operation::Encrypt;
        let (hd, mode) = self.keyed(alg, &inputs.key, &inputs.iv)?;
        Ok(match cell.mode {
            Mode::Stream => Box::new(CipherStream { api, hd, encrypt }),
            Mode::Message => {
                let sealed = if encrypt {
                    Sealed {
                        ciphertext: Vec::new(),
                        tag: vec![0; alg.tag_len],
                    }
                } else {
                    self.encrypt_once(alg, &inputs.key, &inputs.iv, &inputs.aad, message)?
                };
                Box::new(CipherMessage {
                    api,
                    hd,
                    mode,
                    encrypt,
                    rekey: cell.rekey,
                    aead: alg.class == AlgorithmClass::Aead,
                    key: inputs.key.clone(),
                    iv: inputs.iv.clone(),
                    aad: inputs.aad.clone(),
                    tag: sealed.tag,
                    ciphertext: sealed.ciphertext,
                })
            }
        })
    }

    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }
}

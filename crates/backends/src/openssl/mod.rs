//! OpenSSL's libcrypto (1.1.1, 3.x, 4.x, and LibreSSL where compatible)
//! through the EVP API, loaded at run time.

mod api;
mod handles;
mod pk;
mod pk_api;
mod primitives;

use std::collections::BTreeMap;
use std::ffi::{c_int, c_uint, CStr};

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};
use libloading::Library;

use self::api::{Api, EVP_CTRL_AEAD_GET_TAG, EVP_CTRL_AEAD_SET_TAG};
use self::handles::{call_failed, check, Cipher, Md, MdCtx};
use self::primitives::{keyed_context, CipherMessage, CipherStream, DigestMessage, DigestStream};
use crate::error::{BackendError, OpenError};
use crate::traits::{check_key_and_iv, one_shot_through_crypt_once, Backend, CellInputs, Primitive, Sealed, Support};

/// Tried in order when no path is given: the current ABI first.
#[cfg(target_os = "linux")]
const DEFAULT_LIBRARIES: &[&str] = &["libcrypto.so.3", "libcrypto.so.1.1", "libcrypto.so"];
#[cfg(target_os = "macos")]
const DEFAULT_LIBRARIES: &[&str] = &["libcrypto.3.dylib", "libcrypto.1.1.dylib", "libcrypto.dylib"];
#[cfg(windows)]
const DEFAULT_LIBRARIES: &[&str] = &["libcrypto-3-x64.dll", "libcrypto-3.dll", "libcrypto-1_1-x64.dll"];
#[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
const DEFAULT_LIBRARIES: &[&str] = &["libcrypto.so"];

/// `OPENSSL_VERSION_NUMBER` of 1.1.1 (0xMNNFFPPS): older releases lack the
/// EVP_CIPHER_CTX_new/EVP_MD_CTX_new API used here.
const MIN_VERSION_NUMBER: u64 = 0x1010_1000;

pub struct OpensslBackend {
    api: Api,
    /// The EVP_PKEY functions (pk_api.rs), or the first required one the library lacks.
    pk_api: Result<pk_api::PkApi, &'static str>,
    path: String,
    version: String,
    // Declared last: dropped after `api`, whose pointers point into it.
    _library: Library,
}

/// The EVP name of a catalog algorithm (the catalog follows OpenSSL's
/// spelling except for CFB, which OpenSSL calls "aes-128-cfb").
fn evp_name(alg: &AlgorithmSpec) -> String {
    alg.id
        .strip_suffix("cfb128")
        .map(|p| format!("{p}cfb"))
        .unwrap_or_else(|| alg.id.to_string())
}

fn text(ptr: *const std::ffi::c_char) -> Option<String> {
    // SAFETY: OpenSSL returns static NUL-terminated strings or NULL.
    (!ptr.is_null()).then(|| unsafe { CStr::from_ptr(ptr) }.to_string_lossy().into_owned())
}

impl OpensslBackend {
    /// Loads libcrypto from `path`, or the system's when None.
    pub fn open(path: Option<&str>) -> Result<OpensslBackend, OpenError> {
        let (library, tried) = match path {
            Some(p) => {
                // SAFETY: loading runs the library's initialisers; this is the point of the worker process.
                let lib = unsafe { Library::new(p) }.map_err(|e| OpenError::Load {
                    path: p.to_string(),
                    reason: e.to_string(),
                })?;
                (lib, p.to_string())
            }
            None => DEFAULT_LIBRARIES
                .iter()
                // SAFETY: as above.
                .find_map(|name| unsafe { Library::new(*name) }.ok().map(|l| (l, name.to_string())))
                .ok_or_else(|| OpenError::NotFound {
                    library: "OpenSSL libcrypto",
                    id: "openssl",
                    tried: DEFAULT_LIBRARIES.join(", "),
                })?,
        };
        // SAFETY: symbol of the documented type `unsigned long OpenSSL_version_num(void)`.
        let version_num =
            unsafe { library.get::<unsafe extern "C" fn() -> std::ffi::c_ulong>(b"OpenSSL_version_num\0") }.map_err(|_| {
                OpenError::NotThatLibrary {
                    path: tried.clone(),
                    expected: "libcrypto of OpenSSL 1.1.1 or later",
                    symbol: "OpenSSL_version_num",
                }
            })?;
        let loaded_from = crate::library_path::of_symbol(*version_num as *const std::ffi::c_void).unwrap_or(tried.clone());
        #[allow(clippy::useless_conversion)] // c_ulong is 32 bits on Windows
        let number = u64::from(unsafe { version_num() });
        // SAFETY: the library exports OpenSSL_version_num, so it is a libcrypto and the
        // signatures of api.rs apply; `library` is kept alive beside the table.
        let api = unsafe { Api::load(&library) };
        let version_text = |api: &Api| text(unsafe { (api.OpenSSL_version)(api::OPENSSL_VERSION) }).unwrap_or_default();
        if number < MIN_VERSION_NUMBER {
            let version = api.as_ref().map(version_text).unwrap_or_else(|_| format!("0x{number:x}"));
            return Err(OpenError::UnsupportedVersion {
                path: loaded_from,
                library: "OpenSSL",
                version,
                supported: "1.1.1, 3.x and 4.x",
            });
        }
        let api = api.map_err(|symbol| OpenError::MissingSymbol {
            path: loaded_from.clone(),
            symbol,
            library: "OpenSSL",
            version: format!("0x{number:x}"),
        })?;
        let version = version_text(&api);
        // SAFETY: as for `api`: a libcrypto, kept alive beside the table.
        let pk_api = unsafe { pk_api::PkApi::load(&library) };
        Ok(OpensslBackend {
            api,
            pk_api,
            path: loaded_from,
            version,
            _library: library,
        })
    }

    /// The library's own view of the CPU: `OPENSSL_ia32cap=0x…:0x…` (as
    /// `openssl version -a` prints after "CPUINFO:"), from OPENSSL_info (3.0+).
    /// 1.1.1 has no API that reads the vector: `OPENSSL_ia32cap_P` is hidden
    /// and `OPENSSL_ia32cap_loc` was removed in 1.1.0 (doc/man3/OPENSSL_ia32cap.pod).
    fn cpu_capabilities(&self) -> Option<String> {
        let info = self.api.OPENSSL_info?;
        // SAFETY: documented selector; returns a static string or NULL.
        text(unsafe { info(api::OPENSSL_INFO_CPU_SETTINGS) })
    }

    fn cipher(&self, alg: &AlgorithmSpec) -> Result<Cipher<'_>, BackendError> {
        Cipher::find(&self.api, &evp_name(alg))
            .ok_or_else(|| BackendError::Unsupported(format!("{} (not provided by {})", alg.id, self.version)))
    }

    fn md(&self, alg: &AlgorithmSpec) -> Result<Md<'_>, BackendError> {
        Md::find(&self.api, &evp_name(alg))
            .ok_or_else(|| BackendError::Unsupported(format!("{} (not provided by {})", alg.id, self.version)))
    }

    /// One whole encryption or decryption through init/update/final.
    #[allow(clippy::too_many_arguments)] // the arguments of an AEAD call, as EVP takes them
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
        let api = &self.api;
        let cipher = self.cipher(alg)?;
        let ctx = keyed_context(api, &cipher, key, iv, encrypt)?;
        let aead = alg.class == AlgorithmClass::Aead;
        let update = if encrypt { api.EVP_EncryptUpdate } else { api.EVP_DecryptUpdate };
        let finish = if encrypt {
            api.EVP_EncryptFinal_ex
        } else {
            api.EVP_DecryptFinal_ex
        };
        let mut out = vec![0u8; input.len() + 32];
        let (mut n, mut fin): (c_int, c_int) = (0, 0);
        let len = c_int::try_from(input.len()).map_err(|_| BackendError::Invalid("input too long".into()))?;
        // SAFETY: the context is keyed; `out` has room for input plus a block.
        unsafe {
            if aead && !aad.is_empty() {
                check(
                    api,
                    update(ctx.ptr, std::ptr::null_mut(), &mut n, aad.as_ptr(), aad.len() as c_int),
                    "EVP_CipherUpdate(AAD)",
                )?;
            }
            if aead && !encrypt {
                check(
                    api,
                    (api.EVP_CIPHER_CTX_ctrl)(ctx.ptr, EVP_CTRL_AEAD_SET_TAG, tag.len() as c_int, tag.as_mut_ptr().cast()),
                    "EVP_CTRL_AEAD_SET_TAG",
                )?;
            }
            check(
                api,
                update(ctx.ptr, out.as_mut_ptr(), &mut n, input.as_ptr(), len),
                "EVP_CipherUpdate",
            )?;
            if finish(ctx.ptr, out.as_mut_ptr().add(n as usize), &mut fin) != 1 {
                return Err(if aead && !encrypt {
                    BackendError::AuthenticationFailed
                } else {
                    call_failed(api, "EVP_CipherFinal_ex")
                });
            }
            if aead && encrypt {
                check(
                    api,
                    (api.EVP_CIPHER_CTX_ctrl)(ctx.ptr, EVP_CTRL_AEAD_GET_TAG, tag.len() as c_int, tag.as_mut_ptr().cast()),
                    "EVP_CTRL_AEAD_GET_TAG",
                )?;
            }
        }
        out.truncate((n + fin) as usize);
        Ok(out)
    }
}

impl Backend for OpensslBackend {
    fn info(&self) -> BackendInfo {
        let detail = |sel: c_int| text(unsafe { (self.api.OpenSSL_version)(sel) });
        let mut details = BTreeMap::new();
        for (name, sel) in [
            ("compiler", api::OPENSSL_CFLAGS),
            ("built_on", api::OPENSSL_BUILT_ON),
            ("platform", api::OPENSSL_PLATFORM),
        ] {
            if let Some(v) = detail(sel) {
                details.insert(name.to_string(), v);
            }
        }
        BackendInfo {
            id: "openssl".into(),
            // "OpenSSL 3.0.19 27 Jan 2026" or "LibreSSL 3.8.2": the first word names the library.
            name: self.version.split_whitespace().next().unwrap_or("OpenSSL").to_string(),
            version: self.version.clone(),
            library_path: Some(self.path.clone()),
            cpu_capabilities: self.cpu_capabilities(),
            details,
        }
    }

    fn support(&self, alg: &AlgorithmSpec) -> Support {
        let found = if alg.is_digest() {
            self.md(alg).map(drop)
        } else {
            self.cipher(alg).map(drop)
        };
        Support::from(found)
    }

    one_shot_through_crypt_once!();

    fn digest_once(&self, alg: &AlgorithmSpec, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let md = self.md(alg)?;
        let ctx = MdCtx::new(&self.api)?;
        let mut out = [0u8; 64];
        let mut n: c_uint = 0;
        // Init/update/final on a context, a path independent of the timed one-shot EVP_Digest.
        // SAFETY: live context and digest; out holds EVP_MAX_MD_SIZE bytes.
        unsafe {
            check(
                &self.api,
                (self.api.EVP_DigestInit_ex)(ctx.ptr, md.ptr, std::ptr::null_mut()),
                "EVP_DigestInit_ex",
            )?;
            check(
                &self.api,
                (self.api.EVP_DigestUpdate)(ctx.ptr, message.as_ptr().cast(), message.len()),
                "EVP_DigestUpdate",
            )?;
            check(
                &self.api,
                (self.api.EVP_DigestFinal_ex)(ctx.ptr, out.as_mut_ptr(), &mut n),
                "EVP_DigestFinal_ex",
            )?;
        }
        Ok(out[..n as usize].to_vec())
    }

    fn prepare(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        let api = &self.api;
        if alg.is_digest() {
            let md = self.md(alg)?;
            return Ok(match cell.mode {
                Mode::Message => Box::new(DigestMessage {
                    api,
                    md,
                    out: [0; 64],
                    out_len: 0,
                }),
                Mode::Stream => {
                    let ctx = MdCtx::new(api)?;
                    // SAFETY: live context and digest.
                    check(
                        api,
                        unsafe { (api.EVP_DigestInit_ex)(ctx.ptr, md.ptr, std::ptr::null_mut()) },
                        "EVP_DigestInit_ex",
                    )?;
                    Box::new(DigestStream { api, _md: md, ctx })
                }
            });
        }
        check_key_and_iv(alg, &inputs.key, &inputs.iv)?;
        let encrypt = cell.operation == Operation::Encrypt;
        let cipher = self.cipher(alg)?;
        let ctx = keyed_context(api, &cipher, &inputs.key, &inputs.iv, encrypt)?;
        Ok(match cell.mode {
            Mode::Stream => Box::new(CipherStream {
                api,
                _cipher: cipher,
                ctx,
                encrypt,
                iv: inputs.iv.clone(),
            }),
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
                    _cipher: cipher,
                    ctx,
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

    fn pk(&self) -> Option<&dyn crate::pk_traits::PkBackend> {
        Some(self)
    }
}

//! OpenSSL's libcrypto (1.1.1, 3.x, 4.x, and LibreSSL where compatible)
//! through the EVP API, loaded at run time.

mod aead;
mod api;
mod cap_power;
mod cap_riscv;
mod cap_z;
pub mod capabilities;
mod engines;
mod handles;
pub mod lab;
mod mac;
mod pk;
mod pk_api;
mod pk_contexts;
mod pk_sessions;
mod sessions;

use std::collections::BTreeMap;
use std::ffi::{c_int, CStr};

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec};
use libloading::Library;

use self::aead::Kind;
use self::api::Api;
use self::handles::{call_failed, Cipher, Md};
use self::mac::{Mac, MacSession};
use self::sessions::{EvpCipherSession, EvpDigestSession};
use crate::backend::{catalog_lengths_only, check_key_and_iv, AeadCall};
use crate::error::{BackendError, OpenError};
use crate::library::{CipherTask, DigestTask, Library as CryptoLibrary};
use crate::registry::Entry;

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
    /// The providers `--provider` loaded, and the query that prefers them.
    providers: engines::Providers,
    /// The engine `--engine` made the default, where one was asked for.
    engine: Option<engines::Engine>,
    /// Its build as it states it (lab.rs), and whether a file was named
    /// (`openssl=PATH` or `=@NAME`): then its label says the build.
    build: Option<lab::Build>,
    chosen_file: bool,
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
        let providers = engines::Providers::load(&api, &loaded_from, &version)?;
        let engine = engines::Engine::load(&api, &loaded_from)?;
        // SAFETY: as for `api`: a libcrypto, kept alive beside the table.
        let pk_api = unsafe { pk_api::PkApi::load(&library) };
        // SAFETY: documented selector; a static string.
        let cflags = text(unsafe { (api.OpenSSL_version)(api::OPENSSL_CFLAGS) }).unwrap_or_default();
        let file = std::fs::read(&loaded_from).ok();
        let build = lab::Build::parse(&cflags, file.as_deref());
        Ok(OpensslBackend::without_cpu_settings(OpensslBackend {
            api,
            pk_api,
            path: loaded_from,
            version,
            providers,
            engine,
            build,
            chosen_file: path.is_some(),
            _library: library,
        }))
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

    /// OpenSSL 3.0+ built with `no-asm` reads no CPU capabilities, so
    /// OPENSSL_info has no CPU settings on x86-64 and AArch64 (crypto/info.c:
    /// they are filled under OPENSSL_CPUID_OBJ only): a build whose compiler
    /// line does not say no-asm is still known to be one.
    fn without_cpu_settings(mut self) -> Self {
        let cpuid_arch = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));
        if cpuid_arch && self.api.OPENSSL_info.is_some() && self.cpu_capabilities().is_none() {
            if let Some(b) = &mut self.build {
                b.no_asm = true;
            }
        }
        self
    }

    fn find_cipher(&self, alg: &AlgorithmSpec) -> Result<Cipher<'_>, BackendError> {
        Cipher::find(&self.api, &evp_name(alg), self.providers.query.as_ref())
            .ok_or_else(|| BackendError::Unsupported(format!("{} (not provided by {})", alg.id, self.version)))
    }

    fn find_md(&self, alg: &AlgorithmSpec) -> Result<Md<'_>, BackendError> {
        if alg.xof && self.api.EVP_DigestFinalXOF.is_none() {
            return Err(BackendError::Unsupported(format!(
                "{} ({} exports no EVP_DigestFinalXOF)",
                alg.id, self.version
            )));
        }
        Md::find(&self.api, &evp_name(alg), self.providers.query.as_ref())
            .ok_or_else(|| BackendError::Unsupported(format!("{} (not provided by {})", alg.id, self.version)))
    }

    fn find_mac(&self, alg: &AlgorithmSpec) -> Result<Mac<'_>, BackendError> {
        Mac::find(&self.api, alg.id, &self.version, self.providers.query.as_ref())
    }

    /// The provider that serves `alg` (3.0+): the name `OSSL_PROVIDER_get0_name`
    /// gives the provider of the fetched algorithm (`EVP_*_get0_provider`).
    fn provider_of(&self, alg: &AlgorithmSpec) -> Option<String> {
        let api = &self.api;
        let name = api.OSSL_PROVIDER_get0_name?;
        // SAFETY: the handles are live fetched algorithms; the getters only read them.
        let provider = unsafe {
            match alg.class {
                AlgorithmClass::Digest => (api.EVP_MD_get0_provider?)(self.find_md(alg).ok()?.ptr),
                AlgorithmClass::Mac => (api.EVP_MAC_get0_provider?)(self.find_mac(alg).ok()?.ptr),
                _ => (api.EVP_CIPHER_get0_provider?)(self.find_cipher(alg).ok()?.ptr),
            }
        };
        if provider.is_null() {
            return None;
        }
        // SAFETY: a provider's name is a static string of the provider.
        text(unsafe { name(provider) })
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded("openssl", "OpenSSL", "apt-get install libssl3", |path| {
    Ok(Box::new(OpensslBackend::open(path)?))
})
.with_cpu(Some(capabilities::view), Some(capabilities::mask))
.with_named(lab::resolve);

impl CryptoLibrary for OpensslBackend {
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
        for (name, value) in [
            ("engines", engines::engines(&self.api)),
            ("providers", engines::loaded_providers(&self.api)),
            ("provider_modules", engines::provider_modules(&self.api)),
        ] {
            if let Some(v) = value {
                details.insert(name.to_string(), v);
            }
        }
        let mut version = self.version.clone();
        if let Some(b) = &self.build {
            details.extend(b.details());
            if self.chosen_file {
                // "OpenSSL 3.5.5 27 Jan 2026 · clang 14.0.6 -O3 · no-asm": builds side by side differ here.
                version = format!("{version} · {}", b.summary());
            }
        }
        if let Some(w) = &self.providers.wanted {
            details.insert(engines::PROVIDER_DETAIL.to_string(), w.clone());
            version = format!("{version} + provider {w}");
        }
        if let Some(q) = &self.providers.properties {
            details.insert(engines::PROPERTIES_DETAIL.to_string(), q.clone());
            version = format!("{version} + properties {q}");
        }
        if let Some(e) = &self.engine {
            details.insert(engines::ENGINE_DETAIL.to_string(), e.id.clone());
            version = format!("{version} + engine {}", e.id);
        }
        BackendInfo {
            // "OpenSSL 3.0.19 27 Jan 2026" or "LibreSSL 3.8.2": the first word names the library.
            name: self.version.split_whitespace().next().unwrap_or("OpenSSL").to_string(),
            ..ENTRY.info(version, Some(self.path.clone()), self.cpu_capabilities(), details)
        }
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let api = &self.api;
        let kind = Kind::of(alg);
        if kind == Kind::GcmSiv && api.EVP_CIPHER_CTX_copy.is_none() {
            return Err(BackendError::Unsupported(format!(
                "{} ({} exports no EVP_CIPHER_CTX_copy)",
                alg.id, self.version
            )));
        }
        let context = |encrypt: bool| {
            let cipher = self.find_cipher(alg)?;
            let ctx = aead::context(api, &cipher, kind, key, iv, &mut vec![0; alg.tag_len], encrypt, &self.version)?;
            Ok((cipher, ctx))
        };
        task.with(|encrypt| {
            let (cipher, ctx) = context(encrypt)?;
            let pristine = match kind {
                Kind::GcmSiv => Some(context(encrypt)?.1),
                _ => None,
            };
            Ok(EvpCipherSession {
                api,
                _cipher: cipher,
                ctx,
                encrypt,
                kind,
                key: key.to_vec(),
                iv: iv.to_vec(),
                pristine,
                rekey: false,
                version: &self.version,
            })
        })
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        let md = self.find_md(alg)?;
        task.with(EvpDigestSession::new(
            &self.api,
            md,
            alg.xof.then_some(alg.digest_len),
            alg.digest_len,
        )?)
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        let mac = self.find_mac(alg)?;
        let ctx = mac.keyed(key)?;
        task.with(MacSession {
            key: mac.one_time_key.then(|| key.to_vec()),
            _mac: mac,
            ctx,
        })
    }

    /// One whole AEAD encryption or decryption through init/update/final,
    /// with the vector's IV and tag lengths.
    fn vector_message(&self, alg: &AlgorithmSpec, encrypt: bool, call: AeadCall, tag: &mut [u8]) -> Result<Vec<u8>, BackendError> {
        let kind = Kind::of(alg);
        if kind == Kind::Plain {
            return Err(catalog_lengths_only(alg));
        }
        let AeadCall { key, iv, aad, data: input } = call;
        if key.len() != alg.key_len {
            check_key_and_iv(alg, key, iv)?;
        }
        if kind == Kind::Siv && input.is_empty() {
            // EVP_CipherUpdate returns before the provider sees 0 bytes, and SIV's final then fails.
            return Err(BackendError::Unsupported(format!(
                "{} of an empty message ({} cannot: EVP_CipherUpdate skips 0-byte data and SIV's final then fails)",
                alg.id, self.version
            )));
        }
        let api = &self.api;
        let cipher = self.find_cipher(alg)?;
        let ctx = aead::context(api, &cipher, kind, key, iv, tag, encrypt, &self.version)?;
        let update = if encrypt { api.EVP_EncryptUpdate } else { api.EVP_DecryptUpdate };
        let finish = if encrypt {
            api.EVP_EncryptFinal_ex
        } else {
            api.EVP_DecryptFinal_ex
        };
        let mut out = vec![0u8; input.len() + 32];
        let (mut n, mut fin): (c_int, c_int) = (0, 0);
        let len = c_int::try_from(input.len()).map_err(|_| BackendError::Invalid("input too long".into()))?;
        if !encrypt && !kind.tag_first() {
            aead::set_tag(api, ctx.ptr, tag, &self.version)?;
        }
        // SAFETY: the context is keyed; `out` has room for input plus a block.
        unsafe {
            aead::before_data(api, ctx.ptr, update, kind, len, aad, if kind == Kind::Siv { iv } else { &[] })?;
            if update(ctx.ptr, out.as_mut_ptr(), &mut n, input.as_ptr(), len) != 1 {
                // CCM verifies its tag in the decrypting update (EVP_EncryptInit(3)).
                return Err(if !encrypt {
                    handles::error_queue(api);
                    BackendError::AuthenticationFailed
                } else {
                    call_failed(api, "EVP_CipherUpdate")
                });
            }
            if finish(ctx.ptr, out.as_mut_ptr().add(n as usize), &mut fin) != 1 {
                return Err(if !encrypt {
                    handles::error_queue(api);
                    BackendError::AuthenticationFailed
                } else {
                    call_failed(api, "EVP_CipherFinal_ex")
                });
            }
        }
        if encrypt {
            aead::get_tag(api, ctx.ptr, tag)?;
        }
        out.truncate((n + fin) as usize);
        Ok(out)
    }

    /// The provider that served the cell (OpenSSL 3.0+), as `openssl list` names it;
    /// where `--provider` asked for another that lacks the algorithm, the cell says so.
    fn implementation(&self, alg: &AlgorithmSpec) -> Option<String> {
        let served = self.provider_of(alg).map(|p| format!("provider {p}"));
        if let Some(engine) = &self.engine {
            let api = &self.api;
            let by_engine = match alg.class {
                AlgorithmClass::Digest => self.find_md(alg).is_ok_and(|md| engine.serves_digest(api, md.ptr)),
                // MACs run through EVP_MAC, which no engine serves.
                AlgorithmClass::Mac => false,
                _ => self.find_cipher(alg).is_ok_and(|c| engine.serves_cipher(api, c.ptr)),
            };
            return Some(if by_engine {
                format!("engine {}", engine.id)
            } else {
                format!(
                    "{}: the default path, engine {} does not offer {}",
                    served.unwrap_or_else(|| "built in".into()),
                    engine.id,
                    alg.id
                )
            });
        }
        let served = served?;
        Some(match &self.providers.wanted {
            Some(w) if served != format!("provider {w}") => format!("{served}: the default path, provider {w} does not offer {}", alg.id),
            _ => served,
        })
    }

    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }
}

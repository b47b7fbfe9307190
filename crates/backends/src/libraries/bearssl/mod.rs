//! BearSSL (`libbearssl.so.0`), loaded at run time: SHA-1, SHA-2 and MD5
//! through the hash classes, HMAC, GHASH, AES-CBC, AES-CTR, AES-GCM and AES-CCM, 3DES-CBC,
//! ChaCha20 and ChaCha20-Poly1305 (sessions.rs, hash.rs), and public key
//! (pk.rs: RSA PKCS#1 v1.5 and OAEP, ECDSA, ECDH and X25519, key
//! generation). BearSSL is all caller-allocated contexts and vtables; the
//! implementations are the ones BearSSL itself picks at run time
//! (impls.rs), named in the configuration: that choice (x86ni or ct64 AES,
//! pclmul GHASH, i62 or i31 RSA) is its acceleration. It reads CPUID
//! itself and has no override, so it offers no mask (its CPU view is what
//! those choices show, `impls::view`). BearSSL has no AES
//! ECB, CFB or XTS, no SHA-3, BLAKE2, Camellia or standalone Poly1305, and
//! exports no version call: the version is the one its file name carries.

mod api;
mod defects;
mod hash;
mod impls;
mod pk;
mod pk_keys;
mod pk_sessions;
mod sessions;

use std::collections::BTreeMap;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode};

use self::api::*;
use self::hash::{GhashMac, Hash, Hmac};
use self::impls::Impls;
use self::sessions::{Cipher, Kind};
use crate::backend::AeadCall;
use crate::error::{BackendError, OpenError};
use crate::library::{CipherTask, DigestTask, Library};
use crate::native;
use crate::registry::Entry;
use crate::sessions::unsupported;

const DEFAULT_LIBRARIES: &[&str] = native::per_platform(
    &["libbearssl.0.dylib", "libbearssl.dylib"],
    &["bearssl.dll"],
    &["libbearssl.so.0", "libbearssl.so"],
);

/// BearSSL's hash vtables (`br_md5_vtable` … `br_sha512_vtable`, bearssl_hash.h).
pub struct HashClasses {
    md5: *const HashClass,
    sha1: *const HashClass,
    sha224: *const HashClass,
    sha256: *const HashClass,
    sha384: *const HashClass,
    sha512: *const HashClass,
}

pub struct BearsslBackend {
    api: Api,
    impls: Impls,
    hashes: HashClasses,
    path: String,
    version: String,
    _library: libloading::Library,
}

// SAFETY: the pointers are to BearSSL's static, read-only vtables, valid while `_library` is loaded.
unsafe impl Send for BearsslBackend {}
// SAFETY: as above.
unsafe impl Sync for BearsslBackend {}

/// The version a file name carries: `libbearssl.so.0.6` → "0.6".
fn version_of(path: &str) -> String {
    let real = std::fs::canonicalize(path)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| path.to_string());
    match real.rsplit_once(".so.") {
        Some((_, v)) if !v.is_empty() => v.to_string(),
        _ => "(version not in the file name; BearSSL exports no version call)".to_string(),
    }
}

fn cipher_of(alg: &AlgorithmSpec) -> Result<Kind, BackendError> {
    Ok(match alg.id {
        "aes-128-cbc" | "aes-192-cbc" | "aes-256-cbc" => Kind::Cbc,
        "aes-128-ctr" | "aes-192-ctr" | "aes-256-ctr" => Kind::Ctr,
        "aes-128-gcm" | "aes-192-gcm" | "aes-256-gcm" => Kind::Gcm,
        "chacha20" => Kind::ChaCha20,
        "chacha20-poly1305" => Kind::ChaPoly,
        "des-ede3-cbc" => Kind::Des3Cbc,
        "aes-128-ccm" | "aes-256-ccm" => Kind::Ccm,
        id if id.starts_with("aes-") => return Err(unsupported(format!("{id} (BearSSL offers AES in CBC, CTR, GCM, CCM and EAX only)"))),
        id => return Err(unsupported(format!("{id} (not in BearSSL)"))),
    })
}

impl BearsslBackend {
    pub fn open(path: Option<&str>) -> Result<BearsslBackend, OpenError> {
        let loaded = native::load(path, DEFAULT_LIBRARIES, "BearSSL", "bearssl")?;
        // SAFETY: `const br_config_option *br_get_config(void)` (bearssl.h:168).
        let (_probe, path) = unsafe { loaded.probe::<unsafe extern "C" fn() -> *const ConfigOption>("br_get_config", "BearSSL") }?;
        let version = version_of(&path);
        let missing = native::missing_symbol(&path, "BearSSL", &version);
        // SAFETY: the library is BearSSL (it exports br_get_config); kept alive beside the tables.
        let api = unsafe { Api::load(&loaded.library) }.map_err(native::missing_symbol(&path, "BearSSL", &version))?;
        let lib = &loaded.library;
        // SAFETY: as above; the vtables are static data of the library.
        let (impls, hashes) = unsafe {
            let hashes = (|| {
                Ok::<_, &'static str>(HashClasses {
                    md5: data(lib, "br_md5_vtable\0")?,
                    sha1: data(lib, "br_sha1_vtable\0")?,
                    sha224: data(lib, "br_sha224_vtable\0")?,
                    sha256: data(lib, "br_sha256_vtable\0")?,
                    sha384: data(lib, "br_sha384_vtable\0")?,
                    sha512: data(lib, "br_sha512_vtable\0")?,
                })
            })();
            (Impls::choose(&api, lib), hashes)
        };
        let impls = impls.map_err(native::missing_symbol(&path, "BearSSL", &version))?;
        let hashes = hashes.map_err(missing)?;
        Ok(BearsslBackend {
            api,
            impls,
            hashes,
            path,
            version,
            _library: loaded.library,
        })
    }

    /// The hash class of a digest or HMAC, checked against the catalog's length.
    fn hash_class(&self, alg: &AlgorithmSpec) -> Result<*const HashClass, BackendError> {
        let h = &self.hashes;
        let class = match alg.id {
            "md5" | "hmac-md5" => h.md5,
            "sha1" | "hmac-sha1" => h.sha1,
            "sha224" => h.sha224,
            "sha256" | "hmac-sha256" => h.sha256,
            "sha384" => h.sha384,
            "sha512" | "hmac-sha512" => h.sha512,
            "poly1305" => {
                return Err(unsupported(
                    "poly1305 (BearSSL's Poly1305 runs only inside ChaCha20-Poly1305, br_poly1305_run)",
                ))
            }
            "aes-128-cmac" => return Err(unsupported("aes-128-cmac (not in BearSSL: it has CBC-MAC only inside CCM)")),
            id => return Err(unsupported(format!("{id} (not in BearSSL)"))),
        };
        // SAFETY: a static vtable of the loaded library.
        if unsafe { (*class).output_len() } != alg.digest_len {
            return Err(unsupported(format!("{} (BearSSL's class writes another length)", alg.id)));
        }
        Ok(class)
    }

    /// The configuration's line: what BearSSL chose, and its build options.
    fn view(&self) -> String {
        let mut flags = Vec::new();
        // SAFETY: br_get_config returns a static array ended by a NULL name (bearssl.h:164).
        unsafe {
            let mut p = (self.api.br_get_config)();
            while !p.is_null() && !(*p).name.is_null() {
                let name = native::text((*p).name).unwrap_or_default();
                if matches!(
                    name.as_str(),
                    "BR_AES_X86NI" | "BR_SSE2" | "BR_INT128" | "BR_UMUL128" | "BR_64" | "BR_RDRAND"
                ) {
                    flags.push(format!("{name}={}", (*p).value));
                }
                p = p.add(1);
            }
        }
        format!("bearssl: {} (built with {})", self.impls.names.join("; "), flags.join(" "))
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded("bearssl", "BearSSL", "apt-get install libbearssl0", |path| {
    Ok(Box::new(BearsslBackend::open(path)?))
})
.with_cpu(Some(impls::view), None)
.with_defects(defects::KNOWN_DEFECTS);

impl Library for BearsslBackend {
    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }

    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert(
            "cpu".to_string(),
            "BearSSL reads CPUID itself (its *_get calls return NULL without the instructions) and has no override: no mask".to_string(),
        );
        ENTRY.info(
            format!("BearSSL {}", self.version),
            Some(self.path.clone()),
            Some(self.view()),
            details,
        )
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let kind = cipher_of(alg)?;
        task.with(|encrypt| Cipher::new(&self.api, &self.impls, kind, key, iv, encrypt))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        if alg.id.starts_with("hmac") {
            return Err(unsupported(format!("{} is a MAC", alg.id)));
        }
        let class = self.hash_class(alg)?;
        // SAFETY: a static vtable of the library, which outlives the session.
        task.with(unsafe { Hash::new(class) })
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        if alg.id == "ghash" {
            return task.with(GhashMac::new(self.impls.ghash, key)?);
        }
        if !alg.id.starts_with("hmac-") {
            self.hash_class(alg)?;
            return Err(unsupported(format!("{} (not in BearSSL)", alg.id)));
        }
        let class = self.hash_class(alg)?;
        // SAFETY: as in digest.
        task.with(unsafe { Hmac::new(&self.api, class, key) })
    }

    /// GCM with a test vector's IV and tag lengths: `br_gcm_reset` takes an
    /// IV of any length (bearssl_aead.h:399) and `br_gcm_get_tag_trunc` /
    /// `br_gcm_check_tag_trunc` a tag of 1 to 16 bytes (bearssl_aead.h:521,
    /// :542). An empty IV is not passed: SP 800-38D §5.2.1.1 needs at least
    /// one bit, and BearSSL does not check it. CCM with the nonce and tag
    /// lengths `br_ccm_reset` takes; ChaCha20-Poly1305's nonce is 12 bytes.
    fn vector_message(&self, alg: &AlgorithmSpec, encrypt: bool, call: AeadCall, tag: &mut [u8]) -> Result<Vec<u8>, BackendError> {
        let kind = cipher_of(alg)?;
        let catalog = call.iv.len() == alg.iv_len && tag.len() == alg.tag_len;
        if kind == Kind::Ccm && !((7..=13).contains(&call.iv.len()) && (4..=16).contains(&tag.len()) && tag.len().is_multiple_of(2)) {
            return Err(unsupported(format!(
                "{}: a {}-byte nonce or a {}-byte tag (br_ccm_reset takes 7 to 13 and 4 to 16, even: bearssl_aead.h:940-944)",
                alg.id,
                call.iv.len(),
                tag.len()
            )));
        }
        if !matches!(kind, Kind::Gcm | Kind::Ccm) && !catalog {
            return Err(crate::backend::catalog_lengths_only(alg));
        }
        if call.iv.is_empty() {
            return Err(unsupported(format!(
                "{}: an empty IV (GCM's IV has at least one bit, SP 800-38D §5.2.1.1; br_gcm_reset would take it)",
                alg.id
            )));
        }
        if tag.is_empty() || tag.len() > 16 {
            return Err(unsupported(format!(
                "{}: a {}-byte tag (BearSSL's GCM tags are 1 to 16 bytes)",
                alg.id,
                tag.len()
            )));
        }
        if call.key.len() != alg.key_len {
            return Err(BackendError::Invalid(format!("{} takes a {}-byte key", alg.id, alg.key_len)));
        }
        let session = Cipher::new(&self.api, &self.impls, kind, call.key, call.iv, encrypt)?;
        crate::sessions::message_once(session, alg, encrypt, call, tag)
    }

    /// The implementations BearSSL picked for `alg` (impls.rs).
    fn implementation(&self, alg: &AlgorithmSpec) -> Option<String> {
        let families: &[&str] = match cipher_of(alg).ok() {
            Some(Kind::Cbc | Kind::Ctr) => &["aes"],
            Some(Kind::Des3Cbc) => &["des"],
            Some(Kind::Gcm) => &["aes", "ghash"],
            Some(Kind::Ccm) => &["aes"],
            Some(Kind::ChaCha20) => &["chacha20"],
            Some(Kind::ChaPoly) => &["chacha20", "poly1305"],
            None if alg.id == "ghash" => &["ghash"],
            None => return None,
        };
        let names: Option<Vec<String>> = families.iter().map(|f| Some(format!("{f} {}", self.impls.name(f)?))).collect();
        Some(names?.join(" + "))
    }

    /// Streams: ChaCha20-Poly1305 has no incremental call; BearSSL's CTR
    /// and ChaCha20 drop the rest of a partial block's key stream
    /// (bearssl_block.h:548, :2435), so a stream continues only after whole blocks.
    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        if cell.mode != Mode::Stream || !matches!(alg.class, AlgorithmClass::Cipher | AlgorithmClass::Aead) {
            return None;
        }
        let unit = match cipher_of(alg).ok()? {
            Kind::ChaPoly => {
                return Some(format!(
                    "{} in stream mode (BearSSL's br_poly1305_run does a whole message per call)",
                    alg.id
                ))
            }
            Kind::Ctr => 16,
            Kind::ChaCha20 => 64,
            Kind::Cbc | Kind::Des3Cbc | Kind::Gcm | Kind::Ccm => 1,
        };
        (!cell.size.is_multiple_of(unit)).then(|| {
            format!(
                "{} in stream mode with {}-byte updates (BearSSL continues this stream only after whole {unit}-byte blocks)",
                alg.id, cell.size
            )
        })
    }
}

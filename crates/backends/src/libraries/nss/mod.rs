//! NSS, Mozilla's Network Security Services (`libnss3.so`: Firefox,
//! Thunderbird, RHEL's system crypto), loaded at run time and used through
//! its PK11 API, the calls Firefox's own code makes (pk11pub.h), over the
//! internal slot of its softoken: AES ECB/CBC/CTR/GCM, ChaCha20-Poly1305,
//! ChaCha20, 3DES-CBC and Camellia-CBC; MD5, SHA-1 and SHA-2; HMAC (MD5,
//! SHA-1, SHA-2) and AES-CMAC (sessions.rs); public key in pk.rs. NSS is
//! initialised once per process without a database (`NSS_NoDB_Init`) and
//! never shut down, since its state is global and sessions may live in
//! other threads.

mod api;
mod defects;
mod pk;
mod pk_api;
mod pk_keys;
mod pk_sessions;
mod sessions;

use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, c_ulong};
use std::sync::OnceLock;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode};
use cryptoki_sys::*;

use self::api::*;
use self::sessions::{Cipher, Hash, Shape};
use crate::error::{BackendError, OpenError};
use crate::library::{CipherTask, DigestTask, Library};
use crate::native;
use crate::registry::Entry;
use crate::sessions::unsupported;

const DEFAULT_LIBRARIES: &[&str] = native::per_platform(&["libnss3.dylib"], &["nss3.dll"], &["libnss3.so"]);

pub struct NssBackend {
    api: Api,
    /// The public-key calls (pk_api.rs), or the first one this NSS lacks.
    pk: Result<pk_api::Api, &'static str>,
    path: String,
    version: String,
}

/// The result of the one `NSS_NoDB_Init` of this process.
static INITIALISED: OnceLock<Result<(), String>> = OnceLock::new();

fn cipher_of(alg: &AlgorithmSpec) -> Result<(c_ulong, Shape), BackendError> {
    Ok(match alg.id {
        "aes-128-ecb" | "aes-192-ecb" | "aes-256-ecb" => (CKM_AES_ECB, Shape::Ecb),
        "aes-128-cbc" | "aes-192-cbc" | "aes-256-cbc" => (CKM_AES_CBC, Shape::Iv),
        "aes-128-ctr" | "aes-192-ctr" | "aes-256-ctr" => (CKM_AES_CTR, Shape::Ctr),
        "aes-128-gcm" | "aes-192-gcm" | "aes-256-gcm" => (CKM_AES_GCM, Shape::Aead),
        "chacha20-poly1305" => (CKM_CHACHA20_POLY1305, Shape::Aead),
        // The 16-byte parameter is OpenSSL's IV: counter, then nonce.
        "chacha20" => (CKM_NSS_CHACHA20_CTR, Shape::Iv),
        "des-ede3-cbc" => (CKM_DES3_CBC, Shape::Iv),
        "camellia-128-cbc" | "camellia-192-cbc" | "camellia-256-cbc" => (CKM_CAMELLIA_CBC, Shape::Iv),
        id @ ("aes-128-ccm" | "aes-256-ccm") => {
            return Err(unsupported(format!(
                "{id} (NSS 3.87's softoken refuses CKM_AES_CCM: SEC_ERROR_INVALID_ALGORITHM from PK11_Encrypt and from its message interface, as seen here)"
            )))
        }
        id if id.ends_with("-cfb128") || id.ends_with("-xts") => {
            return Err(unsupported(format!(
                "{id} (NSS's softoken offers AES in ECB, CBC, CTR, CTS and GCM, no CFB-128 or XTS)"
            )))
        }
        id => return Err(unsupported(format!("{id} (not in NSS)"))),
    })
}

fn digest_of(alg: &AlgorithmSpec) -> Result<c_int, BackendError> {
    Ok(match alg.id {
        "md5" => SEC_OID_MD5,
        "sha1" => SEC_OID_SHA1,
        "sha224" => SEC_OID_SHA224,
        "sha256" => SEC_OID_SHA256,
        "sha384" => SEC_OID_SHA384,
        "sha512" => SEC_OID_SHA512,
        id if id.starts_with("sha3-") => {
            return Err(unsupported(format!(
                "{id} (NSS 3.87 has no SHA-3 among its PK11 digests: no SECOidTag for it)"
            )))
        }
        id => return Err(unsupported(format!("{id} (not in NSS)"))),
    })
}

fn mac_of(alg: &AlgorithmSpec) -> Result<c_ulong, BackendError> {
    Ok(match alg.id {
        "hmac-md5" => CKM_MD5_HMAC,
        "hmac-sha1" => CKM_SHA_1_HMAC,
        "hmac-sha256" => CKM_SHA256_HMAC,
        "hmac-sha512" => CKM_SHA512_HMAC,
        "aes-128-cmac" => CKM_AES_CMAC,
        id => {
            return Err(unsupported(format!(
                "{id} (NSS offers HMAC and AES-CMAC as MACs; its Poly1305 and GHASH are inside its AEADs)"
            )))
        }
    })
}

impl NssBackend {
    pub fn open(path: Option<&str>) -> Result<NssBackend, OpenError> {
        let loaded = native::load(path, DEFAULT_LIBRARIES, "NSS", "nss")?;
        // SAFETY: the probe is looked up by its documented name and type.
        let (probe, path) = unsafe { loaded.probe::<unsafe extern "C" fn() -> *const c_char>("NSS_GetVersion", "NSS") }?;
        // SAFETY: returns NSS's static version string.
        let version = native::text(unsafe { probe() }).unwrap_or_default();
        // NSS is process-global and never shut down: the library stays loaded
        // for the life of the process (a handle is kept, never closed).
        let library: &'static libloading::Library = Box::leak(Box::new(loaded.library));
        // SAFETY: the library is NSS (it exports NSS_GetVersion) and is never unloaded.
        let api = unsafe { Api::load(library) }.map_err(native::missing_symbol(&path, "NSS", &version))?;
        let init = INITIALISED.get_or_init(|| {
            // SAFETY: plain queries and NSS's documented database-less initialisation.
            unsafe {
                if (api.NSS_IsInitialized)() != PR_FALSE {
                    return Ok(());
                }
                sessions::check(&api, (api.NSS_NoDB_Init)(std::ptr::null()), "NSS_NoDB_Init").map_err(|e| e.to_string())
            }
        });
        if let Err(reason) = init {
            return Err(OpenError::Load {
                path,
                reason: reason.clone(),
            });
        }
        // SAFETY: the same NSS, never unloaded.
        let pk = unsafe { pk_api::Api::load(library) };
        Ok(NssBackend { api, pk, path, version })
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded("nss", "NSS", "apt-get install libnss3", |path| {
    Ok(Box::new(NssBackend::open(path)?))
})
.with_defects(defects::KNOWN_DEFECTS);

impl Library for NssBackend {
    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }

    fn info(&self) -> BackendInfo {
        ENTRY.info(format!("NSS {}", self.version), Some(self.path.clone()), None, BTreeMap::new())
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let (mech, shape) = cipher_of(alg)?;
        task.with(|encrypt| Cipher::new(&self.api, mech, shape, key, iv, encrypt))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(Hash::digest(&self.api, digest_of(alg)?, alg.digest_len)?)
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        let mech = mac_of(alg)?;
        if mech == CKM_AES_CMAC {
            crate::sessions::check_mac_key(alg, key)?;
        }
        task.with(Hash::hmac(&self.api, mech, key, alg.digest_len)?)
    }

    /// `PK11_AEADOp` takes whole messages, a MAC's value cannot be read
    /// with its state going on (sessions.rs, `Hash`), and ChaCha20's
    /// context refuses updates.
    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        if cell.mode != Mode::Stream {
            return None;
        }
        match alg.class {
            AlgorithmClass::Aead => Some(format!("{} in stream mode (NSS's PK11_AEADOp encrypts whole messages)", alg.id)),
            AlgorithmClass::Mac => Some(format!(
                "{} in stream mode (softoken cannot copy a MAC's state: PK11_CloneContext fails, so a stream's value could not be read with its state going on; use --mode message)",
                alg.id
            )),
            _ if alg.id == "chacha20" => Some(format!(
                "{} in stream mode (PK11_CipherOp on a CKM_NSS_CHACHA20_CTR context fails with SEC_ERROR_LIBRARY_FAILURE in NSS 3.87, as seen here; its messages, PK11_Encrypt, work)",
                alg.id
            )),
            _ => None,
        }
    }
}

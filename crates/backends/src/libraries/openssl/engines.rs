//! The engines and providers an OpenSSL has, as `openssl engine` and
//! `openssl list -providers` would show them: the engine modules in its
//! `ENGINESDIR` and the provider modules in its `MODULESDIR` (both from
//! `OpenSSL_version`, include/openssl/crypto.h), and the providers loaded in
//! the default library context (`OSSL_PROVIDER_do_all`, 3.0+).

use std::ffi::{c_char, c_int, c_void, CString};

use super::api::Api;
use super::api::{EvpCipher, EvpMd};
use crate::error::OpenError;
use crate::native::text;
use crate::registry::{ENGINE_ENV, PROPERTIES_ENV, PROVIDER_ENV};

/// The detail that names the engine a configuration asked for.
pub const ENGINE_DETAIL: &str = crate::registry::ENGINE_DETAIL;

/// `ENGINE_METHOD_ALL` (include/openssl/engine.h): the engine becomes the
/// default for everything it offers.
const ENGINE_METHOD_ALL: std::ffi::c_uint = 0xFFFF;

/// The engine `--engine ID|PATH` asked for, initialised and made the default
/// for what it offers (`ENGINE_set_default`); kept for the process's life.
pub struct Engine {
    pub id: String,
}

impl Engine {
    pub fn load(api: &Api, path: &str) -> Result<Option<Engine>, OpenError> {
        let Ok(value) = std::env::var(ENGINE_ENV) else {
            return Ok(None);
        };
        let fail = |reason: String| OpenError::Load {
            path: path.to_string(),
            reason: format!("--engine {value}: {reason}"),
        };
        let (Some(by_id), Some(ctrl), Some(init), Some(set_default), Some(get_id)) = (
            api.ENGINE_by_id,
            api.ENGINE_ctrl_cmd_string,
            api.ENGINE_init,
            api.ENGINE_set_default,
            api.ENGINE_get_id,
        ) else {
            return Err(fail("this libcrypto has no ENGINE API (built with no-engine, or OpenSSL 4)".into()));
        };
        let cstr = |s: &str| CString::new(s).map_err(|_| fail("a NUL byte".into()));
        let present = || engines(api).unwrap_or_default();
        // SAFETY: NUL-terminated strings; the engine reference is kept for the process's life.
        let e = unsafe {
            if value.contains('/') {
                // A module by path: the "dynamic" engine loads it (SO_PATH, LOAD).
                let e = by_id(cstr("dynamic")?.as_ptr());
                if e.is_null()
                    || ctrl(e, cstr("SO_PATH")?.as_ptr(), cstr(&value)?.as_ptr(), 0) != 1
                    || ctrl(e, cstr("LOAD")?.as_ptr(), std::ptr::null(), 0) != 1
                {
                    return Err(fail(format!(
                        "the dynamic engine cannot load it ({})",
                        super::handles::error_queue(api)
                    )));
                }
                e
            } else {
                let e = by_id(cstr(&value)?.as_ptr());
                if e.is_null() {
                    return Err(fail(format!(
                        "ENGINE_by_id failed ({}); engines present: {}",
                        super::handles::error_queue(api),
                        present()
                    )));
                }
                e
            }
        };
        // SAFETY: a structural reference from ENGINE_by_id.
        if unsafe { init(e) } != 1 {
            return Err(fail(format!("ENGINE_init failed ({})", super::handles::error_queue(api))));
        }
        // SAFETY: as above, now a functional reference.
        if unsafe { set_default(e, ENGINE_METHOD_ALL) } != 1 {
            return Err(fail(format!("ENGINE_set_default failed ({})", super::handles::error_queue(api))));
        }
        let id = text(unsafe { get_id(e) }).unwrap_or(value.clone());
        Ok(Some(Engine { id }))
    }

    /// Whether this engine serves the cipher `c` (`ENGINE_get_cipher_engine` of its nid).
    pub fn serves_cipher(&self, api: &Api, c: *const EvpCipher) -> bool {
        let Some(nid) = api.EVP_CIPHER_get_nid.or(api.EVP_CIPHER_nid) else {
            return false;
        };
        // SAFETY: a live cipher; the engine reference returned is released at once.
        unsafe { Self::held(api, api.ENGINE_get_cipher_engine.map(|g| g(nid(c)))) }
    }

    /// Whether this engine serves the digest `md`.
    pub fn serves_digest(&self, api: &Api, md: *const EvpMd) -> bool {
        let Some(nid) = api.EVP_MD_get_type.or(api.EVP_MD_type) else {
            return false;
        };
        // SAFETY: as above.
        unsafe { Self::held(api, api.ENGINE_get_digest_engine.map(|g| g(nid(md)))) }
    }

    /// Whether a default engine was returned, releasing it.
    unsafe fn held(api: &Api, e: Option<*mut c_void>) -> bool {
        match (e, api.ENGINE_finish) {
            (Some(e), Some(finish)) if !e.is_null() => {
                // SAFETY: a functional reference the getter returned.
                unsafe { finish(e) };
                true
            }
            _ => false,
        }
    }
}

/// The detail that names the provider a configuration asked for (the
/// registry refuses `--provider` for a library that reports none).
pub const PROVIDER_DETAIL: &str = crate::registry::PROVIDER_DETAIL;

/// The providers `--provider NAME[=PATH]` asked for (3.0+), loaded with the
/// default provider beside them (loading any provider stops OpenSSL loading
/// the default one itself), and the query that prefers the named one:
/// "?provider=NAME", so that an algorithm it lacks is fetched from the
/// default path, and the cell says so (`implementation`).
#[derive(Default)]
pub struct Providers {
    pub wanted: Option<String>,
    /// `--properties QUERY`, where given: the query of every fetch.
    pub properties: Option<String>,
    pub query: Option<CString>,
}

/// The detail that names the property query a configuration asked for.
pub const PROPERTIES_DETAIL: &str = crate::registry::PROPERTIES_DETAIL;

impl Providers {
    /// `--provider` and then `--properties`, which replaces the query.
    pub fn load(api: &Api, path: &str, version: &str) -> Result<Providers, OpenError> {
        let mut providers = Providers::load_provider(api, path, version)?;
        let Ok(query) = std::env::var(PROPERTIES_ENV) else {
            return Ok(providers);
        };
        let fail = |reason: String| OpenError::Load {
            path: path.to_string(),
            reason: format!("--properties {query}: {reason}"),
        };
        let (Some(fetch), Some(free), Some(_)) = (api.EVP_MD_fetch, api.EVP_MD_free, api.OSSL_PROVIDER_load) else {
            return Err(fail(format!("{version} has no property queries (OpenSSL 3.0 introduced them)")));
        };
        let q = CString::new(query.as_str()).map_err(|_| fail("a NUL byte".into()))?;
        // A query nothing matches (or that does not parse) fails every fetch:
        // refused here with OpenSSL's reason rather than as a failed cell each.
        let name = CString::new("SHA2-256").expect("no NUL");
        // SAFETY: the default library context; NUL-terminated strings; the fetched digest is freed.
        let md = unsafe { fetch(std::ptr::null_mut(), name.as_ptr(), q.as_ptr()) };
        if md.is_null() {
            return Err(fail(format!(
                "no SHA2-256 matches it ({}); e.g. provider=default, ?fips=yes, provider!=legacy",
                super::handles::error_queue(api)
            )));
        }
        // SAFETY: fetched above, freed once.
        unsafe { free(md) };
        providers.query = Some(q);
        providers.properties = Some(query);
        Ok(providers)
    }

    fn load_provider(api: &Api, path: &str, version: &str) -> Result<Providers, OpenError> {
        let Ok(value) = std::env::var(PROVIDER_ENV) else {
            return Ok(Providers::default());
        };
        let fail = |reason: String| OpenError::Load {
            path: path.to_string(),
            reason,
        };
        let (Some(load), Some(search)) = (api.OSSL_PROVIDER_load, api.OSSL_PROVIDER_set_default_search_path) else {
            return Err(fail(format!(
                "--provider {value}: {version} has no providers (OpenSSL 3.0 introduced them)"
            )));
        };
        let (name, dir) = match value.split_once('=') {
            Some((n, p)) => {
                let p = std::path::Path::new(p);
                let dir = if p.is_file() { p.parent().unwrap_or(p) } else { p };
                (n.trim().to_string(), Some(dir.display().to_string()))
            }
            None => (value.trim().to_string(), None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
            return Err(fail(format!(
                "--provider {value}: give a provider's name, e.g. legacy or default, optionally =PATH of its module or folder"
            )));
        }
        let cstr = |s: &str| CString::new(s).map_err(|_| fail(format!("--provider {value}: a NUL byte")));
        if let Some(dir) = &dir {
            let d = cstr(dir)?;
            // SAFETY: NULL is the default library context; the path is NUL-terminated.
            if unsafe { search(std::ptr::null_mut(), d.as_ptr()) } != 1 {
                return Err(fail(format!(
                    "--provider {value}: OSSL_PROVIDER_set_default_search_path({dir}) failed"
                )));
            }
        }
        for n in [name.as_str(), "default"] {
            let c = cstr(n)?;
            // SAFETY: as above; the provider stays loaded for the process's life.
            if unsafe { load(std::ptr::null_mut(), c.as_ptr()) }.is_null() {
                let modules = provider_modules(api).unwrap_or_default();
                return Err(fail(format!(
                    "--provider {value}: OSSL_PROVIDER_load({n}) failed (provider modules present: {}; built in: default, base)",
                    if modules.is_empty() { "none" } else { &modules }
                )));
            }
        }
        Ok(Providers {
            query: Some(cstr(&format!("?provider={name}"))?),
            wanted: Some(name),
            properties: None,
        })
    }
}

/// `OpenSSL_version` selectors (include/openssl/crypto.h): 1.1.1+ and 3.0+.
const OPENSSL_ENGINES_DIR: c_int = 5;
const OPENSSL_MODULES_DIR: c_int = 8;

/// The directory in `ENGINESDIR: "…"`.
fn quoted(s: &str) -> Option<&str> {
    let start = s.find('"')? + 1;
    let end = start + s[start..].find('"')?;
    Some(&s[start..end])
}

/// The shared objects in the directory OpenSSL names with `selector`, by stem.
fn modules_in(api: &Api, selector: c_int) -> Option<Vec<String>> {
    // SAFETY: OpenSSL_version returns a static string (or "not available").
    let line = text(unsafe { (api.OpenSSL_version)(selector) })?;
    let dir = quoted(&line)?;
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|f| {
            f.strip_suffix(".so")
                .or_else(|| f.strip_suffix(".dll"))
                .or_else(|| f.strip_suffix(".dylib"))
                .map(str::to_string)
        })
        .collect();
    names.sort();
    Some(names)
}

/// The engine modules present, by name ("afalg padlock pkcs11").
pub fn engines(api: &Api) -> Option<String> {
    let names = modules_in(api, OPENSSL_ENGINES_DIR)?;
    Some(names.join(" "))
}

/// The provider modules present (beside the built-in `default` and `base`).
pub fn provider_modules(api: &Api) -> Option<String> {
    api.OSSL_PROVIDER_get0_name?;
    Some(modules_in(api, OPENSSL_MODULES_DIR)?.join(" "))
}

struct Collect {
    name: unsafe extern "C" fn(*const c_void) -> *const c_char,
    names: Vec<String>,
}

unsafe extern "C" fn collect(provider: *mut c_void, data: *mut c_void) -> c_int {
    // SAFETY: `data` is the `Collect` handed to OSSL_PROVIDER_do_all below.
    let c = unsafe { &mut *(data as *mut Collect) };
    if let Some(n) = text(unsafe { (c.name)(provider) }) {
        c.names.push(n);
    }
    1
}

/// The providers loaded in the default library context (3.0+).
pub fn loaded_providers(api: &Api) -> Option<String> {
    let (name, all) = (api.OSSL_PROVIDER_get0_name?, api.OSSL_PROVIDER_do_all?);
    let mut c = Collect { name, names: Vec::new() };
    // SAFETY: NULL is the default context; the callback gets `c` back and only reads names.
    unsafe { all(std::ptr::null_mut(), collect, &mut c as *mut Collect as *mut c_void) };
    Some(c.names.join(" "))
}

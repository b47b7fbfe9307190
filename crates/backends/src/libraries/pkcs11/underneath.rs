//! The crypto library a PKCS#11 module runs on, where it can be found:
//! the shared objects mapped into the process once the module is loaded
//! (`/proc/self/maps`), of which a libcrypto is asked its version
//! (`OpenSSL_version`). SoftHSM2 on Debian 12 links the system's
//! `libcrypto.so.3`. The result feeds the `underneath.*` details from which
//! the per-call cost over the library called directly is derived
//! (crates/core/src/derive/binding.rs).

/// Name, version number and file of the library underneath, where found.
pub struct Underneath {
    pub name: &'static str,
    pub version: String,
    /// The library's whole version text (e.g. "OpenSSL 3.0.17 1 Jul 2025").
    pub text: String,
    pub path: String,
}

/// The files mapped into this process whose name contains `part`.
#[cfg(target_os = "linux")]
fn mapped(part: &str) -> Vec<String> {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    let mut out: Vec<String> = maps
        .lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .filter(|p| p.rsplit('/').next().is_some_and(|f| f.contains(part)))
        .map(str::to_string)
        .collect();
    out.dedup();
    out
}

#[cfg(not(target_os = "linux"))]
fn mapped(_part: &str) -> Vec<String> {
    Vec::new()
}

/// The OpenSSL libcrypto mapped into the process (the module's), with its version.
pub fn find() -> Option<Underneath> {
    for path in mapped("libcrypto.so") {
        // SAFETY: the file is already loaded; this only takes another reference to it.
        let Ok(lib) = (unsafe { libloading::Library::new(&path) }) else {
            continue;
        };
        // SAFETY: `const char *OpenSSL_version(int t)` (OpenSSL 1.1.0 and later); 0 = OPENSSL_VERSION.
        let Ok(version) = (unsafe { lib.get::<unsafe extern "C" fn(std::ffi::c_int) -> *const std::ffi::c_char>(b"OpenSSL_version\0") })
        else {
            continue;
        };
        let text = crate::native::text(unsafe { version(0) }).unwrap_or_default();
        let number = cryptobench_core::derive::binding::version_number(&text).map(str::to_string);
        if let Some(version) = number {
            return Some(Underneath {
                name: "OpenSSL",
                version,
                text,
                path,
            });
        }
    }
    None
}

//! Loading the Crypto++ shim. build.rs compiles crates/backends/src/libraries/cryptopp/shim.cpp
//! into a shared object that links libcrypto++ (DT_NEEDED libcrypto++.so.8);
//! its bytes are embedded in cryptobench and loaded (once per process) from an anonymous
//! in-memory file (`memfd_create`, Linux), so nothing is installed beside
//! the binary. A library given with `--backend cryptopp=PATH` is loaded
//! first, globally, so that the shim binds to it where its SONAME matches.

use crate::error::OpenError;

/// The shim, loaded; the Crypto++ library it links comes with it.
pub struct Loaded {
    pub shim: &'static libloading::Library,
    /// The user's library, kept loaded while the shim is.
    pub _preloaded: Option<libloading::Library>,
}

#[cfg(all(target_os = "linux", cryptobench_cryptopp_shim))]
pub fn load(path: Option<&str>) -> Result<Loaded, OpenError> {
    let preloaded = match path {
        // SAFETY: loading runs the library's initialisers; this is the point of the worker process.
        Some(p) => Some(
            unsafe { libloading::os::unix::Library::open(Some(p), libc::RTLD_NOW | libc::RTLD_GLOBAL) }
                .map_err(|e| OpenError::Load {
                    path: p.to_string(),
                    reason: e.to_string(),
                })?
                .into(),
        ),
        None => None,
    };
    // One copy of the shim per process, never unloaded: every memfd is a new
    // file to the dynamic loader, so each open would load another copy, and
    // unloading one while another thread still runs Crypto++ code through a
    // copy (its thread-local error slot, its exception objects) crashed the
    // public-key tests. A library given by path is bound by a copy of its own.
    static SHARED: std::sync::Mutex<Option<&'static libloading::Library>> = std::sync::Mutex::new(None);
    let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    let shim = match (*shared, &preloaded) {
        (Some(shim), None) => shim,
        _ => {
            let shim: &'static libloading::Library = Box::leak(Box::new(load_copy()?));
            if preloaded.is_none() {
                *shared = Some(shim);
            }
            shim
        }
    };
    Ok(Loaded {
        shim,
        _preloaded: preloaded,
    })
}

/// A copy of the embedded shim, loaded from an anonymous in-memory file.
#[cfg(all(target_os = "linux", cryptobench_cryptopp_shim))]
fn load_copy() -> Result<libloading::Library, OpenError> {
    use std::io::Write;
    use std::os::fd::FromRawFd;

    static SHIM: &[u8] = include_bytes!(env!("CRYPTOBENCH_CRYPTOPP_SHIM"));

    let failed = |reason: String| OpenError::Load {
        path: "the embedded Crypto++ shim".into(),
        reason,
    };
    // SAFETY: memfd_create with a NUL-terminated name; the descriptor is owned by the File below.
    let fd = unsafe { libc::memfd_create(c"cryptobench-cryptopp-shim".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(failed(format!("memfd_create: {}", std::io::Error::last_os_error())));
    }
    // SAFETY: a fresh descriptor owned by nobody else.
    let mut file = unsafe { std::fs::File::from_raw_fd(fd) };
    file.write_all(SHIM).map_err(|e| failed(format!("writing the shim: {e}")))?;
    let proc_path = format!("/proc/self/fd/{fd}");
    // SAFETY: the shim's initialisers are those of libcrypto++ and the C++ runtime.
    let shim = unsafe { libloading::Library::new(&proc_path) }.map_err(|e| OpenError::NotFound {
        library: "Crypto++ (libcrypto++.so.8, needed by the shim)",
        id: "cryptopp",
        tried: format!("{proc_path}: {e}"),
    })?;
    drop(file);
    Ok(shim)
}

#[cfg(not(all(target_os = "linux", cryptobench_cryptopp_shim)))]
pub fn load(_path: Option<&str>) -> Result<Loaded, OpenError> {
    Err(OpenError::Refused(format!(
        "the Crypto++ shim is not in this cryptobench ({}): install a C++ compiler and Crypto++'s headers (Debian: g++ libcrypto++-dev) and rebuild",
        option_env!("CRYPTOBENCH_CRYPTOPP_SHIM_MISSING").unwrap_or("not built")
    )))
}

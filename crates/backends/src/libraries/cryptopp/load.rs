//! Loading the Crypto++ shim. build.rs compiles crates/backends/src/libraries/cryptopp/shim.cpp
//! into a shared object that links libcrypto++ (DT_NEEDED libcrypto++.so.8);
//! its bytes are embedded in cryptobench and loaded from an anonymous
//! in-memory file (`memfd_create`, Linux), so nothing is installed beside
//! the binary. A library given with `--backend cryptopp=PATH` is loaded
//! first, globally, so that the shim binds to it where its SONAME matches.

use crate::error::OpenError;

/// The shim, loaded; the Crypto++ library it links comes with it.
pub struct Loaded {
    pub shim: libloading::Library,
    /// The user's library, kept loaded while the shim is.
    pub _preloaded: Option<libloading::Library>,
}

#[cfg(all(target_os = "linux", cryptobench_cryptopp_shim))]
pub fn load(path: Option<&str>) -> Result<Loaded, OpenError> {
    use std::io::Write;
    use std::os::fd::FromRawFd;

    static SHIM: &[u8] = include_bytes!(env!("CRYPTOBENCH_CRYPTOPP_SHIM"));

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
    Ok(Loaded {
        shim,
        _preloaded: preloaded,
    })
}

#[cfg(not(all(target_os = "linux", cryptobench_cryptopp_shim)))]
pub fn load(_path: Option<&str>) -> Result<Loaded, OpenError> {
    Err(OpenError::Refused(format!(
        "the Crypto++ shim is not in this cryptobench ({}): install a C++ compiler and Crypto++'s headers (Debian: g++ libcrypto++-dev) and rebuild",
        option_env!("CRYPTOBENCH_CRYPTOPP_SHIM_MISSING").unwrap_or("not built")
    )))
}

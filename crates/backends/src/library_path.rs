//! Which file a loaded library really came from (a bare name like
//! "libcrypto.so.3" is resolved by the dynamic loader's search path).

/// The path of the shared object that contains `symbol`, where the OS can tell.
#[cfg(unix)]
pub fn of_symbol(symbol: *const std::ffi::c_void) -> Option<String> {
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: dladdr only reads the address and fills `info`.
    if unsafe { libc::dladdr(symbol, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    let name = unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }.to_string_lossy().into_owned();
    Some(std::fs::canonicalize(&name).map(|p| p.display().to_string()).unwrap_or(name))
}

#[cfg(not(unix))]
pub fn of_symbol(_symbol: *const std::ffi::c_void) -> Option<String> {
    None
}

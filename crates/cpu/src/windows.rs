//! What Windows tells about this process that other systems tell elsewhere:
//! whether it runs under Wine (ntdll.dll exports `wine_get_version` there,
//! and only there: Wine's documented way to detect it, "Developer FAQ:
//! How can I detect Wine?"), the processor features the OS reports
//! (`IsProcessorFeaturePresent`), and the file a loaded DLL came from.
//! Everywhere but Windows these say nothing.

/// Wine's version ("8.0") where this process runs under Wine.
#[cfg(windows)]
pub fn wine_version() -> Option<String> {
    use windows_sys::Win32::System::LibraryLoader::{GetModuleHandleA, GetProcAddress};
    // SAFETY: ntdll.dll is loaded in every process; the export, where Wine
    // has it, is `const char *wine_get_version(void)` returning a static string.
    unsafe {
        let ntdll = GetModuleHandleA(c"ntdll.dll".as_ptr().cast());
        if ntdll.is_null() {
            return None;
        }
        let f = GetProcAddress(ntdll, c"wine_get_version".as_ptr().cast())?;
        let get: unsafe extern "C" fn() -> *const std::ffi::c_char = std::mem::transmute(f);
        let v = get();
        (!v.is_null()).then(|| std::ffi::CStr::from_ptr(v).to_string_lossy().into_owned())
    }
}

#[cfg(not(windows))]
pub fn wine_version() -> Option<String> {
    None
}

/// "under Wine 8.0 (bcrypt.dll is Wine's)": said with every figure made
/// under Wine (the host's OS in each run record, the cng library's
/// version), so that no one takes it for Windows' speed: Wine's bcrypt.dll
/// is its own implementation over GnuTLS.
pub fn wine_note() -> Option<String> {
    wine_version().map(|v| note_for(&v))
}

fn note_for(version: &str) -> String {
    format!("under Wine {version} (bcrypt.dll is Wine's)")
}

/// The file of the loaded module `name` (e.g. "bcrypt.dll"), where it is loaded.
#[cfg(windows)]
pub fn module_path(name: &str) -> Option<String> {
    use windows_sys::Win32::System::LibraryLoader::{GetModuleFileNameW, GetModuleHandleW};
    let wide: Vec<u16> = name.encode_utf16().chain([0]).collect();
    let mut buf = vec![0u16; 1024];
    // SAFETY: `wide` is NUL-terminated; `buf` receives at most its length.
    let n = unsafe {
        let module = GetModuleHandleW(wide.as_ptr());
        if module.is_null() {
            return None;
        }
        GetModuleFileNameW(module, buf.as_mut_ptr(), buf.len() as u32)
    } as usize;
    (n > 0).then(|| String::from_utf16_lossy(&buf[..n]))
}

#[cfg(not(windows))]
pub fn module_path(name: &str) -> Option<String> {
    let _ = name;
    None
}

/// `IsProcessorFeaturePresent`'s PF_* constants (winnt.h) of the features
/// cryptography uses, and their names.
#[cfg_attr(not(windows), allow(dead_code))]
const PROCESSOR_FEATURES: &[(u32, &str)] = &[
    (13, "sse3"),          // PF_SSE3_INSTRUCTIONS_AVAILABLE
    (28, "rdrand"),        // PF_RDRAND_INSTRUCTION_AVAILABLE
    (30, "arm-v8-crypto"), // PF_ARM_V8_CRYPTO_INSTRUCTIONS_AVAILABLE
    (31, "arm-v8-crc32"),  // PF_ARM_V8_CRC32_INSTRUCTIONS_AVAILABLE
    (36, "ssse3"),         // PF_SSSE3_INSTRUCTIONS_AVAILABLE
    (37, "sse4.1"),        // PF_SSE4_1_INSTRUCTIONS_AVAILABLE
    (38, "sse4.2"),        // PF_SSE4_2_INSTRUCTIONS_AVAILABLE
    (39, "avx"),           // PF_AVX_INSTRUCTIONS_AVAILABLE
    (40, "avx2"),          // PF_AVX2_INSTRUCTIONS_AVAILABLE
    (41, "avx512f"),       // PF_AVX512F_INSTRUCTIONS_AVAILABLE
];

/// The processor features Windows says are present (`IsProcessorFeaturePresent`),
/// by the names of [`PROCESSOR_FEATURES`]; None elsewhere.
#[cfg(windows)]
pub fn os_processor_features() -> Option<Vec<&'static str>> {
    use windows_sys::Win32::System::Threading::IsProcessorFeaturePresent;
    // SAFETY: a query with no pointers.
    Some(
        PROCESSOR_FEATURES
            .iter()
            .filter(|(pf, _)| unsafe { IsProcessorFeaturePresent(*pf) } != 0)
            .map(|(_, n)| *n)
            .collect(),
    )
}

#[cfg(not(windows))]
pub fn os_processor_features() -> Option<Vec<&'static str>> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_names_wine_and_its_bcrypt() {
        assert_eq!(note_for("8.0"), "under Wine 8.0 (bcrypt.dll is Wine's)");
        #[cfg(not(windows))]
        {
            assert_eq!(wine_note(), None);
            assert_eq!(os_processor_features(), None);
        }
    }
}

//! BoringSSL's view of the CPU: its capability vector `OPENSSL_ia32cap_P`
//! (four 32-bit words filled by `OPENSSL_cpuid_setup`, crypto/cpu_intel.c),
//! which honours the environment variable `OPENSSL_ia32cap` as OpenSSL does
//! ("~" clears bits from the detected words; two 64-bit fields). Reported
//! in OpenSSL 3.0's format, `OPENSSL_ia32cap=0x…:0x…`, so that OpenSSL's
//! decoder and masks serve both (the registry's entry).

/// The vector as OpenSSL 3.0 prints it, after BoringSSL's initialisation.
#[cfg(target_arch = "x86_64")]
pub fn capability_vector() -> Option<String> {
    extern "C" {
        // crypto/internal.h: `extern uint32_t OPENSSL_ia32cap_P[4];` (boring-sys
        // builds BoringSSL without symbol prefixes).
        static OPENSSL_ia32cap_P: [u32; 4];
    }
    // SAFETY: runs OPENSSL_cpuid_setup once (CRYPTO_once).
    unsafe { boring_sys::CRYPTO_library_init() };
    // SAFETY: written once during initialisation, read only here.
    let words = unsafe { std::ptr::addr_of!(OPENSSL_ia32cap_P).read_volatile() };
    Some(crate::libraries::openssl::capabilities::x86_text(words))
}

#[cfg(not(target_arch = "x86_64"))]
pub fn capability_vector() -> Option<String> {
    // BoringSSL keeps OPENSSL_armcap_P on arm; not read here, so nothing is claimed.
    None
}

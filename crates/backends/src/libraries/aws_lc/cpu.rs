//! AWS-LC's view of the CPU: its capability vector `OPENSSL_ia32cap_P`
//! (four 32-bit words, filled by `OPENSSL_cpuid_setup` in
//! crypto/fipsmodule/cpucap/cpu_intel.c), which honours the environment
//! variable `OPENSSL_ia32cap` as OpenSSL does ("~" clears bits from the
//! detected words; two 64-bit fields, words 0–1 and 2–3). It is reported in
//! OpenSSL 3.0's format, `OPENSSL_ia32cap=0x…:0x…` (crypto/info.c), so that
//! OpenSSL's decoder and masks serve both (the registry's entry).

/// The vector as OpenSSL 3.0 prints it, after AWS-LC's initialisation.
#[cfg(target_arch = "x86_64")]
pub fn capability_vector() -> Option<String> {
    extern "C" {
        // aws-lc-sys links every C symbol with its version prefix
        // (aws_lc_<version>_), which build.rs reads from Cargo.lock.
        #[link_name = env!("CRYPTOBENCH_AWSLC_IA32CAP_SYMBOL")]
        static OPENSSL_ia32cap_P: [u32; 4];
    }
    aws_lc_rs::init();
    // SAFETY: written once by OPENSSL_cpuid_setup under CRYPTO_once, which init() has run; read only here.
    let words = unsafe { std::ptr::addr_of!(OPENSSL_ia32cap_P).read_volatile() };
    Some(crate::libraries::openssl::capabilities::x86_text(words))
}

#[cfg(not(target_arch = "x86_64"))]
pub fn capability_vector() -> Option<String> {
    // AWS-LC keeps OPENSSL_armcap_P on arm; not read here, so nothing is claimed.
    None
}

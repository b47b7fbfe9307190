//! Botan's view of the CPU, and its mask.
//!
//! Botan 2 keeps what it detected in one `CPUID::CPUID_Data` object, the
//! function-local static `Botan::CPUID::state()::g_cpuid` of botan/cpuid.h,
//! which libbotan-2 exports as a unique symbol; its first member is the
//! 64-bit `m_processor_features` bit set (`CPUID_bits`, cpuid.h). Every
//! `CPUID::has_*()` check reads it, at each call. Botan 3 reads
//! `BOTAN_CLEAR_CPUID` (names separated by commas) itself; Botan 2.19 does
//! not (the string is not in libbotan-2.so.19), so for Botan 2 this backend
//! applies the same variable (Botan 3's src/lib/utils/cpuid/cpuid.cpp
//! clears `bit_from_string` of each name from the detected set) the way
//! Botan 2's own test hook does
//! (`CPUID::clear_cpuid_bit`: `m_processor_features &= ~bit`), after
//! `CPUID::initialize()` has run the detection, and reports the bits that
//! remain: a masked worker's report shows the mask took effect.

use std::sync::OnceLock;

use libloading::Library;

use super::capabilities::CLEAR_CPUID_ENV;

/// `CPUID_bits` of Botan 2's cpuid.h on x86 with the names `botan cpuid`
/// prints (`CPUID::to_string`), and the names `CPUID::bit_from_string` accepts.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
const BITS: &[(u64, &str, &[&str])] = &[
    (1 << 0, "sse2", &["sse2", "simd"]),
    (1 << 1, "ssse3", &["ssse3"]),
    (1 << 2, "sse41", &["sse41"]),
    (1 << 3, "sse42", &["sse42"]),
    (1 << 4, "avx2", &["avx2"]),
    (1 << 5, "avx512f", &["avx512f"]),
    (1 << 6, "avx512dq", &["avx512dq"]),
    (1 << 7, "avx512bw", &["avx512bw"]),
    (1 << 11, "avx512_icl", &["avx512_icl", "avx512_icelake"]),
    (1 << 16, "aes_ni", &["aesni", "aes_ni"]),
    (1 << 17, "clmul", &["clmul"]),
    (1 << 18, "rdrand", &["rdrand"]),
    (1 << 19, "rdseed", &["rdseed"]),
    (1 << 20, "intel_sha", &["sha", "intel_sha"]),
    (1 << 21, "avx512_aes", &["avx512_aes"]),
    (1 << 22, "avx512_clmul", &["avx512_clmul"]),
    (1 << 48, "rdtsc", &["rdtsc"]),
    (1 << 49, "adx", &["adx"]),
    (1 << 50, "bmi1", &["bmi1"]),
    (1 << 51, "bmi2", &["bmi2"]),
];

/// The same for arm (cpuid.h, BOTAN_TARGET_CPU_IS_ARM_FAMILY).
#[cfg(not(any(target_arch = "x86_64", target_arch = "x86")))]
const BITS: &[(u64, &str, &[&str])] = &[
    (1 << 0, "neon", &["neon", "simd"]),
    (1 << 1, "arm_sve", &["arm_sve"]),
    (1 << 16, "arm_aes", &["armv8aes", "arm_aes"]),
    (1 << 17, "arm_pmull", &["armv8pmull", "arm_pmull"]),
    (1 << 18, "arm_sha1", &["armv8sha1", "arm_sha1"]),
    (1 << 19, "arm_sha2", &["armv8sha2", "arm_sha2"]),
    (1 << 20, "arm_sha3", &["armv8sha3", "arm_sha3"]),
    (1 << 21, "arm_sha2_512", &["armv8sha2_512", "arm_sha2_512"]),
];

/// Mangled names (Itanium C++ ABI) of `Botan::CPUID::initialize()` and of
/// `Botan::CPUID::state()::g_cpuid`.
const INITIALIZE: &[u8] = b"_ZN5Botan5CPUID10initializeEv\0";
const STATE: &[u8] = b"_ZZN5Botan5CPUID5stateEvE7g_cpuid\0";

/// (the names of the bits set, the names cleared by the mask).
pub type View = (Vec<&'static str>, Vec<String>);

static VIEW: OnceLock<Result<View, String>> = OnceLock::new();

/// What Botan detected, after applying `BOTAN_CLEAR_CPUID` once per
/// process (the first open; later ones see the same library state), or why
/// nothing can be said.
pub fn view_and_mask(lib: &Library) -> Result<View, String> {
    VIEW.get_or_init(|| detect_and_mask(lib)).clone()
}

fn detect_and_mask(lib: &Library) -> Result<View, String> {
    // SAFETY: `static void Botan::CPUID::initialize()` (cpuid.h); re-runs the detection.
    let initialize = unsafe { lib.get::<unsafe extern "C" fn()>(INITIALIZE) }
        .map_err(|_| "this Botan exports no CPUID state (Botan::CPUID::initialize of Botan 2)".to_string())?;
    // SAFETY: the address of the CPUID_Data object; only its first u64 is touched.
    let state = unsafe { lib.get::<*mut u64>(STATE) }
        .map_err(|_| "this Botan exports no CPUID state (Botan::CPUID::state()::g_cpuid of Botan 2)".to_string())?;
    let features: *mut u64 = *state;
    // SAFETY: constructs/refreshes g_cpuid (CPUID::initialize: `state() = CPUID_Data()`).
    unsafe { initialize() };
    let mut cleared = Vec::new();
    if let Ok(list) = std::env::var(CLEAR_CPUID_ENV) {
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let bit = BITS
                .iter()
                .find(|(_, _, accepted)| accepted.contains(&name))
                .ok_or_else(|| {
                    let valid: Vec<&str> = BITS.iter().flat_map(|(_, _, names)| names.iter().copied()).collect();
                    format!(
                        "{CLEAR_CPUID_ENV} names '{name}', which Botan's CPUID does not know; valid: {}",
                        valid.join(", ")
                    )
                })?
                .0;
            // SAFETY: as CPUID::clear_cpuid_bit does; done before any cipher runs in this process.
            unsafe { features.write_volatile(features.read_volatile() & !bit) };
            cleared.push(name.to_string());
        }
    }
    // SAFETY: initialised above.
    let bits = unsafe { features.read_volatile() };
    Ok((BITS.iter().filter(|(b, _, _)| bits & b != 0).map(|(_, n, _)| *n).collect(), cleared))
}

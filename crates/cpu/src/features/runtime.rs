//! Reading this machine's features through each OS's own interface.

use super::Feature;

/// What the processor offers and the OS enables, read at run time.
pub fn runtime_features() -> Vec<Feature> {
    read()
}

#[cfg(target_arch = "x86_64")]
fn read() -> Vec<Feature> {
    super::x86::decode(&super::x86::read())
}

#[cfg(all(target_arch = "aarch64", any(target_os = "linux", target_os = "android")))]
fn read() -> Vec<Feature> {
    // SAFETY: getauxval only reads the auxiliary vector.
    let (hwcap, hwcap2) = unsafe { (libc::getauxval(libc::AT_HWCAP), libc::getauxval(libc::AT_HWCAP2)) };
    super::arm::decode_hwcap(hwcap as u64, hwcap2 as u64)
}

#[cfg(all(target_arch = "powerpc64", target_os = "linux"))]
fn read() -> Vec<Feature> {
    // SAFETY: getauxval only reads the auxiliary vector.
    let (hwcap, hwcap2) = unsafe { (libc::getauxval(libc::AT_HWCAP), libc::getauxval(libc::AT_HWCAP2)) };
    super::ppc::decode_hwcap(hwcap as u64, hwcap2 as u64)
}

#[cfg(all(target_arch = "s390x", target_os = "linux"))]
fn read() -> Vec<Feature> {
    super::s390x::decode(&super::s390x::read())
}

#[cfg(all(target_arch = "riscv64", target_os = "linux"))]
fn read() -> Vec<Feature> {
    super::riscv::decode(&super::riscv::read())
}

#[cfg(all(target_arch = "aarch64", target_os = "macos"))]
fn read() -> Vec<Feature> {
    super::arm::MACOS_SYSCTLS
        .iter()
        .filter(|(_, key)| {
            let name = std::ffi::CString::new(*key).expect("no NUL in sysctl names");
            let mut value: i32 = 0;
            let mut len = std::mem::size_of::<i32>();
            // SAFETY: reads one int into `value`.
            let rc = unsafe { libc::sysctlbyname(name.as_ptr(), (&mut value as *mut i32).cast(), &mut len, std::ptr::null_mut(), 0) };
            rc == 0 && value != 0
        })
        .map(|(name, key)| Feature {
            name,
            source: format!("sysctl {key}"),
        })
        .collect()
}

#[cfg(all(target_arch = "aarch64", windows))]
fn read() -> Vec<Feature> {
    #[link(name = "kernel32")]
    extern "system" {
        fn IsProcessorFeaturePresent(feature: u32) -> i32;
    }
    /// winnt.h: PF_ARM_V8_CRYPTO_INSTRUCTIONS_AVAILABLE (AES, PMULL, SHA1, SHA2).
    const PF_ARM_V8_CRYPTO_INSTRUCTIONS_AVAILABLE: u32 = 30;
    // SAFETY: a plain query without side effects.
    if unsafe { IsProcessorFeaturePresent(PF_ARM_V8_CRYPTO_INSTRUCTIONS_AVAILABLE) } == 0 {
        return Vec::new();
    }
    ["aes", "pmull", "sha1", "sha2"]
        .into_iter()
        .map(|name| Feature {
            name,
            source: "IsProcessorFeaturePresent(PF_ARM_V8_CRYPTO_INSTRUCTIONS_AVAILABLE)".into(),
        })
        .collect()
}

#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "powerpc64", target_os = "linux"),
    all(any(target_arch = "s390x", target_arch = "riscv64"), target_os = "linux"),
    all(
        target_arch = "aarch64",
        any(target_os = "linux", target_os = "android", target_os = "macos", windows)
    )
)))]
fn read() -> Vec<Feature> {
    Vec::new()
}

/// Features this binary was compiled to assume (`-C target-feature`), which
/// code may use without checking at run time.
pub fn compile_time_features() -> Vec<&'static str> {
    let mut out = Vec::new();
    macro_rules! check {
        ($($feature:literal => $name:literal),* $(,)?) => {
            $( if cfg!(target_feature = $feature) { out.push($name); } )*
        };
    }
    check!(
        "aes" => "aes", "pclmulqdq" => "pclmulqdq", "avx" => "avx", "avx2" => "avx2", "sha" => "sha_ni",
        "vaes" => "vaes", "vpclmulqdq" => "vpclmulqdq", "avx512f" => "avx512f", "gfni" => "gfni",
        "neon" => "neon", "sha2" => "sha2", "sha3" => "sha3", "sve" => "sve", "sve2" => "sve2",
    );
    out
}

//! Whether this process runs under an emulator, and which. A worker built
//! for one architecture may run on another (qemu-user on Linux, Rosetta 2 on
//! macOS, Windows' x64 emulation on Arm): its figures then describe the
//! emulator, and its clock, cycles per byte and score per MHz mean nothing.
//!
//! Sources, in order: `CRYPTOBENCH_EMULATOR`, which the orchestrator sets
//! when it starts a worker through an emulator it chose (`--arch`); on
//! Linux, a /proc/cpuinfo that describes a CPU of another architecture than
//! the one this binary was built for (qemu-user passes the host's file
//! through for arm64 guests); on macOS, `sysctl.proc_translated` (Rosetta 2,
//! Apple's "About the Rosetta translation environment").

/// Set by the orchestrator in the environment of a worker it starts through an emulator.
pub use cryptobench_core::result::EMULATOR_ENV;

/// How this process is emulated, where it can tell.
pub fn detect() -> Option<String> {
    if let Ok(named) = std::env::var(EMULATOR_ENV) {
        if !named.trim().is_empty() {
            return Some(named.trim().to_string());
        }
    }
    from_os()
}

#[cfg(target_os = "linux")]
fn from_os() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    foreign_cpuinfo(&info, std::env::consts::ARCH).map(|host| format!("an emulator (the kernel reports {host})"))
}

#[cfg(target_os = "macos")]
fn from_os() -> Option<String> {
    let name = std::ffi::CString::new("sysctl.proc_translated").expect("no NUL");
    let mut value: i32 = 0;
    let mut len = std::mem::size_of::<i32>();
    // SAFETY: reads one int into `value`.
    let rc = unsafe { libc::sysctlbyname(name.as_ptr(), (&mut value as *mut i32).cast(), &mut len, std::ptr::null_mut(), 0) };
    (rc == 0 && value == 1).then(|| "Rosetta 2".to_string())
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn from_os() -> Option<String> {
    None
}

/// The architecture family a /proc/cpuinfo text describes, when it is not
/// `arch`'s: x86 files have `vendor_id` and `flags`, arm ones `CPU implementer`
/// and `Features`, POWER ones `cpu : POWER…`, s390x ones `vendor_id : IBM/S390`,
/// RISC-V ones `isa : rv64…`.
pub fn foreign_cpuinfo(info: &str, arch: &str) -> Option<&'static str> {
    let has = |key: &str| info.lines().any(|l| l.split(':').next().is_some_and(|k| k.trim() == key));
    let described = if info.contains("IBM/S390") {
        "s390x"
    } else if has("vendor_id") && has("flags") {
        "x86"
    } else if has("CPU implementer") {
        "arm"
    } else if info.lines().any(|l| l.starts_with("cpu") && l.contains("POWER")) {
        "powerpc"
    } else if crate::features::riscv::isa_line(info).is_some() {
        "riscv"
    } else {
        return None;
    };
    let own = match arch {
        "x86" | "x86_64" => "x86",
        "arm" | "aarch64" => "arm",
        "powerpc" | "powerpc64" => "powerpc",
        "s390x" => "s390x",
        "riscv64" => "riscv",
        _ => return None,
    };
    (described != own).then_some(match described {
        "x86" => "an x86 CPU",
        "arm" => "an Arm CPU",
        "powerpc" => "a POWER CPU",
        "riscv" => "a RISC-V CPU",
        _ => "an s390x CPU",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const X86: &str = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse2 aes\n";
    const ARM: &str = "processor\t: 0\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd aes pmull\nCPU implementer\t: 0x41\nCPU part\t: 0xd08\n";

    #[test]
    fn a_cpuinfo_of_another_architecture_means_emulation() {
        assert_eq!(foreign_cpuinfo(X86, "aarch64"), Some("an x86 CPU"));
        assert_eq!(foreign_cpuinfo(X86, "x86_64"), None);
        assert_eq!(foreign_cpuinfo(ARM, "aarch64"), None);
        assert_eq!(foreign_cpuinfo(ARM, "x86_64"), Some("an Arm CPU"));
        assert_eq!(foreign_cpuinfo("", "aarch64"), None, "an unreadable file proves nothing");
        assert_eq!(foreign_cpuinfo(X86, "riscv64"), Some("an x86 CPU"));
        assert_eq!(foreign_cpuinfo(X86, "s390x"), Some("an x86 CPU"));
        let riscv = "processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdc_zicsr\nmmu\t\t: sv39\n";
        assert_eq!(foreign_cpuinfo(riscv, "riscv64"), None);
        assert_eq!(foreign_cpuinfo(riscv, "x86_64"), Some("a RISC-V CPU"));
    }

    #[test]
    fn this_test_process_is_native() {
        // The tests run natively in CI on x86_64 (and under qemu for aarch64, where the variable or cpuinfo tell).
        if std::env::var_os(EMULATOR_ENV).is_none() && cfg!(target_arch = "x86_64") {
            assert_eq!(detect(), None);
        }
    }
}

use cryptobench_core::result::HostInfo;

/// Describes this machine from what the OS exposes; fields it cannot read
/// stay empty. The clock policy is read for `cpu` (the pinned CPU, or 0).
pub fn host_info_for(cpu: usize) -> HostInfo {
    let policy = crate::frequency::frequency_policy(cpu);
    HostInfo {
        governor: policy.governor.map(|g| g.0),
        boost: policy.boost.map(|b| b.0),
        hostname: hostname(),
        cpu_model: cpu_model(),
        logical_cores: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        arch: std::env::consts::ARCH.to_string(),
        os: os_name(),
        kernel: kernel_release(),
        virtualization: hypervisor(),
        tsc_mhz: crate::clock::tsc_mhz(),
        reported_mhz: crate::clock::reported_mhz().map(|r| r.0),
        reported_mhz_source: crate::clock::reported_mhz().map(|r| r.1.to_string()),
    }
}

/// [`host_info_for`] CPU 0.
pub fn host_info() -> HostInfo {
    host_info_for(0)
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn hostname() -> Option<String> {
    read_trimmed("/proc/sys/kernel/hostname")
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
}

fn kernel_release() -> Option<String> {
    read_trimmed("/proc/sys/kernel/osrelease")
}

/// PRETTY_NAME of os-release(5) on Linux, else the target OS; under Wine,
/// followed by "under Wine 8.0 (bcrypt.dll is Wine's)" (crate::windows),
/// so that every run record made there says so.
fn os_name() -> String {
    let name = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("PRETTY_NAME=").map(|v| v.trim_matches('"').to_string()))
        })
        .unwrap_or_else(|| {
            if cfg!(windows) {
                "Windows".to_string()
            } else {
                std::env::consts::OS.to_string()
            }
        });
    match crate::windows::wine_note() {
        Some(note) => format!("{name} {note}"),
        None => name,
    }
}

/// "model name" (x86) or, on arm64 where the kernel has none, the "CPU part" numbers of /proc/cpuinfo.
fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let field = |name: &str| {
        info.lines().find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.trim() == name)
                .map(|(_, v)| v.trim().to_string())
        })
    };
    field("model name")
        .or_else(|| field("Hardware"))
        .or_else(|| field("CPU part").map(|p| format!("CPU part {p}")))
}

/// The hypervisor vendor: CPUID leaf 0x4000_0000 where the hypervisor bit
/// (CPUID.1:ECX bit 31, Intel SDM vol. 2A, table 3-10) is set; on other
/// architectures, the "hypervisor" flag or /sys/hypervisor.
fn hypervisor() -> Option<String> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        let leaf1 = __cpuid(1);
        if leaf1.ecx & (1 << 31) == 0 {
            return None;
        }
        let leaf = __cpuid(0x4000_0000);
        let bytes: Vec<u8> = [leaf.ebx, leaf.ecx, leaf.edx].iter().flat_map(|r| r.to_le_bytes()).collect();
        let vendor = String::from_utf8_lossy(&bytes).trim_matches(char::from(0)).trim().to_string();
        let name = match vendor.as_str() {
            "KVMKVMKVM" => "KVM",
            "Microsoft Hv" => "Hyper-V",
            "VMwareVMware" => "VMware",
            "XenVMMXenVMM" => "Xen",
            "TCGTCGTCGTCG" => "QEMU (TCG)",
            "VBoxVBoxVBox" => "VirtualBox",
            "ACRNACRNACRN" => "ACRN",
            "Linux KVM Hv" => "KVM (Hyper-V enlightenments)",
            "" => "unknown hypervisor",
            other => other,
        };
        Some(name.to_string())
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        read_trimmed("/sys/hypervisor/type")
    }
}

/// The CPU vendor: the CPUID leaf 0 string on x86 ("GenuineIntel",
/// "AuthenticAMD"), the MIDR implementer on arm (Arm ARM, MIDR_EL1).
pub fn cpu_vendor() -> Option<String> {
    #[cfg(target_arch = "x86_64")]
    {
        let leaf = std::arch::x86_64::__cpuid(0);
        let bytes: Vec<u8> = [leaf.ebx, leaf.edx, leaf.ecx].iter().flat_map(|r| r.to_le_bytes()).collect();
        Some(String::from_utf8_lossy(&bytes).trim().to_string())
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
        let implementer = info.lines().find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.trim() == "CPU implementer")
                .map(|(_, v)| v.trim().to_string())
        })?;
        let name = match implementer.as_str() {
            "0x41" => "Arm",
            "0x42" => "Broadcom",
            "0x43" => "Cavium",
            "0x48" => "HiSilicon",
            "0x4e" => "NVIDIA",
            "0x51" => "Qualcomm",
            "0x61" => "Apple",
            "0x70" => "Phytium",
            "0xc0" => "Ampere",
            other => other,
        };
        Some(name.to_string())
    }
}

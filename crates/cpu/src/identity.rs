//! Which processor this is, read from /proc/cpuinfo: the x86 CPUID vendor,
//! family and model ("vendor_id", "cpu family", "model": Linux prints
//! family and model with their extended fields already added,
//! arch/x86/kernel/cpu/proc.c), or the arm MIDR_EL1 implementer and part
//! ("CPU implementer", "CPU part", arch/arm64/kernel/cpuinfo.c). The
//! microarchitecture is recognised from it by [`crate::microarch`].

use cryptobench_core::result::CpuIdentity;

/// The identity of this machine's first processor, where the OS says.
pub fn this_cpu() -> Option<CpuIdentity> {
    parse(&std::fs::read_to_string("/proc/cpuinfo").ok()?, "/proc/cpuinfo")
}

/// The identity in a /proc/cpuinfo text (its first processor's fields).
pub fn parse(cpuinfo: &str, source: &str) -> Option<CpuIdentity> {
    let field = |name: &str| {
        cpuinfo.lines().find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.trim() == name)
                .map(|(_, v)| v.trim().to_string())
        })
    };
    let number = |name: &str| {
        field(name).and_then(|v| match v.strip_prefix("0x") {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => v.parse().ok(),
        })
    };
    let id = CpuIdentity {
        vendor: field("vendor_id"),
        family: number("cpu family"),
        model: number("model"),
        implementer: number("CPU implementer"),
        part: number("CPU part"),
        source: source.to_string(),
    };
    (id.family.is_some() || id.part.is_some()).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_x86_and_arm_fields() {
        let x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC\n";
        let id = parse(x86, "t").unwrap();
        assert_eq!(
            (id.vendor.as_deref(), id.family, id.model),
            (Some("AuthenticAMD"), Some(25), Some(1))
        );
        // A Cortex-A76 as Linux prints it (part 0xd0b: cputype.h ARM_CPU_PART_CORTEX_A76).
        let arm = "processor\t: 0\nBogoMIPS\t: 48.00\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x4\nCPU part\t: 0xd0b\nCPU revision\t: 0\n";
        let id = parse(arm, "t").unwrap();
        assert_eq!((id.implementer, id.part, id.family), (Some(0x41), Some(0xd0b), None));
        assert!(parse("flags: x\n", "t").is_none());
    }
}

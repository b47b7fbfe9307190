//! Intel's hybrid processors (Alder Lake and later: P cores and E cores in
//! one package). CPUID.(EAX=07H,ECX=0):EDX[15] "Hybrid" says the processor
//! mixes core types; CPUID leaf 1AH "Native Model ID Enumeration" gives, in
//! EAX[31:24], the type of the core that executes it — 20H Intel Atom (E
//! core), 40H Intel Core (P core) — and in EAX[23:0] its native model ID
//! (Intel 64 and IA-32 Architectures Software Developer's Manual, Vol. 2A,
//! CPUID, leaves 07H and 1AH). CPUID describes the logical processor it runs
//! on, so each CPU is read by a thread pinned to that CPU.
//!
//! A recorded machine (CRYPTOBENCH_SYSFS_ROOT) carries its CPUID values in a
//! file `cpuid.txt` at its root, in the raw format of the `cpuid` tool
//! (`cpuid -r`, Todd Allen): "CPU n:" followed by lines
//! `0x0000001a 0x00: eax=0x40000001 ebx=… ecx=… edx=…`.

use std::collections::BTreeMap;

use crate::sysfs::Root;

/// The recorded CPUID values of a machine, at its root.
pub const RECORDED_CPUID: &str = "cpuid.txt";

/// Leaf 1AH EAX per CPU where the processor is hybrid; None where it is not
/// (or is not x86, or nothing says).
pub fn core_types(root: &Root, cpus: &[usize]) -> Option<BTreeMap<usize, u32>> {
    if root.live {
        live(cpus)
    } else {
        recorded(&std::fs::read_to_string(root.path.join(RECORDED_CPUID)).ok()?)
    }
}

/// The name of a leaf 1AH core type.
pub fn type_name(eax: u32) -> String {
    match eax >> 24 {
        0x20 => "Intel Atom (E-core)".into(),
        0x40 => "Intel Core (P-core)".into(),
        other => format!("Intel core type {other:#04x}"),
    }
}

/// Parses `cpuid -r` output: per CPU, leaf 07H subleaf 0 EDX (hybrid bit)
/// and leaf 1AH EAX; None unless the hybrid bit is set on some CPU.
pub fn recorded(text: &str) -> Option<BTreeMap<usize, u32>> {
    let mut cpu: Option<usize> = None;
    let mut hybrid = false;
    let mut types = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        if let Some(n) = line.strip_prefix("CPU ").and_then(|r| r.strip_suffix(':')) {
            cpu = n.trim().parse().ok();
            continue;
        }
        let Some(c) = cpu else { continue };
        let Some((leaf, regs)) = line.split_once(':') else { continue };
        let mut words = leaf
            .split_whitespace()
            .map(|w| u32::from_str_radix(w.trim_start_matches("0x"), 16).ok());
        let (Some(Some(leaf)), Some(Some(subleaf))) = (words.next(), words.next()) else {
            continue;
        };
        let reg = |name: &str| {
            regs.split_whitespace()
                .find_map(|r| r.strip_prefix(&format!("{name}=")))
                .and_then(|v| u32::from_str_radix(v.trim_start_matches("0x"), 16).ok())
        };
        match (leaf, subleaf) {
            (0x7, 0) => hybrid |= reg("edx").is_some_and(|edx| edx & (1 << 15) != 0),
            (0x1a, 0) => {
                if let Some(eax) = reg("eax") {
                    types.insert(c, eax);
                }
            }
            _ => {}
        }
    }
    (hybrid && !types.is_empty()).then_some(types)
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn live(cpus: &[usize]) -> Option<BTreeMap<usize, u32>> {
    use std::arch::x86_64::{__cpuid_count, __get_cpuid_max};
    // Leaves above the maximum are not asked for.
    let (max, _) = __get_cpuid_max(0);
    if max < 0x1a || __cpuid_count(7, 0).edx & (1 << 15) == 0 {
        return None;
    }
    let mut types = BTreeMap::new();
    for &cpu in cpus {
        let read = std::thread::spawn(move || {
            crate::pin_to_cpu(cpu).ok()?;
            Some(__cpuid_count(0x1a, 0).eax)
        });
        if let Ok(Some(eax)) = read.join() {
            types.insert(cpu, eax);
        }
    }
    (!types.is_empty()).then_some(types)
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn live(_cpus: &[usize]) -> Option<BTreeMap<usize, u32>> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cpuid_r_output() {
        let text = "CPU 0:\n   0x00000007 0x00: eax=0x00000001 ebx=0x239ca7eb ecx=0x98c027bc edx=0xfc1cc410\n   \
                    0x0000001a 0x00: eax=0x40000001 ebx=0x00000000 ecx=0x00000000 edx=0x00000000\n\
                    CPU 16:\n   0x0000001a 0x00: eax=0x20000001 ebx=0x00000000 ecx=0x00000000 edx=0x00000000\n";
        let t = recorded(text).unwrap();
        assert_eq!(t[&0] >> 24, 0x40);
        assert_eq!(type_name(t[&16]), "Intel Atom (E-core)");
        assert_eq!(type_name(t[&0]), "Intel Core (P-core)");
        // Without the hybrid bit the leaf says nothing about core types.
        assert!(recorded(&text.replace("edx=0xfc1cc410", "edx=0xfc1c4410")).is_none());
    }

    #[test]
    fn this_machine_answers_without_failing() {
        // Not hybrid here (or hybrid: then every CPU has a type); either way no panic.
        let cpus: Vec<usize> = (0..std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)).collect();
        if let Some(t) = core_types(&Root::live(), &cpus) {
            assert!(t.values().all(|eax| eax >> 24 != 0));
        }
    }
}

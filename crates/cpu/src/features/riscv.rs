//! RISC-V feature decoding, from what Linux offers a process: the
//! `riscv_hwprobe` system call (Linux 6.4+), key RISCV_HWPROBE_KEY_IMA_EXT_0
//! (4), whose bits are Linux arch/riscv/include/uapi/asm/hwprobe.h's:
//! RISCV_HWPROBE_IMA_V 1<<2, EXT_ZBB 1<<4, EXT_ZBC 1<<7, EXT_ZBKB 1<<8,
//! EXT_ZBKC 1<<9, EXT_ZKND 1<<11, EXT_ZKNE 1<<12, EXT_ZKNH 1<<13, EXT_ZVBB
//! 1<<17, EXT_ZVBC 1<<18, EXT_ZVKB 1<<19, EXT_ZVKG 1<<20, EXT_ZVKNED 1<<21,
//! EXT_ZVKNHA 1<<22, EXT_ZVKNHB 1<<23, EXT_ZVKSED 1<<24, EXT_ZVKSH 1<<25;
//! the ISA string of /proc/cpuinfo's `isa` line (`rv64imafdcv_zbb_zvkned…`,
//! the kernel's riscv_print_isa); and AT_HWCAP's single-letter bits (Linux
//! arch/riscv/include/uapi/asm/hwcap.h: COMPAT_HWCAP_ISA_V is bit 'V' - 'A' = 21).
//! Each feature is reported with the first of these that has it.

use super::Feature;

/// The words the features are decoded from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    pub hwcap: u64,
    /// `riscv_hwprobe`'s IMA_EXT_0 value; None where the call is refused (ENOSYS
    /// before Linux 6.4 and under emulators that do not implement it).
    pub hwprobe_ext0: Option<u64>,
    /// The `isa` line of a RISC-V /proc/cpuinfo; None where the file describes another CPU.
    pub isa: Option<String>,
}

/// The extensions named as features: (name, riscv_hwprobe IMA_EXT_0 bit).
/// The scalar (Zb*, Zk*) and vector (V, Zv*) crypto extensions and the
/// bit-manipulation ones the cryptographic code uses.
pub const EXTENSIONS: &[(&str, u32)] = &[
    ("v", 2),
    ("zbb", 4),
    ("zbc", 7),
    ("zbkb", 8),
    ("zbkc", 9),
    ("zknd", 11),
    ("zkne", 12),
    ("zknh", 13),
    ("zvbb", 17),
    ("zvbc", 18),
    ("zvkb", 19),
    ("zvkg", 20),
    ("zvkned", 21),
    ("zvknha", 22),
    ("zvknhb", 23),
    ("zvksed", 24),
    ("zvksh", 25),
];

/// AT_HWCAP's bit of the V extension.
const HWCAP_ISA_V: u32 = (b'V' - b'A') as u32;

/// The extensions an ISA string names: the single letters after `rv64`
/// (up to the first `_`) and the multi-letter ones between underscores, in
/// lower case.
pub fn isa_extensions(isa: &str) -> Vec<String> {
    let isa = isa.trim().to_ascii_lowercase();
    let rest = isa.strip_prefix("rv64").or_else(|| isa.strip_prefix("rv32")).unwrap_or(&isa);
    let mut parts = rest.split('_');
    let mut out: Vec<String> = parts.next().unwrap_or("").chars().map(|c| c.to_string()).collect();
    out.extend(parts.filter(|p| !p.is_empty()).map(str::to_string));
    out
}

/// Decodes the features, each with the first source that reports it.
pub fn decode(s: &Sources) -> Vec<Feature> {
    let named = s.isa.as_deref().map(isa_extensions).unwrap_or_default();
    EXTENSIONS
        .iter()
        .filter_map(|(name, bit)| {
            let source = if s.hwprobe_ext0.is_some_and(|v| v & (1u64 << bit) != 0) {
                format!("riscv_hwprobe IMA_EXT_0 bit {bit}")
            } else if named.iter().any(|n| n == name) {
                format!("/proc/cpuinfo isa {name}")
            } else if *name == "v" && s.hwcap & (1u64 << HWCAP_ISA_V) != 0 {
                format!("AT_HWCAP bit {HWCAP_ISA_V}")
            } else {
                return None;
            };
            Some(Feature { name, source })
        })
        .collect()
}

/// The `isa` line of /proc/cpuinfo, where the file describes a RISC-V CPU
/// (under qemu-user it is the host's, which has none).
pub fn isa_line(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|l| {
        let (key, value) = l.split_once(':')?;
        (key.trim() == "isa" && value.trim().starts_with("rv")).then(|| value.trim().to_string())
    })
}

/// Reads this process's sources.
#[cfg(all(target_arch = "riscv64", target_os = "linux"))]
pub fn read() -> Sources {
    /// `struct riscv_hwprobe { __s64 key; __u64 value; }` (hwprobe.h).
    #[repr(C)]
    struct Pair {
        key: i64,
        value: u64,
    }
    /// __NR_riscv_hwprobe (Linux include/uapi/asm-generic/unistd.h: __NR_arch_specific_syscall + 14).
    const NR_RISCV_HWPROBE: libc::c_long = 258;
    const KEY_IMA_EXT_0: i64 = 4;
    let mut pair = Pair {
        key: KEY_IMA_EXT_0,
        value: 0,
    };
    // SAFETY: riscv_hwprobe(pairs, 1, 0, NULL, 0) fills the one pair given; an
    // unknown key is answered with key -1, an old kernel or an emulator with ENOSYS.
    let rc = unsafe {
        libc::syscall(
            NR_RISCV_HWPROBE,
            &mut pair as *mut Pair,
            1usize,
            0usize,
            std::ptr::null::<u8>(),
            0u32,
        )
    };
    // SAFETY: getauxval only reads the auxiliary vector.
    let hwcap = unsafe { libc::getauxval(libc::AT_HWCAP) } as u64;
    Sources {
        hwcap,
        hwprobe_ext0: (rc == 0 && pair.key == KEY_IMA_EXT_0).then_some(pair.value),
        isa: std::fs::read_to_string("/proc/cpuinfo").ok().as_deref().and_then(isa_line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &Sources) -> Vec<&'static str> {
        decode(s).into_iter().map(|f| f.name).collect()
    }

    #[test]
    fn hwprobe_bits_come_first() {
        let s = Sources {
            hwcap: 1 << 21,
            hwprobe_ext0: Some((1 << 2) | (1 << 4) | (1 << 7) | (1 << 21) | (1 << 20)),
            isa: None,
        };
        assert_eq!(names(&s), vec!["v", "zbb", "zbc", "zvkg", "zvkned"]);
        assert_eq!(decode(&s)[4].source, "riscv_hwprobe IMA_EXT_0 bit 21");
    }

    #[test]
    fn the_isa_string_where_hwprobe_is_missing() {
        let s = Sources {
            hwcap: 0,
            hwprobe_ext0: None,
            isa: isa_line("processor\t: 0\nhart\t\t: 1\nisa\t\t: rv64imafdcv_zicbom_zbb_zbkb_zvkned_zvknhb\nmmu\t\t: sv39\n"),
        };
        assert_eq!(names(&s), vec!["v", "zbb", "zbkb", "zvkned", "zvknhb"]);
        assert_eq!(decode(&s)[0].source, "/proc/cpuinfo isa v");
    }

    #[test]
    fn an_x86_cpuinfo_has_no_isa_and_hwcap_still_tells_v() {
        assert_eq!(isa_line("processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu sse2\n"), None);
        let s = Sources {
            hwcap: (1 << 21) | (1 << 8),
            hwprobe_ext0: None,
            isa: None,
        };
        assert_eq!(names(&s), vec!["v"]);
        assert_eq!(decode(&s)[0].source, "AT_HWCAP bit 21");
        assert!(decode(&Sources::default()).is_empty());
    }

    #[test]
    fn isa_strings_split_into_extensions() {
        assert_eq!(isa_extensions("rv64gc_zbb_Zbc"), vec!["g", "c", "zbb", "zbc"]);
        assert_eq!(isa_extensions("RV64IMAFDCV"), vec!["i", "m", "a", "f", "d", "c", "v"]);
    }
}

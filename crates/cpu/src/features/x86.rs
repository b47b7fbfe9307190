//! x86 feature decoding from raw CPUID words, kept apart from reading them
//! so it can be tested with fixed inputs. Bit positions: Intel® 64 and IA-32
//! Architectures Software Developer's Manual, Vol. 2A, CPUID, tables 3-10
//! (leaf 1 ECX), 3-8 (leaf 7 sub-leaf 0/1); XCR0 state bits: Vol. 1 §13.3.

use super::Feature;

/// The CPUID and XGETBV words that carry crypto-relevant features.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuidWords {
    pub leaf1_ecx: u32,
    pub leaf1_edx: u32,
    pub leaf7_ebx: u32,
    pub leaf7_ecx: u32,
    pub leaf7_edx: u32,
    /// CPUID.(EAX=7,ECX=1):EAX.
    pub leaf7_1_eax: u32,
    /// XCR0 as XGETBV reports it; None when OSXSAVE is off, or for a
    /// library's vector, which already has OS support folded in.
    pub xcr0: Option<u64>,
}

/// (name, register, bit, register label)
type Bit = (&'static str, fn(&CpuidWords) -> u32, u32, &'static str);

const BITS: &[Bit] = &[
    ("ssse3", |w| w.leaf1_ecx, 9, "CPUID.1:ECX"),
    ("aes", |w| w.leaf1_ecx, 25, "CPUID.1:ECX"),
    ("pclmulqdq", |w| w.leaf1_ecx, 1, "CPUID.1:ECX"),
    ("avx", |w| w.leaf1_ecx, 28, "CPUID.1:ECX"),
    ("avx2", |w| w.leaf7_ebx, 5, "CPUID.7.0:EBX"),
    ("bmi2", |w| w.leaf7_ebx, 8, "CPUID.7.0:EBX"),
    ("avx512f", |w| w.leaf7_ebx, 16, "CPUID.7.0:EBX"),
    ("adx", |w| w.leaf7_ebx, 19, "CPUID.7.0:EBX"),
    ("avx512ifma", |w| w.leaf7_ebx, 21, "CPUID.7.0:EBX"),
    ("sha_ni", |w| w.leaf7_ebx, 29, "CPUID.7.0:EBX"),
    ("avx512bw", |w| w.leaf7_ebx, 30, "CPUID.7.0:EBX"),
    ("avx512vl", |w| w.leaf7_ebx, 31, "CPUID.7.0:EBX"),
    ("gfni", |w| w.leaf7_ecx, 8, "CPUID.7.0:ECX"),
    ("vaes", |w| w.leaf7_ecx, 9, "CPUID.7.0:ECX"),
    ("vpclmulqdq", |w| w.leaf7_ecx, 10, "CPUID.7.0:ECX"),
    ("sha512", |w| w.leaf7_1_eax, 0, "CPUID.7.1:EAX"),
];

/// XCR0 bits 1 and 2: the OS saves SSE and AVX (YMM) state.
const XCR0_AVX: u64 = 0b110;
/// XCR0 bits 5, 6 and 7: opmask and ZMM state for AVX-512.
const XCR0_AVX512: u64 = 0b1110_0000;

fn needs_avx_state(name: &str) -> bool {
    matches!(name, "avx" | "avx2" | "vaes" | "vpclmulqdq" | "gfni" | "sha512")
}

/// Decodes the features; those needing register state the OS does not save
/// (per XCR0) are left out, as the CPU cannot use them under this OS.
pub fn decode(w: &CpuidWords) -> Vec<Feature> {
    let mut out = Vec::new();
    for (name, reg, bit, label) in BITS {
        if reg(w) & (1 << bit) == 0 {
            continue;
        }
        if let Some(xcr0) = w.xcr0 {
            if needs_avx_state(name) && xcr0 & XCR0_AVX != XCR0_AVX {
                continue;
            }
            if name.starts_with("avx512") && xcr0 & XCR0_AVX512 != XCR0_AVX512 {
                continue;
            }
        }
        out.push(Feature {
            name,
            source: format!("{label}[{bit}]"),
        });
    }
    out
}

/// Reads this processor's words.
#[cfg(target_arch = "x86_64")]
pub fn read() -> CpuidWords {
    use std::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};
    let max_leaf = __cpuid(0).eax;
    let l1 = __cpuid(1);
    let (l7, l71) = if max_leaf >= 7 {
        let l7 = __cpuid_count(7, 0);
        let l71 = if l7.eax >= 1 { __cpuid_count(7, 1).eax } else { 0 };
        (l7, l71)
    } else {
        (__cpuid_count(0, 0), 0)
    };
    let osxsave = l1.ecx & (1 << 27) != 0;
    // SAFETY: XGETBV is only executed when CPUID reports OSXSAVE (SDM Vol. 2C, XGETBV).
    let xcr0 = osxsave.then(|| unsafe { _xgetbv(0) });
    let (ebx, ecx, edx) = if max_leaf >= 7 { (l7.ebx, l7.ecx, l7.edx) } else { (0, 0, 0) };
    CpuidWords {
        leaf1_ecx: l1.ecx,
        leaf1_edx: l1.edx,
        leaf7_ebx: ebx,
        leaf7_ecx: ecx,
        leaf7_edx: edx,
        leaf7_1_eax: l71,
        xcr0: Some(xcr0.unwrap_or(0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(w: &CpuidWords) -> Vec<&'static str> {
        decode(w).into_iter().map(|f| f.name).collect()
    }

    /// CPUID words of an AMD EPYC (Zen 3) guest under KVM, as read by this module.
    pub const EPYC_ZEN3: CpuidWords = CpuidWords {
        leaf1_ecx: 0xfffa_3203,
        leaf1_edx: 0x178b_fbff,
        leaf7_ebx: 0x219c_07ab,
        leaf7_ecx: 0x0040_0684,
        leaf7_edx: 0x0000_0010,
        leaf7_1_eax: 0,
        xcr0: Some(0x7),
    };

    #[test]
    fn decodes_a_zen3_with_vaes_and_sha() {
        let n = names(&EPYC_ZEN3);
        for expected in ["aes", "pclmulqdq", "avx", "avx2", "sha_ni", "vaes", "vpclmulqdq"] {
            assert!(n.contains(&expected), "{expected} missing from {n:?}");
        }
        assert!(!n.contains(&"avx512f") && !n.contains(&"gfni") && !n.contains(&"sha512"));
        assert!(n.contains(&"ssse3"));
        let aes = decode(&EPYC_ZEN3).into_iter().find(|f| f.name == "aes").unwrap();
        assert_eq!(aes.source, "CPUID.1:ECX[25]");
    }

    #[test]
    fn avx_family_needs_os_support() {
        let no_ymm = CpuidWords {
            xcr0: Some(0x3),
            ..EPYC_ZEN3
        };
        let n = names(&no_ymm);
        assert!(n.contains(&"aes") && n.contains(&"sha_ni"));
        assert!(!n.contains(&"avx") && !n.contains(&"vaes") && !n.contains(&"avx2"));
    }

    #[test]
    fn avx512_needs_zmm_state() {
        let words = CpuidWords {
            leaf7_ebx: (1 << 16) | (1 << 30) | (1 << 31),
            leaf1_ecx: 1 << 28,
            xcr0: Some(0x7),
            ..Default::default()
        };
        assert_eq!(names(&words), vec!["avx"]);
        let with_zmm = CpuidWords { xcr0: Some(0xe7), ..words };
        assert_eq!(names(&with_zmm), vec!["avx", "avx512f", "avx512bw", "avx512vl"]);
    }

    #[test]
    fn sha512_extension_from_leaf_7_1() {
        let words = CpuidWords {
            leaf7_1_eax: 1,
            xcr0: Some(0x7),
            ..Default::default()
        };
        assert_eq!(names(&words), vec!["sha512"]);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn reading_this_cpu_agrees_with_std_detection() {
        let n = names(&read());
        assert_eq!(n.contains(&"aes"), std::arch::is_x86_feature_detected!("aes"));
        assert_eq!(n.contains(&"pclmulqdq"), std::arch::is_x86_feature_detected!("pclmulqdq"));
        assert_eq!(n.contains(&"avx2"), std::arch::is_x86_feature_detected!("avx2"));
        assert_eq!(n.contains(&"sha_ni"), std::arch::is_x86_feature_detected!("sha"));
    }
}

//! POWER feature decoding from Linux's AT_HWCAP/AT_HWCAP2 words. Bits:
//! Linux arch/powerpc/include/uapi/asm/cputable.h: PPC_FEATURE_HAS_ALTIVEC
//! = 0x10000000 and PPC_FEATURE_HAS_VSX = 0x00000080 (AT_HWCAP);
//! PPC_FEATURE2_ARCH_2_07 = 0x80000000, PPC_FEATURE2_VEC_CRYPTO =
//! 0x02000000 (the ISA 2.07 vector AES `vcipher`, SHA-2 `vshasigma` and
//! carry-less `vpmsumd` of POWER8 and later), PPC_FEATURE2_ARCH_3_00 =
//! 0x00800000 (POWER9) and PPC_FEATURE2_ARCH_3_1 = 0x00040000 (POWER10)
//! (AT_HWCAP2). OpenSSL's crypto/ppccap.c reads the same bits (HWCAP_VSX
//! 1U << 7, HWCAP_VEC_CRYPTO 1U << 25, HWCAP_ARCH_3_00 1U << 23,
//! HWCAP_ARCH_3_1 1U << 18), and libgcrypt names them ppc-vcrypto,
//! ppc-arch_2_07, ppc-arch_3_00 and ppc-arch_3_10.

use super::Feature;

/// (name, AT_HWCAP or AT_HWCAP2, bit, the kernel's name for it)
const BITS: &[(&str, bool, u32, &str)] = &[
    ("altivec", false, 28, "PPC_FEATURE_HAS_ALTIVEC"),
    ("vsx", false, 7, "PPC_FEATURE_HAS_VSX"),
    ("vcrypto", true, 25, "PPC_FEATURE2_VEC_CRYPTO"),
    ("arch_2_07", true, 31, "PPC_FEATURE2_ARCH_2_07"),
    ("arch_3_00", true, 23, "PPC_FEATURE2_ARCH_3_00"),
    ("arch_3_1", true, 18, "PPC_FEATURE2_ARCH_3_1"),
];

pub fn decode_hwcap(hwcap: u64, hwcap2: u64) -> Vec<Feature> {
    BITS.iter()
        .filter(|(_, second, bit, _)| (if *second { hwcap2 } else { hwcap }) & (1u64 << bit) != 0)
        .map(|(name, second, bit, kernel)| Feature {
            name,
            source: format!("{} {kernel} (bit {bit})", if *second { "AT_HWCAP2" } else { "AT_HWCAP" }),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(hwcap: u64, hwcap2: u64) -> Vec<&'static str> {
        decode_hwcap(hwcap, hwcap2).into_iter().map(|f| f.name).collect()
    }

    #[test]
    fn power9_has_altivec_and_vector_crypto() {
        // AT_HWCAP with ALTIVEC (bit 28) and no VSX; AT_HWCAP2 with ARCH_2_07, VEC_CRYPTO and ARCH_3_00 among others.
        assert_eq!(
            names(0xdc00_6102, 0xefe0_0000),
            vec!["altivec", "vcrypto", "arch_2_07", "arch_3_00"]
        );
        let f = decode_hwcap(0, 0x0200_0000);
        assert_eq!(f[0].source, "AT_HWCAP2 PPC_FEATURE2_VEC_CRYPTO (bit 25)");
        assert!(decode_hwcap(0, 0).is_empty());
    }

    #[test]
    fn vsx_and_power10() {
        assert_eq!(names(0x1000_0080, 0x0004_0000), vec!["altivec", "vsx", "arch_3_1"]);
    }
}

//! POWER feature decoding from Linux's AT_HWCAP/AT_HWCAP2 words. Bits:
//! Linux arch/powerpc/include/uapi/asm/cputable.h: PPC_FEATURE_HAS_ALTIVEC
//! = 0x10000000 (AT_HWCAP), PPC_FEATURE2_VEC_CRYPTO = 0x02000000 (AT_HWCAP2,
//! the ISA 2.07 vector AES/SHA-2/vpmsum of POWER8 and later).

use super::Feature;

const PPC_FEATURE_HAS_ALTIVEC: u64 = 0x1000_0000;
const PPC_FEATURE2_VEC_CRYPTO: u64 = 0x0200_0000;

pub fn decode_hwcap(hwcap: u64, hwcap2: u64) -> Vec<Feature> {
    let mut out = Vec::new();
    if hwcap & PPC_FEATURE_HAS_ALTIVEC != 0 {
        out.push(Feature {
            name: "altivec",
            source: "AT_HWCAP PPC_FEATURE_HAS_ALTIVEC (bit 28)".into(),
        });
    }
    if hwcap2 & PPC_FEATURE2_VEC_CRYPTO != 0 {
        out.push(Feature {
            name: "vcrypto",
            source: "AT_HWCAP2 PPC_FEATURE2_VEC_CRYPTO (bit 25)".into(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power9_has_altivec_and_vector_crypto() {
        let names: Vec<&str> = decode_hwcap(0xdc00_6102, 0xefe0_0000).into_iter().map(|f| f.name).collect();
        assert_eq!(names, vec!["altivec", "vcrypto"]);
        assert!(decode_hwcap(0, 0).is_empty());
    }
}

//! arm64 feature decoding from Linux's AT_HWCAP/AT_HWCAP2 words. Bit
//! positions: Linux arch/arm64/include/uapi/asm/hwcap.h (HWCAP_ASIMD = 1<<1,
//! named "neon" here as OpenSSL's ARMV7_NEON and libgcrypt's arm-neon do; HWCAP_AES = 1<<3,
//! HWCAP_PMULL = 1<<4, HWCAP_SHA1 = 1<<5, HWCAP_SHA2 = 1<<6, HWCAP_SHA3 =
//! 1<<17, HWCAP_SHA512 = 1<<21, HWCAP_SVE = 1<<22; HWCAP2_SVE2 = 1<<1).

use super::Feature;

const HWCAP_BITS: &[(&str, u32)] = &[
    ("neon", 1),
    ("aes", 3),
    ("pmull", 4),
    ("sha1", 5),
    ("sha2", 6),
    ("sha3", 17),
    ("sha512", 21),
    ("sve", 22),
];
const HWCAP2_BITS: &[(&str, u32)] = &[("sve2", 1)];

pub fn decode_hwcap(hwcap: u64, hwcap2: u64) -> Vec<Feature> {
    let mut out = Vec::new();
    for (name, bit) in HWCAP_BITS {
        if hwcap & (1 << bit) != 0 {
            out.push(Feature {
                name,
                source: format!("AT_HWCAP bit {bit}"),
            });
        }
    }
    for (name, bit) in HWCAP2_BITS {
        if hwcap2 & (1 << bit) != 0 {
            out.push(Feature {
                name,
                source: format!("AT_HWCAP2 bit {bit}"),
            });
        }
    }
    out
}

/// macOS names of the same features (sysctl hw.optional.arm.FEAT_*, Apple's
/// "Determining instruction set characteristics").
pub const MACOS_SYSCTLS: &[(&str, &str)] = &[
    ("neon", "hw.optional.AdvSIMD"),
    ("aes", "hw.optional.arm.FEAT_AES"),
    ("pmull", "hw.optional.arm.FEAT_PMULL"),
    ("sha1", "hw.optional.arm.FEAT_SHA1"),
    ("sha2", "hw.optional.arm.FEAT_SHA256"),
    ("sha3", "hw.optional.arm.FEAT_SHA3"),
    ("sha512", "hw.optional.arm.FEAT_SHA512"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn names(hwcap: u64, hwcap2: u64) -> Vec<&'static str> {
        decode_hwcap(hwcap, hwcap2).into_iter().map(|f| f.name).collect()
    }

    #[test]
    fn cortex_a72_with_crypto_extensions() {
        // /proc/self/auxv AT_HWCAP of a Raspberry-Pi-class A72 with crypto: fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid = 0x8ff
        assert_eq!(names(0x8ff, 0), vec!["neon", "aes", "pmull", "sha1", "sha2"]);
    }

    #[test]
    fn raspberry_pi_4_lacks_crypto() {
        // BCM2711 (A72 without the crypto extension): fp asimd evtstrm crc32 cpuid = 0x887
        assert_eq!(names(0x887, 0), vec!["neon"]);
    }

    #[test]
    fn neoverse_v1_with_sha3_sha512_sve_and_sve2() {
        let hwcap = (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 17) | (1 << 21) | (1 << 22);
        assert_eq!(
            names(hwcap, 0b10),
            vec!["aes", "pmull", "sha1", "sha2", "sha3", "sha512", "sve", "sve2"]
        );
        assert_eq!(decode_hwcap(hwcap, 0)[0].source, "AT_HWCAP bit 3");
        assert_eq!(decode_hwcap(0b10, 0)[0].source, "AT_HWCAP bit 1");
    }
}

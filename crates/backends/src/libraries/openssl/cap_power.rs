//! OpenSSL's POWER capability vector, `OPENSSL_ppccap_P`
//! (include/crypto/ppc_arch.h of 3.0.8 and 3.5.5): PPC_FPU64 1<<0,
//! PPC_ALTIVEC 1<<1, PPC_CRYPTO207 1<<2 (the ISA 2.07 vector AES, SHA-2 and
//! vpmsum in one bit), PPC_FPU 1<<3, PPC_MADD300 1<<4 (ISA 3.00), PPC_MFTB
//! 1<<5, PPC_MFSPR268 1<<6; 3.5.5 adds PPC_BRD31 1<<7 (ISA 3.1), which
//! 3.0.8 lacks (releases in between are not claimed).
//!
//! OPENSSL_info reports it as `OPENSSL_ppccap=0x…` (crypto/info.c of 3.5.5
//! and of Debian 12's 3.0.20; 3.0.8's has no POWER branch, and then no
//! mask can be built); the
//! variable `OPENSSL_ppccap` (strtoul, base 0) *replaces* it whole
//! (crypto/ppccap.c, `OPENSSL_cpuid_setup`), so a mask is the reported
//! value with the family's bits cleared. PPC_CRYPTO207 is set only where
//! AT_HWCAP has ALTIVEC and VSX and AT_HWCAP2 VEC_CRYPTO; PPC_MADD300 from
//! AT_HWCAP2's ARCH_3_00, PPC_BRD31 from ARCH_3_1.

use cryptobench_core::catalog::Family;

/// `OPENSSL_ppccap` bits by feature name.
pub const BITS: &[(&str, u32)] = &[("altivec", 1), ("vcrypto", 2), ("arch_3_00", 4), ("arch_3_1", 7)];

/// What the vector can express: PPC_BRD31 from 3.5 (see above).
pub fn understood(release: Option<(u32, u32)>) -> &'static [&'static str] {
    if release.is_some_and(|r| r >= (3, 5)) {
        &["altivec", "vcrypto", "arch_3_00", "arch_3_1"]
    } else {
        &["altivec", "vcrypto", "arch_3_00"]
    }
}

/// The bits of a family: the crypto bit carries AES, SHA-2 and the
/// carry-less multiply together; AltiVec the vector code (ChaCha20,
/// Poly1305's vector path needs PPC_CRYPTO207 too).
pub fn family_bits(family: Family) -> &'static [(u32, &'static str)] {
    match family {
        Family::Aes | Family::Clmul | Family::Sha => &[(2, "vcrypto")],
        Family::Simd => &[(1, "altivec")],
        Family::Bignum => &[(4, "arch_3_00")],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_release_before_3_5_is_not_said_to_know_isa_3_1() {
        assert!(!understood(Some((3, 0))).contains(&"arch_3_1"));
        assert!(understood(Some((3, 5))).contains(&"arch_3_1"));
        assert_eq!(family_bits(Family::Clmul), family_bits(Family::Sha), "one bit for all three");
    }
}

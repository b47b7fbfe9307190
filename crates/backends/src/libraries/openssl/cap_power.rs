//! OpenSSL's POWER capability vector, `OPENSSL_ppccap_P`
//! (include/crypto/ppc_arch.h, the same bits in 3.0.8 and 3.5.5):
//! PPC_FPU64 1<<0, PPC_ALTIVEC 1<<1, PPC_CRYPTO207 1<<2 (the ISA 2.07
//! vector AES, SHA-2 and vpmsum in one bit), PPC_FPU 1<<3, PPC_MADD300 1<<4
//! (ISA 3.00), PPC_MFTB 1<<5, PPC_MFSPR268 1<<6, and from 3.2 PPC_BRD31
//! 1<<7 (ISA 3.1).
//!
//! OpenSSL does not report this vector: crypto/info.c prints CPU settings
//! for x86, arm, s390x and RISC-V only, and the symbol is not exported. Its
//! value follows from crypto/ppccap.c's `OPENSSL_cpuid_setup` on Linux:
//! the variable `OPENSSL_ppccap` (strtoul, base 0) *replaces* it whole;
//! otherwise AT_HWCAP's FPU (bit 27) gives PPC_FPU, with POWER6_EXT (bit 9)
//! PPC_FPU64; ALTIVEC (bit 28) gives PPC_ALTIVEC, and with VSX (bit 7) and
//! AT_HWCAP2's VEC_CRYPTO (bit 25) PPC_CRYPTO207; AT_HWCAP2's ARCH_3_00
//! (bit 23) PPC_MADD300 and ARCH_3_1 (bit 18) PPC_BRD31. [`derived`]
//! computes it by those rules, and the text it gives says so. The timer
//! bits (PPC_MFTB, PPC_MFSPR268) come from a SIGILL probe that cannot be
//! repeated from outside, and are left out: no cryptographic path reads them.

// [`derived`] runs in a POWER worker (and in the tests) only.
#![cfg_attr(not(target_arch = "powerpc64"), allow(dead_code))]

use cryptobench_core::catalog::Family;

/// `OPENSSL_ppccap` bits by feature name.
pub const BITS: &[(&str, u32)] = &[("altivec", 1), ("vcrypto", 2), ("arch_3_00", 4), ("arch_3_1", 7)];

/// What the vector can express: PPC_BRD31 came with 3.2.
pub fn understood(release: Option<(u32, u32)>) -> &'static [&'static str] {
    if release.is_some_and(|r| r >= (3, 2)) {
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

const PPC_FPU64: u64 = 1 << 0;
const PPC_ALTIVEC: u64 = 1 << 1;
const PPC_CRYPTO207: u64 = 1 << 2;
const PPC_FPU: u64 = 1 << 3;
const PPC_MADD300: u64 = 1 << 4;
const PPC_BRD31: u64 = 1 << 7;

/// strtoul(text, NULL, 0): hexadecimal after 0x, octal after 0, else
/// decimal; the digits up to the first that is not one (0 without any).
fn strtoul(text: &str) -> u64 {
    let t = text.trim_start();
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t, 10)
    };
    let end = digits.find(|c: char| !c.is_digit(radix)).unwrap_or(digits.len());
    u64::from_str_radix(&digits[..end], radix).unwrap_or(0)
}

/// The vector crypto/ppccap.c sets from `OPENSSL_ppccap` or the HWCAP
/// words, and the text the backend reports for it.
pub fn derived(hwcap: u64, hwcap2: u64, variable: Option<&str>, release: Option<(u32, u32)>) -> (u64, String) {
    if let Some(v) = variable {
        let value = strtoul(v);
        return (
            value,
            format!("OPENSSL_ppccap=0x{value:x} (the OPENSSL_ppccap variable, which crypto/ppccap.c takes as the whole vector)"),
        );
    }
    let has = |word: u64, bit: u32| word & (1u64 << bit) != 0;
    let mut value = 0;
    if has(hwcap, 27) {
        value |= PPC_FPU;
        if has(hwcap, 9) {
            value |= PPC_FPU64;
        }
    }
    if has(hwcap, 28) {
        value |= PPC_ALTIVEC;
        if has(hwcap, 7) && has(hwcap2, 25) {
            value |= PPC_CRYPTO207;
        }
    }
    if has(hwcap2, 23) {
        value |= PPC_MADD300;
    }
    if has(hwcap2, 18) && release.is_some_and(|r| r >= (3, 2)) {
        value |= PPC_BRD31;
    }
    (
        value,
        format!(
            "OPENSSL_ppccap=0x{value:x} (derived by crypto/ppccap.c's rules from AT_HWCAP 0x{hwcap:x} and AT_HWCAP2 \
             0x{hwcap2:x}: OpenSSL does not report its POWER vector; timer bits left out)"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strtoul_reads_c_s_bases() {
        assert_eq!(strtoul("0x1e"), 0x1e);
        assert_eq!(strtoul("30"), 30);
        assert_eq!(strtoul("017"), 0o17);
        assert_eq!(strtoul("0x1ez"), 0x1e);
        assert_eq!(strtoul("no"), 0);
    }

    #[test]
    fn a_power8_vector_by_ppccap_s_rules() {
        // AT_HWCAP: FPU, ALTIVEC, VSX; AT_HWCAP2: ARCH_2_07, VEC_CRYPTO.
        let (v, text) = derived((1 << 27) | (1 << 28) | (1 << 7), (1 << 31) | (1 << 25), None, Some((3, 0)));
        assert_eq!(v, PPC_FPU | PPC_ALTIVEC | PPC_CRYPTO207);
        assert!(text.starts_with("OPENSSL_ppccap=0xe (derived"), "{text}");
        // Without VSX the crypto bit stays off, as in ppccap.c.
        assert_eq!(derived((1 << 27) | (1 << 28), 1 << 25, None, None).0, PPC_FPU | PPC_ALTIVEC);
        // POWER10 on 3.5: MADD300 and BRD31.
        let (v, _) = derived(1 << 28, (1 << 23) | (1 << 18), None, Some((3, 5)));
        assert_eq!(v, PPC_ALTIVEC | PPC_MADD300 | PPC_BRD31);
    }

    #[test]
    fn the_variable_replaces_the_vector() {
        let (v, text) = derived(u64::MAX, u64::MAX, Some("0xa"), None);
        assert_eq!(v, 0xa);
        assert!(text.contains("the OPENSSL_ppccap variable"), "{text}");
    }
}

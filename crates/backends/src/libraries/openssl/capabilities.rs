//! OpenSSL's capability vector: parse the string OpenSSL reports
//! (`OPENSSL_info(OPENSSL_INFO_CPU_SETTINGS)`, the CPUINFO line of `openssl
//! version -a`), decode it into the same feature names as the CPU, and build
//! the masks that switch feature families off.
//!
//! x86 (doc/man3/OPENSSL_ia32cap.pod, crypto/cpuid.c): word 0 is
//! CPUID.1:EDX (bits 0-31) and CPUID.1:ECX (bits 32-63): PCLMULQDQ 33,
//! AES-NI 57, AVX 60. Word 1 is CPUID.7.0:EBX (0-31) and :ECX (32-63):
//! AVX2 5, SHA 29, VAES 41, VPCLMULQDQ 42. OpenSSL 3.5+/4.0 report five
//! words; word 2 is OPENSSL_ia32cap_P[4] | P[5] << 32 (crypto/info.c), P[5]
//! being CPUID.7.1:EAX (crypto/x86_64cpuid.pl of 4.0.3, line 218), whose
//! bit 0 is the SHA512 extension: word 2 bit 32. (4.0.3's sha512-x86_64.pl
//! does not test that bit: no OpenSSL release uses the x86 SHA512
//! instructions yet, which the audit then measures as "not used".)
//! In `OPENSSL_ia32cap=` a field `~v` clears bits v from the detected
//! word and **a field left out is zeroed**, so every word is written, `~0`
//! keeping one unchanged.
//!
//! arm (crypto/arm_arch.h, the same bits in 3.0.8, 3.5.5 and 4.0.3):
//! ARMV7_NEON 1<<0, ARMV8_AES 1<<2, ARMV8_SHA1 1<<3, ARMV8_SHA256 1<<4,
//! ARMV8_PMULL 1<<5, ARMV8_SHA512 1<<6, and from 3.x ARMV8_SHA3 1<<11,
//! ARMV8_SVE 1<<13, ARMV8_SVE2 1<<14. crypto/armcap.c reads
//! `OPENSSL_armcap` with strtoul and *replaces* the whole vector (no `~`),
//! so a mask is the detected value with bits cleared.
//!
//! POWER, IBM Z and RISC-V have a file each: cap_power.rs
//! (`OPENSSL_ppccap`),
//! cap_z.rs (`OPENSSL_s390xcap`, the facility list and the CPACF query
//! words) and cap_riscv.rs (`OPENSSL_riscvcap`, the extension names).

use cryptobench_core::catalog::Family;
use cryptobench_cpu::features::x86::{decode, CpuidWords};
use cryptobench_cpu::features::{s390x, Feature, S390X_CRYPTO};

use super::{cap_power, cap_riscv, cap_z};
use crate::registry::{Mask, MaskContext};

/// A parsed capability vector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Vector {
    X86(Vec<u64>),
    Arm(u64),
    Ppc(u64),
    /// The facility list and CPACF query words after `OPENSSL_s390xcap=`.
    S390x(s390x::Words),
    /// The extensions after `OPENSSL_riscvcap=`, in lower case.
    RiscV(Vec<String>),
}

fn hex(text: &str) -> Option<u64> {
    u64::from_str_radix(text.trim().trim_start_matches("0x").trim_start_matches("0X"), 16).ok()
}

/// Parses "OPENSSL_ia32cap=0x…:0x…", "OPENSSL_armcap=0x…" and the other
/// architectures' vectors, with or without the "CPUINFO: " prefix, the
/// " env:…" suffix OpenSSL appends when the variable was set.
pub fn parse(text: &str) -> Option<Vector> {
    let text = text.trim().trim_start_matches("CPUINFO:").trim();
    let text = text.split(" env:").next()?.trim();
    if let Some(words) = text.strip_prefix("OPENSSL_ia32cap=") {
        let words: Option<Vec<u64>> = words.split(':').map(hex).collect();
        return words.filter(|w| !w.is_empty()).map(Vector::X86);
    }
    if let Some(v) = text.strip_prefix("OPENSSL_ppccap=") {
        return hex(v).map(Vector::Ppc);
    }
    if let Some(v) = text.strip_prefix("OPENSSL_s390xcap=") {
        return cap_z::parse(v).map(Vector::S390x);
    }
    if let Some(v) = text.strip_prefix("OPENSSL_riscvcap=") {
        return Some(Vector::RiscV(cap_riscv::parse(v)));
    }
    text.strip_prefix("OPENSSL_armcap=").and_then(hex).map(Vector::Arm)
}

/// "OpenSSL 3.0.22 25 Aug 2026" → (3, 0).
pub fn release(version: &str) -> Option<(u32, u32)> {
    let number = version
        .split_whitespace()
        .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))?;
    let mut parts = number
        .split('.')
        .map(|p| p.trim_end_matches(|c: char| !c.is_ascii_digit()).parse::<u32>().ok());
    Some((parts.next()??, parts.next()??))
}

/// Features the vector of OpenSSL `release` can express. The arm bits for
/// SHA3, SVE and SVE2 (11, 13, 14) are absent from 3.0's crypto/arm_arch.h
/// (which stops at ARMV8_CPUID, bit 7) and present in 3.5.5's; releases in
/// between are not claimed, so a 3.0 library is never said to ignore them.
pub fn understood_in(vector: &Vector, release: Option<(u32, u32)>) -> &'static [&'static str] {
    match vector {
        Vector::Arm(_) if release.is_none_or(|r| r < (3, 5)) => &["neon", "aes", "pmull", "sha1", "sha2", "sha512"],
        Vector::Ppc(_) => cap_power::understood(release),
        Vector::RiscV(_) => cap_riscv::understood(release),
        other => understood(other),
    }
}

/// What an x86 vector can express; SHA512 comes last, since only vectors of
/// three words or more (OpenSSL 3.5+/4.0) have its bit.
const X86_UNDERSTOOD: &[&str] = &[
    "aes",
    "pclmulqdq",
    "avx",
    "avx2",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "sha_ni",
    "gfni",
    "vaes",
    "vpclmulqdq",
    "bmi2",
    "adx",
    "avx512ifma",
    "sha512",
];

/// Features the vector format can express, for mismatch checks.
pub fn understood(vector: &Vector) -> &'static [&'static str] {
    match vector {
        Vector::X86(words) if words.len() >= 3 => X86_UNDERSTOOD,
        Vector::X86(_) => &X86_UNDERSTOOD[..X86_UNDERSTOOD.len() - 1],
        Vector::Arm(_) => &["neon", "aes", "pmull", "sha1", "sha2", "sha512", "sha3", "sve", "sve2"],
        Vector::Ppc(_) => cap_power::understood(None),
        Vector::S390x(_) => S390X_CRYPTO,
        Vector::RiscV(_) => cap_riscv::understood(None),
    }
}

/// `OPENSSL_armcap` bits by feature name (crypto/arm_arch.h).
const ARM_BITS: &[(&str, u32)] = &[
    ("neon", 0),
    ("aes", 2),
    ("sha1", 3),
    ("sha2", 4),
    ("pmull", 5),
    ("sha512", 6),
    ("sha3", 11),
    ("sve", 13),
    ("sve2", 14),
];

/// Decodes the vector into the names `cryptobench cpu` uses for the CPU.
pub fn features(vector: &Vector) -> Vec<Feature> {
    match vector {
        Vector::X86(words) => {
            let w0 = words.first().copied().unwrap_or(0);
            let w1 = words.get(1).copied().unwrap_or(0);
            let w2 = words.get(2).copied().unwrap_or(0);
            let cpuid = CpuidWords {
                leaf1_edx: w0 as u32,
                leaf1_ecx: (w0 >> 32) as u32,
                leaf7_ebx: w1 as u32,
                leaf7_ecx: (w1 >> 32) as u32,
                leaf7_1_eax: (w2 >> 32) as u32,
                xcr0: None,
                ..Default::default()
            };
            decode(&cpuid)
                .into_iter()
                .filter(|f| understood(vector).contains(&f.name))
                .map(|f| Feature {
                    name: f.name,
                    source: format!("OPENSSL_ia32cap {}", word_bit(&f.source)),
                })
                .collect()
        }
        Vector::Arm(v) => single_word(*v, ARM_BITS, "OPENSSL_armcap"),
        Vector::Ppc(v) => single_word(*v, cap_power::BITS, "OPENSSL_ppccap"),
        Vector::S390x(words) => s390x::decode(words)
            .into_iter()
            .map(|f| Feature {
                name: f.name,
                source: format!("OPENSSL_s390xcap {}", f.source),
            })
            .collect(),
        Vector::RiscV(names) => cap_riscv::features(names),
    }
}

fn single_word(v: u64, bits: &[(&'static str, u32)], variable: &str) -> Vec<Feature> {
    bits.iter()
        .filter(|(_, bit)| v & (1 << bit) != 0)
        .map(|(name, bit)| Feature {
            name,
            source: format!("{variable} bit {bit}"),
        })
        .collect()
}

/// "CPUID.7.0:ECX[9]" → "word 1 bit 41", the numbering of OpenSSL's documentation.
fn word_bit(cpuid_source: &str) -> String {
    let bit: u32 = cpuid_source
        .rsplit('[')
        .next()
        .and_then(|b| b.trim_end_matches(']').parse().ok())
        .unwrap_or(0);
    let (word, offset) = match cpuid_source.split('[').next().unwrap_or("") {
        "CPUID.1:EDX" => (0, 0),
        "CPUID.1:ECX" => (0, 32),
        "CPUID.7.0:EBX" => (1, 0),
        "CPUID.7.1:EAX" => (2, 32),
        _ => (1, 32),
    };
    format!("word {word} bit {}", bit + offset)
}

/// The bits that make up a feature family on x86: (word, bit, feature).
/// SIMD: SSSE3 (word 0 bit 41, CPUID.1:ECX[9]), AVX (word 0 bit 60), AVX2,
/// AVX-512F/BW/VL (word 1 bits 5, 16, 30, 31): what chacha-x86_64.pl,
/// poly1305-x86_64.pl, sha*-x86_64.pl and the stitched aesni-gcm test.
fn x86_family_bits(family: Family) -> &'static [(usize, u32, &'static str)] {
    match family {
        Family::Aes => &[(0, 57, "aes"), (1, 41, "vaes")],
        Family::Clmul => &[(0, 33, "pclmulqdq"), (1, 42, "vpclmulqdq")],
        Family::Sha => &[(1, 29, "sha_ni"), (2, 32, "sha512")],
        Family::Simd => &[
            (0, 41, "ssse3"),
            (0, 60, "avx"),
            (1, 5, "avx2"),
            (1, 16, "avx512f"),
            (1, 30, "avx512bw"),
            (1, 31, "avx512vl"),
        ],
        // MULX (BMI2) and ADCX/ADOX (ADX), word 1 bits 8 and 19, select the
        // mulx paths of x86_64-mont*.pl, rsaz-x86_64.pl, ecp_nistz256-x86_64.pl
        // and x25519-x86_64.pl; AVX-512 IFMA (word 1 bit 21) the RSAZ
        // AVX-512 modular exponentiation of OpenSSL 3.0+ (rsaz-avx512.pl).
        Family::Bignum => &[(1, 8, "bmi2"), (1, 19, "adx"), (1, 21, "avx512ifma")],
    }
}

/// The bits of a family in `OPENSSL_armcap` (arm_arch.h): (bit, feature).
fn arm_family_bits(family: Family) -> &'static [(u32, &'static str)] {
    match family {
        Family::Aes => &[(2, "aes")],
        Family::Clmul => &[(5, "pmull")],
        Family::Sha => &[(3, "sha1"), (4, "sha2"), (6, "sha512")],
        Family::Simd => &[(0, "neon")],
        Family::Bignum => &[],
    }
}

/// The words a mask writes: every word the library reports, at least two
/// (the format of 1.1.1 and 3.0 when the library reports none).
fn x86_words(words: &[u64]) -> usize {
    words.len().max(2)
}

/// The CPU features a mask of `families` switches off in a library whose
/// vector is `vector`: a bit the vector has no word for cannot be cleared
/// (a two-word vector has no SHA512 bit).
pub fn cleared(vector: &Vector, families: &[Family]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for family in families {
        let names: Vec<&'static str> = match vector {
            Vector::X86(words) => x86_family_bits(*family)
                .iter()
                .filter(|(word, _, _)| *word < x86_words(words))
                .map(|(_, _, name)| *name)
                .collect(),
            Vector::Arm(_) => arm_family_bits(*family).iter().map(|(_, name)| *name).collect(),
            Vector::Ppc(_) => cap_power::family_bits(*family).iter().map(|(_, name)| *name).collect(),
            Vector::S390x(_) => cap_z::family_features(*family).to_vec(),
            Vector::RiscV(_) => cap_riscv::family_names(*family).to_vec(),
        };
        for name in names {
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// The environment variable and value that switch `families` off in a
/// library whose detected vector is `vector`; every other bit is kept.
pub fn env_mask(vector: &Vector, families: &[Family]) -> (&'static str, String) {
    match vector {
        Vector::X86(words) => {
            let mut clear = vec![0u64; x86_words(words)];
            for family in families {
                for &(word, bit, _) in x86_family_bits(*family) {
                    if let Some(w) = clear.get_mut(word) {
                        *w |= 1 << bit;
                    }
                }
            }
            let fields: Vec<String> = clear
                .iter()
                .map(|&c| if c == 0 { "~0".to_string() } else { format!("~0x{c:x}") })
                .collect();
            ("OPENSSL_ia32cap", fields.join(":"))
        }
        Vector::Arm(value) => {
            let clear = families
                .iter()
                .flat_map(|f| arm_family_bits(*f))
                .fold(0u64, |acc, (bit, _)| acc | (1 << bit));
            ("OPENSSL_armcap", format!("0x{:x}", value & !clear))
        }
        Vector::Ppc(value) => {
            let clear = families
                .iter()
                .flat_map(|f| cap_power::family_bits(*f))
                .fold(0u64, |acc, (bit, _)| acc | (1 << bit));
            ("OPENSSL_ppccap", format!("0x{:x}", value & !clear))
        }
        Vector::S390x(_) => ("OPENSSL_s390xcap", cap_z::env_mask(families)),
        Vector::RiscV(detected) => ("OPENSSL_riscvcap", cap_riscv::env_mask(detected, families)),
    }
}

/// The registry's view hook: OpenSSL's vector decoded, with what the
/// loaded version can express (AWS-LC and BoringSSL report theirs alike).
pub fn view(capabilities: &str, version: Option<&str>) -> Option<(Vec<Feature>, &'static [&'static str])> {
    let v = parse(capabilities)?;
    Some((features(&v), understood_in(&v, version.and_then(release))))
}

/// The registry's mask hook for OpenSSL and the libraries that read
/// `OPENSSL_ia32cap` as it does (AWS-LC, BoringSSL). Without a reported
/// vector (OpenSSL 1.1.1 exposes none) x86 masks assume the two-word
/// format of 1.1.1 and 3.0; elsewhere the variable replaces the whole
/// vector, so no mask can be built.
pub fn mask(ctx: &MaskContext<'_>, families: &[Family]) -> Result<Mask, String> {
    let vector = match ctx.capabilities.and_then(parse) {
        Some(v) => v,
        None if ctx.arch == "x86_64" || ctx.arch == "x86" => Vector::X86(vec![0, 0]),
        None => {
            return Err(format!(
                "the library does not report its capability vector, and on {} OpenSSL's variable replaces the whole \
                 vector: cannot build masks",
                ctx.arch
            ))
        }
    };
    Ok(Mask::new(env_mask(&vector, families), cleared(&vector, families)))
}

/// The text OpenSSL 3.0 prints for the x86 vector `OPENSSL_ia32cap_P` of
/// four 32-bit words (crypto/info.c: two 64-bit fields), as AWS-LC and
/// BoringSSL, which keep the same vector, report theirs.
pub fn x86_text(words: [u32; 4]) -> String {
    let field = |lo: u32, hi: u32| u64::from(lo) | (u64::from(hi) << 32);
    format!(
        "OPENSSL_ia32cap=0x{:x}:0x{:x}",
        field(words[0], words[1]),
        field(words[2], words[3])
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `openssl version -a` on an AMD EPYC (Zen 3) KVM guest, OpenSSL 3.0.19.
    const EPYC: &str = "CPUINFO: OPENSSL_ia32cap=0xfffa3203078bffff:0x400684219c07ab";

    fn names(v: &Vector) -> Vec<&'static str> {
        features(v).into_iter().map(|f| f.name).collect()
    }

    #[test]
    fn parses_all_spellings() {
        assert_eq!(parse(EPYC), Some(Vector::X86(vec![0xfffa3203078bffff, 0x400684219c07ab])));
        assert_eq!(
            parse("OPENSSL_ia32cap=0x1:0x2 env:~0x200000000000000:~0"),
            Some(Vector::X86(vec![1, 2]))
        );
        assert_eq!(
            parse("OPENSSL_ia32cap=0x1:0x2:0x0:0x0:0x0").map(|v| matches!(v, Vector::X86(w) if w.len() == 5)),
            Some(true)
        );
        assert_eq!(parse("OPENSSL_armcap=0x7d"), Some(Vector::Arm(0x7d)));
        assert_eq!(parse("CPUINFO: N/A"), None);
    }

    #[test]
    fn decodes_the_epyc_vector_like_the_cpu() {
        let v = parse(EPYC).unwrap();
        let n = names(&v);
        for expected in ["aes", "pclmulqdq", "avx", "avx2", "sha_ni", "vaes", "vpclmulqdq"] {
            assert!(n.contains(&expected), "{expected} missing from {n:?}");
        }
        let aes = features(&v).into_iter().find(|f| f.name == "aes").unwrap();
        assert_eq!(aes.source, "OPENSSL_ia32cap word 0 bit 57");
        let vaes = features(&v).into_iter().find(|f| f.name == "vaes").unwrap();
        assert_eq!(vaes.source, "OPENSSL_ia32cap word 1 bit 41");
    }

    #[test]
    fn a_vector_without_aes_on_a_cpu_with_aes_is_a_mismatch() {
        // The EPYC vector with AES-NI and VAES cleared, as a library that does not see them reports it.
        let v = Vector::X86(vec![0xfffa3203078bffff & !(1 << 57), 0x400684219c07ab & !(1 << 41)]);
        let lib = features(&v);
        assert!(!lib.iter().any(|f| f.name == "aes" || f.name == "vaes"));
        let cpu = features(&parse(EPYC).unwrap());
        let m = cryptobench_cpu::features::mismatches(&cpu, &lib, "OpenSSL", understood(&v));
        let flagged: Vec<_> = m.iter().map(|m| m.feature).collect();
        assert_eq!(flagged, vec!["aes", "vaes"]);
    }

    #[test]
    fn masks_per_family_keep_every_other_word() {
        let two = Vector::X86(vec![0, 0]);
        assert_eq!(
            env_mask(&two, &[Family::Aes]),
            ("OPENSSL_ia32cap", "~0x200000000000000:~0x20000000000".to_string())
        );
        assert_eq!(env_mask(&two, &[Family::Clmul]).1, "~0x200000000:~0x40000000000");
        assert_eq!(env_mask(&two, &[Family::Sha]).1, "~0:~0x20000000");
        assert_eq!(
            env_mask(&two, &[Family::Aes, Family::Clmul, Family::Sha]).1,
            "~0x200000200000000:~0x60020000000"
        );
        assert_eq!(env_mask(&two, &Family::ALL).1, "~0x1200020200000000:~0x600e0010020");
        let five = Vector::X86(vec![0; 5]);
        assert_eq!(env_mask(&five, &[Family::Sha]).1, "~0:~0x20000000:~0x100000000:~0:~0");
    }

    #[test]
    fn what_a_mask_clears_depends_on_the_words_the_library_has() {
        let two = Vector::X86(vec![0, 0]);
        assert_eq!(cleared(&two, &[Family::Sha]), vec!["sha_ni"]);
        let five = Vector::X86(vec![0; 5]);
        assert_eq!(cleared(&five, &[Family::Sha]), vec!["sha_ni", "sha512"]);
        assert_eq!(
            cleared(&two, &[Family::Aes, Family::Clmul]),
            vec!["aes", "vaes", "pclmulqdq", "vpclmulqdq"]
        );
        assert_eq!(cleared(&Vector::Arm(0x7d), &[Family::Sha]), vec!["sha1", "sha2", "sha512"]);
    }

    #[test]
    fn the_sha512_bit_of_five_word_vectors_is_decoded() {
        let v = Vector::X86(vec![0, 0, 1 << 32, 0, 0]);
        let f = features(&v);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].name, f[0].source.as_str()), ("sha512", "OPENSSL_ia32cap word 2 bit 32"));
        assert!(understood(&v).contains(&"sha512") && !understood(&Vector::X86(vec![0, 0])).contains(&"sha512"));
    }

    #[test]
    fn arm_masks_replace_the_vector() {
        let v = Vector::Arm(0x7d); // NEON, AES, SHA1, SHA256, PMULL, SHA512
        assert_eq!(names(&v), vec!["neon", "aes", "sha1", "sha2", "pmull", "sha512"]);
        assert_eq!(env_mask(&v, &[Family::Aes]), ("OPENSSL_armcap", "0x79".to_string()));
        assert_eq!(env_mask(&v, &[Family::Sha]).1, "0x25");
        assert_eq!(env_mask(&v, &[Family::Aes, Family::Clmul, Family::Sha]).1, "0x1");
        assert_eq!(env_mask(&v, &[Family::Simd]).1, "0x7c");
        // qemu-aarch64 7.2's "max" CPU as OpenSSL 3.0 sees it: NEON, AES, SHA1, SHA256, PMULL, SHA512, CPUID.
        assert_eq!(env_mask(&Vector::Arm(0xfd), &Family::ALL).1, "0x80");
    }

    #[test]
    fn what_a_release_can_express() {
        assert_eq!(release("OpenSSL 3.0.22 25 Aug 2026"), Some((3, 0)));
        assert_eq!(release("OpenSSL 1.1.1w  11 Sep 2023"), Some((1, 1)));
        let arm = Vector::Arm(0xfd);
        assert!(!understood_in(&arm, Some((3, 0))).contains(&"sha3"));
        assert!(understood_in(&arm, Some((3, 5))).contains(&"sve2"));
    }

    #[test]
    fn power_vectors_replace_the_whole_value() {
        let v = parse("CPUINFO: OPENSSL_ppccap=0x3f").unwrap();
        assert_eq!(names(&v), vec!["altivec", "vcrypto", "arch_3_00"]);
        assert_eq!(env_mask(&v, &[Family::Aes]), ("OPENSSL_ppccap", "0x3b".to_string()));
        assert_eq!(env_mask(&v, &[Family::Simd]).1, "0x3d");
        assert_eq!(cleared(&v, &[Family::Sha]), vec!["vcrypto"]);
        // OpenSSL 3.0.20 of Debian 12 under qemu-ppc64le 7.2 (POWER9 model): FPU, ALTIVEC, CRYPTO207, MADD300, MFTB.
        let v = parse("OPENSSL_ppccap=0x3e").unwrap();
        assert_eq!(names(&v), vec!["altivec", "vcrypto", "arch_3_00"]);
        assert_eq!(env_mask(&v, &[Family::Aes, Family::Clmul]).1, "0x3a");
    }

    #[test]
    fn s390x_vectors_are_decoded_and_masked_by_function_code() {
        let v =
            parse("OPENSSL_s390xcap=stfle:0x400000000000:0x0:0x0:0x0:kimd:0x9000000000000000:0x0 env:kimd:~0x1000000000000000").unwrap();
        assert_eq!(names(&v), vec!["msa", "kimd_sha512"]);
        assert_eq!(features(&v)[1].source, "OPENSSL_s390xcap KIMD query: function code 3 (SHA-512)");
        assert_eq!(cleared(&v, &[Family::Sha]), vec!["kimd_sha1", "kimd_sha256", "kimd_sha512"]);
        assert_eq!(
            env_mask(&v, &[Family::Simd]),
            ("OPENSSL_s390xcap", "stfle:~0x0:~0x0:~0x4000000000000000".to_string())
        );
    }

    #[test]
    fn riscv_vectors_name_extensions() {
        let v = parse("OPENSSL_riscvcap=RV64GC_ZBB_ZBC_V_ZVKNED vlen:128").unwrap();
        assert_eq!(names(&v), vec!["v", "zbb", "zbc", "zvkned"]);
        assert_eq!(env_mask(&v, &[Family::Aes]), ("OPENSSL_riscvcap", "rv64gc_zbb_zbc_v".to_string()));
        assert_eq!(parse("OPENSSL_riscvcap=RV64GC"), Some(Vector::RiscV(Vec::new())));
        assert!(understood_in(&v, Some((3, 5))).contains(&"zvkned"));
        assert!(!understood_in(&v, Some((3, 2))).contains(&"zvkned"));
    }

    #[test]
    fn the_simd_family_on_x86() {
        let two = Vector::X86(vec![0, 0]);
        assert_eq!(env_mask(&two, &[Family::Simd]).1, "~0x1000020000000000:~0xc0010020");
        assert_eq!(
            cleared(&two, &[Family::Simd]),
            vec!["ssse3", "avx", "avx2", "avx512f", "avx512bw", "avx512vl"]
        );
    }
}

//! IBM Z feature decoding: the facility list that STFLE stores and the
//! query functions (function code 0) of the CPACF instructions, each of
//! which stores a 128-bit status word with one bit per function code it
//! performs. Both number their bits from the left, as z/Architecture does:
//! facility or function code n is bit 63 - n % 64 of doubleword n / 64.
//!
//! Facilities (z/Architecture Principles of Operation, SA22-7832-13,
//! "Facility Indications"): 17 message-security assist (KM, KMC, KIMD,
//! KLMD, KMAC), 77 its extension 4 (KMCTR, KMF, KMO, PCC), 129 the vector
//! facility, 146 extension 8 (KMA), 155 extension 9 (KDSA). Function codes
//! (the same document, "Message-Security-Assist" chapter; OpenSSL's
//! crypto/s390x_arch.h names the same numbers): KIMD 1 SHA-1, 2 SHA-256,
//! 3 SHA-512, 32-35 SHA3-224..512, 65 GHASH; KM, KMCTR and KMA 18, 19, 20
//! AES-128/192/256. The kernel enables the vector registers for a process
//! where AT_HWCAP has HWCAP_S390_VXRS (bit 11; Linux
//! arch/s390/include/asm/elf.h), and says STFLE may be used with
//! HWCAP_S390_STFLE (bit 2).
//!
//! The words are laid out as OpenSSL's `OPENSSL_s390xcap` string gives them
//! (crypto/info.c: `stfle:` four doublewords, then two per instruction), so
//! the library's view is decoded by the same function as the CPU's.

use super::Feature;

/// Facility numbers this crate names.
pub const FACILITY_MSA: u32 = 17;
pub const FACILITY_MSA4: u32 = 77;
pub const FACILITY_VX: u32 = 129;
pub const FACILITY_MSA8: u32 = 146;
pub const FACILITY_MSA9: u32 = 155;

/// AT_HWCAP bits (Linux arch/s390/include/asm/elf.h).
pub const HWCAP_S390_STFLE: u64 = 1 << 2;
pub const HWCAP_S390_VXRS: u64 = 1 << 11;

/// The words the features are decoded from: the facility list and the
/// status words of the query functions, two doublewords each.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Words {
    pub stfle: [u64; 4],
    pub kimd: [u64; 2],
    pub klmd: [u64; 2],
    pub km: [u64; 2],
    pub kmc: [u64; 2],
    pub kmac: [u64; 2],
    pub kmctr: [u64; 2],
    pub kma: [u64; 2],
    /// Whether the OS enables the vector registers (HWCAP_S390_VXRS); None
    /// for a library's view, which has no such word.
    pub vector_enabled: Option<bool>,
}

/// Bit `n` of words numbered from the left.
pub fn bit(words: &[u64], n: u32) -> bool {
    words.get((n / 64) as usize).is_some_and(|w| w & (1u64 << (63 - n % 64)) != 0)
}

/// The facilities named as features: (name, facility).
const FACILITIES: &[(&str, u32)] = &[
    ("msa", FACILITY_MSA),
    ("msa4", FACILITY_MSA4),
    ("msa8", FACILITY_MSA8),
    ("msa9", FACILITY_MSA9),
    ("vx", FACILITY_VX),
];

/// A query status word: which instruction, and its words.
type Query = (&'static str, fn(&Words) -> &[u64; 2]);

const KIMD: Query = ("KIMD", |w| &w.kimd);
const KM: Query = ("KM", |w| &w.km);
const KMCTR: Query = ("KMCTR", |w| &w.kmctr);
const KMA: Query = ("KMA", |w| &w.kma);

/// The CPACF functions named as features: (name, instruction, function codes, what they are).
const FUNCTIONS: &[(&str, Query, &[u32], &str)] = &[
    ("km_aes", KM, &[18, 19, 20], "AES-128/192/256"),
    ("kmctr_aes", KMCTR, &[18, 19, 20], "AES-128/192/256 in counter mode"),
    ("kma_gcm", KMA, &[18, 19, 20], "GCM-AES-128/192/256"),
    ("kimd_ghash", KIMD, &[65], "GHASH"),
    ("kimd_sha1", KIMD, &[1], "SHA-1"),
    ("kimd_sha256", KIMD, &[2], "SHA-256"),
    ("kimd_sha512", KIMD, &[3], "SHA-512"),
    ("kimd_sha3", KIMD, &[32, 33, 34, 35], "SHA3-224/256/384/512"),
];

/// Decodes the facilities and the CPACF functions present. A function
/// counts when any of its codes is there, and the source names those that
/// are; the vector facility needs the OS to enable it where that is known.
pub fn decode(w: &Words) -> Vec<Feature> {
    let mut out = Vec::new();
    for (name, facility) in FACILITIES {
        if !bit(&w.stfle, *facility) {
            continue;
        }
        let mut source = format!("STFLE facility {facility}");
        if *name == "vx" {
            match w.vector_enabled {
                Some(false) => continue,
                Some(true) => source.push_str(", AT_HWCAP HWCAP_S390_VXRS (bit 11)"),
                None => {}
            }
        }
        out.push(Feature { name, source });
    }
    for (name, (instruction, words), codes, what) in FUNCTIONS {
        let present: Vec<String> = codes.iter().filter(|c| bit(words(w), **c)).map(|c| c.to_string()).collect();
        if present.is_empty() {
            continue;
        }
        let plural = if present.len() > 1 { "s" } else { "" };
        out.push(Feature {
            name,
            source: format!("{instruction} query: function code{plural} {} ({what})", present.join(", ")),
        });
    }
    out
}

/// Reads this processor's words: the facility list where the kernel allows
/// STFLE, and each instruction's query where its facility is installed (an
/// instruction of an absent facility is an operation exception, SIGILL).
#[cfg(all(target_arch = "s390x", target_os = "linux"))]
pub fn read() -> Words {
    // SAFETY: getauxval only reads the auxiliary vector.
    let hwcap = unsafe { libc::getauxval(libc::AT_HWCAP) } as u64;
    let mut w = Words {
        vector_enabled: Some(hwcap & HWCAP_S390_VXRS != 0),
        ..Words::default()
    };
    if hwcap & HWCAP_S390_STFLE == 0 {
        return w;
    }
    w.stfle = machine::stfle();
    if bit(&w.stfle, FACILITY_MSA) {
        w.kimd = machine::query(machine::Instruction::Kimd);
        w.klmd = machine::query(machine::Instruction::Klmd);
        w.km = machine::query(machine::Instruction::Km);
        w.kmc = machine::query(machine::Instruction::Kmc);
        w.kmac = machine::query(machine::Instruction::Kmac);
    }
    if bit(&w.stfle, FACILITY_MSA4) {
        w.kmctr = machine::query(machine::Instruction::Kmctr);
    }
    if bit(&w.stfle, FACILITY_MSA8) {
        w.kma = machine::query(machine::Instruction::Kma);
    }
    w
}

/// The instructions themselves, encoded as OpenSSL's crypto/s390xcpuid.pl
/// encodes them (`.long`), with the registers it uses: GR0 the function
/// code (0, query), GR1 the parameter block the status word is stored in.
#[cfg(all(target_arch = "s390x", target_os = "linux"))]
mod machine {
    use std::arch::asm;

    /// The facility list, four doublewords (GR0 = doublewords - 1).
    pub fn stfle() -> [u64; 4] {
        let mut list = [0u64; 4];
        // SAFETY: STFLE stores at most GR0 + 1 = 4 doublewords at the address, a
        // buffer of that size; it is allowed in problem state (HWCAP_S390_STFLE).
        unsafe {
            asm!(".insn s,0xb2b00000,0({list})", list = in(reg_addr) list.as_mut_ptr(), inout("r0") 3u64 => _,
                 options(nostack));
        }
        list
    }

    pub enum Instruction {
        Kimd,
        Klmd,
        Km,
        Kmc,
        Kmac,
        Kmctr,
        Kma,
    }

    /// The 128-bit status word of the instruction's query function.
    pub fn query(instruction: Instruction) -> [u64; 2] {
        let mut status = [0u64; 2];
        let block = status.as_mut_ptr();
        // SAFETY: with GR0 = 0 each instruction performs its query function, which
        // stores 16 bytes at GR1 (the buffer) and reads no operand; the even
        // registers named as operands are only checked for validity. The caller
        // has checked the instruction's facility.
        unsafe {
            match instruction {
                Instruction::Kimd => asm!(".long 0xb93e0002", in("r0") 0u64, in("r1") block, in("r2") 0u64, options(nostack)),
                Instruction::Klmd => asm!(".long 0xb93f0002", in("r0") 0u64, in("r1") block, in("r2") 0u64, options(nostack)),
                Instruction::Km => asm!(".long 0xb92e0042", in("r0") 0u64, in("r1") block, in("r2") 0u64, in("r4") 0u64, options(nostack)),
                Instruction::Kmc => asm!(".long 0xb92f0042", in("r0") 0u64, in("r1") block, in("r2") 0u64, in("r4") 0u64, options(nostack)),
                Instruction::Kmac => {
                    asm!(".long 0xb91e0042", in("r0") 0u64, in("r1") block, in("r2") 0u64, in("r4") 0u64, options(nostack))
                }
                Instruction::Kmctr => {
                    asm!(".long 0xb92d2042", in("r0") 0u64, in("r1") block, in("r2") 0u64, in("r4") 0u64, options(nostack))
                }
                Instruction::Kma => asm!(".long 0xb9294022", in("r0") 0u64, in("r1") block, in("r2") 0u64, in("r4") 0u64, options(nostack)),
            }
        }
        status
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sets bit `n` (numbered from the left) in `words`.
    fn with(mut words: [u64; 2], codes: &[u32]) -> [u64; 2] {
        for c in codes {
            words[(c / 64) as usize] |= 1u64 << (63 - c % 64);
        }
        words
    }

    fn names(w: &Words) -> Vec<&'static str> {
        decode(w).into_iter().map(|f| f.name).collect()
    }

    #[test]
    fn bits_count_from_the_left() {
        assert!(bit(&[1u64 << 63], 0));
        assert!(bit(&[0, 1u64 << 62], 65));
        assert!(!bit(&[u64::MAX], 64), "past the words given");
    }

    #[test]
    fn a_z15_like_machine() {
        let mut stfle = [0u64; 4];
        for f in [FACILITY_MSA, FACILITY_MSA4, FACILITY_VX, FACILITY_MSA8, FACILITY_MSA9] {
            stfle[(f / 64) as usize] |= 1u64 << (63 - f % 64);
        }
        let w = Words {
            stfle,
            kimd: with([0; 2], &[0, 1, 2, 3, 32, 33, 34, 35, 36, 37, 65]),
            km: with([0; 2], &[0, 18, 19, 20, 50, 52]),
            kmctr: with([0; 2], &[0, 18, 19, 20]),
            kma: with([0; 2], &[0, 18, 19, 20]),
            vector_enabled: Some(true),
            ..Words::default()
        };
        // Every feature cryptobench names on IBM Z, in the table's order.
        assert_eq!(names(&w), super::super::S390X_CRYPTO);
        let f = decode(&w);
        assert_eq!(f[0].source, "STFLE facility 17");
        assert_eq!(f[5].source, "KM query: function codes 18, 19, 20 (AES-128/192/256)");
        assert_eq!(f[8].source, "KIMD query: function code 65 (GHASH)");
    }

    #[test]
    fn qemu_7_2_offers_sha512_only() {
        // What a CPU offering KIMD-SHA-512 alone reports: MSA, no AES function.
        let mut stfle = [0u64; 4];
        stfle[0] |= 1u64 << (63 - FACILITY_MSA);
        let w = Words {
            stfle,
            kimd: with([0; 2], &[0, 3]),
            km: with([0; 2], &[0]),
            ..Words::default()
        };
        assert_eq!(names(&w), vec!["msa", "kimd_sha512"]);
    }

    #[test]
    fn the_vector_facility_needs_the_os() {
        let mut stfle = [0u64; 4];
        stfle[2] |= 1u64 << (63 - FACILITY_VX % 64);
        let off = Words {
            stfle,
            vector_enabled: Some(false),
            ..Words::default()
        };
        assert!(names(&off).is_empty());
        let library = Words { stfle, ..Words::default() };
        assert_eq!(names(&library), vec!["vx"]);
    }
}

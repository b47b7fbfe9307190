//! OpenSSL's IBM Z capability vector, `OPENSSL_s390xcap_P`: the facility
//! list and the query status words of the CPACF instructions, which
//! OPENSSL_info reports as `OPENSSL_s390xcap=stfle:0x…:0x…:0x…:0x…:kimd:0x…:0x…:
//! klmd:…:km:…:kmc:…:kmac:…:kmctr:…:kmo:…:kmf:…:prno:…:kma:…:pcc:…:kdsa:…`
//! (crypto/info.c, 3.0.8 and 3.5.5), decoded here by the same function as
//! the CPU's words (crates/cpu/src/features/s390x.rs).
//!
//! The variable `OPENSSL_s390xcap` is a `;`-separated list of
//! `mnemonic:value:value…` entries (`stfle` with up to three words, each
//! instruction with two); a value prefixed `~` is inverted, and after
//! detection every word is ANDed with its entry, words not named staying
//! all ones (crypto/s390xcap.c, `parse_env` and `OPENSSL_cpuid_setup`). A
//! mask therefore clears the family's function codes, whatever was
//! detected, and the vector OpenSSL then reports shows the result.

use cryptobench_core::catalog::Family;
use cryptobench_cpu::features::s390x::{Words, FACILITY_VX};

/// Parses the text after `OPENSSL_s390xcap=`: each name, then its words.
pub fn parse(text: &str) -> Option<Words> {
    let mut w = Words::default();
    let mut current: Option<&str> = None;
    let mut index = 0;
    let mut any = false;
    for token in text.split(':') {
        let token = token.trim();
        if token.starts_with("0x") || token.starts_with("0X") {
            let value = u64::from_str_radix(&token[2..], 16).ok()?;
            let slot: Option<&mut u64> = match current? {
                "stfle" => w.stfle.get_mut(index),
                "kimd" => w.kimd.get_mut(index),
                "klmd" => w.klmd.get_mut(index),
                "km" => w.km.get_mut(index),
                "kmc" => w.kmc.get_mut(index),
                "kmac" => w.kmac.get_mut(index),
                "kmctr" => w.kmctr.get_mut(index),
                "kma" => w.kma.get_mut(index),
                // kmo, kmf, prno, pcc, kdsa: read past, not named as features.
                _ => None,
            };
            if let Some(slot) = slot {
                *slot = value;
            }
            index += 1;
            any = true;
        } else {
            current = Some(token);
            index = 0;
        }
    }
    any.then_some(w)
}

/// The function codes of a family, per instruction (crypto/s390x_arch.h:
/// S390X_AES_128/192/256 18-20, S390X_XTS_AES_128/256 50 and 52 of KM,
/// S390X_GHASH 65 of KIMD, S390X_SHA_1/256/512 1-3 of KIMD and KLMD),
/// and the facilities (S390X_VX 129).
fn family_codes(family: Family) -> &'static [(&'static str, &'static [u32])] {
    const AES: &[u32] = &[18, 19, 20];
    match family {
        Family::Aes => &[
            ("km", &[18, 19, 20, 50, 52]),
            ("kmc", AES),
            ("kmac", AES),
            ("kmctr", AES),
            ("kmo", AES),
            ("kmf", AES),
            ("kma", AES),
        ],
        Family::Clmul => &[("kimd", &[65])],
        Family::Sha => &[("kimd", &[1, 2, 3]), ("klmd", &[1, 2, 3])],
        Family::Simd => &[("stfle", &[FACILITY_VX])],
        Family::Bignum => &[],
    }
}

/// The CPU features a family's codes switch off.
pub fn family_features(family: Family) -> &'static [&'static str] {
    match family {
        Family::Aes => &["km_aes", "kmctr_aes", "kma_gcm"],
        Family::Clmul => &["kimd_ghash"],
        Family::Sha => &["kimd_sha1", "kimd_sha256", "kimd_sha512"],
        Family::Simd => &["vx"],
        Family::Bignum => &[],
    }
}

/// The value of `OPENSSL_s390xcap` that clears `families`: one entry per
/// mnemonic, each word `~` the bits to clear.
pub fn env_mask(families: &[Family]) -> String {
    let mut entries: Vec<(&str, Vec<u64>)> = Vec::new();
    for family in families {
        for (mnemonic, codes) in family_codes(*family) {
            let words = if *mnemonic == "stfle" { 3 } else { 2 };
            let at = match entries.iter().position(|(m, _)| m == mnemonic) {
                Some(i) => i,
                None => {
                    entries.push((mnemonic, vec![0; words]));
                    entries.len() - 1
                }
            };
            for code in *codes {
                entries[at].1[(code / 64) as usize] |= 1u64 << (63 - code % 64);
            }
        }
    }
    entries
        .iter()
        .map(|(m, clear)| {
            let words: Vec<String> = clear.iter().map(|c| format!("~0x{c:x}")).collect();
            format!("{m}:{}", words.join(":"))
        })
        .collect::<Vec<_>>()
        .join(";")
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_cpu::features::s390x::decode;

    /// What Debian 12's OpenSSL 3.0.20 reports under qemu-s390x 7.2.22: MSA 1-8 and the
    /// vector facility announced, and of CPACF's functions KIMD/KLMD-SHA-512 (and PRNO-TRNG) alone.
    const QEMU_7_2: &str = "stfle:0xf940f6d3f4c45c64:0x59c000000000000:0x7120280000000000:0x0:kimd:0x9000000000000000:0x0:klmd:0x9000000000000000:0x0:km:0x8000000000000000:0x0:kmc:0x8000000000000000:0x0:kmac:0x8000000000000000:0x0:kmctr:0x8000000000000000:0x0:kmo:0x8000000000000000:0x0:kmf:0x8000000000000000:0x0:prno:0x8000000000000000:0x2000:kma:0x8000000000000000:0x0:pcc:0x8000000000000000:0x0:kdsa:0x0:0x0";

    #[test]
    fn reads_every_word_by_its_name() {
        let w = parse("stfle:0x1:0x2:0x3:0x4:kimd:0x5:0x6:km:0x7:0x8:kma:0x9:0xa").unwrap();
        assert_eq!(w.stfle, [1, 2, 3, 4]);
        assert_eq!((w.kimd, w.km, w.kma), ([5, 6], [7, 8], [9, 10]));
        assert_eq!(parse("N/A"), None);
    }

    #[test]
    fn a_vector_decodes_like_the_cpu() {
        let names: Vec<&str> = decode(&parse(QEMU_7_2).unwrap()).into_iter().map(|f| f.name).collect();
        assert_eq!(names, vec!["msa", "msa4", "msa8", "vx", "kimd_sha512"]);
    }

    #[test]
    fn masks_clear_each_family_s_codes() {
        assert_eq!(
            env_mask(&[Family::Aes]),
            "km:~0x380000002800:~0x0;kmc:~0x380000000000:~0x0;kmac:~0x380000000000:~0x0;kmctr:~0x380000000000:~0x0;\
             kmo:~0x380000000000:~0x0;kmf:~0x380000000000:~0x0;kma:~0x380000000000:~0x0"
        );
        assert_eq!(env_mask(&[Family::Clmul]), "kimd:~0x0:~0x4000000000000000");
        assert_eq!(
            env_mask(&[Family::Sha]),
            "kimd:~0x7000000000000000:~0x0;klmd:~0x7000000000000000:~0x0"
        );
        assert_eq!(env_mask(&[Family::Simd]), "stfle:~0x0:~0x0:~0x4000000000000000");
        assert_eq!(
            env_mask(&[Family::Clmul, Family::Sha]),
            "kimd:~0x7000000000000000:~0x4000000000000000;klmd:~0x7000000000000000:~0x0"
        );
    }
}

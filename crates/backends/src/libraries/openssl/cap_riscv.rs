//! OpenSSL's RISC-V capability vector (3.2+): `OPENSSL_riscvcap_P`, one
//! bit per extension of include/crypto/riscv_arch.def, which OPENSSL_info
//! reports after the base ISA it was compiled for as the names it has set,
//! and the vector length where V is: `OPENSSL_riscvcap=RV64GC_ZBB_ZBC_V_ZVKNED
//! vlen:128` (crypto/info.c of 3.5.5). 3.5.5's list: ZBA,
//! ZBB, ZBC, ZBS, ZBKB, ZBKC, ZBKX, ZKND, ZKNE, ZKNH, ZKSED, ZKSH, ZKR,
//! ZKT, V, ZVBB, ZVBC, ZVKB, ZVKG, ZVKNED, ZVKNHA, ZVKNHB, ZVKSED, ZVKSH;
//! 3.2's stopped at ZVBC. It detects them with `riscv_hwprobe` only (the
//! vector ones where AT_HWCAP has V), so a kernel or emulator without that
//! call leaves the vector empty (crypto/riscvcap.c).
//!
//! The variable `OPENSSL_riscvcap` *replaces* detection: an ISA string
//! (`rv64gc_zbb_zvkned`) in which each extension is looked for as
//! `_NAME`, case-insensitively (riscvcap.c, `parse_env`). A mask is the
//! detected names without the family's, after `rv64gc`.

use cryptobench_core::catalog::Family;
use cryptobench_cpu::features::{Feature, RISCV_CRYPTO};

/// The extensions the vector reports, in lower case (the base ISA and the vector length left out).
pub fn parse(text: &str) -> Vec<String> {
    text.split_whitespace()
        .next()
        .unwrap_or("")
        .split('_')
        .map(|n| n.trim().to_ascii_lowercase())
        .filter(|n| !n.is_empty() && !n.starts_with("rv"))
        .collect()
}

/// The features among them, with their source.
pub fn features(names: &[String]) -> Vec<Feature> {
    RISCV_CRYPTO
        .iter()
        .filter(|f| names.iter().any(|n| n == *f))
        .map(|name| Feature {
            name,
            source: format!("OPENSSL_riscvcap {}", name.to_ascii_uppercase()),
        })
        .collect()
}

/// What a release's list can express: 3.5 has every extension this crate
/// names; 3.2 the scalar ones, V, Zvbb and Zvbc; releases in between are not claimed.
pub fn understood(release: Option<(u32, u32)>) -> &'static [&'static str] {
    if release.is_some_and(|r| r >= (3, 5)) {
        RISCV_CRYPTO
    } else {
        &["v", "zbb", "zbc", "zbkb", "zbkc", "zknd", "zkne", "zknh", "zvbb", "zvbc"]
    }
}

/// The extensions of a family, as riscv_arch.def names them (lower case):
/// the scalar and vector AES, the carry-less multiplies and GHASH, SHA-2,
/// and the vector unit with its bit-manipulation extensions.
pub fn family_names(family: Family) -> &'static [&'static str] {
    match family {
        Family::Aes => &["zkne", "zknd", "zvkned"],
        Family::Clmul => &["zbc", "zbkc", "zvbc", "zvkg"],
        Family::Sha => &["zknh", "zvknha", "zvknhb"],
        Family::Simd => &["v", "zvkb", "zvbb"],
        Family::Bignum => &[],
    }
}

/// The value of `OPENSSL_riscvcap` that keeps every detected extension but those of `families`.
pub fn env_mask(detected: &[String], families: &[Family]) -> String {
    let off: Vec<&str> = families.iter().flat_map(|f| family_names(*f).iter().copied()).collect();
    let mut value = "rv64gc".to_string();
    for name in detected.iter().filter(|n| !off.contains(&n.as_str())) {
        value.push('_');
        value.push_str(name);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reported_names_are_features() {
        let names = parse("RV64GC_ZBA_ZBB_ZBC_V_ZVKG_ZVKNED vlen:128");
        let f = features(&names);
        let got: Vec<&str> = f.iter().map(|x| x.name).collect();
        assert_eq!(got, vec!["v", "zbb", "zbc", "zvkg", "zvkned"]);
        assert_eq!(f[0].source, "OPENSSL_riscvcap V");
        assert!(parse("").is_empty() && parse("RV64GC").is_empty());
    }

    #[test]
    fn masks_keep_the_rest_of_what_was_detected() {
        let names = parse("ZBA_ZBB_ZBC_V_ZVKG_ZVKNED");
        assert_eq!(env_mask(&names, &[Family::Aes]), "rv64gc_zba_zbb_zbc_v_zvkg");
        assert_eq!(env_mask(&names, &[Family::Clmul]), "rv64gc_zba_zbb_v_zvkned");
        assert_eq!(env_mask(&[], &Family::ALL), "rv64gc");
    }
}

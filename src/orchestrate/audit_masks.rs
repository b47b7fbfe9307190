//! Which configurations an audit measures: the library as it is, then one
//! configuration per feature family switched off, then all of them off,
//! each through the library's own mechanism — the mask hook of its registry
//! entry (crates/backends/src/registry.rs; e.g. OpenSSL's capability
//! vector, libgcrypt's disabled hardware features, Nettle's fat override).

use cryptobench_backends::libraries;
use cryptobench_backends::registry::{Mask, MaskContext, MaskFn};
use cryptobench_core::audit::MaskedConfiguration;
use cryptobench_core::catalog::Family;
use cryptobench_core::result::ConfigurationSpec;
use cryptobench_cpu::features::Feature;

/// The backends the audit can mask: those whose registry entry has a mask hook.
pub fn maskable() -> Vec<&'static str> {
    libraries::LIBRARIES.iter().filter(|e| e.mask.is_some()).map(|e| e.id).collect()
}

/// The sets of families switched off, in the audit's order; `extra`
/// families (the big-number one, when public key is audited) come last, one
/// at a time, so the numbering of the others stays that of every audit.
fn family_sets(extra: &[Family]) -> Vec<Vec<Family>> {
    let mut sets: Vec<Vec<Family>> = vec![Vec::new()];
    sets.extend(Family::ALL.iter().map(|f| vec![*f]));
    sets.push(Family::ALL.to_vec());
    sets.extend(extra.iter().filter(|f| !Family::ALL.contains(f)).map(|f| vec![*f]));
    sets
}

/// The masked variants of one configuration of any maskable backend, whose
/// worker runs on the architecture `arch` and sees the features `cpu`.
pub fn variants(
    base: &ConfigurationSpec,
    capabilities: Option<&str>,
    cpu: &[Feature],
    vendor: Option<&str>,
    first_index: usize,
    arch: &str,
    extra: &[Family],
) -> Result<Vec<(ConfigurationSpec, MaskedConfiguration)>, String> {
    let mask: MaskFn = libraries::find(&base.backend).and_then(|e| e.mask).ok_or_else(|| {
        format!(
            "backend '{}' cannot be masked; the audit supports: {}",
            base.backend,
            maskable().join(", ")
        )
    })?;
    let ctx = MaskContext {
        capabilities,
        cpu,
        vendor,
        arch,
    };
    // Every mask is built before anything is measured: one that cannot be built refuses the audit.
    let masks: Vec<(Vec<Family>, Option<Mask>)> = family_sets(extra)
        .into_iter()
        .map(|families| match families.is_empty() {
            true => Ok((families, None)),
            false => mask(&ctx, &families).map(|m| (families, Some(m))),
        })
        .collect::<Result<_, _>>()?;
    Ok(masks
        .into_iter()
        // A single family whose mask would switch nothing off (Nettle has no
        // SIMD switch) is not measured; its verdict says so.
        .filter(|(_, m)| m.as_ref().is_none_or(|m| !m.cleared.is_empty()))
        .enumerate()
        .map(|(i, (families_off, mask))| {
            let mut spec = base.clone();
            let (mask, cleared) = match mask {
                Some(m) => {
                    spec.env.insert(m.var.to_string(), m.value.clone());
                    (
                        Some((m.var.to_string(), m.value)),
                        m.cleared.into_iter().map(str::to_string).collect(),
                    )
                }
                None => (None, Vec::new()),
            };
            (
                spec,
                MaskedConfiguration {
                    index: first_index + i,
                    families_off,
                    mask,
                    cleared,
                },
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_configurations_with_family_masks() {
        let base = ConfigurationSpec {
            backend: "openssl".into(),
            library: None,
            env: Default::default(),
            worker: None,
        };
        let v = variants(
            &base,
            Some("OPENSSL_ia32cap=0xfffa3203078bffff:0x400684219c07ab"),
            &[],
            None,
            1,
            "x86_64",
            &[],
        )
        .unwrap();
        assert_eq!(v.len(), 6, "all on, aes, clmul, sha, simd off, all off");
        assert!(v[0].0.env.is_empty() && v[0].1.mask.is_none());
        assert_eq!(v[1].1.families_off, vec![Family::Aes]);
        assert_eq!(v[1].0.env["OPENSSL_ia32cap"], "~0x200000000000000:~0x20000000000");
        assert_eq!(v[3].0.env["OPENSSL_ia32cap"], "~0:~0x20000000");
        assert_eq!(v[4].1.families_off, vec![Family::Simd]);
        assert_eq!(v[5].1.families_off.len(), 4);
        assert_eq!(v[5].1.index, 6);
        assert_eq!(v[3].1.cleared, vec!["sha_ni"], "a two-word vector has no SHA512 bit");
    }

    #[test]
    fn gcrypt_and_nettle_get_their_own_variables() {
        let cpu = [
            Feature {
                name: "aes",
                source: String::new(),
            },
            Feature {
                name: "pclmulqdq",
                source: String::new(),
            },
        ];
        let gcrypt = ConfigurationSpec {
            backend: "gcrypt".into(),
            library: None,
            env: Default::default(),
            worker: None,
        };
        let v = variants(&gcrypt, None, &cpu, None, 6, "x86_64", &[]).unwrap();
        assert_eq!(v.len(), 6);
        assert_eq!(
            v[1].0.env["CRYPTOBENCH_GCRYPT_DISABLE_HWF"],
            "intel-aesni,intel-vaes-vpclmul,arm-aes,ppc-vcrypto,s390x-msa,riscv-zvkned"
        );
        assert_eq!(v[0].1.index, 6);
        let nettle = ConfigurationSpec {
            backend: "nettle".into(),
            library: None,
            env: Default::default(),
            worker: None,
        };
        let v = variants(&nettle, None, &cpu, Some("AuthenticAMD"), 1, "x86_64", &[]).unwrap();
        assert!(v[0].0.env.is_empty(), "the baseline lets Nettle detect the CPU itself");
        assert_eq!(v.len(), 5, "Nettle has no SIMD switch: no simd-off configuration");
        assert!(v.iter().all(|(_, m)| m.families_off != vec![Family::Simd]));
        assert!(v[4].0.env.contains_key("NETTLE_FAT_OVERRIDE"));
        let sodium = ConfigurationSpec {
            backend: "sodium".into(),
            library: None,
            env: Default::default(),
            worker: None,
        };
        assert!(variants(&sodium, None, &cpu, None, 1, "x86_64", &[])
            .unwrap_err()
            .contains("cannot be masked"));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn gnutls_botan_aws_lc_and_boring_get_their_own_variables() {
        let spec = |backend: &str| ConfigurationSpec {
            backend: backend.into(),
            library: None,
            env: Default::default(),
            worker: None,
        };
        let v = variants(
            &spec("gnutls"),
            Some("gnutls: Intel AES accelerator was detected"),
            &[],
            None,
            1,
            "x86_64",
            &[],
        )
        .unwrap();
        assert_eq!(v.len(), 6, "all on, aes, clmul, sha, simd off, all off");
        assert_eq!(v[1].0.env["GNUTLS_CPUID_OVERRIDE"], "0x3c");
        assert_eq!(v[1].1.cleared, vec!["aes"]);
        let v = variants(&spec("botan"), Some("botan cpuid: aes_ni clmul"), &[], None, 1, "x86_64", &[]).unwrap();
        assert_eq!(v[2].0.env["BOTAN_CLEAR_CPUID"], "clmul,avx512_clmul");
        for id in ["aws-lc-rs", "boring"] {
            let v = variants(
                &spec(id),
                Some("OPENSSL_ia32cap=0xfffa3203078bffff:0x400684219c07ab"),
                &[],
                None,
                1,
                "x86_64",
                &[],
            )
            .unwrap();
            assert_eq!(v[1].0.env["OPENSSL_ia32cap"], "~0x200000000000000:~0x20000000000", "{id}");
        }
        assert!(variants(&spec("wolfssl"), None, &[], None, 1, "x86_64", &[])
            .unwrap_err()
            .contains("cannot be masked"));
    }

    #[test]
    fn five_word_vectors_get_five_fields() {
        let base = ConfigurationSpec {
            backend: "openssl".into(),
            library: None,
            env: Default::default(),
            worker: None,
        };
        let v = variants(&base, Some("OPENSSL_ia32cap=0x1:0x2:0x3:0x4:0x5"), &[], None, 1, "x86_64", &[]).unwrap();
        assert_eq!(v[1].0.env["OPENSSL_ia32cap"].split(':').count(), 5);
    }

    #[test]
    fn public_key_adds_the_big_number_family_last() {
        let base = ConfigurationSpec {
            backend: "openssl".into(),
            library: None,
            env: Default::default(),
            worker: None,
        };
        let v = variants(
            &base,
            Some("OPENSSL_ia32cap=0xfffa3203078bffff:0x400684219c07ab"),
            &[],
            None,
            1,
            "x86_64",
            &[Family::Bignum],
        )
        .unwrap();
        assert_eq!(v.len(), 7);
        assert_eq!(v[5].1.families_off.len(), 4, "the others keep their places");
        assert_eq!(v[6].1.families_off, vec![Family::Bignum]);
        // BMI2 (bit 8), ADX (19) and AVX-512 IFMA (21) of word 1; word 0 kept.
        assert_eq!(v[6].0.env["OPENSSL_ia32cap"], "~0:~0x280100");
        assert_eq!(v[6].1.cleared, vec!["bmi2", "adx", "avx512ifma"]);
        let gcrypt = ConfigurationSpec {
            backend: "gcrypt".into(),
            ..base.clone()
        };
        let v = variants(&gcrypt, None, &[], None, 1, "x86_64", &[Family::Bignum]).unwrap();
        assert!(
            v.iter().all(|(_, m)| m.families_off != vec![Family::Bignum]),
            "libgcrypt has no big-number switch: not measured"
        );
    }
}

//! Which configurations an audit measures: the library as it is, then one
//! configuration per feature family switched off, then all of them off,
//! each through the library's own mechanism (OpenSSL's capability vector,
//! libgcrypt's disabled hardware features, Nettle's fat override, GnuTLS's
//! GNUTLS_CPUID_OVERRIDE, Botan's BOTAN_CLEAR_CPUID, and the
//! OPENSSL_ia32cap that AWS-LC (aws-lc-rs) and BoringSSL honour as OpenSSL does).

use cryptobench_core::catalog::Family;
use cryptobench_core::result::ConfigurationSpec;
use cryptobench_cpu::features::openssl::{self, Vector};
use cryptobench_cpu::features::{botan, gcrypt, gnutls, nettle, Feature};

use cryptobench_core::audit::MaskedConfiguration;

/// Backends the audit can mask.
pub const MASKABLE: &[&str] = &["openssl", "gcrypt", "nettle", "gnutls", "botan", "aws-lc-rs", "boring"];

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

/// The environment variable and value that switch some families off, and the CPU features that makes unusable.
type MaskFn = Box<dyn Fn(&[Family]) -> ((&'static str, String), Vec<&'static str>)>;

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
    let mask_of: MaskFn = match base.backend.as_str() {
        // AWS-LC and BoringSSL read OPENSSL_ia32cap as OpenSSL 1.1.1/3.0 do (two
        // fields, "~" clears bits: crypto/fipsmodule/cpucap/cpu_intel.c of
        // AWS-LC, crypto/cpu_intel.c of BoringSSL) and report their vector alike.
        "openssl" | "aws-lc-rs" | "boring" => return openssl_variants(base, capabilities, first_index, arch, extra),
        "gnutls" if arch == "x86_64" || arch == "x86" => Box::new(|families| (gnutls::mask(families), gnutls::cleared(families))),
        "gnutls" => return Err(format!("GNUTLS_CPUID_OVERRIDE masks are built for x86 only, not {arch}")),
        "botan" => {
            let arch = arch.to_string();
            Box::new(move |families| (botan::mask(families, &arch), botan::cleared(families, &arch)))
        }
        "gcrypt" => Box::new(|families| (gcrypt::mask(families), gcrypt::cleared(families))),
        "nettle" => {
            let cpu = cpu.to_vec();
            let vendor = vendor.map(str::to_string);
            let arch = arch.to_string();
            Box::new(move |families| {
                (
                    nettle::mask(&cpu, vendor.as_deref(), families, &arch),
                    nettle::cleared(families, &arch),
                )
            })
        }
        other => {
            return Err(format!(
                "backend '{other}' cannot be masked; the audit supports: {}",
                MASKABLE.join(", ")
            ))
        }
    };
    Ok(with_masks(base, first_index, extra, |families| mask_of(families)))
}

/// The configurations of the family sets a library can switch off: a single
/// family whose mask would switch nothing off (Nettle has no SIMD switch) is
/// not measured; its verdict says so.
fn with_masks(
    base: &ConfigurationSpec,
    first_index: usize,
    extra: &[Family],
    mask_of: impl Fn(&[Family]) -> ((&'static str, String), Vec<&'static str>),
) -> Vec<(ConfigurationSpec, MaskedConfiguration)> {
    family_sets(extra)
        .into_iter()
        .filter(|families| families.is_empty() || !mask_of(families).1.is_empty())
        .enumerate()
        .map(|(i, families_off)| {
            let mut spec = base.clone();
            let mut cleared = Vec::new();
            let mask = (!families_off.is_empty()).then(|| {
                let ((var, value), off) = mask_of(&families_off);
                spec.env.insert(var.to_string(), value.clone());
                cleared = off.into_iter().map(str::to_string).collect();
                (var.to_string(), value)
            });
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
        .collect()
}

/// The masked variants of one OpenSSL configuration whose detected
/// capability vector is `capabilities`, on a worker of architecture `arch`.
/// Without a vector (OpenSSL 1.1.1 exposes none) x86 masks assume the
/// two-word format of 1.1.1 and 3.0.
pub fn openssl_variants(
    base: &ConfigurationSpec,
    capabilities: Option<&str>,
    first_index: usize,
    arch: &str,
    extra: &[Family],
) -> Result<Vec<(ConfigurationSpec, MaskedConfiguration)>, String> {
    let vector = match capabilities.and_then(openssl::parse) {
        Some(v) => v,
        None if arch == "x86_64" || arch == "x86" => Vector::X86(vec![0, 0]),
        None => {
            return Err(format!(
                "the library does not report its capability vector, and on {arch} OpenSSL's variable replaces the whole \
                 vector: cannot build masks"
            ))
        }
    };
    Ok(with_masks(base, first_index, extra, |families| {
        (openssl::mask(&vector, families), openssl::cleared(&vector, families))
    }))
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
        let v = openssl_variants(&base, Some("OPENSSL_ia32cap=0xfffa3203078bffff:0x400684219c07ab"), 1, "x86_64", &[]).unwrap();
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
            "intel-aesni,intel-vaes-vpclmul,arm-aes,ppc-vcrypto"
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
        let v = openssl_variants(&base, Some("OPENSSL_ia32cap=0x1:0x2:0x3:0x4:0x5"), 1, "x86_64", &[]).unwrap();
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
        let v = openssl_variants(
            &base,
            Some("OPENSSL_ia32cap=0xfffa3203078bffff:0x400684219c07ab"),
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

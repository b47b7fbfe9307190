//! Which configurations an audit measures: the library as it is, then one
//! configuration per feature family switched off, then all of them off.

use cryptobench_core::catalog::Family;
use cryptobench_core::result::ConfigurationSpec;
use cryptobench_cpu::features::openssl::{self, Vector};

use super::MaskedConfiguration;

/// The masked variants of one OpenSSL configuration whose detected
/// capability vector is `capabilities`. Without a vector (OpenSSL 1.1.1
/// exposes none) x86 masks assume the two-word format of 1.1.1 and 3.0.
pub fn openssl_variants(
    base: &ConfigurationSpec,
    capabilities: Option<&str>,
    first_index: usize,
) -> Result<Vec<(ConfigurationSpec, MaskedConfiguration)>, String> {
    let vector = match capabilities.and_then(openssl::parse) {
        Some(v) => v,
        None if cfg!(any(target_arch = "x86_64", target_arch = "x86")) => Vector::X86(vec![0, 0]),
        None => {
            return Err(
                "the library does not report its capability vector, and OPENSSL_armcap replaces the whole vector: cannot build masks"
                    .into(),
            )
        }
    };
    let mut sets: Vec<Vec<Family>> = vec![Vec::new()];
    sets.extend(Family::ALL.iter().map(|f| vec![*f]));
    sets.push(Family::ALL.to_vec());
    Ok(sets
        .into_iter()
        .enumerate()
        .map(|(i, families_off)| {
            let mut spec = base.clone();
            let mask = (!families_off.is_empty()).then(|| {
                let (var, value) = openssl::mask(&vector, &families_off);
                spec.env.insert(var.to_string(), value.clone());
                (var.to_string(), value)
            });
            (
                spec,
                MaskedConfiguration {
                    index: first_index + i,
                    families_off,
                    mask,
                },
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_configurations_with_family_masks() {
        let base = ConfigurationSpec {
            backend: "openssl".into(),
            library: None,
            env: Default::default(),
        };
        let v = openssl_variants(&base, Some("OPENSSL_ia32cap=0xfffa3203078bffff:0x400684219c07ab"), 1).unwrap();
        assert_eq!(v.len(), 5);
        assert!(v[0].0.env.is_empty() && v[0].1.mask.is_none());
        assert_eq!(v[1].1.families_off, vec![Family::Aes]);
        assert_eq!(v[1].0.env["OPENSSL_ia32cap"], "~0x200000000000000:~0x20000000000");
        assert_eq!(v[3].0.env["OPENSSL_ia32cap"], "~0:~0x20000000");
        assert_eq!(v[4].1.families_off.len(), 3);
        assert_eq!(v[4].1.index, 5);
    }

    #[test]
    fn five_word_vectors_get_five_fields() {
        let base = ConfigurationSpec {
            backend: "openssl".into(),
            library: None,
            env: Default::default(),
        };
        let v = openssl_variants(&base, Some("OPENSSL_ia32cap=0x1:0x2:0x3:0x4:0x5"), 1).unwrap();
        assert_eq!(v[1].0.env["OPENSSL_ia32cap"].split(':').count(), 5);
    }
}

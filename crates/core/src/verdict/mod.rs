//! Verdicts of the audit, each resting on measured figures: for every
//! algorithm and every acceleration family it can use, the throughput with
//! the family on and off at the smallest and largest size, and what follows
//! by the [`rules`] (beyond the noise, [`MIN_FACTOR`]); public key in [`pk`].
//! The verdicts' types are in [`crate::audit`].
//!
//! Everything about the CPU comes from the worker that was measured (its
//! architecture and the features it detected), and a verdict names only the
//! features its mask really switched off.

pub mod pk;
pub mod rules;

use self::rules::measured;
pub use self::rules::{beyond_noise, family_features, WorkerCpu, BIGNUM_X86, MIN_FACTOR};
use crate::audit::{feature_title, MaskedConfiguration, Verdict, VerdictKind};
use crate::catalog::{self, Family};
use crate::result::{CellOutcome, RunResult};
use crate::sizes::size_label;
use crate::stats::Summary;

/// The architectures whose families the audit knows (Rust's names), to tell
/// a mask's features of another architecture from this one's.
const AUDITED_ARCHES: [&str; 5] = ["x86_64", "aarch64", "powerpc64", "s390x", "riscv64"];
use crate::Operation;

fn summary<'a>(run: &'a RunResult, index: usize, algorithm: &str, size: usize) -> Option<&'a Summary> {
    let c = run.configurations.iter().find(|c| c.index == index)?;
    c.cells.iter().find_map(|x| match &x.outcome {
        CellOutcome::Measured(m) if x.spec.algorithm == algorithm && x.spec.size == size && x.spec.operation != Operation::Decrypt => {
            Some(&m.summary)
        }
        _ => None,
    })
}

fn ratio(on: Option<&Summary>, off: Option<&Summary>) -> Option<f64> {
    Some(on?.median / off?.median)
}

fn mbps(bps: f64) -> String {
    format!("{:.0} MB/s", bps / 1e6)
}

/// Verdicts for every algorithm of the run, about the CPU its worker saw.
pub fn verdicts(run: &RunResult, masked: &[MaskedConfiguration], cpu: &WorkerCpu) -> Vec<Verdict> {
    let Some(base) = masked.iter().find(|m| m.families_off.is_empty()) else {
        return Vec::new();
    };
    let (small, large) = match (run.settings.sizes.iter().min(), run.settings.sizes.iter().max()) {
        (Some(&s), Some(&l)) => (s, l),
        _ => return Vec::new(),
    };
    let mut algorithms: Vec<String> = Vec::new();
    for c in &run.configurations {
        for x in &c.cells {
            if !algorithms.contains(&x.spec.algorithm) {
                algorithms.push(x.spec.algorithm.clone());
            }
        }
    }
    let names = |fs: &[&str]| fs.iter().map(|f| feature_title(f, cpu.arch)).collect::<Vec<_>>().join("/");
    let mut out = Vec::new();
    for id in algorithms {
        let Ok(alg) = catalog::get(&id) else { continue };
        let families = alg.families();
        let targets: Vec<(Option<Family>, Option<&MaskedConfiguration>)> = if families.is_empty() {
            vec![(None, masked.iter().find(|m| m.families_off.len() == Family::ALL.len()))]
        } else {
            families
                .iter()
                .map(|f| (Some(*f), masked.iter().find(|m| m.families_off == vec![*f])))
                .collect()
        };
        for (family, off_config) in targets {
            let Some(off_config) = off_config else {
                // The library has no switch for this family: nothing was measured without it.
                if let Some(f) = family {
                    let features: Vec<&'static str> = family_features(f, Some(alg), cpu.arch).to_vec();
                    let offered: Vec<&str> = features.iter().copied().filter(|x| cpu.features.iter().any(|c| c == x)).collect();
                    let (kind, text) = if offered.is_empty() {
                        (
                            VerdictKind::NotOffered,
                            format!("not offered by this CPU (no {})", names(&features)),
                        )
                    } else {
                        (
                            VerdictKind::NotMasked,
                            format!(
                                "the CPU offers {}, which this library has no switch for: not measured without it",
                                names(&offered)
                            ),
                        )
                    };
                    out.push(Verdict {
                        algorithm: id.clone(),
                        family,
                        kind,
                        features: features.iter().map(|s| s.to_string()).collect(),
                        masked: Vec::new(),
                        off_index: None,
                        small_size: small,
                        large_size: large,
                        factor_small: None,
                        factor_large: None,
                        on_large: None,
                        off_large: None,
                        text,
                    });
                }
                continue;
            };
            let on_l = summary(run, base.index, &id, large);
            let off_l = summary(run, off_config.index, &id, large);
            let factor_small = ratio(summary(run, base.index, &id, small), summary(run, off_config.index, &id, small));
            let factor_large = ratio(on_l, off_l);
            let features: Vec<&'static str> = family.map(|f| family_features(f, Some(alg), cpu.arch).to_vec()).unwrap_or_default();
            let offered: Vec<&str> = features.iter().copied().filter(|f| cpu.features.iter().any(|c| c == f)).collect();
            let masked_here: Vec<&str> = offered
                .iter()
                .copied()
                .filter(|f| off_config.cleared.iter().any(|c| c == f))
                .collect();
            // What the mask switched off, less the features of other architectures
            // only (a mask may name every architecture's, as libgcrypt's hwflist does).
            let features_of = |arch: &str| -> Vec<&'static str> {
                Family::ALL
                    .iter()
                    .flat_map(|f| family_features(*f, Some(alg), arch).iter().copied())
                    .collect()
            };
            let here = features_of(cpu.arch);
            let foreign: Vec<&str> = AUDITED_ARCHES
                .iter()
                .filter(|a| **a != cpu.arch)
                .flat_map(|a| features_of(a))
                .filter(|f| !here.contains(f))
                .collect();
            let switched: Vec<&str> = off_config
                .cleared
                .iter()
                .map(String::as_str)
                .filter(|c| !foreign.contains(c))
                .collect();
            let figures = match (on_l, off_l, factor_large) {
                (Some(on), Some(off), Some(fl)) => format!(
                    "{fl:.2}× at {} ({} on, {} off){}",
                    size_label(large),
                    mbps(on.median),
                    mbps(off.median),
                    // One size measured: it is both the smallest and the largest, said once.
                    factor_small
                        .filter(|_| small != large)
                        .map(|fs| format!(", {fs:.2}× at {}", size_label(small)))
                        .unwrap_or_default()
                ),
                _ => "not measured".to_string(),
            };
            let (kind, text) = match family {
                None => (VerdictKind::NoFamily, format!("no hardware family; all families off: {figures}")),
                Some(_) if offered.is_empty() => (
                    VerdictKind::NotOffered,
                    format!(
                        "not offered by this CPU (no {}); switching the family off: {figures}",
                        names(&features)
                    ),
                ),
                Some(_) if masked_here.is_empty() => (
                    VerdictKind::NotMasked,
                    format!(
                        "the CPU offers {}, which this library's mask cannot switch off (it switches off {}); no verdict on {}; \
                         the figures with that mask: {figures}",
                        names(&offered),
                        if switched.is_empty() {
                            "nothing".to_string()
                        } else {
                            names(&switched)
                        },
                        names(&offered)
                    ),
                ),
                Some(_) => measured(on_l, off_l, &names(&masked_here), &figures),
            };
            // Emulated figures describe the emulator: every verdict says so.
            let text = match cpu.emulated_by {
                Some(e) => format!("under emulation ({e}), not hardware: {text}"),
                None => text,
            };
            out.push(Verdict {
                algorithm: id.clone(),
                family,
                kind,
                features: features.iter().map(|s| s.to_string()).collect(),
                masked: masked_here.iter().map(|s| s.to_string()).collect(),
                off_index: Some(off_config.index),
                small_size: small,
                large_size: large,
                factor_small,
                factor_large,
                on_large: on_l.map(|s| s.median),
                off_large: off_l.map(|s| s.median),
                text,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::DEFAULT_AAD_LEN;
    use crate::result::*;
    use crate::stats::{summarize, Sample};
    use crate::{CellSpec, Mode};

    /// A run with configurations 1 (all on), 2 (aes off), 3 (clmul off), 4 (sha off), 5 (all off), 6 (simd off);
    /// `wall(config, algorithm, size)` gives each sample's nanoseconds per 1000 calls.
    fn run(wall: impl Fn(usize, &str, usize) -> u64) -> (RunResult, Vec<MaskedConfiguration>) {
        let algs = ["aes-128-gcm", "sha256", "sha512", "chacha20-poly1305", "md5"];
        let sizes = vec![16, 16384];
        let sets: Vec<Vec<Family>> = vec![
            vec![],
            vec![Family::Aes],
            vec![Family::Clmul],
            vec![Family::Sha],
            Family::ALL.to_vec(),
            vec![Family::Simd],
        ];
        let mut configurations = Vec::new();
        let mut masked = Vec::new();
        for (i, set) in sets.into_iter().enumerate() {
            let index = i + 1;
            let mut cells = Vec::new();
            for alg in algs {
                for &size in &sizes {
                    let w = wall(index, alg, size);
                    // Samples spread by ±0.5% so confidence intervals are narrow but not empty.
                    let samples: Vec<Sample> = (0..12u64)
                        .map(|k| Sample {
                            iterations: 1000,
                            wall_ns: w + (k % 3) * w / 400,
                            cpu_ns: None,
                        })
                        .collect();
                    let m = Measurement {
                        summary: summarize(&samples, size).unwrap(),
                        samples,
                        warnings: vec![],
                        checksum: String::new(),
                        implementation: None,
                        exceptions: Default::default(),
                        cycles_per_byte: None,
                        aggregate: None,
                        replicates: Vec::new(),
                        buffer_page_offset: None,
                    };
                    let spec = CellSpec {
                        algorithm: alg.into(),
                        operation: Operation::Encrypt,
                        mode: Mode::Message,
                        rekey: false,
                        size,
                        aad: DEFAULT_AAD_LEN,
                        unit: crate::cell::CellUnit::Bytes,
                    };
                    cells.push(CellResult {
                        spec,
                        outcome: CellOutcome::Measured(m),
                    });
                }
            }
            configurations.push(ConfigurationResult {
                index,
                spec: ConfigurationSpec {
                    backend: "openssl".into(),
                    library: None,
                    env: Default::default(),
                    worker: None,
                },
                backend: None,
                status: ConfigurationStatus::Completed,
                verifications: vec![],
                cells,
                clock: None,
                overheads: vec![],
                score: None,
                platform: None,
                placement: None,
                bindings: Vec::new(),
                capability_view: None,
            });
            // What an x86 OpenSSL mask of two words clears (crates/cpu/src/features/openssl.rs).
            let cleared = set
                .iter()
                .flat_map(|f| match f {
                    Family::Aes => vec!["aes", "vaes"],
                    Family::Clmul => vec!["pclmulqdq", "vpclmulqdq"],
                    Family::Sha => vec!["sha_ni"],
                    Family::Simd => vec!["ssse3", "avx", "avx2", "avx512f", "avx512bw", "avx512vl"],
                    Family::Bignum => BIGNUM_X86.to_vec(),
                })
                .map(str::to_string)
                .collect();
            masked.push(MaskedConfiguration {
                index,
                families_off: set,
                mask: None,
                cleared,
            });
        }
        let run = RunResult {
            schema_version: SCHEMA_VERSION,
            tool: ToolInfo {
                name: "t".into(),
                version: "0".into(),
            },
            started_at: String::new(),
            finished_at: String::new(),
            command_line: vec![],
            host: HostInfo::default(),
            settings: RunSettings {
                timing: TimingSettings {
                    sample_target_ns: 1,
                    cell_budget_ns: 1,
                    min_samples: 1,
                    target_relative_ci: 0.01,
                    warmup_ns: 0,
                },
                sizes,
                pinned_cpu: None,
                rounds: 1,
                replicates: 1,
                order_seed: None,
            },
            configurations,
            label: None,
            imported: None,
            warnings: Vec::new(),
            audit: None,
            topology: None,
            history: None,
        };
        (run, masked)
    }

    fn x86(features: &[&str]) -> WorkerCpu<'static> {
        WorkerCpu {
            arch: "x86_64",
            features: features.iter().map(|f| f.to_string()).collect(),
            emulated_by: None,
        }
    }

    fn find<'a>(v: &'a [Verdict], alg: &str, family: Option<Family>) -> &'a Verdict {
        v.iter().find(|x| x.algorithm == alg && x.family == family).unwrap()
    }

    #[test]
    fn measured_slowdowns_make_the_verdicts() {
        // AES off: gcm 10× slower; clmul off: 2×; SHA off: sha256 5× slower, sha512 unchanged.
        let (run, masked) = run(|config, alg, _| match (config, alg) {
            (2, "aes-128-gcm") | (5, "aes-128-gcm") => 10_000_000,
            (3, "aes-128-gcm") => 2_000_000,
            (4, "sha256") | (5, "sha256") => 5_000_000,
            _ => 1_000_000,
        });
        let v = verdicts(&run, &masked, &x86(&["aes", "pclmulqdq", "sha_ni"]));
        let aes = find(&v, "aes-128-gcm", Some(Family::Aes));
        assert_eq!(aes.kind, VerdictKind::Accelerated);
        assert!((aes.factor_large.unwrap() - 10.0).abs() < 0.01);
        assert_eq!(find(&v, "aes-128-gcm", Some(Family::Clmul)).kind, VerdictKind::Accelerated);
        assert_eq!(find(&v, "sha256", Some(Family::Sha)).kind, VerdictKind::Accelerated);
        // Without AVX in the worker's features the SIMD family is not offered; md5 has no family at all.
        assert_eq!(find(&v, "chacha20-poly1305", Some(Family::Simd)).kind, VerdictKind::NotOffered);
        let md5 = find(&v, "md5", None);
        assert_eq!(md5.kind, VerdictKind::NoFamily);
        assert!((md5.factor_large.unwrap() - 1.0).abs() < 0.01);
        // The CPU has SHA-NI but not the SHA512 extension.
        assert_eq!(find(&v, "sha512", Some(Family::Sha)).kind, VerdictKind::NotOffered);
    }

    #[test]
    fn a_family_the_library_ignores_is_available_but_not_used() {
        let (run, masked) = run(|_, _, _| 1_000_000);
        let v = verdicts(&run, &masked, &x86(&["aes", "pclmulqdq", "sha_ni", "sha2"]));
        let aes = find(&v, "aes-128-gcm", Some(Family::Aes));
        assert_eq!(aes.kind, VerdictKind::AvailableNotUsed);
        assert!(aes.text.contains("does not use it"), "{}", aes.text);
    }

    #[test]
    fn without_the_instructions_the_verdict_is_not_offered() {
        let (run, masked) = run(|_, _, _| 1_000_000);
        let v = verdicts(&run, &masked, &x86(&[]));
        assert!(v.iter().filter(|x| x.family.is_some()).all(|x| x.kind == VerdictKind::NotOffered));
    }

    #[test]
    fn a_large_but_noisy_difference_is_inconclusive() {
        let (mut run, masked) = run(|config, _, _| if config == 2 { 3_000_000 } else { 1_000_000 });
        // Widen the all-on intervals until they overlap the aes-off ones.
        for cell in &mut run.configurations[0].cells {
            if let CellOutcome::Measured(m) = &mut cell.outcome {
                m.summary.median_ci95 = [m.summary.median / 10.0, m.summary.median * 2.0];
            }
        }
        let v = verdicts(&run, &masked, &x86(&["aes"]));
        let aes = find(&v, "aes-128-gcm", Some(Family::Aes));
        assert_eq!(aes.kind, VerdictKind::Inconclusive, "{}", aes.text);
        assert!(aes.text.contains("--time"));
    }

    #[test]
    fn a_small_slowdown_beyond_the_noise_is_reported_with_its_size() {
        // 5% slower with AES off, against a ±0.5% spread: used, but worth little.
        let (run, masked) = run(|config, _, _| if config == 2 { 1_050_000 } else { 1_000_000 });
        let v = verdicts(&run, &masked, &x86(&["aes", "vaes"]));
        let aes = find(&v, "aes-128-gcm", Some(Family::Aes));
        assert_eq!(aes.kind, VerdictKind::SmallGain, "{}", aes.text);
        assert!(aes.text.contains("4.8%"), "{}", aes.text);
    }

    #[test]
    fn a_difference_within_the_noise_is_not_used_when_the_intervals_rule_out_ten_percent() {
        // 0.1% slower with AES off: the ±0.5% intervals overlap and exclude a 10% effect.
        let (run, masked) = run(|config, _, _| if config == 2 { 1_001_000 } else { 1_000_000 });
        let v = verdicts(&run, &masked, &x86(&["aes", "vaes"]));
        assert_eq!(find(&v, "aes-128-gcm", Some(Family::Aes)).kind, VerdictKind::AvailableNotUsed);
    }

    #[test]
    fn faster_with_the_family_off_is_said_so() {
        let (run, masked) = run(|config, _, _| if config == 2 { 500_000 } else { 1_000_000 });
        let v = verdicts(&run, &masked, &x86(&["aes"]));
        let aes = find(&v, "aes-128-gcm", Some(Family::Aes));
        assert_eq!(aes.kind, VerdictKind::FasterWithout, "{}", aes.text);
        assert!(aes.text.contains("100.0%"), "{}", aes.text);
    }

    #[test]
    fn a_feature_the_mask_does_not_clear_is_never_named_as_measured() {
        // The CPU has the SHA512 extension, but a two-word OpenSSL vector cannot switch it off.
        let (run, masked) = run(|config, alg, _| if config == 4 && alg == "sha512" { 5_000_000 } else { 1_000_000 });
        let v = verdicts(&run, &masked, &x86(&["sha_ni", "sha512"]));
        let sha512 = find(&v, "sha512", Some(Family::Sha));
        assert_eq!(sha512.kind, VerdictKind::NotMasked, "{}", sha512.text);
        assert!(sha512.masked.is_empty());
        assert!(
            sha512.text.contains("cannot switch off") && sha512.text.contains("SHA-NI"),
            "{}",
            sha512.text
        );
        assert!(!sha512.text.contains("accelerated"), "{}", sha512.text);
    }

    #[test]
    fn chacha20_gets_a_measured_simd_verdict() {
        let (run, masked) = run(|config, alg, _| {
            if config == 6 && alg == "chacha20-poly1305" {
                3_000_000
            } else {
                1_000_000
            }
        });
        let v = verdicts(&run, &masked, &x86(&["ssse3", "avx", "avx2"]));
        let chacha = find(&v, "chacha20-poly1305", Some(Family::Simd));
        assert_eq!(chacha.kind, VerdictKind::Accelerated, "{}", chacha.text);
        assert!(chacha.text.contains("SSSE3/AVX/AVX2"), "{}", chacha.text);
        assert!((chacha.factor_large.unwrap() - 3.0).abs() < 0.01);
    }

    #[test]
    fn a_family_the_library_cannot_switch_is_not_measured() {
        let (run, mut masked) = run(|_, _, _| 1_000_000);
        masked.retain(|m| m.families_off != vec![Family::Simd]);
        let v = verdicts(&run, &masked, &x86(&["avx2"]));
        let chacha = find(&v, "chacha20-poly1305", Some(Family::Simd));
        assert_eq!(chacha.kind, VerdictKind::NotMasked);
        assert!(
            chacha.factor_large.is_none() && chacha.text.contains("no switch"),
            "{}",
            chacha.text
        );
    }

    #[test]
    fn arm_workers_get_arm_names() {
        let (run, mut masked) = run(|config, alg, _| {
            if config == 2 && alg == "aes-128-gcm" {
                10_000_000
            } else {
                1_000_000
            }
        });
        masked[1].cleared = vec!["aes".into()];
        let arm = WorkerCpu {
            arch: "aarch64",
            features: vec!["aes".into(), "pmull".into()],
            emulated_by: None,
        };
        let v = verdicts(&run, &masked, &arm);
        let aes = find(&v, "aes-128-gcm", Some(Family::Aes));
        assert_eq!(aes.kind, VerdictKind::Accelerated);
        assert!(
            aes.text.contains("accelerated by AES:") && !aes.text.contains("AES-NI"),
            "{}",
            aes.text
        );
        let emulated = WorkerCpu {
            emulated_by: Some("qemu-aarch64 version 7.2.22"),
            ..arm
        };
        let v = verdicts(&run, &masked, &emulated);
        let aes = find(&v, "aes-128-gcm", Some(Family::Aes));
        assert!(
            aes.text.starts_with("under emulation (qemu-aarch64 version 7.2.22), not hardware:"),
            "{}",
            aes.text
        );
    }

    /// A public-key cell of `wall_ns` per 1000 operations, ±0.5%.
    fn pk_cell(algorithm: &str, operation: Operation, size: usize, wall_ns: u64) -> CellResult {
        let samples: Vec<Sample> = (0..12u64)
            .map(|k| Sample {
                iterations: 1000,
                wall_ns: wall_ns + (k % 3) * wall_ns / 400,
                cpu_ns: None,
            })
            .collect();
        CellResult {
            spec: CellSpec {
                algorithm: algorithm.into(),
                operation,
                mode: Mode::Message,
                rekey: false,
                size,
                aad: DEFAULT_AAD_LEN,
                unit: crate::cell::CellUnit::Operations,
            },
            outcome: CellOutcome::Measured(Measurement {
                summary: summarize(&samples, 1).unwrap(),
                samples,
                warnings: vec![],
                checksum: String::new(),
                implementation: None,
                exceptions: Default::default(),
                cycles_per_byte: None,
                aggregate: None,
                replicates: Vec::new(),
                buffer_page_offset: None,
            }),
        }
    }

    #[test]
    fn public_key_cells_get_big_number_and_simd_verdicts() {
        let (mut run, mut masked) = run(|_, _, _| 1_000_000);
        // A seventh configuration with the big-number family off, as the audit adds for public key.
        let mut bignum = run.configurations[0].clone();
        bignum.index = 7;
        run.configurations.push(bignum);
        masked.push(MaskedConfiguration {
            index: 7,
            families_off: vec![Family::Bignum],
            mask: None,
            cleared: BIGNUM_X86.iter().map(|s| s.to_string()).collect(),
        });
        // RSA signing 1.8× slower without BMI2/ADX/IFMA and 4× without SIMD; Ed25519 unchanged.
        for c in &mut run.configurations {
            let rsa = match c.index {
                7 => 1_800_000,
                6 => 4_000_000,
                _ => 1_000_000,
            };
            c.cells.push(pk_cell("rsa2048", Operation::Sign, 32, rsa));
            c.cells.push(pk_cell("ed25519", Operation::Sign, 20, 1_000_000));
        }
        let cpu = x86(&["avx2", "avx512f", "bmi2", "adx", "avx512ifma"]);
        let v = pk::verdicts(&run, &masked, &cpu);
        let rsa = find(&v, "rsa2048 sign", Some(Family::Bignum));
        assert_eq!(rsa.kind, VerdictKind::Accelerated, "{}", rsa.text);
        assert!((rsa.factor_large.unwrap() - 1.8).abs() < 0.01);
        assert!(rsa.text.contains("op/s"), "{}", rsa.text);
        assert_eq!(rsa.off_index, Some(7));
        assert_eq!(find(&v, "rsa2048 sign", Some(Family::Simd)).kind, VerdictKind::Accelerated);
        assert_eq!(find(&v, "ed25519 sign", Some(Family::Bignum)).kind, VerdictKind::AvailableNotUsed);
        // The symmetric verdicts leave public-key cells alone.
        assert!(verdicts(&run, &masked, &cpu).iter().all(|x| !x.algorithm.contains(' ')));
        // A CPU without the features: not offered, nothing claimed.
        let bare = pk::verdicts(&run, &masked, &x86(&[]));
        assert_eq!(find(&bare, "rsa2048 sign", Some(Family::Bignum)).kind, VerdictKind::NotOffered);
        assert_eq!(pk::parse_cell_name("rsa2048 sign"), Some(("rsa2048", Operation::Sign)));
        assert_eq!(pk::parse_cell_name("aes-128-gcm"), None);
    }
}

//! Verdicts of the audit, each resting on measured figures: for every
//! algorithm and every acceleration family it can use, the throughput with
//! the family on and off at the smallest and largest size, and what follows.
//!
//! A family counts as *accelerating* when switching it off slows the largest
//! size by at least [`MIN_FACTOR`] and the two medians' 95% confidence
//! intervals do not overlap (non-overlapping intervals imply a difference at
//! better than the 5% level; N. Schenker & J. F. Gentleman, "On judging the
//! significance of differences by examining the overlap between confidence
//! intervals", The American Statistician 55(3), 2001).

use cryptobench_core::catalog::{self, AlgorithmSpec, Family};
use cryptobench_core::result::{CellOutcome, RunResult};
use cryptobench_core::stats::Summary;
use cryptobench_core::Operation;
use cryptobench_cpu::features::Feature;
use serde::Serialize;

use super::MaskedConfiguration;

/// Smallest slow-down that counts as acceleration; below it, differences
/// are within what frequency and neighbours move on shared machines.
pub const MIN_FACTOR: f64 = 1.10;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictKind {
    /// The CPU offers the family and the library uses it: switching it off costs measurably.
    Accelerated,
    /// The CPU offers the family but switching it off changes nothing measurable.
    AvailableNotUsed,
    /// The CPU lacks the family's instructions.
    NotOffered,
    /// The CPU offers the family, but the figures are too noisy to tell whether it is used.
    Inconclusive,
    /// The algorithm has no hardware family; the figure is all-off against all-on.
    NoFamily,
}

#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    pub algorithm: String,
    pub family: Option<Family>,
    pub kind: VerdictKind,
    /// The CPU features of the family that matter for this algorithm.
    pub features: Vec<&'static str>,
    pub small_size: usize,
    pub large_size: usize,
    /// On/off throughput ratio at the smallest and the largest size.
    pub factor_small: Option<f64>,
    pub factor_large: Option<f64>,
    /// Bytes per second at the largest size with the family on and off.
    pub on_large: Option<f64>,
    pub off_large: Option<f64>,
    pub text: String,
}

/// The CPU features a family means for one algorithm on this architecture.
pub fn family_features(family: Family, alg: &AlgorithmSpec) -> &'static [&'static str] {
    let arm = cfg!(any(target_arch = "aarch64", target_arch = "arm"));
    match (family, arm) {
        (Family::Aes, false) => &["aes", "vaes"],
        (Family::Clmul, false) => &["pclmulqdq", "vpclmulqdq"],
        (Family::Sha, false) if alg.digest_len > 32 => &["sha512"],
        (Family::Sha, false) => &["sha_ni"],
        (Family::Aes, true) => &["aes"],
        (Family::Clmul, true) => &["pmull"],
        (Family::Sha, true) if alg.family == "sha1" => &["sha1"],
        (Family::Sha, true) if alg.digest_len > 32 => &["sha512"],
        (Family::Sha, true) => &["sha2"],
    }
}

/// How people write these features.
pub fn display_name(feature: &str) -> String {
    match feature {
        "aes" if !cfg!(any(target_arch = "aarch64", target_arch = "arm")) => "AES-NI".into(),
        "sha_ni" => "SHA-NI".into(),
        other => other.to_uppercase(),
    }
}

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

/// Medians differ beyond noise: their 95% confidence intervals do not overlap.
fn beyond_noise(on: &Summary, off: &Summary) -> bool {
    on.median_ci95[0] > off.median_ci95[1] || off.median_ci95[0] > on.median_ci95[1]
}

/// The intervals are narrow enough to rule out a slow-down of MIN_FACTOR:
/// even the most favourable ends differ by less.
fn excludes_acceleration(on: &Summary, off: &Summary) -> bool {
    on.median_ci95[1] < MIN_FACTOR * off.median_ci95[0]
}

fn mbps(bps: f64) -> String {
    format!("{:.0} MB/s", bps / 1e6)
}

/// Verdicts for every algorithm of the run; `cpu` is what the processor offers.
pub fn verdicts(run: &RunResult, masked: &[MaskedConfiguration], cpu: &[Feature]) -> Vec<Verdict> {
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
            let Some(off_config) = off_config else { continue };
            let on_l = summary(run, base.index, &id, large);
            let off_l = summary(run, off_config.index, &id, large);
            let factor_small = ratio(summary(run, base.index, &id, small), summary(run, off_config.index, &id, small));
            let factor_large = ratio(on_l, off_l);
            let features: Vec<&'static str> = family.map(|f| family_features(f, alg).to_vec()).unwrap_or_default();
            let offered: Vec<&str> = features.iter().copied().filter(|f| cpu.iter().any(|c| c.name == *f)).collect();
            let names = |fs: &[&str]| fs.iter().map(|f| display_name(f)).collect::<Vec<_>>().join("/");
            let figures = match (on_l, off_l, factor_large) {
                (Some(on), Some(off), Some(fl)) => format!(
                    "{fl:.2}× at {} ({} on, {} off){}",
                    cryptobench_report::size_label(large),
                    mbps(on.median),
                    mbps(off.median),
                    factor_small
                        .map(|fs| format!(", {fs:.2}× at {}", cryptobench_report::size_label(small)))
                        .unwrap_or_default()
                ),
                _ => "not measured".to_string(),
            };
            let (kind, text) = match family {
                None => (VerdictKind::NoFamily, format!("no hardware family; all families off: {figures}")),
                Some(_) if offered.is_empty() => (
                    VerdictKind::NotOffered,
                    format!("not offered by this CPU (no {}); switching it off: {figures}", names(&features)),
                ),
                Some(_) => match (on_l, off_l) {
                    (Some(on), Some(off)) if beyond_noise(on, off) && on.median >= MIN_FACTOR * off.median => {
                        (VerdictKind::Accelerated, format!("accelerated by {}: {figures}", names(&offered)))
                    }
                    (Some(on), Some(off)) if beyond_noise(on, off) || excludes_acceleration(on, off) => (
                        VerdictKind::AvailableNotUsed,
                        format!(
                            "the CPU offers {} but this library does not use it: switching it off gives {figures}",
                            names(&offered)
                        ),
                    ),
                    _ => (
                        VerdictKind::Inconclusive,
                        format!(
                            "the CPU offers {}; too noisy to tell whether it is used ({figures}); give the cells more --time",
                            names(&offered)
                        ),
                    ),
                },
            };
            out.push(Verdict {
                algorithm: id.clone(),
                family,
                kind,
                features,
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
    use cryptobench_core::cell::DEFAULT_AAD_LEN;
    use cryptobench_core::result::*;
    use cryptobench_core::stats::{summarize, Sample};
    use cryptobench_core::{CellSpec, Mode};

    /// A run with configurations 1 (all on), 2 (aes off), 3 (clmul off), 4 (sha off), 5 (all off);
    /// `wall(config, algorithm, size)` gives each sample's nanoseconds per 1000 calls.
    fn run(wall: impl Fn(usize, &str, usize) -> u64) -> (RunResult, Vec<MaskedConfiguration>) {
        let algs = ["aes-128-gcm", "sha256", "sha512", "chacha20-poly1305"];
        let sizes = vec![16, 16384];
        let sets: Vec<Vec<Family>> = vec![
            vec![],
            vec![Family::Aes],
            vec![Family::Clmul],
            vec![Family::Sha],
            Family::ALL.to_vec(),
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
                        cycles_per_byte: None,
                    };
                    let spec = CellSpec {
                        algorithm: alg.into(),
                        operation: Operation::Encrypt,
                        mode: Mode::Message,
                        rekey: false,
                        size,
                        aad: DEFAULT_AAD_LEN,
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
                bindings: Vec::new(),
            });
            masked.push(MaskedConfiguration {
                index,
                families_off: set,
                mask: None,
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
            },
            configurations,
            label: None,
            imported: None,
        };
        (run, masked)
    }

    fn feature(name: &'static str) -> Feature {
        Feature {
            name,
            source: "test".into(),
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
        let x86 = [feature("aes"), feature("pclmulqdq"), feature("sha_ni")];
        let v = verdicts(&run, &masked, &x86);
        let aes = find(&v, "aes-128-gcm", Some(Family::Aes));
        assert_eq!(aes.kind, VerdictKind::Accelerated);
        assert!((aes.factor_large.unwrap() - 10.0).abs() < 0.01);
        assert_eq!(find(&v, "aes-128-gcm", Some(Family::Clmul)).kind, VerdictKind::Accelerated);
        assert_eq!(find(&v, "sha256", Some(Family::Sha)).kind, VerdictKind::Accelerated);
        let chacha = find(&v, "chacha20-poly1305", None);
        assert_eq!(chacha.kind, VerdictKind::NoFamily);
        assert!((chacha.factor_large.unwrap() - 1.0).abs() < 0.01);
        // The CPU has SHA-NI but not the SHA512 extension (x86 only; arm maps sha512 the same way).
        if !cfg!(any(target_arch = "aarch64", target_arch = "arm")) {
            assert_eq!(find(&v, "sha512", Some(Family::Sha)).kind, VerdictKind::NotOffered);
        }
    }

    #[test]
    fn a_family_the_library_ignores_is_available_but_not_used() {
        let (run, masked) = run(|_, _, _| 1_000_000);
        let v = verdicts(
            &run,
            &masked,
            &[feature("aes"), feature("pclmulqdq"), feature("sha_ni"), feature("sha2")],
        );
        let aes = find(&v, "aes-128-gcm", Some(Family::Aes));
        assert_eq!(aes.kind, VerdictKind::AvailableNotUsed);
        assert!(aes.text.contains("does not use it"), "{}", aes.text);
    }

    #[test]
    fn without_the_instructions_the_verdict_is_not_offered() {
        let (run, masked) = run(|_, _, _| 1_000_000);
        let v = verdicts(&run, &masked, &[]);
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
        let v = verdicts(&run, &masked, &[feature("aes")]);
        let aes = find(&v, "aes-128-gcm", Some(Family::Aes));
        assert_eq!(aes.kind, VerdictKind::Inconclusive, "{}", aes.text);
        assert!(aes.text.contains("--time"));
    }

    #[test]
    fn a_small_difference_within_noise_is_not_acceleration() {
        // 5% slower with AES off: below MIN_FACTOR.
        let (run, masked) = run(|config, _, _| if config == 2 { 1_050_000 } else { 1_000_000 });
        let v = verdicts(&run, &masked, &[feature("aes"), feature("vaes")]);
        assert_eq!(find(&v, "aes-128-gcm", Some(Family::Aes)).kind, VerdictKind::AvailableNotUsed);
    }
}

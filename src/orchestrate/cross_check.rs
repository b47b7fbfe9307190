//! The orchestrator's side of `cryptobench verify`: the comparison of
//! output fingerprints across backends, which turns what every worker
//! reported ([`BackendChecks`]) into passed and failed checks.

use std::collections::BTreeMap;

use cryptobench_core::checks::{BackendChecks, CheckKind};

/// One backend's output for an (algorithm, case): backend index, report index, fingerprint.
type Output = (usize, usize, String);

/// Turns the agreement fingerprints into outcomes: for each algorithm and
/// case, the largest group of backends with the same output passes when it
/// has at least two members and is larger than any other group; every other
/// backend fails, naming the group it differs from. A case only one backend
/// computed is skipped (nothing to compare with).
pub fn compare_agreement(all: &mut [BackendChecks]) {
    let mut cases: BTreeMap<(String, String), Vec<Output>> = BTreeMap::new();
    for (b, checks) in all.iter().enumerate() {
        for (r, report) in checks.reports.iter().enumerate() {
            if report.kind == Some(CheckKind::Agreement) {
                for (case, fp) in &report.fingerprints {
                    cases
                        .entry((report.algorithm.clone(), case.clone()))
                        .or_default()
                        .push((b, r, fp.clone()));
                }
            }
        }
    }
    for ((_, case), outputs) in cases {
        if outputs.len() < 2 {
            for (b, r, _) in outputs {
                all[b].reports[r].skip("agreement: no other backend computes this algorithm here");
            }
            continue;
        }
        let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (b, _, fp) in &outputs {
            groups.entry(fp.as_str()).or_default().push(*b);
        }
        let mut sizes: Vec<(usize, &str)> = groups.iter().map(|(fp, members)| (members.len(), *fp)).collect();
        sizes.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
        let winner = match sizes.as_slice() {
            [(n, fp), rest @ ..] if *n >= 2 && rest.first().is_none_or(|(m, _)| m < n) => Some(*fp),
            _ => None,
        };
        let names = |members: &[usize]| members.iter().map(|&b| all[b].configuration.clone()).collect::<Vec<_>>().join(", ");
        let description = match winner {
            Some(fp) => format!("{case}: output differs from that of {}, which agree", names(&groups[fp])),
            None => format!(
                "{case}: backends disagree: {}",
                groups.values().map(|m| format!("[{}]", names(m))).collect::<Vec<_>>().join(" vs ")
            ),
        };
        for (b, r, fp) in &outputs {
            let report = &mut all[*b].reports[*r];
            if Some(fp.as_str()) == winner {
                report.passed += 1;
            } else {
                report.fail(description.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::checks::{tally, Availability, CheckReport, Tally};

    fn backend(name: &str, fingerprints: &[(&str, &str)]) -> BackendChecks {
        let mut report = CheckReport::new("sha256", CheckKind::Agreement);
        report.fingerprints = fingerprints.iter().map(|(c, f)| (c.to_string(), f.to_string())).collect();
        BackendChecks {
            configuration: name.into(),
            availability: Availability::Available,
            backend: None,
            verifications: Vec::new(),
            reports: vec![report],
        }
    }

    #[test]
    fn the_odd_one_out_fails_and_the_majority_passes() {
        let mut all = vec![
            backend("a", &[("0 bytes", "x"), ("1 bytes", "y")]),
            backend("b", &[("0 bytes", "x"), ("1 bytes", "y")]),
            backend("c", &[("0 bytes", "x"), ("1 bytes", "z")]),
        ];
        compare_agreement(&mut all);
        assert_eq!(
            tally(&all[0], "sha256"),
            Tally {
                passed: 2,
                failed: 0,
                skipped: 0,
                defects: 0
            }
        );
        assert_eq!(
            tally(&all[2], "sha256"),
            Tally {
                passed: 1,
                failed: 1,
                skipped: 0,
                defects: 0
            }
        );
        assert!(all[2].reports[0].failures[0].contains("a, b"), "{:?}", all[2].reports[0].failures);
    }

    #[test]
    fn two_that_disagree_both_fail_and_one_alone_is_skipped() {
        let mut two = vec![backend("a", &[("0 bytes", "x")]), backend("b", &[("0 bytes", "y")])];
        compare_agreement(&mut two);
        assert_eq!(tally(&two[0], "sha256").failed, 1);
        assert_eq!(tally(&two[1], "sha256").failed, 1);
        let mut one = vec![backend("a", &[("0 bytes", "x")])];
        compare_agreement(&mut one);
        assert_eq!(
            tally(&one[0], "sha256"),
            Tally {
                passed: 0,
                failed: 0,
                skipped: 1,
                defects: 0
            }
        );
    }
}

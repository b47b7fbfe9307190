//! Lines for the binding's (and a PKCS#11 token's) cost: each runtime or token row against the C library it
//! calls, measured in the same run (crates/core/src/binding.rs), e.g.
//! "Python hashlib 3.11.7: sha256 hash message: 454 ns per call, +300 ns
//! over OpenSSL 3.0.22 (154 ns); r∞ 1146 MB/s vs 1268 MB/s; 16 B at 0.37×,
//! 16 KiB at 0.95× of it".

use cryptobench_core::result::ConfigurationResult;
use cryptobench_core::units::Unit;

use crate::labels::Labels;
use crate::size_label;

pub fn lines(c: &ConfigurationResult, unit: Unit, labels: &Labels) -> Vec<String> {
    let rate_unit = if unit == Unit::Cpb { Unit::Mb } else { unit };
    let rate = |r: f64| format!("{} {}", rate_unit.format(r), rate_unit.label());
    c.bindings
        .iter()
        .map(|b| {
            if b.is_public_key() {
                return public_key_line(c, b, labels);
            }
            let mut line = format!(
                "{}: {} {} {}: {:.0} ns per call",
                labels.get(0, c.index),
                b.algorithm,
                b.operation.short(),
                b.mode,
                b.per_call_ns
            );
            match (b.direct, b.extra_per_call_ns(), b.direct_asymptotic_bytes_per_s) {
                (Some(d), Some(extra), Some(direct_rate)) => {
                    line.push_str(&format!(
                        ", {extra:+.0} ns over {}{} ({:.0} ns); r∞ {} vs {}",
                        labels.get(0, d),
                        // The library's other row it is set beside (message+rekey), named.
                        b.direct_mode.as_ref().map(|m| format!(" {m}")).unwrap_or_default(),
                        b.direct_per_call_ns.unwrap_or_default(),
                        rate(b.asymptotic_bytes_per_s),
                        rate(direct_rate)
                    ));
                    // The smallest and the largest size both measured.
                    let ends = match b.ratios.as_slice() {
                        [] => vec![],
                        [one] => vec![one],
                        [first, .., last] => vec![first, last],
                    };
                    let shown: Vec<String> = ends.iter().map(|r| format!("{} at {:.2}×", size_label(r.size), r.ratio)).collect();
                    if !shown.is_empty() {
                        line.push_str(&format!("; {} of it", shown.join(", ")));
                    }
                }
                _ => line.push_str(&format!(", r∞ {}", rate(b.asymptotic_bytes_per_s))),
            }
            if let Some(note) = &b.note {
                line.push_str(&format!(" ({note})"));
            }
            line
        })
        .collect()
}

/// A public-key line: "ALG OP: T ns per operation, +D ns over LIBRARY
/// (T₀ ns); R× its operations per second" (no fit: one cell each).
fn public_key_line(c: &ConfigurationResult, b: &cryptobench_core::binding::BindingCost, labels: &Labels) -> String {
    let mut line = format!(
        "{}: {} {}: {:.0} ns per operation",
        labels.get(0, c.index),
        b.algorithm,
        b.operation.short(),
        b.per_call_ns
    );
    if let (Some(d), Some(extra), Some(direct)) = (b.direct, b.extra_per_call_ns(), b.direct_per_call_ns) {
        line.push_str(&format!(", {extra:+.0} ns over {} ({direct:.0} ns)", labels.get(0, d)));
        if let Some(r) = b.ratios.first() {
            line.push_str(&format!("; {:.2}× its operations per second", r.ratio));
        }
    }
    if let Some(note) = &b.note {
        line.push_str(&format!(" ({note})"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::binding::{BindingCost, SizeRatio};
    use cryptobench_core::result::{ConfigurationSpec, ConfigurationStatus};
    use cryptobench_core::Operation;

    fn cost(direct: bool) -> BindingCost {
        BindingCost {
            algorithm: "aes-128-gcm".into(),
            operation: Operation::Encrypt,
            mode: "message".into(),
            underneath: "OpenSSL 3.0.19".into(),
            direct: direct.then_some(1),
            direct_mode: None,
            note: (!direct).then(|| "OpenSSL 3.0.19 is not in this run".into()),
            per_call_ns: 621.0,
            asymptotic_bytes_per_s: 7.27e9,
            half_peak_bytes: 4500.0,
            direct_per_call_ns: direct.then_some(228.0),
            direct_asymptotic_bytes_per_s: direct.then_some(4.6e9),
            direct_half_peak_bytes: direct.then_some(1000.0),
            ratios: if direct {
                vec![
                    SizeRatio { size: 16, ratio: 0.37 },
                    SizeRatio { size: 1024, ratio: 0.7 },
                    SizeRatio { size: 16384, ratio: 1.02 },
                ]
            } else {
                vec![]
            },
        }
    }

    #[test]
    fn says_the_extra_cost_and_the_ratios_at_both_ends() {
        let configuration = |index: usize, id: &str, name: &str, version: &str, bindings: Vec<BindingCost>| ConfigurationResult {
            index,
            spec: ConfigurationSpec {
                backend: id.into(),
                library: None,
                env: Default::default(),
                worker: None,
            },
            backend: Some(cryptobench_core::result::BackendInfo {
                id: id.into(),
                name: name.into(),
                version: version.into(),
                ..Default::default()
            }),
            status: ConfigurationStatus::Completed,
            verifications: vec![],
            cells: vec![],
            clock: None,
            overheads: vec![],
            score: None,
            platform: None,
            bindings,
            placement: None,
            capability_view: None,
        };
        let run = cryptobench_core::result::RunResult {
            configurations: vec![
                configuration(1, "openssl", "OpenSSL", "OpenSSL 3.0.19 27 Jan 2026", vec![]),
                configuration(
                    7,
                    "python:cryptography",
                    "Python cryptography",
                    "cryptography 48.0.0 on CPython 3.11.7, OpenSSL 3.0.19",
                    vec![cost(true), cost(false)],
                ),
            ],
            schema_version: 1,
            tool: cryptobench_core::result::ToolInfo {
                name: "cryptobench".into(),
                version: "test".into(),
            },
            started_at: String::new(),
            finished_at: String::new(),
            command_line: vec![],
            host: Default::default(),
            settings: cryptobench_core::result::RunSettings {
                timing: cryptobench_core::result::TimingSettings {
                    sample_target_ns: 1,
                    cell_budget_ns: 1,
                    min_samples: 1,
                    target_relative_ci: 0.01,
                    warmup_ns: 0,
                },
                sizes: vec![16, 16384],
                pinned_cpu: None,
                rounds: 1,
                replicates: 1,
                order_seed: None,
            },
            label: None,
            imported: None,
            warnings: vec![],
            audit: None,
            topology: None,
            history: None,
        };
        let labels = Labels::for_run(&run);
        // A public-key line: time per operation and the ratio of operations per second.
        let mut pk = run.clone();
        pk.configurations[1].bindings = vec![BindingCost {
            algorithm: "rsa2048".into(),
            operation: Operation::Sign,
            mode: cryptobench_core::binding::PUBLIC_KEY_MODE.into(),
            per_call_ns: 1625.0,
            asymptotic_bytes_per_s: 0.0,
            direct_per_call_ns: Some(1545.0),
            ratios: vec![SizeRatio { size: 32, ratio: 0.95 }],
            ..cost(true)
        }];
        assert_eq!(
            lines(&pk.configurations[1], Unit::Mb, &labels),
            [
                "Python cryptography 48.0.0: rsa2048 sign: 1625 ns per operation, +80 ns over OpenSSL 3.0.19 (1545 ns); \
              0.95× its operations per second"
            ]
        );
        let l = lines(&run.configurations[1], Unit::Mb, &labels);
        assert_eq!(
            l[0],
            "Python cryptography 48.0.0: aes-128-gcm enc message: 621 ns per call, +393 ns over OpenSSL 3.0.19 (228 ns); \
             r∞ 7270 MB/s vs 4600 MB/s; 16 B at 0.37×, 16 KiB at 1.02× of it"
        );
        assert_eq!(
            l[1],
            "Python cryptography 48.0.0: aes-128-gcm enc message: 621 ns per call, r∞ 7270 MB/s (OpenSSL 3.0.19 is not in this run)"
        );
        // A row set beside the library's message+rekey row says so.
        let mut keyed = run.clone();
        keyed.configurations[1].bindings = vec![BindingCost {
            direct_mode: Some("message+rekey".into()),
            note: Some("each call of this runtime's message row sets the key".into()),
            ..cost(true)
        }];
        let l = lines(&keyed.configurations[1], Unit::Mb, &labels);
        assert!(l[0].contains("+393 ns over OpenSSL 3.0.19 message+rekey (228 ns)"), "{}", l[0]);
    }
}

//! Every format rendered from one fixed, synthetic run (no timing involved),
//! checked against snapshots: what users see changes only on purpose.

use std::collections::BTreeMap;

use cryptobench_core::cell::DEFAULT_AAD_LEN;
use cryptobench_core::result::*;
use cryptobench_core::stats::{summarize, Sample};
use cryptobench_core::units::Unit;
use cryptobench_core::{CellSpec, Mode, Operation};
use cryptobench_report::{render, Format};

fn cell(algorithm: &str, operation: Operation, mode: Mode, size: usize, outcome: CellOutcome) -> CellResult {
    CellResult {
        spec: CellSpec {
            algorithm: algorithm.into(),
            operation,
            mode,
            rekey: false,
            size,
            aad: DEFAULT_AAD_LEN,
            unit: cryptobench_core::cell::CellUnit::from_catalog(algorithm),
        },
        outcome,
    }
}

/// A measured cell whose samples all take `wall_ns` for 1000 calls, except a spread ones.
fn measured(size: usize, wall_ns: u64, spread: bool, warnings: &[&str]) -> CellOutcome {
    let samples: Vec<Sample> = (0..10u64)
        .map(|i| Sample {
            iterations: 1000,
            wall_ns: if spread { wall_ns + i * wall_ns / 20 } else { wall_ns },
            cpu_ns: Some(wall_ns),
        })
        .collect();
    CellOutcome::Measured(Measurement {
        summary: summarize(&samples, size).unwrap(),
        samples,
        warnings: warnings.iter().map(|s| s.to_string()).collect(),
        checksum: "0123456789abcdef".into(),
        implementation: None,
        exceptions: Default::default(),
        cycles_per_byte: Some(3.25),
        aggregate: None,
        replicates: Vec::new(),
        buffer_page_offset: None,
    })
}

fn fixture() -> RunResult {
    let openssl = BackendInfo {
        id: "openssl".into(),
        name: "OpenSSL".into(),
        version: "OpenSSL 3.0.19 27 Jan 2026".into(),
        library_path: Some("/usr/lib/x86_64-linux-gnu/libcrypto.so.3".into()),
        cpu_capabilities: Some("OPENSSL_ia32cap=0xfffa3203078bffff:0x400684219c07ab".into()),
        details: BTreeMap::new(),
        kind: None,
        ecdsa_nonce: None,
    };
    RunResult {
        schema_version: SCHEMA_VERSION,
        tool: ToolInfo {
            name: "cryptobench".into(),
            version: "0.0.0-test".into(),
        },
        started_at: "2026-01-01T00:00:00Z".into(),
        finished_at: "2026-01-01T00:00:10Z".into(),
        command_line: vec!["cryptobench".into(), "run".into()],
        host: HostInfo {
            hostname: Some("testhost".into()),
            cpu_model: Some("Example CPU".into()),
            logical_cores: 2,
            arch: "x86_64".into(),
            os: "Debian GNU/Linux 12 (bookworm)".into(),
            kernel: Some("6.1.0".into()),
            virtualization: Some("KVM".into()),
            tsc_mhz: Some(2445.4),
            reported_mhz: Some(2445.4),
            reported_mhz_source: Some("/proc/cpuinfo cpu MHz".into()),
            governor: None,
            boost: None,
        },
        settings: RunSettings {
            timing: TimingSettings {
                sample_target_ns: 10_000_000,
                cell_budget_ns: 300_000_000,
                min_samples: 10,
                target_relative_ci: 0.01,
                warmup_ns: 20_000_000,
            },
            sizes: vec![16, 16384],
            pinned_cpu: None,
            rounds: 1,
            replicates: 1,
            order_seed: None,
        },
        configurations: vec![
            ConfigurationResult {
                index: 1,
                spec: ConfigurationSpec {
                    backend: "openssl".into(),
                    library: None,
                    env: BTreeMap::new(),
                    worker: None,
                },
                backend: Some(openssl),
                status: ConfigurationStatus::Completed,
                verifications: vec![
                    Verification {
                        algorithm: "aes-128-gcm".into(),
                        outcome: VerificationOutcome::Passed { checks: 40 },
                    },
                    Verification {
                        algorithm: "aes-128-cbc".into(),
                        outcome: VerificationOutcome::Passed { checks: 9 },
                    },
                    Verification {
                        algorithm: "sha256".into(),
                        outcome: VerificationOutcome::Failed {
                            reason: "digest differs".into(),
                        },
                    },
                ],
                cells: vec![
                    cell(
                        "aes-128-gcm",
                        Operation::Encrypt,
                        Mode::Message,
                        16,
                        measured(16, 160_000, true, &["imprecise: test"]),
                    ),
                    cell(
                        "aes-128-gcm",
                        Operation::Encrypt,
                        Mode::Message,
                        16384,
                        measured(16384, 4_000_000, false, &[]),
                    ),
                    cell(
                        "aes-128-cbc",
                        Operation::Encrypt,
                        Mode::Stream,
                        16,
                        CellOutcome::Unsupported {
                            reason: "size rule".into(),
                        },
                    ),
                    cell(
                        "aes-128-cbc",
                        Operation::Encrypt,
                        Mode::Stream,
                        16384,
                        measured(16384, 14_000_000, false, &[]),
                    ),
                    cell(
                        "sha256",
                        Operation::Digest,
                        Mode::Message,
                        16,
                        CellOutcome::Failed {
                            reason: "verification failed".into(),
                        },
                    ),
                ],
                clock: Some(ConfigurationClock {
                    before: Some(ClockMeasurement {
                        mhz: 3200.0,
                        min_mhz: 3100.0,
                        max_mhz: 3210.0,
                        repetitions: 7,
                    }),
                    after: Some(ClockMeasurement {
                        mhz: 3000.0,
                        min_mhz: 2900.0,
                        max_mhz: 3010.0,
                        repetitions: 7,
                    }),
                    not_meaningful: None,
                }),
                overheads: vec![OverheadFit {
                    algorithm: "aes-128-gcm".into(),
                    operation: Operation::Encrypt,
                    mode: "message".into(),
                    per_call_ns: 180.0,
                    asymptotic_bytes_per_s: 4.2e9,
                    half_peak_bytes: 756.0,
                    sizes: vec![16, 16384],
                }],
                score: None,
                platform: None,
                placement: None,
                bindings: Vec::new(),
                capability_view: None,
            },
            ConfigurationResult {
                index: 2,
                spec: ConfigurationSpec {
                    backend: "openssl".into(),
                    library: Some("/opt/broken/libcrypto.so".into()),
                    env: BTreeMap::new(),
                    worker: None,
                },
                backend: None,
                status: ConfigurationStatus::Crashed {
                    reason: "worker killed by signal 11 (Segmentation fault)".into(),
                },
                verifications: vec![],
                cells: vec![],
                clock: None,
                overheads: vec![],
                score: None,
                platform: None,
                placement: None,
                bindings: Vec::new(),
                capability_view: None,
            },
        ],
        label: None,
        imported: None,
        warnings: Vec::new(),
        audit: None,
        topology: None,
        history: None,
    }
}

#[test]
fn table() {
    insta::assert_snapshot!(render(&fixture(), Format::Table, Unit::Mb));
}

#[test]
fn table_in_openssl_units() {
    insta::assert_snapshot!(render(&fixture(), Format::Table, Unit::K));
}

#[test]
fn markdown() {
    insta::assert_snapshot!(render(&fixture(), Format::Markdown, Unit::Mb));
}

#[test]
fn csv() {
    insta::assert_snapshot!(render(&fixture(), Format::Csv, Unit::Mb));
}

#[test]
fn json_round_trips() {
    let text = render(&fixture(), Format::Json, Unit::Mb);
    let back: RunResult = serde_json::from_str(&text).unwrap();
    assert_eq!(render(&back, Format::Json, Unit::Mb), text);
}

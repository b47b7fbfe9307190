//! Every configuration gets a human label, the same in every format, and
//! no two configurations of a report share one.

use cryptobench_core::result::{RunResult, WorkerPlatform};
use cryptobench_report::labels::Labels;

fn fixture(name: &str) -> RunResult {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/runs")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn all(labels: &Labels) -> Vec<String> {
    labels.all().map(str::to_string).collect()
}

#[test]
fn libraries_are_named_by_name_and_version() {
    assert_eq!(
        all(&Labels::for_run(&fixture("all-libraries.json"))),
        ["OpenSSL 3.0.22", "libgcrypt 1.10.1", "Nettle 3.8", "RustCrypto", "libsodium 1.0.18"]
    );
}

#[test]
fn an_audit_names_what_each_configuration_switched_off() {
    assert_eq!(
        all(&Labels::for_run(&fixture("audit.json"))),
        [
            "OpenSSL 3.0.22",
            "OpenSSL 3.0.22 · AES off",
            "OpenSSL 3.0.22 · CLMUL off",
            "OpenSSL 3.0.22 · SHA off",
            "OpenSSL 3.0.22 · all off"
        ]
    );
    // A mask outside an audit is still told apart from the library without it.
    assert_eq!(
        all(&Labels::for_run(&fixture("aes-mask.json"))),
        ["OpenSSL 3.0.19", "OpenSSL 3.0.19 · masked"]
    );
}

#[test]
fn several_runs_put_the_run_label_first() {
    let (a, b) = (fixture("aes-mask.json"), fixture("three-builds.json"));
    let labels = Labels::for_runs(&[("aes-mask".into(), &a), ("three-builds".into(), &b)]);
    assert_eq!(labels.get(1, 3), "three-builds · OpenSSL 4.0.3");
    assert_eq!(labels.position(1, 1), 2, "positions run across the runs: colours never repeat");
}

#[test]
fn an_emulated_worker_says_so_and_equal_labels_are_told_apart() {
    let mut run = fixture("three-builds.json");
    for c in &mut run.configurations {
        c.backend.as_mut().unwrap().version = "OpenSSL 3.0.19 27 Jan 2026".into();
    }
    run.configurations[2].spec.worker = Some(vec!["/usr/bin/qemu-aarch64".into(), "./cryptobench-aarch64".into()]);
    run.configurations[2].platform = Some(WorkerPlatform {
        arch: "aarch64".into(),
        optimized: true,
        emulated_by: Some("qemu-aarch64 version 7.2.22".into()),
        ..Default::default()
    });
    let labels = all(&Labels::for_run(&run));
    // Mixed architectures: every label says which.
    assert_eq!(labels[2], "OpenSSL 3.0.19 · aarch64, emulated");
    assert!(labels[0].starts_with("OpenSSL 3.0.19 · x86_64"), "{labels:?}");
    // The other two share version and architecture: their files tell them apart.
    assert_ne!(labels[0], labels[1]);
    assert!(
        labels[0].ends_with("(libcrypto.so)") && labels[1].ends_with("(libcrypto.so.3)"),
        "{labels:?}"
    );
}

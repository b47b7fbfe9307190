//! Every parser of outside input in cryptobench-core, fed random and mutated
//! input: it returns a value or an error, never panics, and what it accepts
//! is well formed. A bounded run of what the cargo-fuzz targets in fuzz/ do
//! for hours (fuzz/README.md), so that CI checks it on stable.

use cryptobench_core::catalog::{self, CATALOG};
use cryptobench_core::openssl_speed;
use cryptobench_core::protocol::{Job, WorkerMessage};
use cryptobench_core::run_json::parse_run;
use cryptobench_core::sizes::{parse_size_list, MAX_SIZE};
use proptest::prelude::*;

const SPEED_SEEDS: &[&str] = &[
    include_str!("../../../tests/fixtures/openssl-speed/openssl-1.0.1c-raspberry-pi.txt"),
    include_str!("../../../tests/fixtures/openssl-speed/openssl-3.0.19-mr-sha256.txt"),
    include_str!("../../../tests/fixtures/openssl-speed/openssl-4.0.3-aead-evp-aes-128-gcm.txt"),
];
const RUN_SEEDS: &[&str] = &[
    include_str!("../../../fuzz/seeds/run_json/imported.json"),
    include_str!("../../../fuzz/seeds/run_json/measured.json"),
];
const WORKER_SEEDS: &[&str] = &[
    include_str!("../../../fuzz/seeds/worker_protocol/job.json"),
    include_str!("../../../fuzz/seeds/worker_protocol/line1.json"),
    include_str!("../../../fuzz/seeds/worker_protocol/line3.json"),
    include_str!("../../../fuzz/seeds/worker_protocol/line7.json"),
];

/// A seed with bytes replaced, inserted and removed at random places (a cheap libFuzzer).
fn mutated(seeds: &'static [&'static str]) -> impl Strategy<Value = String> {
    (
        0..seeds.len(),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..12),
    )
        .prop_map(move |(i, edits)| {
            let mut bytes = seeds[i].as_bytes().to_vec();
            for (at, byte, kind) in edits {
                if bytes.is_empty() {
                    bytes.push(byte);
                    continue;
                }
                let at = at.index(bytes.len());
                match kind {
                    0 => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    _ => {
                        bytes.remove(at);
                    }
                }
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
}

fn speed_round_trip(text: &str) {
    if let Ok(parsed) = openssl_speed::parse(text) {
        let run = openssl_speed::to_run(&parsed, "prop.txt", "2026-01-01T00:00:00Z");
        let json = serde_json::to_string(&run).expect("a run serialises");
        parse_run(&json, "round trip").expect("an imported run reads back");
    }
}

fn run_round_trip(text: &str) {
    if let Ok(run) = parse_run(text, "prop.json") {
        let json = serde_json::to_string(&run).expect("serialises");
        parse_run(&json, "again").expect("reads back");
    }
}

fn worker_round_trip(text: &str) {
    if let Ok(m) = serde_json::from_str::<WorkerMessage>(text) {
        serde_json::from_str::<WorkerMessage>(&serde_json::to_string(&m).unwrap()).expect("reads back");
    }
    if let Ok(j) = serde_json::from_str::<Job>(text) {
        serde_json::from_str::<Job>(&serde_json::to_string(&j).unwrap()).expect("reads back");
    }
}

/// Lines of the kinds `openssl speed` prints, with random names and figures.
fn speed_line() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        Just("md5".to_string()),
        Just("aes-128 cbc".to_string()),
        Just("AES-128-GCM".to_string()),
        Just("hmac(sha256)".to_string()),
        "[a-z0-9() -]{0,12}",
    ];
    let figure = prop_oneof![
        (0.0f64..1e12).prop_map(|v| format!("{v:.2}k")),
        (0.0f64..1e6).prop_map(|v| format!("{v:.2}")),
        "[0-9.k+-]{0,6}",
    ];
    prop_oneof![
        prop::collection::vec(0usize..100_000, 0..7)
            .prop_map(|s| format!("type {}", s.iter().map(|n| format!("{n} bytes")).collect::<Vec<_>>().join(" "))),
        (name.clone(), prop::collection::vec(figure.clone(), 0..7)).prop_map(|(n, f)| format!("{n} {}", f.join(" "))),
        prop::collection::vec("[0-9]{0,6}", 0..7).prop_map(|s| format!("+H:{}", s.join(":"))),
        (name, prop::collection::vec("[0-9.e+-]{0,8}", 0..7)).prop_map(|(n, f)| format!("+F:1:{n}:{}", f.join(":"))),
        "(OpenSSL|version:|built on:|CPUINFO:) [ -~]{0,30}",
        "[ -~]{0,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn openssl_speed_any_text(text in "\\PC{0,300}") {
        speed_round_trip(&text);
    }

    #[test]
    fn openssl_speed_lines(lines in prop::collection::vec(speed_line(), 0..24)) {
        speed_round_trip(&lines.join("\n"));
    }

    #[test]
    fn openssl_speed_mutated(text in mutated(SPEED_SEEDS)) {
        speed_round_trip(&text);
    }

    #[test]
    fn run_json_any_text(text in "\\PC{0,200}") {
        run_round_trip(&text);
    }

    #[test]
    fn run_json_mutated(text in mutated(RUN_SEEDS)) {
        run_round_trip(&text);
    }

    #[test]
    fn worker_lines_any_text(text in "\\PC{0,200}") {
        worker_round_trip(&text);
    }

    #[test]
    fn worker_lines_mutated(text in mutated(WORKER_SEEDS)) {
        worker_round_trip(&text);
    }

    #[test]
    fn sizes_are_within_limits_or_refused(text in prop_oneof!["[0-9kKmMiIbB, -]{0,24}".boxed(), "\\PC{0,40}".boxed()]) {
        if let Ok(sizes) = parse_size_list(&text) {
            prop_assert!(!sizes.is_empty());
            prop_assert!(sizes.iter().all(|&s| (1..=MAX_SIZE).contains(&s)));
        }
    }

    #[test]
    fn algorithm_lists_name_the_culprit(
        picks in prop::collection::vec((any::<prop::sample::Index>(), "[ A-Za-z0-9-]{0,12}", any::<bool>()), 0..8)
    ) {
        let names: Vec<String> = picks
            .iter()
            .map(|(i, junk, real)| if *real { CATALOG[i.index(CATALOG.len())].id.to_uppercase() } else { junk.clone() })
            .collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        match catalog::select(&refs, &[]) {
            Ok(s) => prop_assert!(s.algorithms.iter().all(|a| catalog::find(a.id) == Some(*a))),
            Err(e) => prop_assert!(refs.iter().any(|n| n.trim() == e.0)),
        }
    }
}

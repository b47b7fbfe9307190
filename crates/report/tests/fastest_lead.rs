//! "Which is fastest?" calls a lead clear only when the one rule decides the
//! fastest different from every other configuration: a slower third one
//! whose interval is wide may still overlap the fastest although the
//! runner-up is beaten, and the report then says "tie" and names it.

use cryptobench_core::cell::{CellSpec, CellUnit, Mode, Operation};
use cryptobench_core::result::{CellOutcome, CellResult, Measurement, RunResult};
use cryptobench_core::stats::{summarize, Sample};
use cryptobench_report::labels::Labels;
use cryptobench_report::winners::{rows, Lead};

const SIZE: usize = 16384;

fn cell(walls: &[u64]) -> CellResult {
    let samples: Vec<Sample> = walls
        .iter()
        .map(|&w| Sample {
            iterations: 100,
            wall_ns: w,
            cpu_ns: None,
        })
        .collect();
    CellResult {
        spec: CellSpec {
            algorithm: "aes-128-gcm".into(),
            operation: Operation::Encrypt,
            mode: Mode::Message,
            rekey: false,
            size: SIZE,
            aad: 13,
            unit: CellUnit::Bytes,
        },
        outcome: CellOutcome::Measured(Measurement {
            summary: summarize(&samples, SIZE).unwrap(),
            samples,
            warnings: vec![],
            checksum: String::new(),
            implementation: None,
            exceptions: Default::default(),
            cycles_per_byte: None,
            aggregate: None,
        }),
    }
}

/// A run of three configurations of one library, one cell each.
fn run(cells: [CellResult; 3]) -> RunResult {
    let text = r#"{"schema_version":1,"tool":{"name":"t","version":"0"},"started_at":"","finished_at":"","command_line":[],
        "host":{"hostname":null,"cpu_model":null,"logical_cores":1,"arch":"x86_64","os":"y","kernel":null,"virtualization":null},
        "settings":{"timing":{"sample_target_ns":0,"cell_budget_ns":0,"min_samples":0,"target_relative_ci":0.0,"warmup_ns":0},"sizes":[16384],"pinned_cpu":null},
        "configurations":[
          {"index":1,"spec":{"backend":"openssl","library":"/a/libcrypto.so.3"},"backend":null,"status":"completed","verifications":[],"cells":[]},
          {"index":2,"spec":{"backend":"openssl","library":"/b/libcrypto.so.3"},"backend":null,"status":"completed","verifications":[],"cells":[]},
          {"index":3,"spec":{"backend":"openssl","library":"/c/libcrypto.so.3"},"backend":null,"status":"completed","verifications":[],"cells":[]}]}"#;
    let mut r: RunResult = serde_json::from_str(text).unwrap();
    for (c, x) in r.configurations.iter_mut().zip(cells) {
        c.cells.push(x);
    }
    r
}

/// Sample times around `wall` ns, within ±`spread` ns, in a shuffled order
/// (a fixed permutation: no trend, no correlation between neighbours).
fn walls(wall: u64, spread: u64) -> Vec<u64> {
    let n = 30u64;
    (0..n).map(|i| wall - spread + (i * 7 % n) * 2 * spread / (n - 1)).collect()
}

fn lead_of(r: &RunResult) -> (Lead, Vec<String>) {
    let standing = rows(&[(String::new(), r)], &Labels::for_run(r))[0].large.clone().unwrap();
    (standing.lead, standing.tied)
}

#[test]
fn a_lead_beyond_every_other_is_clear() {
    let r = run([cell(&walls(1000, 2)), cell(&walls(1100, 2)), cell(&walls(1200, 2))]);
    assert_eq!(lead_of(&r).0, Lead::Clear);
}

#[test]
fn a_slower_contender_with_a_wide_interval_leaves_no_clear_lead() {
    // The runner-up (1100 ns) is beaten beyond the noise; the third (1150 ns
    // at the median, spread from 550 to 1750) overlaps the fastest.
    let r = run([cell(&walls(1000, 2)), cell(&walls(1100, 2)), cell(&walls(1150, 600))]);
    let (lead, tied) = lead_of(&r);
    assert_eq!(lead, Lead::Tie, "tied: {tied:?}");
    assert_eq!(tied.len(), 1, "{tied:?}");
    let markdown = cryptobench_report::report_markdown::render(
        &[(String::new(), r)],
        cryptobench_core::units::Unit::Mb,
        cryptobench_report::Detail::Summary,
    );
    assert!(markdown.contains("(tie with "), "{markdown}");
}

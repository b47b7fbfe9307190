//! "Which is fastest?" calls a lead clear only when the one rule decides the
//! fastest different from every other configuration: a slower third one
//! whose interval is wide may still overlap the fastest although the
//! runner-up is beaten, and the report then says "cannot tell" and names it.

mod common;

use common::{gcm_cell, run_of};
use cryptobench_core::result::RunResult;
use cryptobench_report::labels::Labels;
use cryptobench_report::winners::{rows, Lead};

/// A run of three builds of one library, given by file, one cell each.
fn run(walls: [Vec<f64>; 3]) -> RunResult {
    let configurations = (1..=3)
        .map(|i| {
            format!(
                r#"{{"index":{i},"spec":{{"backend":"openssl","library":"/{i}/libcrypto.so.3"}},"backend":null,"status":"completed","verifications":[],"cells":[]}}"#
            )
        })
        .collect::<Vec<_>>()
        .join(",");
    run_of(&configurations, walls.iter().map(|w| gcm_cell(w)).collect())
}

/// Sample times around `wall` ns, within ±`spread` ns, in a shuffled order
/// (a fixed permutation: no trend, no correlation between neighbours).
fn walls(wall: f64, spread: f64) -> Vec<f64> {
    let n = 30;
    (0..n)
        .map(|i| wall - spread + ((i * 7 % n) as f64) * 2.0 * spread / (n - 1) as f64)
        .collect()
}

fn lead_of(r: &RunResult) -> (Lead, Vec<String>, Vec<String>) {
    let standing = rows(&[(String::new(), r)], &Labels::for_run(r))[0].large.clone().unwrap();
    (standing.lead, standing.tied, standing.untested)
}

#[test]
fn a_lead_beyond_every_other_is_clear() {
    let r = run([walls(1000.0, 2.0), walls(1100.0, 2.0), walls(1200.0, 2.0)]);
    assert_eq!(lead_of(&r).0, Lead::Clear);
}

#[test]
fn a_slower_contender_with_a_wide_interval_leaves_no_clear_lead() {
    // The runner-up (1100 ns) is beaten beyond the noise; the third (1150 ns
    // at the median, spread from 550 to 1750) overlaps the fastest but is not
    // shown within ±2% of it: cannot tell, never a tie.
    let r = run([walls(1000.0, 2.0), walls(1100.0, 2.0), walls(1150.0, 600.0)]);
    let (lead, tied, untested) = lead_of(&r);
    assert_eq!(lead, Lead::Untested, "tied: {tied:?}");
    assert!(tied.is_empty() && untested.len() == 1, "{tied:?} {untested:?}");
    let markdown = cryptobench_report::report_markdown::render(
        &[(String::new(), r)],
        cryptobench_core::units::Unit::Mb,
        cryptobench_report::Detail::Summary,
    );
    assert!(markdown.contains("cannot tell against"), "{markdown}");
}

/// A contender with one sample (as imported figures have) cannot be decided
/// against: the lead over it is not tested, and it is named.
#[test]
fn a_contender_too_short_to_decide_leaves_the_lead_untested() {
    let r = run([walls(1000.0, 2.0), walls(1100.0, 2.0), vec![2000.0]]);
    let (lead, tied, untested) = lead_of(&r);
    assert_eq!(lead, Lead::Untested);
    assert!(tied.is_empty(), "{tied:?}");
    assert_eq!(untested.len(), 1, "{untested:?}");
}

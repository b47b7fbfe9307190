//! When the sampling of a cell stops: after at least a minimum number of
//! samples, once the median's confidence interval is within the target, or
//! when the cell's budget is spent (the harness decides that part).
//!
//! Stopping the moment an interval looks narrow enough is *optional
//! stopping*: every look is a chance to stop on an interval that is narrow by
//! luck, so intervals reported at a stop cover the truth less often than
//! their level says. Three things bound that bias here: a minimum sample
//! count, looks only at geometrically spaced counts (each half as many
//! again as the last: ×1.5), so that a long cell is judged a few dozen
//! times, not thousands, and a cautious judgement at each look (the
//! interval at a pessimistic correlation,
//! [`crate::dependent_ci::cautious_relative_half_width`]). The coverage this rule achieves on autocorrelated series
//! is tested by simulation (crates/core/tests/interval_coverage.rs) and
//! stated in docs/METHOD.md.

/// Each look at the interval comes after the sample count has grown by this
/// factor (with an earlier estimator, 1.25 gave 93.3% coverage at lag-1
/// correlation 0.8 in the simulation, 1.5 gave 93.6–94.5% over five seeds).
pub const LOOK_GROWTH: f64 = 1.5;

/// The default run's promise (`--target`): an unflagged figure of
/// replicates says the next run's figure falls within ±this of it (nominal
/// 95%), and one worker's figure (`--replicates 1`) that its median's 95%
/// interval lies within ±this. Two percent is what a shared host keeps
/// (crates/core/tests/replicate_coverage.rs); a tighter promise flags most
/// figures there.
pub const DEFAULT_TARGET: f64 = 0.02;

/// A replicate's own stop rule asks for this share of the promise: the
/// promise is about the figure made of many replicates, each of which needs
/// to be only so precise.
pub const STOP_SHARE: f64 = 0.5;

/// Replicates of the default run (fresh workers, one per round): many short
/// ones rather than a few long ones, since the figure is the fastest clean
/// replicate and the odds that one of them met a calm moment grow with
/// their number (T. Kalibera and R. Jones, ISMM 2013: the cost-optimal
/// split puts the repetitions at the level that varies most; pyperf runs
/// 20 processes of 3 values). Chosen by crates/core/tests/replicate_coverage.rs.
pub const DEFAULT_REPLICATES: usize = 12;

/// The shortest warm-up of one replicate of a cell: long enough for the
/// first calls' page faults and a cold cache, as `--quick`'s.
pub const MIN_REPLICATE_WARMUP_NS: u64 = 4_000_000;

/// What one worker of a run of `replicates` replicates is given for each of
/// its cells: its share of the budget and of the warm-up (at least
/// [`MIN_REPLICATE_WARMUP_NS`]), and a stop rule at [`STOP_SHARE`] of the
/// promise. One replicate keeps the settings as they are.
pub fn replicate_timing(timing: &crate::result::TimingSettings, replicates: usize) -> crate::result::TimingSettings {
    let mut t = timing.clone();
    if replicates > 1 {
        t.cell_budget_ns = timing.cell_budget_ns / replicates as u64;
        t.warmup_ns = (timing.warmup_ns / replicates as u64)
            .max(MIN_REPLICATE_WARMUP_NS)
            .min(timing.warmup_ns);
        t.target_relative_ci = timing.target_relative_ci * STOP_SHARE;
    }
    t
}
/// The default run's minimum sample count before the first look.
pub const DEFAULT_MIN_SAMPLES: usize = 10;
/// The default run's sample length: long against the clock's resolution
/// (nanoseconds) and a scheduler tick's cost (microseconds), short enough
/// that a cell's budget holds a hundred samples. The stop rule needs many
/// samples to know their correlation (its standard error is about 1/√n),
/// so with 10 ms samples (28 per cell) it almost never stopped early and
/// the budget decided every cell. On a 2-vCPU KVM guest, two default runs
/// each (one session, alternating): 10 ms samples 15 and 20 of 66 cells
/// within ±1% in 20.0 s; 5 ms 32 and 33 in 15.7 s; 2 ms 52 and 57 in 13.4
/// and 11.0 s (the cells that converged left their time to the rest).
pub const DEFAULT_SAMPLE_NS: u64 = 2_000_000;
/// The default run's budget per cell (`--time`) on average, warm-up and
/// calibration included: 66 cells of the default suite in at most 15.5 s
/// (crates/harness/src/budget.rs), a twelfth of `openssl speed`'s 198 s.
pub const DEFAULT_CELL_BUDGET_NS: u64 = 235_000_000;
/// The default run's shortest warm-up.
pub const DEFAULT_WARMUP_NS: u64 = 20_000_000;
/// The most samples a cell of the default run holds: its budget less the
/// warm-up, in samples (107; calibration takes a little more).
pub const DEFAULT_CELL_SAMPLES: usize = ((DEFAULT_CELL_BUDGET_NS - DEFAULT_WARMUP_NS) / DEFAULT_SAMPLE_NS) as usize;

/// Public-key cells take at least this many samples, however short the
/// budget: one call of ML-DSA-87 or SLH-DSA signing, or an RSA key
/// generation, can take longer than a symmetric cell's whole budget, and a
/// median of three such calls has no useful interval (the exact 95%
/// interval of the median needs six samples to exist at all; ten give it
/// ranks 2 and 9).
pub const PK_MIN_SAMPLES: usize = 10;

/// With replicates each takes a share of [`PK_MIN_SAMPLES`], but at least
/// this many: the median of four calls of one process, its interval the
/// replicates' (crates/harness/src/measure.rs, `pk_floor`).
pub const PK_MIN_REPLICATE_SAMPLES: usize = 4;

/// The public-key samples one of `replicates` replicates takes at least:
/// its share of [`PK_MIN_SAMPLES`], never fewer than [`PK_MIN_REPLICATE_SAMPLES`].
pub fn pk_replicate_samples(replicates: usize) -> usize {
    PK_MIN_SAMPLES
        .div_ceil(replicates.max(1))
        .max(PK_MIN_REPLICATE_SAMPLES.min(PK_MIN_SAMPLES))
}

/// The cap of one of `replicates` replicates: its share of [`PK_CELL_CAP_NS`].
pub fn pk_replicate_cap_ns(replicates: usize) -> u64 {
    PK_CELL_CAP_NS / replicates.max(1) as u64
}

/// ... within this cap per cell (warm-up and calibration included): a cell
/// whose calls are so slow that [`PK_MIN_SAMPLES`] do not fit stops at the
/// cap with what it has, and says so.
pub const PK_CELL_CAP_NS: u64 = 30_000_000_000;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StopRule {
    /// No stop for precision before this many samples.
    pub min_samples: usize,
    /// Stop once the 95% interval's half-width is at most this fraction of the median.
    pub target_relative_ci: f64,
}

impl StopRule {
    /// The first sample count at which the interval is looked at.
    pub fn first_look(&self) -> usize {
        self.min_samples.max(2)
    }

    /// The sample count of the look after the one at `n`.
    pub fn next_look(n: usize) -> usize {
        ((n as f64 * LOOK_GROWTH).ceil() as usize).max(n + 1)
    }

    /// Whether the samples (throughputs in the order taken) are precise
    /// enough at a look to stop: at least the minimum count, and the
    /// interval within the target even at a pessimistic correlation
    /// ([`crate::dependent_ci::cautious_relative_half_width`]).
    pub fn precise(&self, series: &[f64]) -> bool {
        series.len() >= self.min_samples
            && crate::dependent_ci::cautious_relative_half_width(series, crate::stats::CONFIDENCE) <= self.target_relative_ci
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_grow_by_half() {
        let rule = StopRule {
            min_samples: 20,
            target_relative_ci: 0.01,
        };
        let mut looks = vec![rule.first_look()];
        while looks.len() < 6 {
            looks.push(StopRule::next_look(*looks.last().unwrap()));
        }
        assert_eq!(looks, vec![20, 30, 45, 68, 102, 153]);
        assert_eq!(StopRule::next_look(1), 2);
    }
}

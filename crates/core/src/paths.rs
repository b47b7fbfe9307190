//! One algorithm through several paths to the same instructions (OpenSSL
//! directly, through an engine or provider, a PKCS#11 token, the kernel's
//! AF_ALG sockets), each set beside the direct software path: per size its
//! factor over that path, its fixed cost per call (the overhead model,
//! overhead.rs), and its **crossover size**, below which the path is slower
//! than the direct one or gains less than half of its large-message factor.
//! That is the point of the comparison: a path that accelerates large
//! messages can lose on small ones, where its per-call cost (a context
//! switch, buffer copies, a token's session) dominates.
//!
//! A run shows it when it measured one algorithm (one operation and mode)
//! through two or more configurations at three or more common sizes, as
//! `bench/paths` does (not an audit, nor a run over several cores); the
//! run's first configuration measuring it is the direct path.

use crate::result::{CellOutcome, RunResult};

/// Where a path starts to pay, by the measured sizes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Crossover {
    /// Worth it from the smallest size measured: no crossover within the sizes.
    FromSmallest,
    /// Worth it from this size on (and at every larger size measured).
    At(usize),
    /// Below the threshold even at the largest size measured (the path is
    /// slower than the direct one there, or its factor falls off).
    Never,
}

/// One path's row: its MB/s and factor over the direct path per common size.
#[derive(Debug, Clone, PartialEq)]
pub struct PathRow {
    /// The configuration's 1-based index in the run.
    pub configuration: usize,
    /// (size, bytes per second) at the sizes both measured.
    pub rates: Vec<(usize, f64)>,
    /// (size, this path's throughput / the direct path's) at the same sizes.
    pub factors: Vec<(usize, f64)>,
    /// The factor at the largest common size.
    pub large_factor: f64,
    /// The factor a size must reach: 1 (not slower), or half the large-message factor where that is more.
    pub threshold: f64,
    pub crossover: Crossover,
    /// The overhead model's fixed cost per call, where it was fitted (ns).
    pub per_call_ns: Option<f64>,
}

/// An algorithm's paths: the direct one and the others beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct PathTable {
    pub algorithm: String,
    pub operation: crate::Operation,
    pub mode: String,
    /// The direct path (its factors all 1).
    pub direct: PathRow,
    pub paths: Vec<PathRow>,
}

/// The crossover of a path from its factors over the direct path (sorted by
/// size, at least one): the smallest size from which every measured factor
/// reaches the threshold, max(1, large-message factor / 2).
pub fn crossover(factors: &[(usize, f64)]) -> (f64, f64, Crossover) {
    let large = factors.last().map(|f| f.1).unwrap_or(0.0);
    let threshold = (large / 2.0).max(1.0);
    // Walk down from the largest size while the factor holds.
    let holds_from = factors.iter().rposition(|&(_, f)| f < threshold).map_or(0, |i| i + 1);
    let c = if holds_from == 0 {
        Crossover::FromSmallest
    } else if holds_from == factors.len() {
        Crossover::Never
    } else {
        Crossover::At(factors[holds_from].0)
    };
    (large, threshold, c)
}

/// The (size, bytes per second) of one configuration's measured cells of one row.
fn rates(run: &RunResult, configuration: usize, key: &(String, crate::Operation, String)) -> Vec<(usize, f64)> {
    let mut out: Vec<(usize, f64)> = run.configurations[configuration]
        .cells
        .iter()
        .filter(|c| (&c.spec.algorithm, c.spec.operation, c.spec.mode.name()) == (&key.0, key.1, key.2.as_str()) && !c.spec.rekey)
        .filter_map(|c| match &c.outcome {
            CellOutcome::Measured(m) if m.summary.median > 0.0 => Some((c.spec.size, m.summary.median)),
            _ => None,
        })
        .collect();
    out.sort_by_key(|r| r.0);
    out
}

/// The path tables of a run of one algorithm through several configurations
/// (empty for any other run: a comparison of many algorithms is not one of
/// paths, nor an audit's masked configurations or a run over several cores).
pub fn tables(run: &RunResult) -> Vec<PathTable> {
    if run.audit.is_some() || run.topology.is_some() {
        return Vec::new();
    }
    let mut keys: Vec<(String, crate::Operation, String)> = Vec::new();
    for c in &run.configurations {
        for cell in &c.cells {
            let key = (cell.spec.algorithm.clone(), cell.spec.operation, cell.spec.mode.name().to_string());
            if cell.spec.unit == crate::cell::CellUnit::Bytes && !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    let algorithms = keys.iter().map(|k| &k.0).collect::<std::collections::BTreeSet<_>>();
    if algorithms.len() != 1 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for key in keys {
        let measured: Vec<(usize, Vec<(usize, f64)>)> = (0..run.configurations.len())
            .map(|i| (i, rates(run, i, &key)))
            .filter(|(_, r)| r.len() >= 3)
            .collect();
        let [(direct_i, direct_rates), others @ ..] = measured.as_slice() else {
            continue;
        };
        if others.is_empty() {
            continue;
        }
        let per_call = |i: usize| {
            run.configurations[i]
                .overheads
                .iter()
                .find(|o| (&o.algorithm, o.operation, o.mode.as_str()) == (&key.0, key.1, key.2.as_str()))
                .map(|o| o.per_call_ns)
        };
        let ones: Vec<(usize, f64)> = direct_rates.iter().map(|&(s, _)| (s, 1.0)).collect();
        let direct = PathRow {
            configuration: run.configurations[*direct_i].index,
            rates: direct_rates.clone(),
            factors: ones,
            large_factor: 1.0,
            threshold: 1.0,
            crossover: Crossover::FromSmallest,
            per_call_ns: per_call(*direct_i),
        };
        let mut paths = Vec::new();
        for (i, r) in others {
            let common: Vec<(usize, f64, f64)> = r
                .iter()
                .filter_map(|&(s, v)| direct_rates.iter().find(|d| d.0 == s).map(|d| (s, v, d.1)))
                .collect();
            if common.len() < 3 {
                continue;
            }
            let factors: Vec<(usize, f64)> = common.iter().map(|&(s, v, d)| (s, v / d)).collect();
            let (large_factor, threshold, crossover) = crossover(&factors);
            paths.push(PathRow {
                configuration: run.configurations[*i].index,
                rates: common.iter().map(|&(s, v, _)| (s, v)).collect(),
                factors,
                large_factor,
                threshold,
                crossover,
                per_call_ns: per_call(*i),
            });
        }
        if !paths.is_empty() {
            out.push(PathTable {
                algorithm: key.0,
                operation: key.1,
                mode: key.2,
                direct,
                paths,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Factors of a path with per-call cost `a` (s) and rate `r` over one with `a0`, `r0`.
    fn model(a: f64, r: f64, a0: f64, r0: f64) -> Vec<(usize, f64)> {
        [16usize, 64, 256, 1024, 4096, 16384]
            .iter()
            .map(|&n| (n, (a0 + n as f64 / r0) / (a + n as f64 / r)))
            .collect()
    }

    #[test]
    fn a_path_with_a_large_per_call_cost_pays_only_for_large_messages() {
        // The kernel-like path: 2 µs per call, 4 GB/s, against 50 ns and 1 GB/s.
        let f = model(2e-6, 4e9, 50e-9, 1e9);
        let (large, threshold, c) = crossover(&f);
        // At 16 KiB: 16434 ns / 6096 ns ≈ 2.70; half of it is reached at 4 KiB (4146 / 3024 ≈ 1.37), not at 1 KiB (0.48).
        assert!(large > 2.6 && large < 2.8, "{f:?}");
        assert!((threshold - large / 2.0).abs() < 1e-12);
        assert_eq!(c, Crossover::At(4096), "{f:?}");
    }

    #[test]
    fn an_engine_like_path_crosses_where_half_its_factor_is_reached() {
        // Slightly more per call, 6 times the rate: factors 1.05 at 16 B, 2.98 at 256 B, 5.89 at 16 KiB.
        let f = model(60e-9, 6e9, 50e-9, 1e9);
        let (large, _, c) = crossover(&f);
        assert!(large > 5.0, "{f:?}");
        assert_eq!(c, Crossover::At(256), "{f:?}");
        // Equal per-call cost and rate: factor 1 everywhere, never slower.
        assert_eq!(crossover(&model(50e-9, 1e9, 50e-9, 1e9)).2, Crossover::FromSmallest);
    }

    #[test]
    fn a_path_slower_at_every_size_never_crosses() {
        let f = model(50e-6, 60e6, 30e-9, 1.1e9);
        let (large, threshold, c) = crossover(&f);
        assert!(large < 0.1, "{f:?}");
        assert_eq!(threshold, 1.0);
        assert_eq!(c, Crossover::Never);
    }

    #[test]
    fn a_dip_above_the_crossover_moves_it_up() {
        let f = [(16, 0.5), (64, 1.2), (256, 0.9), (1024, 1.5)];
        assert_eq!(crossover(&f).2, Crossover::At(1024));
    }
}

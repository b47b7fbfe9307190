//! The order in which a run's replicates are measured: in rounds, each
//! round one fresh worker per configuration, the configurations of a round
//! in a random order and each worker's cells in a random order of their own.
//! So the replicates of a cell are spread over the whole run (one per round)
//! and never follow each other, and no cell or configuration always meets
//! the same moment of the run: the order of asv (A B C … A′ B′ C′ across
//! processes) with the random interleaving of Google Benchmark's
//! repetitions (its docs/random_interleaving.md: about 40% less run-to-run
//! variance). The order comes from a seed that the run records.

use rand::seq::SliceRandom;
use rand::SeedableRng;

/// One worker's turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// 1-based: the round, which is the replicate its cells count as.
    pub replicate: usize,
    /// The index of the configuration (among those measured).
    pub configuration: usize,
    /// The indices of the plan's cells, in the order this worker measures them.
    pub cells: Vec<usize>,
}

/// Every turn of a run of `replicates` rounds over `configurations`
/// configurations of `cells` cells each, in order.
pub fn turns(replicates: usize, configurations: usize, cells: usize, seed: u64) -> Vec<Turn> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(replicates * configurations);
    for replicate in 1..=replicates {
        let mut order: Vec<usize> = (0..configurations).collect();
        order.shuffle(&mut rng);
        for configuration in order {
            let mut cells: Vec<usize> = (0..cells).collect();
            cells.shuffle(&mut rng);
            out.push(Turn {
                replicate,
                configuration,
                cells,
            });
        }
    }
    out
}

/// A seed for a run's order, from the clock.
pub fn fresh_seed() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (now.as_nanos() as u64) ^ u64::from(std::process::id()).rotate_left(32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_of_every_configuration_once_per_replicate() {
        let t = turns(3, 4, 10, 7);
        assert_eq!(t.len(), 12);
        for r in 1..=3 {
            let round: Vec<&Turn> = t.iter().filter(|x| x.replicate == r).collect();
            let mut configs: Vec<usize> = round.iter().map(|x| x.configuration).collect();
            configs.sort_unstable();
            assert_eq!(configs, vec![0, 1, 2, 3]);
            for x in round {
                let mut cells = x.cells.clone();
                cells.sort_unstable();
                assert_eq!(cells, (0..10).collect::<Vec<_>>());
            }
        }
        // Rounds follow each other: a replicate never starts before the last has ended.
        assert!(t.windows(2).all(|w| w[0].replicate <= w[1].replicate));
    }

    #[test]
    fn the_order_is_random_and_repeats_with_its_seed() {
        let a = turns(3, 4, 10, 7);
        assert_eq!(a, turns(3, 4, 10, 7));
        assert_ne!(a, turns(3, 4, 10, 8));
        // Not the same order of cells in every worker, nor of configurations in every round.
        assert!(a.windows(2).any(|w| w[0].cells != w[1].cells));
        let rounds: Vec<Vec<usize>> = (1..=3)
            .map(|r| a.iter().filter(|x| x.replicate == r).map(|x| x.configuration).collect())
            .collect();
        assert!(rounds.windows(2).any(|w| w[0] != w[1]), "{rounds:?}");
    }
}

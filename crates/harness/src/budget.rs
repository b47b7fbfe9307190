//! The whole-run budget of a worker's symmetric cells: `--time` is the
//! average per cell, not a fixed slice. A cell that meets its target early
//! leaves the rest of its time to the cells after it, so the stop rule, not
//! the budget, decides how long a quiet cell takes, and the run as a whole
//! stays within cells × `--time` (printed before the first cell).
//!
//! The next cell's budget is the fair share of what is left (time left over
//! cells left), but never under half of `--time` (every cell gets a real
//! chance) nor over twice it (one noisy cell cannot eat the run).

use std::time::Duration;

#[derive(Debug, Clone)]
pub struct RunBudget {
    per_cell: Duration,
    total: Duration,
    spent: Duration,
    cells_left: usize,
}

impl RunBudget {
    /// `cells` cells at `per_cell` each on average.
    pub fn new(per_cell: Duration, cells: usize) -> RunBudget {
        RunBudget {
            per_cell,
            total: per_cell * cells as u32,
            spent: Duration::ZERO,
            cells_left: cells,
        }
    }

    /// The budget of the next cell.
    pub fn next_cell(&self) -> Duration {
        if self.cells_left == 0 {
            return self.per_cell;
        }
        let share = self.total.saturating_sub(self.spent) / self.cells_left as u32;
        share.clamp(self.per_cell / 2, self.per_cell * 2)
    }

    /// A cell took `took`.
    pub fn record(&mut self, took: Duration) {
        self.spent += took;
        self.cells_left = self.cells_left.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn time_saved_by_early_cells_goes_to_later_ones() {
        let mut b = RunBudget::new(200 * MS, 4);
        assert_eq!(b.next_cell(), 200 * MS);
        b.record(100 * MS);
        // 700 ms left for 3 cells.
        assert_eq!(b.next_cell(), 700 * MS / 3);
        b.record(100 * MS);
        assert_eq!(b.next_cell(), 300 * MS);
    }

    #[test]
    fn a_cell_gets_between_half_and_twice_the_average() {
        let mut b = RunBudget::new(200 * MS, 10);
        for _ in 0..8 {
            b.record(10 * MS);
        }
        assert_eq!(b.next_cell(), 400 * MS, "at most twice the average");
        let mut b = RunBudget::new(200 * MS, 10);
        b.record(1900 * MS);
        assert_eq!(b.next_cell(), 100 * MS, "at least half of it");
    }

    #[test]
    fn a_run_of_cells_that_use_their_budget_stays_within_the_total() {
        let mut b = RunBudget::new(200 * MS, 66);
        let mut total = Duration::ZERO;
        for _ in 0..66 {
            let took = b.next_cell();
            total += took;
            b.record(took);
        }
        assert_eq!(total, 200 * MS * 66);
    }
}

//! The answer of a report on one configuration: per algorithm the figure
//! at 16 B and at 16 KiB (else the smallest and largest size measured) with
//! cycles per byte where the clock was measured, and the fitted cost per
//! call.

use cryptobench_core::result::{CellOutcome, ConfigurationResult, OverheadFit};

use crate::winners::{LARGE, SMALL};

pub struct Figure {
    pub size: usize,
    /// Bytes per second.
    pub median: f64,
    pub cycles_per_byte: Option<f64>,
    pub noisy: bool,
}

pub struct HeadlineRow<'a> {
    pub algorithm: &'a str,
    pub operation: &'static str,
    pub mode: String,
    pub small: Option<Figure>,
    pub large: Option<Figure>,
    pub fit: Option<&'a OverheadFit>,
}

pub fn rows(c: &ConfigurationResult) -> Vec<HeadlineRow<'_>> {
    let mut out: Vec<HeadlineRow> = Vec::new();
    // Public-key figures are operations per second: html/pk.rs shows them.
    for x in c.cells.iter().filter(|x| !x.spec.is_public_key()) {
        let (alg, op, mode) = (x.spec.algorithm.as_str(), x.spec.operation.short(), x.spec.mode_label());
        if out.iter().any(|r| r.algorithm == alg && r.operation == op && r.mode == mode) {
            continue;
        }
        let figures: Vec<Figure> = c
            .cells
            .iter()
            .filter(|y| y.spec.algorithm == alg && y.spec.operation.short() == op && y.spec.mode_label() == mode)
            .filter_map(|y| match &y.outcome {
                CellOutcome::Measured(m) => Some(Figure {
                    size: y.spec.size,
                    median: m.summary.median,
                    cycles_per_byte: m.cycles_per_byte,
                    noisy: m.is_noisy(),
                }),
                _ => None,
            })
            .collect();
        let pick = |wanted: usize, largest: bool| {
            let i = figures.iter().position(|f| f.size == wanted).or_else(|| {
                let sizes = figures.iter().enumerate();
                if largest {
                    sizes.max_by_key(|(_, f)| f.size).map(|(i, _)| i)
                } else {
                    sizes.min_by_key(|(_, f)| f.size).map(|(i, _)| i)
                }
            })?;
            Some(i)
        };
        let (small_i, large_i) = (pick(SMALL, false), pick(LARGE, true));
        let mut figures: Vec<Option<Figure>> = figures.into_iter().map(Some).collect();
        let large = large_i.and_then(|i| figures[i].take());
        let small = small_i.filter(|&i| Some(i) != large_i).and_then(|i| figures[i].take());
        out.push(HeadlineRow {
            algorithm: alg,
            operation: op,
            mode: mode.clone(),
            fit: c
                .overheads
                .iter()
                .find(|o| o.algorithm == alg && o.operation.short() == op && o.mode == mode),
            small,
            large,
        });
    }
    out
}

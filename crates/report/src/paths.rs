//! The "Paths" section: one algorithm through several paths, each path's
//! MB/s and factor over the direct one per size, its fixed cost per call and
//! its crossover size (crates/core/src/paths.rs), as a table for the
//! terminal and Markdown; the HTML report draws the same (html/paths.rs).

use cryptobench_core::paths::{Crossover, PathRow, PathTable};
use cryptobench_core::result::RunResult;

use crate::labels::Labels;
use crate::size_label;

/// The title line of a path table.
pub fn title(t: &PathTable, labels: &Labels, run_pos: usize) -> String {
    format!(
        "paths: {} {} {} through each configuration against {} (the direct path); crossover: the size from which a path \
         is not slower than the direct one and gains at least half of its large-message factor",
        t.algorithm,
        t.operation.short(),
        t.mode,
        labels.get(run_pos, t.direct.configuration)
    )
}

/// A factor with two significant digits at least ("0.00024×", "0.52×", "5.89×"): the
/// kernel's factors at small sizes are thousandths, which two decimals would show as 0.
pub fn factor(f: f64) -> String {
    let decimals = if f > 0.0 { (1 - f.log10().floor() as i32).clamp(2, 6) } else { 2 };
    format!("{f:.*}×", decimals as usize)
}

/// What a row's crossover says.
pub fn crossover_text(row: &PathRow) -> String {
    match row.crossover {
        Crossover::FromSmallest => format!("≤ {} (worth it at every size)", size_label(row.factors[0].0)),
        Crossover::At(size) => format!("{} (from {})", size_label(size), factor(row.threshold)),
        Crossover::Never => format!(
            "none: {} at {}",
            factor(row.large_factor),
            size_label(row.factors.last().map(|f| f.0).unwrap_or(0))
        ),
    }
}

/// Header and rows: path, fixed cost per call, per size "MB/s (factor×)", crossover.
pub fn rows(t: &PathTable, labels: &Labels, run_pos: usize) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header = vec!["path".to_string(), "per call".to_string()];
    header.extend(t.direct.rates.iter().map(|(s, _)| size_label(*s)));
    header.push("crossover".to_string());
    let row = |r: &PathRow, direct: bool| {
        let mut cells = vec![
            labels.get(run_pos, r.configuration).to_string(),
            r.per_call_ns.map(|ns| format!("{ns:.0} ns")).unwrap_or_else(|| "–".into()),
        ];
        for (size, _) in &t.direct.rates {
            let at = r.rates.iter().position(|(s, _)| s == size);
            cells.push(match at {
                Some(i) if direct => format!("{:.1}", r.rates[i].1 / 1e6),
                Some(i) => format!("{:.1} ({})", r.rates[i].1 / 1e6, factor(r.factors[i].1)),
                None => "–".into(),
            });
        }
        cells.push(if direct { "direct".into() } else { crossover_text(r) });
        cells
    };
    let mut out = vec![row(&t.direct, true)];
    out.extend(t.paths.iter().map(|r| row(r, false)));
    (header, out)
}

/// The section as text tables in `preset` (comfy-table's NOTHING or ASCII_MARKDOWN), or empty.
pub fn render(run: &RunResult, labels: &Labels, preset: &str, markdown: bool) -> String {
    let mut out = String::new();
    for t in cryptobench_core::paths::tables(run) {
        let (header, rows) = rows(&t, labels, 0);
        let mut table = comfy_table::Table::new();
        table.load_preset(preset).set_header(header);
        for r in rows {
            table.add_row(r);
        }
        let title = title(&t, labels, 0);
        if markdown {
            out.push_str(&format!("\n**{title}** (MB/s, factor over the direct path)\n\n{table}\n"));
        } else {
            out.push_str(&format!("\n{title}; MB/s (factor over the direct path):\n{table}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(crossover: Crossover) -> PathRow {
        PathRow {
            configuration: 2,
            rates: vec![(16, 1e6), (16384, 5e8)],
            factors: vec![(16, 0.01), (16384, 0.4)],
            large_factor: 0.4,
            threshold: 1.0,
            crossover,
            per_call_ns: Some(57000.0),
        }
    }

    #[test]
    fn small_factors_keep_two_significant_digits() {
        assert_eq!(factor(0.00024), "0.00024×");
        assert_eq!(factor(0.0917), "0.092×");
        assert_eq!(factor(0.52), "0.52×");
        assert_eq!(factor(5.891), "5.89×");
        assert_eq!(factor(120.0), "120.00×");
    }

    #[test]
    fn the_crossover_reads_as_a_size_or_says_why_there_is_none() {
        assert_eq!(crossover_text(&row(Crossover::Never)), "none: 0.40× at 16 KiB");
        assert_eq!(crossover_text(&row(Crossover::At(16384))), "16 KiB (from 1.00×)");
        assert_eq!(crossover_text(&row(Crossover::FromSmallest)), "≤ 16 B (worth it at every size)");
    }
}

//! The emulated/native section: for each run holding the same backend
//! natively and under an emulator, one bar per row and size with the ratio
//! emulated/native (crate::emulation computes it; here it is drawn).

use cryptobench_core::result::RunResult;

use super::page::legend;
use crate::charts::{horizontal_bars, Bar, BarChart, ChartError, Group};
use crate::emulation::{pairs, ratio_rows, title};
use crate::escape::escape;
use crate::labels::Labels;

pub fn render(runs: &[(String, &RunResult)], labels: &Labels) -> Result<String, ChartError> {
    let mut out = String::new();
    for (pos, (_, run)) in runs.iter().enumerate() {
        for pair in pairs(run) {
            let (header, rows) = ratio_rows(run, &pair);
            let style = labels.position(pos, pair.emulated.index);
            let sizes = &header[3..];
            let groups: Vec<Group> = rows
                .iter()
                .map(|row| Group {
                    name: format!("{} {} {}", row[0], row[1], row[2]),
                    bars: sizes
                        .iter()
                        .zip(&row[3..])
                        .filter_map(|(size, cell)| {
                            let ratio: f64 = cell.trim_end_matches('×').parse().ok()?;
                            Some(Bar {
                                style,
                                value: ratio,
                                text: format!("{size}: {cell}"),
                                tooltip: format!("{} at {size}: emulated/native = {cell}", row[0]),
                                second: None,
                            })
                        })
                        .collect(),
                })
                .filter(|g| !g.bars.is_empty())
                .collect();
            if groups.is_empty() {
                continue;
            }
            let heading = title(&pair, |c| labels.get(pos, c.index));
            let svg = horizontal_bars(&BarChart {
                title: "emulated / native, per size",
                groups: &groups,
                x_desc: "emulated throughput as a fraction of native",
                reference: None,
                class: "emulation",
                width: crate::charts::bars::WIDTH,
                log: false,
            })?;
            out.push_str(&format!(
                "<section id=\"emulated-native-{pos}-{}\"><h2>Native against emulated</h2><p>{}</p>\n{}<figure class=\"bars\">{svg}\
                 <figcaption>Each bar is the emulated median over the native one at that size; both are measured. \
                 The emulated figure describes the emulator, not the emulated architecture's hardware.</figcaption></figure></section>\n",
                pair.emulated.index,
                escape(&heading),
                legend(&[(style, labels.get(pos, pair.emulated.index).to_string())]),
            ));
        }
    }
    Ok(out)
}

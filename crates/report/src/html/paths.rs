//! The "Paths" section of the HTML report: for a run of one algorithm
//! through several configurations (crates/core/src/paths.rs), a table of
//! each path's MB/s and factor over the direct path per size, per-call cost
//! and crossover, and a chart of MB/s against size per path with each
//! crossover marked. Reports of several runs leave it out.

use cryptobench_core::paths::{tables, Crossover};
use cryptobench_core::result::RunResult;
use cryptobench_core::units::Unit;

use super::sizes;
use crate::charts::{throughput_by_size_marked, Axes, ChartError, Mark};
use crate::escape::escape;
use crate::labels::Labels;
use crate::size_label;

pub fn render(runs: &[(String, &RunResult)], labels: &Labels, unit: Unit) -> Result<String, ChartError> {
    let [(_, run)] = runs else { return Ok(String::new()) };
    let mut s = String::new();
    for t in tables(run) {
        if s.is_empty() {
            s.push_str("<section id=\"paths\"><h2>Paths</h2>\n");
        }
        s.push_str(&format!("<p class=\"note\">{}.</p>\n", escape(&crate::paths::title(&t, labels, 0))));
        let (header, rows) = crate::paths::rows(&t, labels, 0);
        s.push_str("<table><thead><tr>");
        for h in &header {
            s.push_str(&format!("<th>{}</th>", escape(h)));
        }
        s.push_str("</tr></thead><tbody>\n");
        for r in rows {
            s.push_str("<tr>");
            for c in r {
                s.push_str(&format!("<td>{}</td>", escape(&c)));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody></table>\n");
        let key = sizes::keys(runs)
            .into_iter()
            .find(|k| k.0 == t.algorithm && k.1 == t.operation.short() && k.2 == t.mode);
        let Some(key) = key else { continue };
        let shown: Vec<usize> = std::iter::once(&t.direct).chain(&t.paths).map(|r| r.configuration).collect();
        let series: Vec<_> = sizes::series(runs, labels, &key, unit)
            .into_iter()
            .filter(|x| shown.iter().any(|&i| labels.get(0, i) == x.label))
            .collect();
        let marks: Vec<Mark> = t
            .paths
            .iter()
            .filter_map(|r| match r.crossover {
                Crossover::At(size) => Some(Mark {
                    style: labels.position(0, r.configuration),
                    size,
                    label: format!("{} from {}", labels.get(0, r.configuration), size_label(size)),
                    tooltip: format!(
                        "{}: crossover at {}",
                        labels.get(0, r.configuration),
                        crate::paths::crossover_text(r)
                    ),
                }),
                _ => None,
            })
            .collect();
        if let Some(axes) = Axes::of(&series) {
            let title = format!("{} {} {}: paths", t.algorithm, t.operation.short(), t.mode);
            s.push_str(&format!(
                "<div class=\"multiples\"><figure>{}</figure></div>\n",
                throughput_by_size_marked(&title, &series, axes, unit.label(), unit.divisor(), &marks)?
            ));
        }
    }
    if !s.is_empty() {
        s.push_str(
            "<p class=\"note\">Vertical marks: a path's crossover size, from which it is not slower than the direct path and gains at \
             least half of its large-message factor; a path without a mark is worth it at every size or at none (the table says which).</p>\n\
             </section>\n",
        );
    }
    Ok(s)
}

//! Public key in the report: one bar chart per operation (sign, verify,
//! keygen, encaps, decaps, derive, …) with a bar per algorithm and
//! configuration, on a logarithmic axis labelled in operations per second
//! (1, 10, 100, 1k, …; RSA key generation and X25519 differ by five orders
//! of magnitude), the figure written at each bar.

use cryptobench_core::result::{CellOutcome, RunResult};
use cryptobench_core::Operation;

use super::page::legend;
use crate::charts::{horizontal_bars, Bar, BarChart, ChartError, Group};
use crate::escape::escape;
use crate::grid::NOISY_MARK;
use crate::labels::Labels;
use crate::pk_table::{format_ops, format_time};

pub fn render(runs: &[(String, &RunResult)], labels: &Labels) -> Result<String, ChartError> {
    let cells = || {
        runs.iter().enumerate().flat_map(|(pos, (_, r))| {
            r.configurations
                .iter()
                .flat_map(move |c| c.cells.iter().map(move |x| (pos, c, x)))
                .filter(|(_, _, x)| x.spec.is_public_key())
        })
    };
    if cells().next().is_none() {
        return Ok(String::new());
    }
    let mut out = String::from(
        "<section id=\"public-key\"><h2>Public key</h2>\n<p>Operations per second, one chart per operation; \
         the bars are on a logarithmic scale (each tick a factor of 10), the figure at each bar is the median.</p>\n",
    );
    let mut ops: Vec<Operation> = Vec::new();
    for (_, _, x) in cells() {
        if !ops.contains(&x.spec.operation) {
            ops.push(x.spec.operation);
        }
    }
    for op in ops {
        let mut groups: Vec<Group> = Vec::new();
        let mut entries: Vec<(usize, String)> = Vec::new();
        for (pos, c, x) in cells().filter(|(_, _, x)| x.spec.operation == op) {
            let CellOutcome::Measured(m) = &x.outcome else { continue };
            let label = labels.get(pos, c.index);
            let style = labels.position(pos, c.index);
            if !entries.iter().any(|(s, _)| *s == style) {
                entries.push((style, label.to_string()));
            }
            let name = if x.spec.size > 0 {
                format!("{} ({} B)", x.spec.algorithm, x.spec.size)
            } else {
                x.spec.algorithm.clone()
            };
            let s = &m.summary;
            let bar = Bar {
                style,
                value: s.median,
                text: format!("{}{}", format_ops(s.median), if m.is_noisy() { NOISY_MARK } else { "" }),
                tooltip: format!(
                    "{label} — {name} {}: {} operations/s, {} each ({}, {} {}–{})",
                    op.short(),
                    format_ops(s.median),
                    format_time(s.seconds_per_call),
                    s.figure_source(),
                    s.interval_name(),
                    format_ops(s.median_ci95[0]),
                    format_ops(s.median_ci95[1])
                ),
                second: None,
            };
            match groups.iter_mut().find(|g| g.name == name) {
                Some(g) => g.bars.push(bar),
                None => groups.push(Group { name, bars: vec![bar] }),
            }
        }
        if groups.is_empty() {
            continue;
        }
        entries.sort();
        let title = format!("{} per second", op.short());
        let svg = horizontal_bars(&BarChart {
            title: &title,
            groups: &groups,
            x_desc: "operations per second (logarithmic axis: each tick a factor of 10)",
            reference: None,
            class: "pk",
            width: crate::charts::bars::WIDTH,
            log: true,
        })?;
        out.push_str(&format!(
            "<figure class=\"bars\" id=\"pk-{}\">{}{svg}<figcaption>{}: operations per second, longer is faster, logarithmic \
             scale; hover a bar for its time per operation, interval and sample count.</figcaption></figure>\n",
            op.short(),
            legend(&entries),
            escape(op.short())
        ));
    }
    out.push_str("</section>\n");
    Ok(out)
}

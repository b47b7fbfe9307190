//! `cryptobench report --format markdown`: every run's tables, the
//! comparison when there are several configurations, and on/off factors.

use cryptobench_core::compare::compare;
use cryptobench_core::result::RunResult;
use cryptobench_core::units::Unit;

use crate::factors::factors;
use crate::size_label;

pub fn render(runs: &[(String, RunResult)], unit: Unit) -> String {
    let mut out = String::new();
    for (name, run) in runs {
        out.push_str(&format!("## {name}\n\n"));
        out.push_str(&crate::markdown::render(run, unit));
        out.push('\n');
    }
    let named: Vec<(String, &RunResult)> = runs.iter().map(|(n, r)| (n.clone(), r)).collect();
    let c = compare(&named);
    if c.series.len() > 1 && !c.rows.is_empty() {
        out.push_str("## Comparison\n\n");
        out.push_str(&crate::compare::render(&c, unit, true));
        out.push('\n');
    }
    out.push_str("## Capability masks: on/off factors\n\n");
    let all: Vec<_> = runs.iter().flat_map(|(n, r)| factors(r).into_iter().map(move |f| (n, f))).collect();
    if all.is_empty() {
        out.push_str("No configuration in these runs was measured with a capability mask, so there are no on/off factors.\n");
    } else {
        out.push_str("factor = median without the mask / median with it; * = beyond the noise, ? = too few samples to tell.\n\n");
        out.push_str("| run | cell | size | configurations | mask | on | off | factor |\n|---|---|---|---|---|---|---|---|\n");
        for (n, f) in all {
            out.push_str(&format!(
                "| {n} | {} {} {} | {} | {} | `{}` | {} | {} | {} |\n",
                f.algorithm,
                f.operation,
                f.mode,
                size_label(f.size),
                f.pair,
                f.mask,
                unit.format(f.on),
                unit.format(f.off),
                f.label()
            ));
        }
    }
    out
}

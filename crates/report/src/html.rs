//! One self-contained HTML file: environment, tables, comparison and charts
//! (inline SVG drawn by plotters). No script, no external style, font or
//! image: it opens offline and can be mailed or attached as is.

use cryptobench_core::compare::{compare, Comparison, Verdict};
use cryptobench_core::result::RunResult;
use cryptobench_core::units::Unit;

use crate::charts::{self, ChartError};
use crate::environment::{capability_line, configuration_line, host_line, timing_line};
use crate::factors::factors;
use crate::{grid, size_label};

/// The size at which bars compare configurations (the largest default size of `openssl speed`).
pub const BAR_SIZE: usize = 16384;

const STYLE: &str = "body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}\
th:first-child,td:first-child{text-align:left}th{background:#f2f2f2}figure{margin:1em 0}\
.sig{font-weight:bold}.note{color:#555;font-size:90%}code{background:#f4f4f4;padding:0 3px}";

pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut s = String::from("<table><thead><tr>");
    for h in header {
        s.push_str(&format!("<th>{}</th>", escape(h)));
    }
    s.push_str("</tr></thead><tbody>");
    for r in rows {
        s.push_str("<tr>");
        for c in r {
            s.push_str(&format!("<td>{c}</td>"));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>\n");
    s
}

pub fn render(runs: &[(String, RunResult)], unit: Unit) -> Result<String, ChartError> {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>cryptobench report</title><style>{STYLE}</style></head><body>\n<h1>cryptobench report</h1>\n"
    );
    out.push_str(&format!(
        "<p class=\"note\">{} run(s); figures in {}; each figure is the median of its samples.</p>\n",
        runs.len(),
        unit.label()
    ));
    out.push_str("<h2 id=\"environment\">Environment</h2>\n");
    for (name, run) in runs {
        out.push_str(&environment(name, run));
    }
    out.push_str("<h2 id=\"results\">Results</h2>\n");
    for (name, run) in runs {
        let g = grid::build(run, unit);
        out.push_str(&format!("<h3>{}</h3>\n", escape(name)));
        let rows: Vec<Vec<String>> = g.rows.iter().map(|r| r.iter().map(|c| escape(c)).collect()).collect();
        out.push_str(&table(&g.header, &rows));
        if !g.notes.is_empty() {
            out.push_str(&format!("<details><summary>{} notes</summary><ul class=\"note\">", g.notes.len()));
            for n in &g.notes {
                out.push_str(&format!("<li>{}</li>", escape(n)));
            }
            out.push_str("</ul></details>\n");
        }
    }
    let named: Vec<(String, &RunResult)> = runs.iter().map(|(n, r)| (n.clone(), r)).collect();
    let c = compare(&named);
    if c.series.len() > 1 && !c.rows.is_empty() {
        out.push_str(&comparison(&c, unit));
    }
    out.push_str(&charts_section(&c, unit)?);
    out.push_str(&factors_section(runs, unit)?);
    out.push_str("</body></html>\n");
    Ok(out)
}

fn environment(name: &str, run: &RunResult) -> String {
    let mut s = format!("<h3>{}</h3><ul>", escape(name));
    let mut item = |k: &str, v: &str| s.push_str(&format!("<li><b>{}:</b> {}</li>", escape(k), escape(v)));
    item("started", &run.started_at);
    item("tool", &format!("{} {}", run.tool.name, run.tool.version));
    if let Some(h) = &run.host.hostname {
        item("host name", h);
    }
    item("host", &host_line(run));
    if let Some(i) = &run.imported {
        item("imported", &format!("from {} ({})", i.source, i.format));
        for (k, v) in &i.environment {
            item(k, v);
        }
    } else {
        item("timing", &timing_line(run));
        item("command line", &run.command_line.join(" "));
        for w in &run.warnings {
            item("warning", w);
        }
    }
    for c in &run.configurations {
        let mut line = configuration_line(c);
        if let Some(cap) = capability_line(c) {
            line.push_str(&format!(" — {cap}"));
        }
        item("configuration", &line);
    }
    s.push_str("</ul>\n");
    s
}

fn groups(c: &Comparison) -> Vec<(String, &'static str, String)> {
    let mut g: Vec<(String, &'static str, String)> = Vec::new();
    for r in &c.rows {
        let k = (r.algorithm.clone(), r.operation.short(), r.mode.clone());
        if !g.contains(&k) {
            g.push(k);
        }
    }
    g
}

fn comparison(c: &Comparison, unit: Unit) -> String {
    let mut s = String::from("<h2 id=\"comparison\">Comparison</h2>\n<ul>");
    for (i, x) in c.series.iter().enumerate() {
        s.push_str(&format!(
            "<li><b>{}</b>: {}{}</li>",
            escape(&x.name),
            escape(&x.description),
            if i == 0 { " (baseline)" } else { "" }
        ));
    }
    s.push_str("</ul><p class=\"note\">ratio = median / baseline median; <span class=\"sig\">*</span> = beyond the noise (two-sided Mann-Whitney U test of the samples, p &lt; 0.05, and more than 1% apart); ? = not tested, a side has too few samples (imported figures have none).</p>\n");
    for g in groups(c) {
        s.push_str(&format!("<h3>{} {} {}</h3>\n", escape(&g.0), g.1, escape(&g.2)));
        let mut header = vec!["size".to_string()];
        for (i, x) in c.series.iter().enumerate() {
            header.push(x.name.clone());
            if i > 0 {
                header.push("ratio".into());
            }
        }
        let rows: Vec<Vec<String>> = c
            .rows
            .iter()
            .filter(|r| r.algorithm == g.0 && r.operation.short() == g.1 && r.mode == g.2)
            .map(|r| {
                let mut row = vec![size_label(r.size)];
                for e in &r.entries {
                    row.push(e.median.map(|m| unit.format(m)).unwrap_or_else(|| "-".into()));
                    match e.verdict {
                        Verdict::Baseline => {}
                        Verdict::Different { ratio, .. } => row.push(format!("<span class=\"sig\">{ratio:.2}× *</span>")),
                        Verdict::Same { ratio, .. } => row.push(format!("{ratio:.2}×")),
                        Verdict::Untested { ratio } => row.push(format!("{ratio:.2}× ?")),
                        Verdict::Missing => row.push("-".into()),
                    }
                }
                row
            })
            .collect();
        s.push_str(&table(&header, &rows));
    }
    s.push_str("<h3>Summary</h3><ul>");
    for line in crate::compare::summary(c) {
        s.push_str(&format!("<li>{}</li>", escape(&line)));
    }
    s.push_str("</ul>\n");
    s
}

fn charts_section(c: &Comparison, unit: Unit) -> Result<String, ChartError> {
    let mut s = String::from("<h2 id=\"charts\">Charts</h2>\n<h3>Throughput against message size</h3>\n");
    let gs = groups(c);
    for g in &gs {
        let rows: Vec<_> = c
            .rows
            .iter()
            .filter(|r| r.algorithm == g.0 && r.operation.short() == g.1 && r.mode == g.2)
            .collect();
        let series: Vec<charts::Line> = c
            .series
            .iter()
            .enumerate()
            .map(|(i, x)| {
                (
                    x.name.clone(),
                    i,
                    rows.iter().filter_map(|r| r.entries[i].median.map(|m| (r.size, m))).collect(),
                )
            })
            .filter(|(_, _, pts): &charts::Line| !pts.is_empty())
            .collect();
        let title = format!("{} {} {}", g.0, g.1, g.2);
        s.push_str(&format!(
            "<figure class=\"chart\">{}</figure>\n",
            charts::throughput_by_size(&title, &series, unit)?
        ));
    }
    s.push_str(&format!("<h3>At {}</h3>\n", size_label(BAR_SIZE)));
    let mut any = false;
    for g in &gs {
        let Some(r) = c
            .rows
            .iter()
            .find(|r| r.algorithm == g.0 && r.operation.short() == g.1 && r.mode == g.2 && r.size == BAR_SIZE)
        else {
            continue;
        };
        let bars: Vec<(String, usize, f64)> = c
            .series
            .iter()
            .zip(&r.entries)
            .enumerate()
            .filter_map(|(i, (x, e))| e.median.map(|m| (x.name.clone(), i, m / unit.divisor())))
            .collect();
        let title = format!("{} {} {} at {}", g.0, g.1, g.2, size_label(BAR_SIZE));
        s.push_str(&format!(
            "<figure class=\"chart\">{}</figure>\n",
            charts::bars(&title, &bars, unit.label())?
        ));
        any = true;
    }
    if !any {
        s.push_str(&format!("<p>No cell was measured at {}.</p>\n", size_label(BAR_SIZE)));
    }
    Ok(s)
}

fn factors_section(runs: &[(String, RunResult)], unit: Unit) -> Result<String, ChartError> {
    let mut s = String::from("<h2 id=\"factors\">Capability masks: on/off factors</h2>\n");
    let mut any = false;
    for (name, run) in runs {
        let fs = factors(run);
        if fs.is_empty() {
            continue;
        }
        any = true;
        s.push_str(&format!(
            "<h3>{}</h3><p class=\"note\">factor = median with every capability / median with the mask: what the masked capability is worth; * = beyond the noise, ? = too few samples to tell.</p>\n",
            escape(name)
        ));
        let rows: Vec<Vec<String>> = fs
            .iter()
            .map(|f| {
                vec![
                    escape(&format!("{} {} {}", f.algorithm, f.operation, f.mode)),
                    size_label(f.size),
                    escape(&f.pair),
                    format!("<code>{}</code>", escape(&f.mask)),
                    unit.format(f.on),
                    unit.format(f.off),
                    f.label(),
                ]
            })
            .collect();
        let header: Vec<String> = ["cell", "size", "configurations", "mask", "on", "off", "factor"]
            .iter()
            .map(|h| h.to_string())
            .collect();
        s.push_str(&table(&header, &rows));
        let bars: Vec<(String, usize, f64)> = fs
            .iter()
            .filter(|f| f.size == BAR_SIZE)
            .enumerate()
            .map(|(i, f)| (format!("{} {} {}", f.algorithm, f.operation, f.pair), i, f.factor))
            .collect();
        if !bars.is_empty() {
            let title = format!("on/off factor at {}", size_label(BAR_SIZE));
            s.push_str(&format!(
                "<figure class=\"chart\">{}</figure>\n",
                charts::bars(&title, &bars, "factor (×)")?
            ));
        }
    }
    if !any {
        s.push_str(
            "<p>No configuration in these runs was measured with a capability mask (an environment such as \
             <code>OPENSSL_ia32cap</code> beside the same library without it), so there are no on/off factors to show.</p>\n",
        );
    }
    Ok(s)
}

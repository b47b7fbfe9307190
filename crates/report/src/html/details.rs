//! Below the charts, collapsed: every figure in tables (each run's grid,
//! the cell-by-cell comparison, the on/off factors of capability masks)
//! and the environment, where each label is spelled out: the library's
//! version string, the file loaded, the mask, the worker's platform.

use cryptobench_core::compare::Verdict;
use cryptobench_core::result::RunResult;
use cryptobench_core::units::Unit;

use super::page::{collapsed, swatch, Row, Table};
use crate::derived;
use crate::environment::{host_line, status_text, timing_line};
use crate::escape::escape;
use crate::factors::factors;
use crate::labels::Labels;
use crate::{grid, size_label};

pub fn tables(runs: &[(String, RunResult)], named: &[(String, &RunResult)], labels: &Labels, unit: Unit) -> String {
    let mut s = String::from(
        "<section id=\"tables\"><h2>Tables</h2>\n<p class=\"note\">Every figure behind the charts, collapsed; click to open.</p>\n",
    );
    for (pos, (name, run)) in runs.iter().enumerate() {
        let g = grid::build(run, unit, labels, pos);
        let mut body = Table {
            header: g.header.clone(),
            rows: g.rows.iter().map(|r| Row::new(r.iter().map(|c| escape(c)).collect())).collect(),
            stack: false,
            left: vec![0, 1, 2, 3],
        }
        .render();
        // The collapsed tables hold every figure, and so every flagged cell's warnings.
        let mut notes = crate::steadiness::lines(run);
        notes.extend(crate::cell_warnings::lines(run, &g.flagged, crate::Detail::EveryCell));
        notes.extend(g.notes_with_derived(run, labels, pos));
        for c in &run.configurations {
            notes.extend(derived::overhead_lines(c, unit, labels.get(pos, c.index)));
        }
        if !notes.is_empty() {
            body.push_str("<ul class=\"note\">");
            for n in &notes {
                body.push_str(&format!("<li>{}</li>", escape(n)));
            }
            body.push_str("</ul>\n");
        }
        let title = format!(
            "Every figure of {} ({}; {} marks a noisy figure)",
            run.label.as_deref().unwrap_or(name),
            unit.label(),
            grid::NOISY_MARK
        );
        s.push_str(&collapsed(&format!("figures-{}", pos + 1), &title, &body));
    }
    let c = crate::compare::labelled(named);
    if c.series.len() > 1 && !c.rows.is_empty() {
        s.push_str(&collapsed(
            "comparison",
            &format!("Cell by cell against {}", c.series[0].name),
            &comparison(&c, unit),
        ));
    }
    s.push_str(&factor_tables(named, labels, unit));
    s.push_str("</section>\n");
    s
}

fn comparison(c: &cryptobench_core::compare::Comparison, unit: Unit) -> String {
    let mut s = format!(
        "<p class=\"note\">ratio = median / the first configuration's median; * = {}; ? = cannot tell: neither beyond the noise nor shown within ±2%, or a side has too few samples \
         (imported figures have none).</p>\n",
        cryptobench_core::decision::IN_WORDS
    );
    let mut groups: Vec<(String, &str, String)> = Vec::new();
    for r in &c.rows {
        let k = (r.algorithm.clone(), r.operation.short(), r.mode.clone());
        if !groups.contains(&k) {
            groups.push(k);
        }
    }
    for g in groups {
        s.push_str(&format!("<h3>{} {} {}</h3>\n", escape(&g.0), g.1, escape(&g.2)));
        let mut header = vec!["size".to_string()];
        for (i, x) in c.series.iter().enumerate() {
            header.push(x.name.clone());
            if i > 0 {
                header.push("ratio".into());
            }
        }
        let rows = c
            .rows
            .iter()
            .filter(|r| r.algorithm == g.0 && r.operation.short() == g.1 && r.mode == g.2)
            .map(|r| {
                let mut row = vec![size_label(r.size)];
                for e in &r.entries {
                    row.push(e.median.map(|m| unit.format(m)).unwrap_or_else(|| "-".into()));
                    match e.verdict {
                        Verdict::Baseline => {}
                        Verdict::Different { ratio, .. } => row.push(format!("<b>{ratio:.2}× *</b>")),
                        Verdict::Same { ratio, .. } => row.push(format!("{ratio:.2}×")),
                        Verdict::Untested { ratio } => row.push(format!("{ratio:.2}× ?")),
                        Verdict::Missing => row.push("-".into()),
                    }
                }
                Row::new(row)
            })
            .collect();
        s.push_str(
            &Table {
                header,
                rows,
                stack: false,
                left: vec![],
            }
            .render(),
        );
    }
    s.push_str("<ul>");
    for line in crate::compare::summary(c) {
        s.push_str(&format!("<li>{}</li>", escape(&line)));
    }
    s.push_str("</ul>\n");
    s
}

fn factor_tables(runs: &[(String, &RunResult)], labels: &Labels, unit: Unit) -> String {
    let mut rows = Vec::new();
    for (pos, (_, run)) in runs.iter().enumerate() {
        for f in factors(run) {
            rows.push(Row::new(vec![
                escape(&format!("{} {} {}", f.algorithm, f.operation, f.mode)),
                size_label(f.size),
                escape(labels.get(pos, f.base)),
                escape(labels.get(pos, f.masked)),
                unit.format(f.on),
                unit.format(f.off),
                f.label(),
            ]));
        }
    }
    if rows.is_empty() {
        return "<p class=\"note\">No configuration in these runs was measured with a capability mask (an environment such as \
                <code>OPENSSL_ia32cap</code> beside the same library without it), so there are no on/off factors to show.</p>\n"
            .into();
    }
    let table = Table {
        header: ["cell", "size", "without the mask", "with the mask", "on", "off", "factor"]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        rows,
        stack: false,
        left: vec![0, 2, 3],
    };
    collapsed(
        "factors",
        "On/off factors of capability masks, cell by cell",
        &format!(
            "<p class=\"note\">factor = median without the mask ÷ median with it: what the masked capabilities are worth; \
             * = beyond the noise, ? = too few samples to tell.</p>\n{}",
            table.render()
        ),
    )
}

pub fn environment(runs: &[(String, &RunResult)], labels: &Labels) -> String {
    let mut body = String::new();
    for (pos, (name, run)) in runs.iter().enumerate() {
        body.push_str(&format!("<h3>{}</h3>\n<dl>", escape(run.label.as_deref().unwrap_or(name))));
        let mut item = |k: &str, v: &str| body.push_str(&format!("<dt>{}</dt><dd>{}</dd>", escape(k), escape(v)));
        item("started", &run.started_at);
        item("tool", &format!("{} {}", run.tool.name, run.tool.version));
        if let Some(h) = &run.host.hostname {
            item("host name", h);
        }
        item("host", &host_line(run));
        if let Some(clock) = derived::host_clock_line(run) {
            item("clock", &clock);
        }
        item("timing", &timing_line(run));
        if let Some(i) = &run.imported {
            item("imported", &format!("from {} ({})", i.source, i.format));
            for (k, v) in &i.environment {
                item(k, v);
            }
        } else {
            item("command line", &run.command_line.join(" "));
        }
        for w in &run.warnings {
            item("warning", w);
        }
        body.push_str("</dl>\n");
        for c in &run.configurations {
            let label = labels.get(pos, c.index);
            body.push_str(&format!(
                "<h4>{}{}</h4>\n<dl>",
                swatch(labels.position(pos, c.index)),
                escape(label)
            ));
            let mut item = |k: &str, v: String, code: bool| {
                let v = escape(&v);
                body.push_str(&format!(
                    "<dt>{}</dt><dd>{}</dd>",
                    escape(k),
                    if code { format!("<code>{v}</code>") } else { v }
                ))
            };
            item("configuration", format!("[{}] {}", c.index, c.spec.display()), true);
            if let Some(b) = &c.backend {
                item("library", b.version.clone(), false);
                if let Some(p) = &b.library_path {
                    item("file", p.clone(), true);
                }
                if let Some(cap) = &b.cpu_capabilities {
                    item("CPUINFO", cap.clone(), true);
                }
                for (k, v) in &b.details {
                    item(k, v.clone(), false);
                }
            }
            for (k, v) in &c.spec.env {
                item("environment", format!("{k}={v}"), true);
            }
            if let Some(m) = run
                .audit
                .as_ref()
                .and_then(|a| a.libraries.iter().find_map(|l| l.configuration(c.index)))
            {
                item(
                    "audit",
                    if m.cleared.is_empty() {
                        m.role()
                    } else {
                        format!("{} (switches off {})", m.role(), m.cleared.join(", "))
                    },
                    false,
                );
            }
            if let Some(w) = &c.spec.worker {
                item("worker command", w.join(" "), true);
            }
            if let Some(p) = &c.platform {
                let mut text = format!("{} {}", p.arch, p.os);
                text.push_str(if p.optimized { ", optimised build" } else { ", debug build" });
                if let Some(cpus) = &p.affinity {
                    text.push_str(&format!(
                        ", CPUs {}",
                        cpus.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",")
                    ));
                }
                if !p.features.is_empty() {
                    text.push_str(&format!(
                        "; features: {}",
                        p.features.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ")
                    ));
                }
                item("worker", text, false);
            }
            if let Some(clock) = derived::clock_line(c, label) {
                item("core clock", clock.trim_start_matches(&format!("{label}: ")).to_string(), false);
            }
            item("status", status_text(c), false);
            body.push_str("</dl>\n");
        }
    }
    format!(
        "<section id=\"environment\"><h2>Environment</h2>\n{}</section>\n",
        collapsed("environment-details", "Hosts, libraries, files, masks and workers", &body)
    )
}

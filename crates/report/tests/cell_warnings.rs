//! The cells' warnings under a table: one line per kind by default, every
//! cell with `--verbose` (Detail::EveryCell), every warning in JSON. On a
//! run measured by cryptobench on a loaded machine
//! (tests/fixtures/runs/three-builds.json: 35 of 36 cells flagged).

use cryptobench_core::result::{CellOutcome, RunResult};
use cryptobench_core::units::Unit;
use cryptobench_report::{render, render_with, Detail, Format};

fn three_builds() -> RunResult {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/runs/three-builds.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The lines under the table that explain the noise mark.
fn mark_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("~ ")).collect()
}

#[test]
fn warnings_read_one_line_per_kind_and_every_cell_on_request() {
    let run = three_builds();
    let measured: Vec<_> = run
        .configurations
        .iter()
        .flat_map(|c| &c.cells)
        .filter_map(|x| match &x.outcome {
            CellOutcome::Measured(m) => Some(m),
            _ => None,
        })
        .collect();
    let flagged = measured.iter().filter(|m| !m.warnings.is_empty()).count();
    let imprecise = measured
        .iter()
        .filter(|m| m.warnings.iter().any(|w| w.starts_with("imprecise")))
        .count();

    let table = render(&run, Format::Table, Unit::Mb);
    // A kind's line wider than a terminal continues on the next, indented.
    let summary: Vec<String> = table
        .split("\n~ ")
        .skip(1)
        .map(|l| {
            let kind: Vec<&str> = l.lines().take_while(|x| !x.is_empty()).collect();
            let end = kind.iter().take_while(|x| x.starts_with("  ") || *x == &kind[0]).count();
            kind[..end].iter().map(|x| x.trim()).collect::<Vec<_>>().join(" ")
        })
        .collect();
    println!("{}", summary.join("\n"));
    assert_eq!(summary.len(), 3, "imprecise, shared core, few samples: {summary:#?}");
    let line = summary.iter().find(|l| l.contains("imprecise")).unwrap();
    assert!(
        line.starts_with(&format!("{imprecise} of {} cells imprecise (±", measured.len())),
        "{line}"
    );
    assert!(line.contains("worst ") && line.contains("tightens"), "{line}");
    assert!(
        table.lines().all(|l| l.chars().count() <= cryptobench_report::width::TERMINAL),
        "{table}"
    );
    assert!(
        table.contains(&format!("(`--verbose`: the {flagged} flagged cells one by one")),
        "{table}"
    );

    let verbose = render_with(&run, Format::Table, Unit::Mb, Detail::EveryCell);
    assert_eq!(mark_lines(&verbose).len(), flagged);
    let markdown = render(&run, Format::Markdown, Unit::Mb);
    assert_eq!(markdown.lines().filter(|l| l.starts_with("- ~ ")).count(), 3, "{markdown}");

    // JSON keeps every warning of every cell.
    let json: serde_json::Value = serde_json::from_str(&render(&run, Format::Json, Unit::Mb)).unwrap();
    let kept: usize = json["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["cells"].as_array().unwrap())
        .map(|x| x["warnings"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(kept, measured.iter().map(|m| m.warnings.len()).sum::<usize>());
}

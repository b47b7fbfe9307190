//! `cryptobench lab RUN --baseline NAME`: builds of a library in one run
//! (OpenSSL lab variants), each one's factor against the baseline build.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use cryptobench_core::result::{ConfigurationResult, RunResult};
use cryptobench_report::compare::labelled;
use cryptobench_report::lab::{render, LabFormat};
use cryptobench_report::labels::Labels;

use crate::cli::{LabArgs, LabFormatArg};
use crate::commands::run::unit;
use crate::exit::usage;
use crate::orchestrate::store::load_runs;

/// "…/3.5.5-clang-O3-noasm/libcrypto.so": the library file by its folder,
/// which names a lab variant; the configuration as written where no file was named.
fn file_of(c: &ConfigurationResult) -> String {
    let Some(lib) = &c.spec.library else {
        return c.spec.display();
    };
    let path = Path::new(lib);
    match (path.parent().and_then(Path::file_name), path.file_name()) {
        (Some(dir), Some(file)) => format!("{}=…/{}/{}", c.spec.backend, dir.to_string_lossy(), file.to_string_lossy()),
        _ => c.spec.display(),
    }
}

/// Whether `name` picks configuration `c`: its lab variant's name (the
/// folder of its library file, with or without '@'), its label, or its index.
fn is_named(c: &ConfigurationResult, label: &str, name: &str) -> bool {
    let bare = name.strip_prefix('@').unwrap_or(name);
    let folder = c
        .spec
        .library
        .as_deref()
        .and_then(|l| Path::new(l).parent()?.file_name()?.to_str().map(str::to_string));
    folder.as_deref() == Some(bare) || label == name || name.parse::<usize>().ok() == Some(c.index)
}

/// The run with the configuration `baseline` names first.
fn with_baseline_first(mut run: RunResult, baseline: Option<&str>, name: &str) -> Result<RunResult> {
    let Some(wanted) = baseline else {
        return Ok(run);
    };
    let labels = Labels::for_run(&run);
    let pos = run
        .configurations
        .iter()
        .position(|c| is_named(c, labels.get(0, c.index), wanted))
        .ok_or_else(|| {
            let known: Vec<String> = run
                .configurations
                .iter()
                .map(|c| format!("[{}] {} = {}", c.index, file_of(c), labels.get(0, c.index)))
                .collect();
            usage(format!(
                "--baseline {wanted}: no configuration of {name} is named so; give a variant name, a label or an index of: {}",
                known.join("; ")
            ))
        })?;
    let base = run.configurations.remove(pos);
    run.configurations.insert(0, base);
    Ok(run)
}

pub fn lab(args: &LabArgs) -> Result<ExitCode> {
    let (name, run) = load_runs(std::slice::from_ref(&args.run), &args.db)?
        .pop()
        .context("no run loaded")?;
    if run.configurations.len() < 2 {
        return Err(usage(format!(
            "{name} has {} configuration; the lab table needs builds side by side (run with several --backend openssl=@NAME)",
            run.configurations.len()
        )));
    }
    let run = with_baseline_first(run, args.baseline.as_deref(), &name)?;
    let mut comparison = labelled(&[(name.clone(), &run)]);
    for (series, c) in comparison.series.iter_mut().zip(&run.configurations) {
        series.description = file_of(c);
    }
    if comparison.rows.is_empty() {
        return Err(usage(format!("{name} has no measured cell")));
    }
    let format = match args.format {
        LabFormatArg::Table => LabFormat::Text,
        LabFormatArg::Markdown => LabFormat::Markdown,
        LabFormatArg::Html => LabFormat::Html,
    };
    let text = render(&comparison, unit(args.units), format);
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
        .context("writing to stdout")?;
    Ok(ExitCode::SUCCESS)
}

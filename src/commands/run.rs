//! `cryptobench run`: probe every configuration, measure each in its own
//! worker, keep whatever arrives (a crash loses only that configuration's
//! remaining cells), then render, then save the run in the database
//! (opened before measuring, so that a wrong --db costs nothing).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use cryptobench_core::protocol::{Job, WorkerMessage, PROTOCOL_VERSION};
use cryptobench_core::result::{
    CellOutcome, ConfigurationResult, ConfigurationStatus, RunResult, RunSettings, ToolInfo, VerificationOutcome,
};
use cryptobench_report::{render, Format};
use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::{FormatArg, RunArgs, UnitArg};
use crate::exit::{usage, INCOMPLETE};
use crate::plan::{self, Plan};
use crate::worker_client::{probe, run_job, Probe, WorkerEnd};

pub fn run(args: &RunArgs) -> Result<ExitCode> {
    let plan = plan::build(args)?;
    // Opened before measuring, so that a wrong --db costs nothing.
    let mut store = if args.save.no_save {
        None
    } else {
        Some(crate::store::open(&args.save.db)?)
    };
    let started_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let mut configurations = probe_all(&plan)?;
    if configurations
        .iter()
        .all(|c| matches!(c.status, ConfigurationStatus::Unavailable { .. }))
    {
        let reasons: Vec<String> = configurations
            .iter()
            .map(|c| match &c.status {
                ConfigurationStatus::Unavailable { reason } => format!("  {}: {reason}", c.spec.display()),
                _ => unreachable!(),
            })
            .collect();
        return Err(usage(format!("no configuration can be measured:\n{}", reasons.join("\n"))));
    }
    measure_all(&plan, &mut configurations)?;
    let run = RunResult {
        schema_version: cryptobench_core::result::SCHEMA_VERSION,
        tool: ToolInfo {
            name: env!("CARGO_PKG_NAME").into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        started_at,
        finished_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        command_line: std::env::args().collect(),
        host: cryptobench_cpu::host_info(),
        settings: RunSettings {
            timing: plan.timing.clone(),
            sizes: plan.sizes.clone(),
            pinned_cpu: plan.pin_cpu,
        },
        configurations,
        label: args.save.label.clone(),
        imported: None,
    };
    let text = render(&run, format(args.format), unit(args.units));
    let mut stdout = std::io::stdout().lock();
    // The run is saved even when stdout went away (`| head`): it was measured.
    let written = stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush());
    drop(stdout);
    if let Some((store, location)) = store.as_mut() {
        let id = store
            .save(&run)
            .with_context(|| format!("saving the run in {}", location.display()))?;
        eprintln!("saved as run {id} in {}", location.display());
    }
    written.context("writing the results")?;
    Ok(if complete(&run) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(INCOMPLETE)
    })
}

fn job(plan: &Plan, c: &ConfigurationResult, probe_only: bool) -> Job {
    Job {
        protocol: PROTOCOL_VERSION,
        configuration: c.spec.clone(),
        probe_only,
        cells: if probe_only { Vec::new() } else { plan.cells.clone() },
        timing: plan.timing.clone(),
        pin_cpu: plan.pin_cpu,
    }
}

/// Loads every configuration once up front, so a wrong path is known before
/// minutes of measuring, and the table header can name each library.
fn probe_all(plan: &Plan) -> Result<Vec<ConfigurationResult>> {
    let mut out = Vec::new();
    for (i, spec) in plan.configurations.iter().enumerate() {
        let mut c = ConfigurationResult {
            index: i + 1,
            spec: spec.clone(),
            backend: None,
            status: ConfigurationStatus::Completed,
            verifications: Vec::new(),
            cells: Vec::new(),
        };
        match probe(&job(plan, &c, true))? {
            Probe::Available { backend, .. } => c.backend = Some(backend),
            Probe::Unavailable(reason) => c.status = ConfigurationStatus::Unavailable { reason },
        }
        out.push(c);
    }
    Ok(out)
}

fn progress_bar(total: usize) -> ProgressBar {
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} cells, {elapsed} (eta {eta}) {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}

fn measure_all(plan: &Plan, configurations: &mut [ConfigurationResult]) -> Result<()> {
    let available = configurations.iter().filter(|c| c.status == ConfigurationStatus::Completed).count();
    let bar = progress_bar(plan.cells.len() * available);
    for c in configurations.iter_mut().filter(|c| c.status == ConfigurationStatus::Completed) {
        bar.set_prefix(format!("[{}] {}", c.index, c.spec.backend));
        let job = job(plan, c, false);
        let end = run_job(&job, |message| match message {
            WorkerMessage::Hello { backend, .. } => c.backend = Some(backend),
            WorkerMessage::Verified(v) => c.verifications.push(v),
            WorkerMessage::Cell(cell) => {
                bar.set_message(format!(
                    "{} {}",
                    cell.spec.algorithm,
                    cryptobench_report::size_label(cell.spec.size)
                ));
                bar.inc(1);
                c.cells.push(cell);
            }
            WorkerMessage::Unavailable { .. } | WorkerMessage::Done => {}
        })?;
        match end {
            WorkerEnd::Completed => {}
            WorkerEnd::Unavailable(reason) => c.status = ConfigurationStatus::Unavailable { reason },
            WorkerEnd::Crashed(reason) => {
                let missing = plan.cells.len() - c.cells.len();
                bar.inc(missing as u64);
                c.status = ConfigurationStatus::Crashed {
                    reason: format!("{reason} ({missing} of {} cells not measured)", plan.cells.len()),
                };
            }
        }
    }
    bar.finish_and_clear();
    Ok(())
}

/// Everything was measured: no configuration lost, no verification failed.
fn complete(run: &RunResult) -> bool {
    run.configurations.iter().all(|c| {
        c.status == ConfigurationStatus::Completed
            && c.verifications
                .iter()
                .all(|v| !matches!(v.outcome, VerificationOutcome::Failed { .. }))
            && c.cells.iter().all(|x| !matches!(x.outcome, CellOutcome::Failed { .. }))
    })
}

pub fn format(f: FormatArg) -> Format {
    match f {
        FormatArg::Table => Format::Table,
        FormatArg::Json => Format::Json,
        FormatArg::Csv => Format::Csv,
        FormatArg::Markdown => Format::Markdown,
    }
}

pub fn unit(u: UnitArg) -> cryptobench_core::units::Unit {
    use cryptobench_core::units::Unit;
    match u {
        UnitArg::Mb => Unit::Mb,
        UnitArg::K => Unit::K,
        UnitArg::Gb => Unit::Gb,
    }
}

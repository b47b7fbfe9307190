//! Executes a plan: probe every configuration, measure each in its own
//! worker, keep whatever arrives (a crash loses only that configuration's
//! remaining cells), then derive cycles, overheads and scores. Shared by
//! `run` and `audit`.

use anyhow::Result;
use cryptobench_core::cores::Placement;
use cryptobench_core::protocol::{ClockPhase, Job, WorkerMessage, PROTOCOL_VERSION};
use cryptobench_core::result::{
    CellOutcome, ConfigurationClock, ConfigurationResult, ConfigurationStatus, RunResult, RunSettings, ToolInfo, VerificationOutcome,
};
use cryptobench_report::width::{wrap_text, TERMINAL};
use indicatif::{ProgressBar, ProgressStyle};

use super::group_cells::GroupCells;
use super::plan::Plan;
use super::worker_client::{run_job, Probe, Probes, WorkerEnd};
use super::worker_group::run_group;
use crate::exit::usage;

/// Runs the plan to a complete result; fails (usage, exit 2) only when no
/// configuration can be measured at all. `probes` holds those made while
/// planning; the others are made here.
pub fn execute(plan: &Plan, probes: &mut Probes) -> Result<RunResult> {
    let started_at = now();
    let mut configurations = probe_all(plan, probes)?;
    if plan.only_available {
        configurations = keep_available(configurations);
    }
    if configurations
        .iter()
        .all(|c| matches!(c.status, ConfigurationStatus::Unavailable { .. }))
    {
        let reasons: Vec<String> = configurations
            .iter()
            .filter_map(|c| match &c.status {
                ConfigurationStatus::Unavailable { reason } => Some(format!("  {}: {reason}", c.spec.display())),
                _ => None,
            })
            .collect();
        return Err(usage(format!("no configuration can be measured:\n{}", reasons.join("\n"))));
    }
    let seed = plan.order_seed.unwrap_or_else(super::schedule::fresh_seed);
    measure_all(plan, &mut configurations, seed)?;
    // The workers measured their cells in a random order; the result keeps the plan's.
    for c in &mut configurations {
        c.cells
            .sort_by_key(|x| plan.cells.iter().position(|p| *p == x.spec).unwrap_or(usize::MAX));
    }
    let mut run = RunResult {
        schema_version: cryptobench_core::result::SCHEMA_VERSION,
        tool: ToolInfo {
            name: env!("CARGO_PKG_NAME").into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        started_at,
        finished_at: now(),
        command_line: std::env::args().collect(),
        host: cryptobench_cpu::host_info_for(plan.pin_cpu.or_else(|| first_cpu(plan)).unwrap_or(0)),
        settings: RunSettings {
            timing: plan.timing.clone(),
            sizes: plan.sizes.clone(),
            pinned_cpu: plan.pin_cpu,
            rounds: 1,
            replicates: plan.replicates.max(1),
            order_seed: Some(seed),
        },
        configurations,
        label: None,
        imported: None,
        warnings: Vec::new(),
        audit: None,
        topology: plan.placements.as_ref().map(|p| p.topology.clone()),
        history: None,
    };
    super::replicate_figures::combine(&mut run, plan.replicates.max(1));
    cryptobench_core::derive::derive(&mut run);
    super::core_classes::name_classes(&mut run, plan.core_class.as_deref());
    for c in &mut run.configurations {
        c.capability_view = capability_view(c);
    }
    run.warnings = super::warnings::run_warnings(&run);
    Ok(run)
}

/// The library's capability vector against the CPU its worker detected
/// (as `cryptobench cpu` compares them), where both are known.
fn capability_view(c: &ConfigurationResult) -> Option<cryptobench_core::audit::CapabilityView> {
    let (backend, platform) = (c.backend.as_ref()?, c.platform.as_ref()?);
    cryptobench_backends::libraries::capability_view_against(
        &c.spec.backend,
        backend.cpu_capabilities.as_deref(),
        Some(&backend.version),
        &cryptobench_cpu::features::from_records(&platform.features),
        &backend.name,
    )
}

fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// The CPU of the first placement's first worker.
pub fn first_cpu(plan: &Plan) -> Option<usize> {
    plan.placements.as_ref()?.planned.first().map(|p| p.cpus[0])
}

/// The configuration's worker pinned where its placement (or `--cpu`) says.
fn job(plan: &Plan, c: &ConfigurationResult) -> Job {
    Job {
        protocol: PROTOCOL_VERSION,
        configuration: c.spec.clone(),
        probe_only: false,
        cells: plan.cells.clone(),
        timing: plan.timing.clone(),
        pin_cpu: c.placement.as_ref().map(|p| p.cpus[0]).or(plan.pin_cpu),
        verify: None,
        barrier: false,
        skip_clock: Vec::new(),
        replicates: 1,
    }
}

/// Every configuration once per placement (thread count or core type), or once.
fn expanded(plan: &Plan) -> Vec<(cryptobench_core::result::ConfigurationSpec, Option<Placement>)> {
    let placements: Vec<Option<Placement>> = match &plan.placements {
        None => vec![None],
        Some(p) => p
            .planned
            .iter()
            .map(|p| {
                Some(Placement {
                    threads: p.threads,
                    cpus: p.cpus.clone(),
                    core_type: p.core_type.clone(),
                    clocks: Vec::new(),
                })
            })
            .collect(),
    };
    plan.configurations
        .iter()
        .flat_map(|spec| placements.iter().map(move |p| (spec.clone(), p.clone())))
        .collect()
}

/// Loads every configuration once up front (pinned where it will run), so
/// a wrong path is known before minutes of measuring, and the table header
/// can name each library.
fn probe_all(plan: &Plan, probes: &mut Probes) -> Result<Vec<ConfigurationResult>> {
    let mut out = Vec::new();
    for (i, (spec, placement)) in expanded(plan).into_iter().enumerate() {
        let pin = placement.as_ref().map(|p| p.cpus[0]).or(plan.pin_cpu);
        let several = placement.as_ref().is_some_and(|p| p.threads > 1);
        let mut c = ConfigurationResult {
            index: i + 1,
            spec,
            backend: None,
            status: ConfigurationStatus::Completed,
            verifications: Vec::new(),
            cells: Vec::new(),
            clock: None,
            overheads: Vec::new(),
            score: None,
            platform: None,
            placement,
            bindings: Vec::new(),
            capability_view: None,
        };
        match probes.get(&c.spec, pin)?.clone() {
            Probe::Available {
                barrier: false, backend, ..
            } if several => {
                c.status = ConfigurationStatus::Unavailable {
                    reason: format!(
                        "its worker ({}) does not take part in barriers, so several cannot measure in step; \
                         --threads needs workers of cryptobench itself",
                        backend.version
                    ),
                };
            }
            Probe::Available { backend, platform, .. } => {
                c.backend = Some(backend);
                c.platform = platform.map(|p| *p);
            }
            Probe::Unavailable(reason) => c.status = ConfigurationStatus::Unavailable { reason },
            Probe::Failed(status) => c.status = status,
        }
        out.push(c);
    }
    Ok(out)
}

/// `--backend all`: the backends that cannot be loaded here are noted and left out.
/// When none is available, all are kept, so that the usual error lists every reason.
fn keep_available(configurations: Vec<ConfigurationResult>) -> Vec<ConfigurationResult> {
    if configurations
        .iter()
        .all(|c| matches!(c.status, ConfigurationStatus::Unavailable { .. }))
    {
        return configurations;
    }
    let mut kept = Vec::new();
    let mut left_out = Vec::new();
    for mut c in configurations {
        match &c.status {
            ConfigurationStatus::Unavailable { .. } => left_out.push(c.spec.display()),
            _ => {
                c.index = kept.len() + 1;
                kept.push(c);
            }
        }
    }
    // One line, whatever the number: the reasons (and what to install) are
    // `cryptobench backends`' job, and a line each took a third of a screen.
    if !left_out.is_empty() {
        let line = format!(
            "note: left out, they cannot run here: {} (`cryptobench backends` says why and what to install)",
            left_out.join(", ")
        );
        eprintln!("{}", wrap_text(&line, TERMINAL));
    }
    kept
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

/// The whole run's budget, said before the first cell: symmetric cells
/// share cells × `--time` over all their replicates
/// (crates/harness/src/budget.rs); public-key cells take their own floor
/// of samples in each replicate, within a cap (docs/METHOD.md).
fn budget_line(plan: &Plan, configurations: usize) -> String {
    let replicates = plan.replicates.max(1);
    let pk = plan.cells.iter().filter(|c| c.is_public_key()).count() * configurations;
    let symmetric = plan.cells.len() * configurations - pk;
    let per_cell = plan.timing.cell_budget_ns as f64 * 1e-9;
    let target = cryptobench_core::stopping::replicate_timing(&plan.timing, replicates).target_relative_ci * 100.0;
    let each = if replicates > 1 {
        format!(
            "{replicates} replicates of {:.3} s in fresh workers, interleaved in a random order; ",
            per_cell / replicates as f64
        )
    } else {
        String::new()
    };
    let mut parts = Vec::new();
    if symmetric > 0 {
        parts.push(format!(
            "{:.1} s for {symmetric} cell{}, {per_cell:.3} s a cell on average ({each}warm-up included; a replicate \
             stops once its median is within ±{target}%, and the time it saves goes to the cells after it)",
            per_cell * symmetric as f64,
            if symmetric == 1 { "" } else { "s" }
        ));
    }
    if pk > 0 {
        let floor = cryptobench_harness::pk_floor(replicates);
        parts.push(format!(
            "{pk} public-key cell{}: at least {} samples in each of {replicates} replicate{}, within {:.0} s a cell",
            if pk == 1 { "" } else { "s" },
            floor.samples,
            if replicates == 1 { "" } else { "s" },
            floor.cap.as_secs_f64() * replicates as f64
        ));
    }
    format!("budget: {}", parts.join("; "))
}

/// Measures the plan's replicates: [`super::schedule::turns`] says which
/// configuration's fresh worker measures which cells when. A configuration
/// whose worker crashes, times out or turns unavailable keeps what it
/// measured and gets no further turns.
fn measure_all(plan: &Plan, configurations: &mut [ConfigurationResult], seed: u64) -> Result<()> {
    let measured: Vec<usize> = (0..configurations.len())
        .filter(|&i| configurations[i].status == ConfigurationStatus::Completed)
        .collect();
    let replicates = plan.replicates.max(1);
    eprintln!("{}", wrap_text(&budget_line(plan, measured.len()), TERMINAL));
    let bar = progress_bar(plan.cells.len() * measured.len() * replicates);
    let turns = super::schedule::turns(replicates, measured.len(), plan.cells.len(), seed);
    let mut sequence = 0usize;
    for (t, turn) in turns.iter().enumerate() {
        let c = &mut configurations[measured[turn.configuration]];
        if c.status != ConfigurationStatus::Completed {
            bar.inc(turn.cells.len() as u64);
            continue;
        }
        let first = !turns[..t].iter().any(|x| x.configuration == turn.configuration);
        let last = !turns[t + 1..].iter().any(|x| x.configuration == turn.configuration);
        let of = if replicates > 1 {
            format!(" replicate {}/{replicates}", turn.replicate)
        } else {
            String::new()
        };
        let placement = c.placement.as_ref().map(|p| format!(" {}", p.describe())).unwrap_or_default();
        bar.set_prefix(format!("[{}] {}{placement}{of}", c.index, c.spec.backend));
        let mut job = job(plan, c);
        job.cells = turn.cells.iter().map(|&i| plan.cells[i].clone()).collect();
        job.timing = cryptobench_core::stopping::replicate_timing(&plan.timing, replicates);
        job.replicates = replicates;
        job.skip_clock = [(!first).then_some(ClockPhase::Before), (!last).then_some(ClockPhase::After)]
            .into_iter()
            .flatten()
            .collect();
        let at = |sequence: &mut usize| {
            *sequence += 1;
            (turn.replicate, *sequence - 1)
        };
        let mut received = 0;
        let end = if c.placement.as_ref().is_some_and(|p| p.threads > 1) {
            measure_group(plan, c, &job, (first, last), &bar, &mut |cells, cell| {
                received += 1;
                super::merge::add_replicate(cells, cell, at(&mut sequence), &plan.timing);
            })?
        } else {
            run_job(&job, plan.silence_limit, |message| match message {
                WorkerMessage::Hello { backend, platform, .. } => {
                    c.backend = Some(backend);
                    c.platform = platform.or(c.platform.take());
                }
                WorkerMessage::Verified(v) if first => c.verifications.push(v),
                WorkerMessage::Clock { phase, clock } => {
                    let record = c.clock.get_or_insert_with(ConfigurationClock::default);
                    match phase {
                        ClockPhase::Before if first => record.before = clock,
                        ClockPhase::After if last => record.after = clock,
                        _ => {}
                    }
                }
                WorkerMessage::Cell(cell) => {
                    bar.set_message(format!(
                        "{} {}",
                        cell.spec.algorithm,
                        cryptobench_report::size_label(cell.spec.size)
                    ));
                    bar.inc(1);
                    received += 1;
                    super::merge::add_replicate(&mut c.cells, cell, at(&mut sequence), &plan.timing);
                }
                WorkerMessage::Verified(_)
                | WorkerMessage::Checked(_)
                | WorkerMessage::Activity { .. }
                | WorkerMessage::Unavailable { .. }
                | WorkerMessage::Barrier { .. }
                | WorkerMessage::Done => {}
            })?
        };
        match end {
            WorkerEnd::Completed => {}
            WorkerEnd::Unavailable(reason) => c.status = ConfigurationStatus::Unavailable { reason },
            WorkerEnd::Crashed(ref reason) | WorkerEnd::TimedOut(ref reason) => {
                let timed_out = matches!(end, WorkerEnd::TimedOut(_));
                let missing = plan.cells.len() - received;
                let later = turns[t + 1..].iter().filter(|x| x.configuration == turn.configuration).count();
                bar.inc((missing + plan.cells.len() * later) as u64);
                let of_replicate = if replicates > 1 {
                    format!(" in replicate {}", turn.replicate)
                } else {
                    String::new()
                };
                let reason = format!("{reason} ({missing} of {} cells not measured{of_replicate})", plan.cells.len());
                c.status = if timed_out {
                    ConfigurationStatus::TimedOut { reason }
                } else {
                    ConfigurationStatus::Crashed { reason }
                };
            }
        }
    }
    bar.finish_and_clear();
    Ok(())
}

/// Measures a configuration with several workers in step, one per CPU of
/// its placement (worker_group.rs), each given `base` on its own CPU; each
/// cell arrives once every worker has sent it, as their aggregate, and goes
/// to `add`. `(first, last)`: whether this is the configuration's first and
/// last turn (the clocks kept).
fn measure_group(
    plan: &Plan,
    c: &mut ConfigurationResult,
    base: &Job,
    (first, last): (bool, bool),
    bar: &ProgressBar,
    add: &mut dyn FnMut(&mut Vec<cryptobench_core::result::CellResult>, cryptobench_core::result::CellResult),
) -> Result<WorkerEnd> {
    let cpus = c.placement.as_ref().map(|p| p.cpus.clone()).unwrap_or_default();
    let jobs: Vec<Job> = cpus
        .iter()
        .map(|&cpu| Job {
            pin_cpu: Some(cpu),
            barrier: true,
            ..base.clone()
        })
        .collect();
    let mut clocks = c.placement.as_mut().map(|p| std::mem::take(&mut p.clocks)).unwrap_or_default();
    clocks.resize(cpus.len(), ConfigurationClock::default());
    let mut cells = GroupCells::new(cpus.clone());
    let ends = run_group(&jobs, plan.silence_limit, |w, message| match message {
        WorkerMessage::Hello { backend, platform, .. } if w == 0 => {
            c.backend = Some(backend);
            c.platform = platform.or(c.platform.take());
        }
        WorkerMessage::Verified(v) if w == 0 && first => c.verifications.push(v),
        WorkerMessage::Clock { phase, clock } => match phase {
            ClockPhase::Before if first => clocks[w].before = clock,
            ClockPhase::After if last => clocks[w].after = clock,
            _ => {}
        },
        WorkerMessage::Cell(cell) => {
            if let Some(cell) = cells.add(w, cell, &plan.timing) {
                bar.set_message(format!(
                    "{} {}",
                    cell.spec.algorithm,
                    cryptobench_report::size_label(cell.spec.size)
                ));
                bar.inc(1);
                add(&mut c.cells, cell);
            }
        }
        _ => {}
    })?;
    if let Some(p) = c.placement.as_mut() {
        p.clocks = clocks;
    }
    Ok(combine(ends, &cpus))
}

/// One end for a group: completed when every worker completed, else the
/// first worker's failure that was not a consequence of another's.
fn combine(ends: Vec<WorkerEnd>, cpus: &[usize]) -> WorkerEnd {
    let on = |i: usize| cpus.get(i).map(|c| format!("the worker on CPU {c}")).unwrap_or("a worker".into());
    let mut fallback = None;
    for (i, end) in ends.into_iter().enumerate() {
        match end {
            WorkerEnd::Completed => {}
            WorkerEnd::Unavailable(r) => return WorkerEnd::Unavailable(format!("{}: {r}", on(i))),
            WorkerEnd::TimedOut(r) => return WorkerEnd::TimedOut(r),
            WorkerEnd::Crashed(r) if r.starts_with("stopped: ") => {
                fallback.get_or_insert(WorkerEnd::Crashed(format!("{}: {r}", on(i))));
            }
            WorkerEnd::Crashed(r) => return WorkerEnd::Crashed(format!("{}: {r}", on(i))),
        }
    }
    fallback.unwrap_or(WorkerEnd::Completed)
}

/// Everything was measured: no configuration lost, no verification failed.
pub fn complete(run: &RunResult) -> bool {
    run.configurations.iter().all(|c| {
        c.status == ConfigurationStatus::Completed
            && c.verifications
                .iter()
                .all(|v| !matches!(v.outcome, VerificationOutcome::Failed { .. }))
            && c.cells.iter().all(|x| !matches!(x.outcome, CellOutcome::Failed { .. }))
    })
}

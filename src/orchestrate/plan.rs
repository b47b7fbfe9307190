//! Turns `run` arguments into a plan: configurations × cells, timing. All
//! validation of user input happens here, before any worker starts, so bad
//! input costs nothing and says what is valid (exit code 2).

use std::path::Path;

use anyhow::Result;
use cryptobench_backends::libraries;
use cryptobench_backends::registry::{PROPERTIES_ENV, PROVIDER_ENV};
use cryptobench_core::catalog::{self, valid_names};
use cryptobench_core::cell::operations_for;
use cryptobench_core::result::{ConfigurationSpec, TimingSettings};
use cryptobench_core::sizes::DEFAULT_SIZES;
use cryptobench_core::{AlgorithmSpec, CellSpec, Mode, Operation, DEFAULT_SUITE};
use cryptobench_harness::{quick_timing, standard_timing};

use crate::cli::{ModeArg, OpArg, PlacementArgs, RunArgs, WorkerPlace};
use crate::exit::usage;

pub struct Plan {
    pub configurations: Vec<ConfigurationSpec>,
    /// `--backend all`: leave out the configurations that cannot be loaded.
    pub only_available: bool,
    pub cells: Vec<CellSpec>,
    pub sizes: Vec<usize>,
    pub timing: TimingSettings,
    pub pin_cpu: Option<usize>,
    /// The core class the user declared for the clock estimate.
    pub core_class: Option<String>,
    /// Replicates per cell: fresh workers, interleaved in a random order (schedule.rs).
    pub replicates: usize,
    /// The seed of that order; None: a fresh one.
    pub order_seed: Option<u64>,
    /// A worker silent for longer is killed and its configuration reported as timed out.
    pub silence_limit: std::time::Duration,
    /// `--threads` or `--core-types`: every configuration is measured once
    /// per placement; None: once, where `pin_cpu` says.
    pub placements: Option<super::placement::Placements>,
    /// `--algos openssl-speed`: the cells of `openssl speed`'s default set are
    /// added with this shape once the library's version is known (speed_set.rs).
    pub openssl_speed: Option<CellShape>,
}

/// How cells are built from algorithms: operations, mode, rekey, AAD.
#[derive(Debug, Clone)]
pub struct CellShape {
    pub ops: Vec<Operation>,
    pub mode: Option<Mode>,
    pub rekey: bool,
    pub aad: usize,
}

/// `openssl`, `openssl=PATH` or `openssl=@NAME` (a named build); the backend
/// must exist and the path must be a file.
pub fn parse_configuration(text: &str) -> Result<ConfigurationSpec> {
    let (id, path) = match text.split_once('=') {
        Some((id, path)) => (id.trim(), Some(path.trim())),
        None => (text.trim(), None),
    };
    if libraries::find(id).is_none() {
        return Err(usage(format!(
            "unknown backend '{id}' in --backend {text}; valid backends: {}",
            libraries::ids().collect::<Vec<_>>().join(", ")
        )));
    }
    let library = match path {
        None => None,
        Some("") => {
            return Err(usage(format!(
                "--backend {text}: the path after '=' is empty; give a library file, e.g. {id}=/usr/lib/libcrypto.so.3"
            )))
        }
        Some(p) => {
            // `@NAME`: a named build of the library (OpenSSL's build lab).
            let resolved;
            let p = match p.strip_prefix('@') {
                Some(name) => {
                    let entry = libraries::find(id).expect("checked above");
                    let named = entry.named.ok_or_else(|| {
                        usage(format!(
                            "--backend {text}: {} has no named builds; give a library file after '='",
                            entry.name
                        ))
                    })?;
                    resolved = named(name).map_err(|e| usage(format!("--backend {text}: {e}")))?;
                    resolved.as_str()
                }
                None => p,
            };
            let meta = std::fs::metadata(p).map_err(|e| usage(format!("--backend {text}: cannot use {p}: {e}")))?;
            if !meta.is_file() {
                return Err(usage(format!(
                    "--backend {text}: {p} is not a file; give the library file itself (e.g. …/lib/libcrypto.so.3)"
                )));
            }
            Some(
                Path::new(p)
                    .canonicalize()
                    .map(|c| c.display().to_string())
                    .unwrap_or_else(|_| p.to_string()),
            )
        }
    };
    Ok(ConfigurationSpec {
        backend: id.to_string(),
        library,
        env: Default::default(),
        worker: None,
    })
}

/// Every backend with its system library: what `--backend all` stands for.
pub fn all_backends() -> Vec<ConfigurationSpec> {
    libraries::ids()
        .map(|id| ConfigurationSpec {
            backend: id.to_string(),
            library: None,
            env: Default::default(),
            worker: None,
        })
        .collect()
}

/// Whether `--backend all` was given: backends that cannot be loaded are then left out, not errors.
pub fn asks_for_all(args: &[String]) -> bool {
    args.iter().any(|a| a.trim().eq_ignore_ascii_case("all"))
}

/// The configurations `--backend` names (the default openssl without any),
/// each placed where its `--arch` or `--worker` says (the flag attaches to
/// the `--backend` before it; given before any, to all).
pub fn configurations(args: &[String], placement: &PlacementArgs) -> Result<Vec<ConfigurationSpec>> {
    // Per --backend position, the specs it stands for (`all` stands for many).
    let mut groups: Vec<Vec<ConfigurationSpec>> = Vec::new();
    if args.is_empty() {
        groups.push(vec![ConfigurationSpec {
            backend: libraries::DEFAULT.into(),
            library: None,
            env: Default::default(),
            worker: None,
        }]);
    }
    for a in args {
        if a.trim().eq_ignore_ascii_case("all") {
            groups.push(all_backends());
        } else {
            groups.push(vec![parse_configuration(a)?]);
        }
    }
    let mut placed = vec![false; groups.len()];
    for p in &placement.attached {
        let targets: Vec<usize> = match p.after_backend {
            Some(i) if !args.is_empty() => vec![i],
            _ => (0..groups.len()).collect(),
        };
        for i in targets {
            if std::mem::replace(&mut placed[i], true) {
                return Err(usage(format!(
                    "{} is given twice for one --backend; give each --backend its own --arch or --worker after it",
                    describe(&p.how)
                )));
            }
            for spec in &mut groups[i] {
                place(spec, &p.how)?;
            }
        }
    }
    // `--provider` and `--engine` reach the worker of the configuration they follow
    // through its environment; a library without them refuses them when opened.
    for (after, var, value) in &placement.library_options {
        let targets: Vec<usize> = match after {
            Some(i) if !args.is_empty() => vec![*i],
            _ => (0..groups.len()).collect(),
        };
        for i in targets {
            for spec in &mut groups[i] {
                if spec.env.insert(var.to_string(), value.clone()).is_some() {
                    let flag = match *var {
                        PROVIDER_ENV => "--provider",
                        PROPERTIES_ENV => "--properties",
                        _ => "--engine",
                    };
                    return Err(usage(format!(
                        "{flag} is given twice for one --backend (the second: {value}); give each --backend one {flag}"
                    )));
                }
            }
        }
    }
    let mut specs: Vec<ConfigurationSpec> = Vec::new();
    for (group, a) in groups.into_iter().zip(args.iter().map(Some).chain(std::iter::repeat(None))) {
        let is_all = a.is_some_and(|a| a.trim().eq_ignore_ascii_case("all"));
        for spec in group {
            if specs.contains(&spec) {
                if is_all {
                    continue;
                }
                return Err(usage(format!(
                    "--backend {} is given twice",
                    a.map(String::as_str).unwrap_or(libraries::DEFAULT)
                )));
            }
            specs.push(spec);
        }
    }
    Ok(specs)
}

fn describe(how: &WorkerPlace) -> String {
    match how {
        WorkerPlace::Arch(a) => format!("--arch {a}"),
        WorkerPlace::Command(c) => format!("--worker \"{c}\""),
    }
}

/// Makes `spec`'s worker run where `how` says.
fn place(spec: &mut ConfigurationSpec, how: &WorkerPlace) -> Result<()> {
    match how {
        WorkerPlace::Arch(name) => {
            let target = super::arch::target(name)?;
            let (command, emulator) = super::arch::worker_command(target)?;
            spec.worker = Some(command);
            spec.env.insert(cryptobench_cpu::emulation::EMULATOR_ENV.to_string(), emulator);
        }
        WorkerPlace::Command(text) if text.trim() == super::uml::PLACE => {
            spec.worker = Some(super::uml::worker_command()?);
        }
        WorkerPlace::Command(text) => {
            let words = shlex::split(text)
                .filter(|w| !w.is_empty())
                .ok_or_else(|| usage(format!("--worker \"{text}\": not a command (unbalanced quotes, or empty)")))?;
            spec.worker = Some(words);
        }
    }
    Ok(())
}

/// The algorithms named on the command line (`all` for the catalog), or `default` when none.
/// `openssl-speed` is refused here: only `run` resolves it ([`selection`]).
pub fn algorithms(names: &[String], default: &[&str]) -> Result<Vec<&'static AlgorithmSpec>> {
    let s = selection(names, default)?;
    if s.openssl_speed {
        return Err(usage(format!(
            "--algos {}: only `cryptobench run` takes it (it depends on the loaded library's version); name the algorithms instead",
            catalog::OPENSSL_SPEED
        )));
    }
    Ok(s.algorithms)
}

/// An `--algos` list as parsed by the catalog, with the usage error that lists what is valid.
pub fn selection(names: &[String], default: &[&str]) -> Result<catalog::Selection> {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    catalog::select(&names, default).map_err(|e| {
        usage(format!(
            "unknown algorithm '{}'; valid: {}, or all, or {} (what `openssl speed` measures by default)",
            e.0,
            valid_names(),
            catalog::OPENSSL_SPEED
        ))
    })
}

/// Every cell of algorithms × operations × sizes, in the mode given or the class default.
pub fn cells(
    algs: &[&'static AlgorithmSpec],
    ops: &[Operation],
    mode: Option<Mode>,
    rekey: bool,
    aad: usize,
    sizes: &[usize],
) -> Vec<CellSpec> {
    let mut cells = Vec::new();
    for alg in algs {
        let mode = mode.unwrap_or_else(|| alg.default_mode());
        for operation in operations_for(alg, ops) {
            for &size in sizes {
                cells.push(CellSpec {
                    algorithm: alg.id.to_string(),
                    operation,
                    mode,
                    rekey: rekey && mode == Mode::Message,
                    size,
                    aad,
                    unit: cryptobench_core::cell::CellUnit::Bytes,
                });
            }
        }
    }
    cells
}

/// Checks that `cpu` is a CPU this process may run on.
pub fn check_cpu(cpu: Option<usize>) -> Result<()> {
    let Some(cpu) = cpu else { return Ok(()) };
    let n = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    #[cfg(target_os = "linux")]
    let allowed = cryptobench_cpu::allowed_cpus();
    #[cfg(not(target_os = "linux"))]
    let allowed: Vec<usize> = (0..n).collect();
    if !allowed.contains(&cpu) {
        return Err(usage(format!(
            "--cpu {cpu}: this process may run on CPUs {allowed:?} ({n} available)"
        )));
    }
    Ok(())
}

fn operations(args: &RunArgs) -> Vec<Operation> {
    if args.decrypt {
        return vec![Operation::Decrypt];
    }
    if args.ops.is_empty() {
        return vec![Operation::Encrypt];
    }
    let mut ops = Vec::new();
    for op in &args.ops {
        let op = match op {
            OpArg::Enc => Operation::Encrypt,
            OpArg::Dec => Operation::Decrypt,
            OpArg::Sign => Operation::Sign,
            OpArg::Verify => Operation::Verify,
            OpArg::Keygen => Operation::Keygen,
            OpArg::Encaps => Operation::Encaps,
            OpArg::Decaps => Operation::Decaps,
            OpArg::Derive => Operation::Derive,
        };
        if !ops.contains(&op) {
            ops.push(op);
        }
    }
    ops
}

/// Standard or quick timing, with the budget and target the user gave.
pub fn timing(quick: bool, time: Option<f64>, target: Option<f64>) -> TimingSettings {
    let mut timing = if quick { quick_timing() } else { standard_timing() };
    if let Some(seconds) = time {
        timing.cell_budget_ns = (seconds * 1e9) as u64;
    }
    if let Some(target) = target {
        timing.target_relative_ci = target;
    }
    timing
}

/// Replicates per cell by default (crates/core/src/stopping.rs: many short
/// ones, chosen by the gate of crates/core/tests/replicate_coverage.rs);
/// one with `--quick`, a first look whose figures say they come from one worker.
pub use cryptobench_core::stopping::DEFAULT_REPLICATES;

/// `--replicates`, or its default.
pub fn replicates(quick: bool, asked: Option<usize>) -> usize {
    asked.unwrap_or(if quick { 1 } else { DEFAULT_REPLICATES })
}

pub fn build(args: &RunArgs) -> Result<Plan> {
    if args.rekey && args.mode == Some(ModeArg::Stream) {
        return Err(usage(
            "--rekey sets the key per message, so it needs message mode; drop --mode stream or --rekey",
        ));
    }
    let configurations = configurations(&args.backends, &args.placement)?;
    let sizes = args.sizes.as_ref().map(|s| s.0.clone()).unwrap_or_else(|| DEFAULT_SIZES.to_vec());
    let mode = args.mode.map(|m| match m {
        ModeArg::Stream => Mode::Stream,
        ModeArg::Message => Mode::Message,
    });
    let (symmetric, public_key) = super::plan_pk::split(&args.algos)?;
    let selection = if symmetric.is_empty() && !public_key.is_empty() {
        cryptobench_core::catalog::Selection::default()
    } else {
        selection(&symmetric, DEFAULT_SUITE)?
    };
    let shape = CellShape {
        ops: operations(args),
        mode,
        rekey: args.rekey,
        aad: args.aad,
    };
    let mut cells = cells(&selection.algorithms, &shape.ops, mode, args.rekey, args.aad, &sizes);
    cells.extend(super::plan_pk::cells(
        &public_key,
        (!args.ops.is_empty()).then(|| operations(args)).as_deref(),
        args.sizes.as_ref().map(|s| s.0.as_slice()),
    )?);
    check_cpu(args.cpu)?;
    let core_class = match &args.core_class {
        None => None,
        Some(name) => Some(
            cryptobench_cpu::core_class::find(name)
                .map(|c| c.class.clone())
                .ok_or_else(|| usage(format!("unknown core class '{name}'; valid: {}", class_names())))?,
        ),
    };
    let timing = timing(args.quick, args.time, args.target);
    let placements = if !args.threads.is_empty() {
        Some(super::placement::threads(&args.threads)?)
    } else if args.core_types {
        Some(super::placement::core_types()?)
    } else {
        None
    };
    Ok(Plan {
        placements,
        only_available: asks_for_all(&args.backends),
        configurations,
        cells,
        sizes,
        silence_limit: args.workers.silence_limit(timing.cell_budget_ns),
        timing,
        pin_cpu: args.cpu,
        core_class,
        replicates: replicates(args.quick, args.replicates),
        order_seed: args.order_seed,
        openssl_speed: selection.openssl_speed.then_some(shape),
    })
}

fn class_names() -> String {
    cryptobench_cpu::core_class::classes()
        .iter()
        .map(|c| c.class.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

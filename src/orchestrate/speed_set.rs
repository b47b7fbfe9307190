//! `--algos openssl-speed`: the algorithms `openssl speed` measures when
//! given none, for the version of the OpenSSL loaded (its probe's `hello`
//! says which), resolved before anything is measured: the symmetric rows
//! and the public-key rows (rsa, ecdsa, ecdh, eddsa, and from 3.5 the KEMs
//! and signatures). The rows cryptobench cannot measure are named on stderr,
//! grouped by the reason.

use anyhow::Result;
use cryptobench_backends::libraries;
use cryptobench_core::result::ConfigurationSpec;
use cryptobench_core::speed_defaults::defaults_for;
use cryptobench_core::{catalog, pk};

use super::execute::first_cpu;
use super::plan::{cells, Plan};
use super::plan_pk;
use super::worker_client::{Probe, Probes};
use crate::exit::usage;

/// Adds the cells of `openssl speed`'s default set to the plan. The version
/// comes from the run's OpenSSL configurations (the union of their sets when
/// they differ), or from the system's OpenSSL when the run has none. Their
/// probes are made where the run's first placement will probe them, and
/// kept in `probes` for the run.
pub fn resolve(plan: &mut Plan, probes: &mut Probes) -> Result<()> {
    let Some(shape) = plan.openssl_speed.clone() else {
        return Ok(());
    };
    let mut specs: Vec<ConfigurationSpec> = plan
        .configurations
        .iter()
        .filter(|c| c.backend == libraries::OPENSSL_SPEED)
        .cloned()
        .collect();
    if specs.is_empty() {
        specs.push(ConfigurationSpec {
            backend: libraries::OPENSSL_SPEED.into(),
            library: None,
            env: Default::default(),
            worker: None,
        });
    }
    let mut ids: Vec<&'static str> = Vec::new();
    let mut pk_ids: Vec<&'static str> = Vec::new();
    let mut reasons = Vec::new();
    let pin = first_cpu(plan).or(plan.pin_cpu);
    for spec in &specs {
        let version = match probes.get(spec, pin)? {
            Probe::Available { backend, .. } => backend.version.clone(),
            other => {
                reasons.push(format!("{}: {}", spec.display(), other.problem().unwrap_or_default()));
                continue;
            }
        };
        let Some(defaults) = defaults_for(&version) else {
            reasons.push(format!("{}: {version} is not OpenSSL 1.1.1 or later", spec.display()));
            continue;
        };
        eprintln!(
            "openssl-speed: {version} ({}): the defaults of `openssl speed` (apps/speed.c of {}): {}; public key: {}",
            spec.display(),
            defaults.read,
            defaults.measured().join(", "),
            defaults.measured_public_key().join(", ")
        );
        if let Some(note) = &defaults.note {
            eprintln!("  note: {note}");
        }
        for (why, names) in by_reason(&defaults.not_measured()) {
            eprintln!("  not measured: {} ({why})", names.join(", "));
        }
        for id in defaults.measured() {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        for id in defaults.measured_public_key() {
            if !pk_ids.contains(&id) {
                pk_ids.push(id);
            }
        }
    }
    if ids.is_empty() {
        return Err(usage(format!(
            "--algos {} needs an OpenSSL 1.1.1 or later to know which version's defaults to take: {}; add --backend openssl=PATH",
            catalog::OPENSSL_SPEED,
            reasons.join("; ")
        )));
    }
    let algs: Vec<_> = ids
        .iter()
        .map(|id| catalog::get(id).expect("speed_defaults names catalog ids (tested)"))
        .collect();
    let pk_algs: Vec<_> = pk_ids
        .iter()
        .map(|id| pk::get(id).expect("speed_defaults_pk names public-key catalog ids (tested)"))
        .collect();
    let mut added = cells(&algs, &shape.ops, shape.mode, shape.rekey, shape.aad, &plan.sizes);
    // openssl speed's own operations and message lengths for public key.
    added.extend(plan_pk::cells(&pk_algs, None, None)?);
    for cell in added {
        if !plan.cells.contains(&cell) {
            plan.cells.push(cell);
        }
    }
    Ok(())
}

/// The rows not measured, grouped by their reason, in the order met.
fn by_reason(rows: &[(&'static str, &'static str)]) -> Vec<(&'static str, Vec<&'static str>)> {
    let mut groups: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
    for (name, why) in rows {
        match groups.iter_mut().find(|(w, _)| w == why) {
            Some((_, names)) => names.push(name),
            None => groups.push((why, vec![name])),
        }
    }
    groups
}

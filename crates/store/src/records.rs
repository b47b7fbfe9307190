//! What is written and read, in terms of [`Transaction`], for both databases.

use cryptobench_core::cell::CellUnit;
use cryptobench_core::result::{CellOutcome, ConfigurationStatus, RunResult};

use crate::schema::{self, Dialect, MIGRATIONS, MIGRATIONS_TABLE};
use crate::sql::{Transaction, Value};
use crate::{ConfigurationSummary, RunId, RunSummary, StoreError};

fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("result types serialise")
}

/// Brings the schema up to date; the caller holds whatever lock keeps two
/// processes from migrating at once.
pub fn migrate(tx: &mut dyn Transaction, dialect: Dialect) -> Result<(), StoreError> {
    tx.execute(MIGRATIONS_TABLE, &[])?;
    let found = version(tx)?;
    let known = schema::current_version();
    if found > known {
        return Err(StoreError::NewerSchema { found, known });
    }
    for (v, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > found) {
        for statement in schema::render(sql, dialect).split(';').map(str::trim).filter(|s| !s.is_empty()) {
            tx.execute(statement, &[])?;
        }
        if *v == schema::UNIT_BACKFILL {
            fill_units(tx)?;
        }
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
            &[Value::int(*v), Value::text(now())],
        )?;
    }
    Ok(())
}

/// Gives the cells saved before units were recorded the unit the catalog
/// gives their algorithm, as loading their document does (crates/core/src/cell.rs).
fn fill_units(tx: &mut dyn Transaction) -> Result<(), StoreError> {
    let algorithms = tx.query("SELECT DISTINCT algorithm FROM cells WHERE unit IS NULL", &[])?;
    for algorithm in algorithms.iter().filter_map(|r| r.first().and_then(Value::as_text)) {
        let unit = CellUnit::from_catalog(&algorithm).name();
        tx.execute(
            "UPDATE cells SET unit = ? WHERE algorithm = ? AND unit IS NULL",
            &[Value::text(unit), Value::text(algorithm)],
        )?;
    }
    Ok(())
}

pub fn version(tx: &mut dyn Transaction) -> Result<u32, StoreError> {
    let rows = tx.query("SELECT MAX(version) FROM schema_migrations", &[])?;
    Ok(rows.first().and_then(|r| r.first()).and_then(Value::as_i64).unwrap_or(0) as u32)
}

pub fn save(tx: &mut dyn Transaction, run: &RunResult) -> Result<RunId, StoreError> {
    let h = &run.host;
    let run_id = tx.insert(
        "INSERT INTO runs (saved_at, label, imported_from, schema_version, tool_name, tool_version, started_at, \
         finished_at, command_line, hostname, cpu_model, logical_cores, arch, os, kernel, virtualization, host_json, \
         settings_json, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        &[
            Value::text(now()),
            Value::opt_text(run.label.as_ref()),
            Value::Text(run.imported.as_ref().map(|i| i.format.clone())),
            Value::int(run.schema_version),
            Value::text(&run.tool.name),
            Value::text(&run.tool.version),
            Value::text(&run.started_at),
            Value::text(&run.finished_at),
            Value::text(json(&run.command_line)),
            Value::opt_text(h.hostname.as_ref()),
            Value::opt_text(h.cpu_model.as_ref()),
            Value::int(h.logical_cores as i64),
            Value::text(&h.arch),
            Value::text(&h.os),
            Value::opt_text(h.kernel.as_ref()),
            Value::opt_text(h.virtualization.as_ref()),
            Value::text(json(h)),
            Value::text(json(&run.settings)),
            Value::text(json(run)),
        ],
    )?;
    for c in &run.configurations {
        let (status, reason) = match &c.status {
            ConfigurationStatus::Completed => ("completed", None),
            ConfigurationStatus::Unavailable { reason } => ("unavailable", Some(reason)),
            ConfigurationStatus::Crashed { reason } => ("crashed", Some(reason)),
            ConfigurationStatus::TimedOut { reason } => ("timed_out", Some(reason)),
        };
        let b = c.backend.as_ref();
        let p = c.placement.as_ref();
        let config_id = tx.insert(
            "INSERT INTO configurations (run_id, position, backend, library, env_json, library_name, library_version, \
             library_path, cpu_capabilities, status, reason, threads, cpus, core_type) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            &[
                Value::Int(Some(run_id)),
                Value::int(c.index as i64),
                Value::text(&c.spec.backend),
                Value::opt_text(c.spec.library.as_ref()),
                Value::text(json(&c.spec.env)),
                Value::Text(b.map(|b| b.name.clone())),
                Value::Text(b.map(|b| b.version.clone())),
                Value::Text(b.and_then(|b| b.library_path.clone())),
                Value::Text(b.and_then(|b| b.cpu_capabilities.clone())),
                Value::text(status),
                Value::opt_text(reason),
                Value::Int(p.map(|p| p.threads as i64)),
                Value::Text(p.map(|p| p.cpus.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","))),
                Value::Text(p.and_then(|p| p.core_type.clone())),
            ],
        )?;
        for cell in &c.cells {
            save_cell(tx, config_id, cell)?;
        }
    }
    Ok(run_id)
}

fn save_cell(tx: &mut dyn Transaction, config_id: i64, cell: &cryptobench_core::result::CellResult) -> Result<(), StoreError> {
    let s = &cell.spec;
    let (status, reason, m) = match &cell.outcome {
        CellOutcome::Measured(m) => ("measured", None, Some(m)),
        CellOutcome::Failed { reason } => ("failed", Some(reason), None),
        CellOutcome::Unsupported { reason } => ("unsupported", Some(reason), None),
    };
    let sum = m.map(|m| m.summary);
    let real = |f: fn(&cryptobench_core::stats::Summary) -> f64| Value::Real(sum.as_ref().map(f));
    let cell_id = tx.insert(
        "INSERT INTO cells (configuration_id, algorithm, operation, mode, rekey, size, aad, status, reason, median, q1, q3, \
         min, max, cv, ci_low, ci_high, sample_count, warnings, workers, scaling_efficiency, unit, replicates) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        &[
            Value::Int(Some(config_id)),
            Value::text(&s.algorithm),
            Value::text(json(&s.operation).trim_matches('"')),
            Value::text(s.mode.name()),
            Value::int(s.rekey as i64),
            Value::int(s.size as i64),
            Value::int(s.aad as i64),
            Value::text(status),
            Value::opt_text(reason),
            real(|s| s.median),
            real(|s| s.q1),
            real(|s| s.q3),
            real(|s| s.min),
            real(|s| s.max),
            real(|s| s.cv),
            real(|s| s.median_ci95[0]),
            real(|s| s.median_ci95[1]),
            Value::Int(sum.map(|s| s.samples as i64)),
            Value::Text(m.filter(|m| !m.warnings.is_empty()).map(|m| m.warnings.join("; "))),
            Value::Int(m.and_then(|m| m.aggregate.as_ref()).map(|a| a.workers.len() as i64)),
            Value::Real(m.and_then(|m| m.aggregate.as_ref()).and_then(|a| a.scaling_efficiency)),
            Value::text(s.unit.name()),
            Value::Int(sum.and_then(|s| s.replicates).map(|r| r.count as i64)),
        ],
    )?;
    // One worker's samples, or every worker's with its CPU, numbered on.
    let samples: Vec<(Option<usize>, &cryptobench_core::stats::Sample)> = match m {
        None => Vec::new(),
        Some(m) => match &m.aggregate {
            None => m.samples.iter().map(|s| (None, s)).collect(),
            Some(a) => a
                .workers
                .iter()
                .flat_map(|w| w.samples.iter().map(move |s| (Some(w.cpu), s)))
                .collect(),
        },
    };
    // Which replicate each of one worker's samples belongs to: theirs follow each other in order.
    let replicate_of: Vec<i64> = m
        .filter(|m| m.aggregate.is_none())
        .map(|m| {
            m.replicates
                .iter()
                .flat_map(|r| std::iter::repeat_n(r.replicate as i64, r.summary.samples))
                .collect()
        })
        .unwrap_or_default();
    for (seq, (cpu, sample)) in samples.into_iter().enumerate() {
        tx.execute(
            "INSERT INTO samples (cell_id, seq, iterations, wall_ns, cpu_ns, cpu, replicate) VALUES (?, ?, ?, ?, ?, ?, ?)",
            &[
                Value::Int(Some(cell_id)),
                Value::int(seq as i64),
                Value::int(sample.iterations),
                Value::int(sample.wall_ns),
                Value::Int(sample.cpu_ns.and_then(|c| c.try_into().ok())),
                Value::Int(cpu.map(|c| c as i64)),
                Value::Int(replicate_of.get(seq).copied()),
            ],
        )?;
    }
    Ok(())
}

pub fn list(tx: &mut dyn Transaction) -> Result<Vec<RunSummary>, StoreError> {
    let runs = tx.query(
        "SELECT id, saved_at, started_at, label, hostname, cpu_model, imported_from FROM runs ORDER BY id",
        &[],
    )?;
    let configs = tx.query(
        "SELECT run_id, backend, library, library_version, \
         (SELECT COUNT(*) FROM cells WHERE cells.configuration_id = configurations.id AND cells.status = 'measured'), \
         threads, core_type, library_name, env_json FROM configurations ORDER BY run_id, position",
        &[],
    )?;
    Ok(runs
        .into_iter()
        .map(|r| {
            let id = r[0].as_i64().unwrap_or_default();
            let mine: Vec<&Vec<Value>> = configs.iter().filter(|c| c[0].as_i64() == Some(id)).collect();
            let parts: Vec<ConfigurationSummary> = mine
                .iter()
                .map(|c| ConfigurationSummary {
                    backend: c[1].as_text().unwrap_or_default(),
                    library: c[2].as_text(),
                    library_name: c[7].as_text(),
                    library_version: c[3].as_text(),
                    masked: c[8].as_text().is_some_and(|env| masked(&env)),
                    threads: c[5].as_i64(),
                    core_type: c[6].as_text(),
                })
                .collect();
            RunSummary {
                id,
                saved_at: r[1].as_text().unwrap_or_default(),
                started_at: r[2].as_text().unwrap_or_default(),
                label: r[3].as_text(),
                hostname: r[4].as_text(),
                cpu_model: r[5].as_text(),
                imported: r[6].as_text(),
                configurations: parts.iter().map(ConfigurationSummary::full).collect(),
                configuration_parts: parts,
                measured_cells: mine.iter().filter_map(|c| c[4].as_i64()).sum(),
            }
        })
        .collect())
}

/// Whether a configuration's environment changes what the library does:
/// anything but the emulator's name (`ConfigurationSpec::capability_env`).
fn masked(env_json: &str) -> bool {
    serde_json::from_str::<std::collections::BTreeMap<String, String>>(env_json)
        .is_ok_and(|env| env.keys().any(|k| k != cryptobench_core::result::EMULATOR_ENV))
}

pub fn load(tx: &mut dyn Transaction, id: RunId) -> Result<RunResult, StoreError> {
    let rows = tx.query("SELECT document FROM runs WHERE id = ?", &[Value::Int(Some(id))])?;
    let text = rows.first().and_then(|r| r[0].as_text()).ok_or(StoreError::NoSuchRun(id))?;
    serde_json::from_str(&text).map_err(|e| StoreError::CorruptRun { id, detail: e.to_string() })
}

pub fn delete(tx: &mut dyn Transaction, id: RunId) -> Result<(), StoreError> {
    // Children first, so the delete does not depend on foreign-key enforcement.
    let p = [Value::Int(Some(id))];
    tx.execute(
        "DELETE FROM samples WHERE cell_id IN (SELECT cells.id FROM cells JOIN configurations ON cells.configuration_id = configurations.id WHERE configurations.run_id = ?)",
        &p,
    )?;
    tx.execute(
        "DELETE FROM cells WHERE configuration_id IN (SELECT id FROM configurations WHERE run_id = ?)",
        &p,
    )?;
    tx.execute("DELETE FROM configurations WHERE run_id = ?", &p)?;
    if tx.execute("DELETE FROM runs WHERE id = ?", &p)? == 0 {
        return Err(StoreError::NoSuchRun(id));
    }
    Ok(())
}

pub fn find_label(tx: &mut dyn Transaction, label: &str) -> Result<Vec<RunId>, StoreError> {
    Ok(tx
        .query("SELECT id FROM runs WHERE label = ? ORDER BY id DESC", &[Value::text(label)])?
        .into_iter()
        .filter_map(|r| r[0].as_i64())
        .collect())
}

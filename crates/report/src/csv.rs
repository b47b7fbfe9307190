use cryptobench_core::result::{CellOutcome, RunResult};

const HEADER: &[&str] = &[
    "configuration",
    "backend",
    "library_version",
    "library_path",
    "algorithm",
    "operation",
    "mode",
    "size_bytes",
    "status",
    "median_bytes_per_s",
    "q1_bytes_per_s",
    "q3_bytes_per_s",
    "min_bytes_per_s",
    "max_bytes_per_s",
    "cv",
    "median_ci95_low",
    "median_ci95_high",
    "samples",
    "iterations_per_sample",
    "seconds_per_call",
    "cycles_per_byte",
    "warnings",
    "reason",
    "threads",
    "cpus",
    "core_type",
    "workers",
    "scaling_efficiency",
];

/// One row per cell, numbers unformatted (bytes per second) for further
/// processing; a cell of several workers gives their aggregate (the JSON
/// has each worker's samples).
pub fn render(run: &RunResult) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(HEADER).expect("writing to memory");
    for c in &run.configurations {
        let version = c.backend.as_ref().map(|b| b.version.clone()).unwrap_or_default();
        let path = c.backend.as_ref().and_then(|b| b.library_path.clone()).unwrap_or_default();
        let placement = c.placement.as_ref();
        let threads = placement.map(|p| p.threads.to_string()).unwrap_or_default();
        let cpus = placement
            .map(|p| p.cpus.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "))
            .unwrap_or_default();
        let core_type = placement.and_then(|p| p.core_type.clone()).unwrap_or_default();
        for cell in &c.cells {
            let mut rec = vec![
                c.index.to_string(),
                c.spec.backend.clone(),
                version.clone(),
                path.clone(),
                cell.spec.algorithm.clone(),
                format!("{:?}", cell.spec.operation).to_lowercase(),
                cell.spec.mode_label(),
                cell.spec.size.to_string(),
            ];
            match &cell.outcome {
                CellOutcome::Measured(m) => {
                    let s = &m.summary;
                    rec.push("measured".into());
                    rec.extend([s.median, s.q1, s.q3, s.min, s.max].iter().map(|v| format!("{v:.0}")));
                    rec.push(format!("{:.5}", s.cv));
                    rec.extend(s.median_ci95.iter().map(|v| format!("{v:.0}")));
                    rec.push(s.samples.to_string());
                    rec.push(m.samples.first().map(|x| x.iterations.to_string()).unwrap_or_default());
                    rec.push(format!("{:.3e}", s.seconds_per_call));
                    rec.push(m.cycles_per_byte.map(|c| format!("{c:.3}")).unwrap_or_default());
                    rec.push(m.warnings.join("; "));
                    rec.push(String::new());
                    rec.extend([threads.clone(), cpus.clone(), core_type.clone()]);
                    let a = m.aggregate.as_ref();
                    rec.push(a.map(|a| a.workers.len().to_string()).unwrap_or_default());
                    rec.push(a.and_then(|a| a.scaling_efficiency).map(|e| format!("{e:.4}")).unwrap_or_default());
                }
                CellOutcome::Failed { reason } | CellOutcome::Unsupported { reason } => {
                    rec.push(
                        if matches!(cell.outcome, CellOutcome::Failed { .. }) {
                            "failed"
                        } else {
                            "unsupported"
                        }
                        .into(),
                    );
                    rec.extend(std::iter::repeat_n(String::new(), 13));
                    rec.push(reason.clone());
                    rec.extend([threads.clone(), cpus.clone(), core_type.clone(), String::new(), String::new()]);
                }
            }
            w.write_record(&rec).expect("writing to memory");
        }
    }
    String::from_utf8(w.into_inner().expect("flushing memory")).expect("CSV of UTF-8 fields is UTF-8")
}

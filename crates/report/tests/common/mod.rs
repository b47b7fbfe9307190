//! What the report's tests share: runs made up of measured cells.

use cryptobench_core::cell::{CellSpec, CellUnit, Mode, Operation};
use cryptobench_core::result::{CellOutcome, CellResult, Measurement, RunResult};
use cryptobench_core::stats::{summarize, Sample};

/// The size every made-up cell is measured at.
pub const SIZE: usize = 16384;

/// An aes-128-gcm encryption cell at 16 KiB whose samples (of 100 calls each) take these times, in ns.
pub fn gcm_cell(walls: &[f64]) -> CellResult {
    let samples: Vec<Sample> = walls
        .iter()
        .map(|&w| Sample {
            iterations: 100,
            wall_ns: w as u64,
            cpu_ns: None,
        })
        .collect();
    CellResult {
        spec: CellSpec {
            algorithm: "aes-128-gcm".into(),
            operation: Operation::Encrypt,
            mode: Mode::Message,
            rekey: false,
            size: SIZE,
            aad: 13,
            unit: CellUnit::Bytes,
        },
        outcome: CellOutcome::Measured(Measurement {
            summary: summarize(&samples, SIZE).unwrap(),
            samples,
            warnings: vec![],
            checksum: String::new(),
            implementation: None,
            exceptions: Default::default(),
            cycles_per_byte: None,
            aggregate: None,
            replicates: Vec::new(),
            buffer_page_offset: None,
        }),
    }
}

/// A run of `configurations` (their JSON, cells empty), each given the cell at its place in `cells`.
pub fn run_of(configurations: &str, cells: Vec<CellResult>) -> RunResult {
    let text = format!(
        r#"{{"schema_version":1,"tool":{{"name":"t","version":"0"}},"started_at":"","finished_at":"","command_line":[],
        "host":{{"hostname":null,"cpu_model":null,"logical_cores":1,"arch":"x86_64","os":"y","kernel":null,"virtualization":null}},
        "settings":{{"timing":{{"sample_target_ns":0,"cell_budget_ns":0,"min_samples":0,"target_relative_ci":0.0,"warmup_ns":0}},"sizes":[16384],"pinned_cpu":null}},
        "configurations":[{configurations}]}}"#
    );
    let mut r: RunResult = serde_json::from_str(&text).unwrap();
    assert_eq!(r.configurations.len(), cells.len());
    for (c, x) in r.configurations.iter_mut().zip(cells) {
        c.cells.push(x);
    }
    r
}

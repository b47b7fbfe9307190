//! Warnings about a whole run: what makes every figure in it less
//! trustworthy, each with what to do about it. Read from the workers'
//! reports (a debug build) and the host's clock policy.

use cryptobench_core::result::RunResult;

/// The warnings of a measured run.
pub fn run_warnings(run: &RunResult) -> Vec<String> {
    let mut out = Vec::new();
    if run.configurations.iter().any(|c| c.platform.as_ref().is_some_and(|p| !p.optimized)) {
        out.push(
            "this cryptobench is a debug build: its own Rust code (the rustcrypto backend, the timing loops) runs many times \
             slower than released code; build with `cargo build --release` (or `cargo run --release`)"
                .to_string(),
        );
    }
    if let Some(g) = run.host.governor.as_deref().filter(|g| *g != "performance") {
        out.push(format!(
            "the frequency governor is '{g}', not 'performance': the clock follows the load, so short cells may run below \
             full speed; for stable figures run `cpupower frequency-set -g performance` (as root)"
        ));
    }
    if run.host.boost == Some(true) {
        out.push(
            "turbo/boost is on: the clock depends on temperature and on how many cores are busy, so figures drift between \
             runs; to compare runs, switch it off (intel_pstate: echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo; \
             acpi-cpufreq/amd-pstate: echo 0 > /sys/devices/system/cpu/cpufreq/boost)"
                .to_string(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::result::WorkerPlatform;

    fn run() -> RunResult {
        let text = r#"{"schema_version":1,"tool":{"name":"t","version":"0"},"started_at":"","finished_at":"","command_line":[],
            "host":{"hostname":null,"cpu_model":null,"logical_cores":1,"arch":"x","os":"y","kernel":null,"virtualization":null},
            "settings":{"timing":{"sample_target_ns":0,"cell_budget_ns":0,"min_samples":0,"target_relative_ci":0.0,"warmup_ns":0},"sizes":[16],"pinned_cpu":null},
            "configurations":[{"index":1,"spec":{"backend":"openssl","library":null},"backend":null,"status":"completed","verifications":[],"cells":[]}]}"#;
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn a_quiet_release_run_has_no_warning() {
        assert!(run_warnings(&run()).is_empty());
    }

    #[test]
    fn debug_builds_governors_and_boost_are_named_with_the_fix() {
        let mut r = run();
        r.configurations[0].platform = Some(WorkerPlatform {
            optimized: false,
            ..Default::default()
        });
        r.host.governor = Some("powersave".into());
        r.host.boost = Some(true);
        let w = run_warnings(&r);
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(w[0].contains("--release"));
        assert!(w[1].contains("'powersave'") && w[1].contains("cpupower"));
        assert!(w[2].contains("no_turbo"));
        r.host.governor = Some("performance".into());
        r.host.boost = Some(false);
        assert_eq!(run_warnings(&r).len(), 1);
    }
}

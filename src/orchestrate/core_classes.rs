//! The reference classes of cores (sbc-bench's score per MHz, the table of
//! crates/cpu) named in each configuration's score, once core has derived
//! it: the class nearest the score per MHz and, where the measured cores'
//! class is known, that class and the clock it needs for the score.

use cryptobench_core::result::RunResult;
use cryptobench_cpu::core_class;

/// `declared`: the class the user declared, else the one /proc/cpuinfo
/// identifies; a core type measured apart has its own (its MIDR).
pub fn name_classes(run: &mut RunResult, declared: Option<&str>) {
    let own = declared.and_then(core_class::find).or_else(core_class::of_this_cpu);
    let types = run.topology.as_ref().map(|t| t.core_types.clone()).unwrap_or_default();
    for c in &mut run.configurations {
        let Some(score) = c.score.as_mut() else { continue };
        // A core type's own class (its MIDR), not the first core's.
        let of_type = c
            .placement
            .as_ref()
            .and_then(|p| p.core_type.as_ref())
            .and_then(|name| types.iter().find(|t| &t.name == name))
            .and_then(|t| t.core_class.as_deref())
            .and_then(core_class::find);
        let own = if declared.is_some() { own } else { of_type.or(own) };
        // The reference classes of the worker's architecture, which may not be this process's.
        let arch = c.platform.as_ref().map(|p| p.arch.as_str()).unwrap_or(std::env::consts::ARCH);
        let nearest = score.score_per_mhz.and_then(|s| core_class::nearest(s, arch));
        score.nearest_class = nearest.map(|n| n.class.clone());
        score.nearest_class_score_per_mhz = nearest.map(|n| n.score_per_mhz);
        score.core_class = own.map(|o| o.class.clone());
        score.clock_estimate_mhz = own.map(|o| core_class::clock_estimate_mhz(score.aes256cbc_16k_k, o));
    }
}

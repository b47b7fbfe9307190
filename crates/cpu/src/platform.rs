//! What a worker reports about where it runs. It is read inside the worker
//! process, after pinning, so that a worker under an emulator or on another
//! machine describes *its* CPU, not the orchestrator's.

use cryptobench_core::result::WorkerPlatform;

/// This process's architecture, OS, CPU features, CPU affinity and build.
pub fn worker_platform() -> WorkerPlatform {
    WorkerPlatform {
        arch: std::env::consts::ARCH.to_string(),
        os: std::env::consts::OS.to_string(),
        features: crate::features::to_records(&crate::features::runtime_features()),
        affinity: affinity(),
        optimized: !cfg!(debug_assertions),
        emulated_by: crate::emulation::detect(),
        cpu_identity: crate::identity::this_cpu(),
        big_endian: cfg!(target_endian = "big"),
    }
}

#[cfg(target_os = "linux")]
fn affinity() -> Option<Vec<usize>> {
    Some(crate::allowed_cpus()).filter(|cpus| !cpus.is_empty())
}

#[cfg(not(target_os = "linux"))]
fn affinity() -> Option<Vec<usize>> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_this_process() {
        let p = worker_platform();
        assert_eq!(p.arch, std::env::consts::ARCH);
        assert_eq!(p.optimized, !cfg!(debug_assertions));
        #[cfg(target_os = "linux")]
        assert!(!p.affinity.unwrap().is_empty());
    }
}

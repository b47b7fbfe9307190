/// CPU time consumed by the calling thread, in nanoseconds, where the OS
/// provides it (POSIX CLOCK_THREAD_CPUTIME_ID).
#[cfg(unix)]
pub fn thread_cpu_time_ns() -> Option<u64> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: writes one timespec.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } != 0 {
        return None;
    }
    Some(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

#[cfg(not(unix))]
pub fn thread_cpu_time_ns() -> Option<u64> {
    None
}

#[derive(Debug, thiserror::Error)]
pub enum PinError {
    #[error("CPU {cpu} does not exist or is not allowed for this process (allowed: {allowed})")]
    NotAllowed { cpu: usize, allowed: String },
    #[error("pinning to a CPU is not supported on this OS")]
    Unsupported,
}

/// Restricts the calling process to one logical CPU.
#[cfg(target_os = "linux")]
pub fn pin_to_cpu(cpu: usize) -> Result<(), PinError> {
    let allowed = allowed_cpus();
    if cpu >= libc::CPU_SETSIZE as usize || !allowed.contains(&cpu) {
        return Err(PinError::NotAllowed {
            cpu,
            allowed: format_cpus(&allowed),
        });
    }
    // SAFETY: a zeroed cpu_set_t is the empty set; CPU_SET stays within CPU_SETSIZE.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(PinError::NotAllowed {
                cpu,
                allowed: format_cpus(&allowed),
            });
        }
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
pub fn pin_to_cpu(_cpu: usize) -> Result<(), PinError> {
    Err(PinError::Unsupported)
}

/// The logical CPUs this process may run on.
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: sched_getaffinity fills the set; CPU_ISSET reads within CPU_SETSIZE.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize).filter(|&c| libc::CPU_ISSET(c, &set)).collect()
    }
}

#[cfg(target_os = "linux")]
fn format_cpus(cpus: &[usize]) -> String {
    if cpus.is_empty() {
        return "unknown".into();
    }
    cpus.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_cpu_time_advances_with_work() {
        let Some(t0) = thread_cpu_time_ns() else { return };
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(thread_cpu_time_ns().unwrap() > t0, "{x}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn pinning_to_an_absent_cpu_is_refused_with_the_allowed_list() {
        let err = pin_to_cpu(100_000).unwrap_err().to_string();
        assert!(err.contains("100000") && err.contains("allowed"), "{err}");
    }
}

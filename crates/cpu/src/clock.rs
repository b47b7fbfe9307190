//! The effective core clock, measured with chains of dependent additions:
//! each addition needs the previous result, so the chain runs at one
//! addition per cycle whatever the microarchitecture. Two chain lengths are
//! timed and subtracted, which removes loop and timer overhead, and the
//! fastest of several runs is kept (the method of Willy Tarreau's `mhz`,
//! github.com/wtarreau/mhz). It runs on the calling thread, so a pinned
//! worker measures its own core, under load, at the moment of measuring.

// Only x86_64 and aarch64 have a chain here; elsewhere the clock is not measured.
#![cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code, unused_imports))]

use std::time::{Duration, Instant};

pub use cryptobench_core::result::ClockMeasurement;

/// Additions per loop iteration in the short and the long chain.
const SHORT: u64 = 8;
const LONG: u64 = 16;
const REPETITIONS: usize = 7;
/// Target length of one long-chain run.
const RUN: Duration = Duration::from_millis(4);
/// Keeps the core busy before measuring, so it has reached its loaded clock.
const WARMUP: Duration = Duration::from_millis(40);

#[cfg(target_arch = "x86_64")]
fn chain(adds: u64, iterations: u64) {
    use std::arch::asm;
    let mut x: u64 = 1;
    let mut n = iterations;
    // SAFETY: register-only arithmetic; no memory, no stack.
    unsafe {
        if adds == SHORT {
            asm!("2:", "add {x}, {x}", "add {x}, {x}", "add {x}, {x}", "add {x}, {x}",
                 "add {x}, {x}", "add {x}, {x}", "add {x}, {x}", "add {x}, {x}",
                 "sub {n}, 1", "jnz 2b", x = inout(reg) x, n = inout(reg) n, options(nomem, nostack));
        } else {
            asm!("2:", "add {x}, {x}", "add {x}, {x}", "add {x}, {x}", "add {x}, {x}",
                 "add {x}, {x}", "add {x}, {x}", "add {x}, {x}", "add {x}, {x}",
                 "add {x}, {x}", "add {x}, {x}", "add {x}, {x}", "add {x}, {x}",
                 "add {x}, {x}", "add {x}, {x}", "add {x}, {x}", "add {x}, {x}",
                 "sub {n}, 1", "jnz 2b", x = inout(reg) x, n = inout(reg) n, options(nomem, nostack));
        }
    }
    std::hint::black_box((x, n));
}

#[cfg(target_arch = "aarch64")]
fn chain(adds: u64, iterations: u64) {
    use std::arch::asm;
    let mut x: u64 = 1;
    let mut n = iterations;
    // SAFETY: register-only arithmetic; no memory, no stack.
    unsafe {
        if adds == SHORT {
            asm!("2:", "add {x}, {x}, {x}", "add {x}, {x}, {x}", "add {x}, {x}, {x}", "add {x}, {x}, {x}",
                 "add {x}, {x}, {x}", "add {x}, {x}, {x}", "add {x}, {x}, {x}", "add {x}, {x}, {x}",
                 "subs {n}, {n}, #1", "b.ne 2b", x = inout(reg) x, n = inout(reg) n, options(nomem, nostack));
        } else {
            asm!("2:", "add {x}, {x}, {x}", "add {x}, {x}, {x}", "add {x}, {x}, {x}", "add {x}, {x}, {x}",
                 "add {x}, {x}, {x}", "add {x}, {x}, {x}", "add {x}, {x}, {x}", "add {x}, {x}, {x}",
                 "add {x}, {x}, {x}", "add {x}, {x}, {x}", "add {x}, {x}, {x}", "add {x}, {x}, {x}",
                 "add {x}, {x}, {x}", "add {x}, {x}, {x}", "add {x}, {x}, {x}", "add {x}, {x}, {x}",
                 "subs {n}, {n}, #1", "b.ne 2b", x = inout(reg) x, n = inout(reg) n, options(nomem, nostack));
        }
    }
    std::hint::black_box((x, n));
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn timed(adds: u64, iterations: u64) -> f64 {
    let t0 = Instant::now();
    chain(adds, iterations);
    t0.elapsed().as_secs_f64()
}

/// Measures the clock of the core this thread runs on; None on
/// architectures without a dependent-add chain here.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub fn measure_clock() -> Option<ClockMeasurement> {
    let warm_end = Instant::now() + WARMUP;
    let mut iterations = 10_000u64;
    while Instant::now() < warm_end {
        chain(LONG, iterations);
    }
    // Calibrate the iteration count to the run length.
    loop {
        let t = timed(LONG, iterations);
        if t >= RUN.as_secs_f64() / 4.0 {
            iterations = ((iterations as f64) * RUN.as_secs_f64() / t).ceil() as u64;
            break;
        }
        iterations *= 4;
    }
    let (mut best_short, mut best_long) = (f64::INFINITY, f64::INFINITY);
    let mut estimates = Vec::with_capacity(REPETITIONS);
    for _ in 0..REPETITIONS {
        let short = timed(SHORT, iterations);
        let long = timed(LONG, iterations);
        best_short = best_short.min(short);
        best_long = best_long.min(long);
        if long > short {
            estimates.push(cycles_to_mhz((LONG - SHORT) * iterations, long - short));
        }
    }
    if best_long <= best_short || estimates.is_empty() {
        return None;
    }
    Some(ClockMeasurement {
        mhz: cycles_to_mhz((LONG - SHORT) * iterations, best_long - best_short),
        min_mhz: estimates.iter().copied().fold(f64::INFINITY, f64::min),
        max_mhz: estimates.iter().copied().fold(0.0, f64::max),
        repetitions: REPETITIONS,
    })
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn measure_clock() -> Option<ClockMeasurement> {
    None
}

fn cycles_to_mhz(cycles: u64, seconds: f64) -> f64 {
    cycles as f64 / seconds / 1e6
}

/// The rate of the x86 time-stamp counter, measured against the monotonic
/// clock. It counts reference cycles at a fixed rate (Intel SDM Vol. 3B
/// §18.17, invariant TSC), not core cycles, so it is the nominal clock at best.
#[cfg(target_arch = "x86_64")]
pub fn tsc_mhz() -> Option<f64> {
    use std::arch::x86_64::_rdtsc;
    let t0 = Instant::now();
    // SAFETY: RDTSC is available on every x86_64 processor.
    let c0 = unsafe { _rdtsc() };
    while t0.elapsed() < Duration::from_millis(20) {
        std::hint::spin_loop();
    }
    let c1 = unsafe { _rdtsc() };
    let secs = t0.elapsed().as_secs_f64();
    Some((c1.wrapping_sub(c0)) as f64 / secs / 1e6)
}

#[cfg(not(target_arch = "x86_64"))]
pub fn tsc_mhz() -> Option<f64> {
    None
}

/// The clock the OS reports, with its source: the cpufreq maximum where
/// there is one, else the "cpu MHz" of /proc/cpuinfo (a hypervisor's figure in a VM).
pub fn reported_mhz() -> Option<(f64, &'static str)> {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    if let Some(khz) = read("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq").and_then(|s| s.trim().parse::<f64>().ok()) {
        return Some((khz / 1000.0, "cpufreq cpuinfo_max_freq"));
    }
    let info = read("/proc/cpuinfo")?;
    info.lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.trim() == "cpu MHz")
                .and_then(|(_, v)| v.trim().parse().ok())
        })
        .map(|mhz| (mhz, "/proc/cpuinfo cpu MHz"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_is_plausible() {
        if !cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            assert!(measure_clock().is_none(), "no clock method exists for this architecture");
            return;
        }
        // A measurement is refused when a disturbance made the longer chain no slower: three tries.
        let c = (0..3)
            .find_map(|_| measure_clock())
            .expect("the clock could not be measured in three tries");
        // Any CPU that runs this test clocks between 100 MHz and 10 GHz.
        assert!(c.mhz > 100.0 && c.mhz < 10_000.0, "{c:?}");
        assert!(c.min_mhz <= c.max_mhz);
        assert_eq!(c.repetitions, REPETITIONS);
    }

    #[test]
    fn mhz_from_cycles() {
        assert_eq!(cycles_to_mhz(3_000_000, 0.001), 3000.0);
    }
}

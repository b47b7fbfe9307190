//! The machine under test: processor and OS description ([`host`]), the
//! thread's CPU time ([`thread_cpu_time_ns`]) and pinning ([`pin_to_cpu`]),
//! the cores and their types ([`topology`], [`core_types`]).

mod arm_parts;
pub mod clock;
pub mod core_class;
pub mod core_types;
pub mod emulation;
pub mod features;
pub mod frequency;
mod host;
pub mod hybrid;
pub mod identity;
pub mod microarch;
mod platform;
pub mod sysfs;
mod thread;
pub mod topology;
pub mod windows;

pub use host::{cpu_vendor, host_info, host_info_for};
pub use platform::worker_platform;
#[cfg(target_os = "linux")]
pub use thread::allowed_cpus;
pub use thread::{pin_to_cpu, thread_cpu_time_ns, PinError};

//! The acceleration audit: the same cells with hardware acceleration on and
//! switched off family by family, each configuration in its own worker with
//! the mask in its environment, and a verdict per algorithm and family that
//! rests on the measured figures.

pub mod masks;
pub mod pk_verdict;
pub mod verdict;

pub use cryptobench_core::audit::MaskedConfiguration;

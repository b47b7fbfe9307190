//! The acceleration audit: the same cells with hardware acceleration on and
//! switched off family by family, each configuration in its own worker with
//! the mask in its environment, and a verdict per algorithm and family that
//! rests on the measured figures.

pub mod masks;
pub mod verdict;

use cryptobench_core::catalog::Family;
use serde::Serialize;

/// Which families a configuration of the audit has switched off (empty: all on).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MaskedConfiguration {
    /// 1-based index into the run's configurations.
    pub index: usize,
    pub families_off: Vec<Family>,
    /// The variable and value set in the worker's environment.
    pub mask: Option<(String, String)>,
    /// The CPU features the mask switches off (normalised names); a verdict
    /// names no other feature.
    pub cleared: Vec<String>,
}

/// The label of a set of switched-off families: "all on", "aes off", "all off".
pub fn label(families_off: &[Family]) -> String {
    match families_off.len() {
        0 => "all on".to_string(),
        n if n == Family::ALL.len() => "all off".to_string(),
        _ => format!("{} off", families_off.iter().map(|f| f.name()).collect::<Vec<_>>().join("+")),
    }
}

//! A build that looks wrong (sbc-bench's reading of `openssl speed`): the
//! best figure measured here is [`FAR`] times or more the cycles per byte
//! published for this core, and the CPU offers the features that path
//! needs. That is the size of the gap between hardware-accelerated and
//! plain code in the published tables, not of a clock or version drift.

use cryptobench_core::audit::feature_title;
use cryptobench_core::catalog::{self, Family};
use cryptobench_core::result::RunResult;
use cryptobench_core::verdict::family_features;

use super::cpb;
use crate::core::Core;
use crate::standing::Standing;
use crate::Sentence;

/// How many times the published cycles per byte make a figure look wrong:
/// OpenSSL's tables put plain code 3× or more behind the accelerated path
/// for AES (aesni-x86_64.pl against aes-x86_64.pl), SHA-256 with SHA
/// extensions (sha512-x86_64.pl: 11.0 against 2.05 on Ryzen) and ARMv8's
/// Crypto Extensions (sha512-armv8.pl: 15.5 against 2.38 on Cortex-A53).
pub const FAR: f64 = 3.0;

pub fn sentences(run: &RunResult, standings: &[Standing], core: &Core, algorithm: &str) -> Vec<Sentence> {
    let (Some(best), Some((entry, for_core))) = (standings.first(), core.reference(algorithm)) else {
        return Vec::new();
    };
    let (Some(measured), Some(published)) = (best.cycles_per_byte, entry.value()) else {
        return Vec::new();
    };
    if measured < FAR * published {
        return Vec::new();
    }
    let config = run.configurations.iter().find(|c| c.index == best.index);
    let platform = config.and_then(|c| c.platform.as_ref());
    let arch = platform.map_or(run.host.arch.as_str(), |p| p.arch.as_str());
    let offered: Vec<String> = catalog::get(algorithm)
        .map(|alg| {
            // The instructions of the algorithm itself, not the vector units any code may use.
            alg.families()
                .into_iter()
                .filter(|f| matches!(f, Family::Aes | Family::Clmul | Family::Sha))
                .flat_map(|f| family_features(f, Some(alg), arch).iter())
                .filter(|f| platform.is_some_and(|p| p.features.iter().any(|x| x.name == **f)))
                .map(|f| feature_title(f, arch))
                .collect()
        })
        .unwrap_or_default();
    let offers = if offered.is_empty() {
        String::new()
    } else {
        format!("the CPU offers {}, ", offered.join("/"))
    };
    vec![Sentence {
        text: format!(
            "this build looks wrong: {} cycles per byte is {:.1}× the {} published for {for_core}; {offers}so the accelerated path is not used: \
             the library was built without it, or it is switched off (a capability mask such as OPENSSL_ia32cap or OPENSSL_armcap in the environment)",
            cpb(Some(measured)),
            measured / published,
            entry.figure,
        ),
        backing: format!("measured: [{}]; cited: {}", best.index, entry.citation()),
    }]
}

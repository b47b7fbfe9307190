//! A build that looks wrong (sbc-bench's reading of `openssl speed`): the
//! best figure measured here is [`FAR`] times or more the cycles per byte
//! published for this core, at a size the published figure is comparable
//! at, and the run holds evidence of the cause: the audit's verdict that
//! the library leaves a feature unused, the library's own view of the CPU
//! leaving out a feature the CPU offers, or a faster build of the same
//! library measured in the same run. Without such evidence nothing is
//! said here: the distance ([`super::reference`]) states the gap, without
//! a cause. Symmetric algorithms only: public-key figures differ by
//! library far more than by build.

use cryptobench_core::audit::{feature_title, VerdictKind};
use cryptobench_core::catalog::{self, Family};
use cryptobench_core::verdict::{beyond_noise, family_features, MIN_FACTOR};

use super::reference::{cite, comparable};
use super::Context;
use crate::standing::Standing;
use crate::table::Entry;
use crate::{units, Sentence};

/// How many times the published cycles per byte make a figure look wrong:
/// OpenSSL's tables put plain code 3× or more behind the accelerated path
/// for AES (aesni-x86_64.pl against aes-x86_64.pl), SHA-256 with SHA
/// extensions (sha512-x86_64.pl: 11.0 against 2.05 on Ryzen) and ARMv8's
/// Crypto Extensions (sha512-armv8.pl: 15.5 against 2.38 on Cortex-A53).
pub const FAR: f64 = 3.0;

pub fn sentences(cx: &Context) -> Vec<Sentence> {
    if cx.key.operation.is_some() {
        return Vec::new();
    }
    let Some(entry) = cx.core.own(&cx.key.algorithm, None).first().copied() else {
        return Vec::new();
    };
    cx.standings.iter().filter_map(|s| sentence(cx, s, entry)).collect()
}

/// The sentence for one configuration, where it is far from the published figure and the run shows why.
fn sentence(cx: &Context, s: &Standing, entry: &Entry) -> Option<Sentence> {
    let algorithm = cx.key.algorithm.as_str();
    let (measured, published) = (s.cycles?, entry.cycles()?);
    if measured < FAR * published || comparable(s, entry).is_err() {
        return None;
    }
    let config = cx.run.configurations.iter().find(|c| c.index == s.index)?;
    let platform = config.platform.as_ref();
    let arch = platform.map_or(cx.run.host.arch.as_str(), |p| p.arch.as_str());
    // The instructions of the algorithm itself, not the vector units any code may use, that this CPU offers.
    let offered: Vec<&str> = catalog::get(algorithm)
        .map(|alg| {
            alg.families()
                .into_iter()
                .filter(|f| matches!(f, Family::Aes | Family::Clmul | Family::Sha))
                .flat_map(|f| family_features(f, Some(alg), arch).iter().copied())
                .filter(|f| platform.is_some_and(|p| p.features.iter().any(|x| x.name == *f)))
                .collect()
        })
        .unwrap_or_default();
    let mut causes: Vec<(String, String)> = Vec::new();
    // 1. The audit measured the library with the feature switched off and on.
    if let Some(audit) = &cx.run.audit {
        for lib in audit.libraries.iter().filter(|l| l.base_index == s.index) {
            for v in lib
                .verdicts
                .iter()
                .filter(|v| v.algorithm == algorithm && v.kind == VerdictKind::AvailableNotUsed)
            {
                causes.push((v.text.clone(), format!("the audit's verdict for [{}]", lib.base_index)));
            }
        }
    }
    // 2. The library's own view of the CPU leaves out what the CPU offers:
    //    switched off where the library can name the feature, no code for it where it cannot.
    let mut verdict = "looks wrong";
    if let (Some(view), Some(caps)) = (cx.view, config.backend.as_ref().and_then(|b| b.cpu_capabilities.as_deref())) {
        if let Some(v) = view(config) {
            let missing: Vec<&str> = offered.iter().copied().filter(|f| !v.seen.iter().any(|x| x == f)).collect();
            let (off, absent): (Vec<&str>, Vec<&str>) = missing.into_iter().partition(|f| v.nameable.iter().any(|x| x == f));
            let titles = |fs: &[&str]| fs.iter().map(|f| feature_title(f, arch)).collect::<Vec<_>>().join("/");
            if !off.is_empty() {
                causes.push((
                    format!(
                        "the library's own view of the CPU ({caps}) leaves out {}, which this CPU offers: it is switched off \
                         (a capability mask such as OPENSSL_ia32cap or OPENSSL_armcap in the environment) or the build leaves it out",
                        titles(&off)
                    ),
                    format!("[{}]'s capability line, decoded", s.index),
                ));
            }
            if !absent.is_empty() {
                if off.is_empty() {
                    // Not a wrong build: this library has no code for the feature.
                    verdict = "is far from the best known";
                }
                causes.push((
                    format!(
                        "this library has no code for {}, which this CPU offers (its own view of the CPU, {caps}, cannot name it)",
                        titles(&absent)
                    ),
                    format!("[{}]'s capability line, decoded", s.index),
                ));
            }
        }
    }
    // 3. Another build of the same library, measured here, is faster beyond the noise.
    if let Some(other) = cx.standings.iter().find(|o| {
        o.index != s.index
            && o.backend == s.backend
            && beyond_noise(o.summary, s.summary)
            && o.summary.median >= MIN_FACTOR * s.summary.median
    }) {
        causes.push((
            format!(
                "[{}] {}, another build of the same library, is {:.1}× faster here",
                other.index,
                other.label,
                other.summary.median / s.summary.median
            ),
            format!("measured in this run: [{}] against [{}]", other.index, s.index),
        ));
    }
    if causes.is_empty() {
        return None;
    }
    let (why, evidence): (Vec<String>, Vec<String>) = causes.into_iter().unzip();
    Some(Sentence {
        text: format!(
            "[{}] {} {verdict}: {} is {:.1}× the {} published for this core; {}",
            s.index,
            s.label,
            units::cycles(measured, s.unit),
            measured / published,
            entry.describe(),
            why.join("; ")
        ),
        backing: format!("measured: [{}]; {}; {}", s.index, evidence.join("; "), cite(entry)),
    })
}

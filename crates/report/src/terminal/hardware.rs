//! Whether a library uses the crypto instructions the CPU offers, in one
//! line: its capability vector against its worker's CPU features
//! ([`CapabilityView`], recorded by `run` as `cryptobench cpu` compares
//! them), for the instructions of the audit's AES, CLMUL and SHA families
//! on the worker's architecture (crates/core/src/verdict/rules.rs), and
//! every other feature where the two views differ.

use cryptobench_core::audit::{feature_title, CapabilityView};
use cryptobench_core::catalog::{find, Family};
use cryptobench_core::result::{CellOutcome, ConfigurationResult, RunResult};
use cryptobench_core::verdict::rules::family_features;

use crate::labels::Labels;

/// The instructions the line is about on `arch`: AES, CLMUL and SHA (SHA-1, SHA-256 and SHA-512's).
fn named_features(arch: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    let families = [(Family::Aes, None), (Family::Clmul, None)];
    let sha = ["sha1", "sha256", "sha512"].map(|id| (Family::Sha, find(id)));
    for (family, alg) in families.into_iter().chain(sha) {
        for f in family_features(family, alg, arch) {
            if !out.contains(f) {
                out.push(f);
            }
        }
    }
    out
}

/// What one library makes of the CPU: the named instructions it uses, the
/// features the CPU offers that it leaves unused, those it claims that the
/// CPU lacks, and the named instructions its vector cannot speak of.
struct Use {
    arch: String,
    uses: Vec<&'static str>,
    unused: Vec<String>,
    claimed: Vec<String>,
    silent: Vec<&'static str>,
    /// Named instructions this CPU does not have.
    absent: Vec<&'static str>,
}

impl Use {
    fn of(c: &ConfigurationResult, view: &CapabilityView) -> Option<Use> {
        let platform = c.platform.as_ref()?;
        let cpu = |f: &str| platform.features.iter().any(|x| x.name == f);
        let named = named_features(&platform.arch);
        let mut out = Use {
            arch: platform.arch.clone(),
            uses: Vec::new(),
            unused: Vec::new(),
            claimed: Vec::new(),
            silent: Vec::new(),
            absent: Vec::new(),
        };
        for f in named {
            if !cpu(f) {
                out.absent.push(f);
            } else if !view.expressible.iter().any(|e| e == f) {
                out.silent.push(f);
            } else if view.features.iter().any(|x| x.name == f) {
                out.uses.push(f);
            }
        }
        for m in &view.mismatches {
            if cpu(&m.feature) {
                out.unused.push(m.feature.clone());
            } else {
                out.claimed.push(m.feature.clone());
            }
        }
        Some(out)
    }

    fn titles<S: AsRef<str>>(&self, features: &[S]) -> String {
        features
            .iter()
            .map(|f| feature_title(f.as_ref(), &self.arch))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn agrees(&self) -> bool {
        self.unused.is_empty() && self.claimed.is_empty()
    }

    /// What differs: "does not use VAES, which the CPU offers; claims AVX512F, which it lacks".
    fn differences(&self) -> String {
        let mut parts = Vec::new();
        if !self.unused.is_empty() {
            parts.push(format!("does not use {}, which the CPU offers", self.titles(&self.unused)));
        }
        if !self.claimed.is_empty() {
            parts.push(format!("claims {}, which the CPU lacks", self.titles(&self.claimed)));
        }
        parts.join("; ")
    }
}

/// One configuration's line: "hardware: OpenSSL 3.0.22 uses AES-NI, VAES,
/// PCLMULQDQ, VPCLMULQDQ, SHA-NI: all the CPU offers of AES, CLMUL and SHA
/// (…)". None where nothing is known of the worker's CPU (an imported run,
/// a run of an older version).
pub(super) fn single(c: &ConfigurationResult, label: &str) -> Option<String> {
    let platform = c.platform.as_ref()?;
    let Some(view) = &c.capability_view else {
        let offered: Vec<String> = named_features(&platform.arch)
            .into_iter()
            .filter(|f| platform.features.iter().any(|x| x.name == *f))
            .map(|f| feature_title(f, &platform.arch))
            .collect();
        let why = match c.backend.as_ref().and_then(|b| b.cpu_capabilities.as_deref()) {
            None => "does not say which CPU features it uses",
            Some(_) => "reports a view of the CPU cryptobench does not decode",
        };
        return Some(format!(
            "hardware: {label} {why}; the CPU offers {} (`cryptobench audit` measures what they are worth where a library can be masked)",
            if offered.is_empty() {
                "no AES, CLMUL or SHA instructions".to_string()
            } else {
                offered.join(", ")
            }
        ));
    };
    let u = Use::of(c, view)?;
    let silent = if u.silent.is_empty() {
        String::new()
    } else {
        format!("; its capability vector cannot say whether it uses {}", u.titles(&u.silent))
    };
    let absent = if u.absent.is_empty() {
        String::new()
    } else {
        format!("; it has no {}", u.titles(&u.absent))
    };
    let line = if !u.agrees() {
        let uses = if u.uses.is_empty() {
            String::new()
        } else {
            format!("; it uses {}", u.titles(&u.uses))
        };
        format!("hardware: {label} {}: expect slower code paths{uses}{silent}", u.differences())
    } else if u.uses.is_empty() && u.silent.is_empty() {
        format!("hardware: this CPU offers no AES, CLMUL or SHA instructions{absent}; {label} agrees with it")
    } else if u.uses.is_empty() {
        format!("hardware: {label} agrees with the CPU on every feature its capability vector can express{silent}")
    } else {
        format!(
            "hardware: {label} uses {}: all this CPU offers of AES, CLMUL and SHA{silent}{absent} (`cryptobench cpu` compares the two views)",
            u.titles(&u.uses)
        )
    };
    Some(line)
}

/// The line of several configurations: those whose view differs from the
/// CPU's, named with how; how many agree, and how many report no view.
pub(super) fn several(run: &RunResult, labels: &Labels) -> Option<String> {
    let measured: Vec<&ConfigurationResult> = run
        .configurations
        .iter()
        .filter(|c| c.platform.is_some() && c.cells.iter().any(|x| matches!(x.outcome, CellOutcome::Measured(_))))
        .collect();
    let mut differ = Vec::new();
    let mut agree = 0;
    let mut silent = 0;
    for c in &measured {
        match c.capability_view.as_ref().and_then(|v| Use::of(c, v)) {
            Some(u) if u.agrees() => agree += 1,
            Some(u) => differ.push(format!("{} {}", labels.get(0, c.index), u.differences())),
            None => silent += 1,
        }
    }
    if agree + differ.len() == 0 {
        return None;
    }
    let agree_text = match agree {
        0 => String::new(),
        n if differ.is_empty() => {
            format!("the {n} libraries that report their view of the CPU agree with it on every feature they can express")
        }
        n => format!("the other {n} that report their view agree with the CPU"),
    };
    let silent_text = if silent > 0 {
        format!(" ({silent} report none)")
    } else {
        String::new()
    };
    let parts: Vec<String> = differ.into_iter().chain((!agree_text.is_empty()).then_some(agree_text)).collect();
    Some(format!("hardware: {}{silent_text}", parts.join("; ")))
}

//! A runtime that reaches another library than the user may think. A
//! language runtime's driver reports what it calls underneath, by name and
//! version (`details`: "runtime", "underneath.name", "underneath.version";
//! crates/backends/src/libraries/runtime): where that is a library the run
//! also measured as the system's, in another version (Python's
//! `cryptography` bundles its own OpenSSL), or where two bindings of one
//! runtime call different libraries (`cryptography` beside `hashlib`), it
//! says so, with the measured factor between them.

use cryptobench_core::cell::CellUnit;
use cryptobench_core::result::{ConfigurationResult, RunResult};
use cryptobench_core::sizes::size_label;
use cryptobench_core::verdict::beyond_noise;

use crate::standing::{label, Standing};
use crate::Sentence;

fn detail<'a>(c: &'a ConfigurationResult, key: &str) -> Option<&'a str> {
    c.backend.as_ref()?.details.get(key).map(String::as_str)
}

/// "1.3× [1]" or "within the noise of [1]", from the two standings.
fn factor(this: &Standing, other: &Standing) -> String {
    let ratio = this.summary.median / other.summary.median;
    let at = match this.unit {
        CellUnit::Bytes => format!(" at {}", size_label(this.size)),
        CellUnit::Operations => String::new(),
    };
    if beyond_noise(this.summary, other.summary) {
        format!("{ratio:.2}× [{}]{at}", other.index)
    } else {
        format!("within the noise of [{}]{at}", other.index)
    }
}

pub fn sentences(run: &RunResult, standings: &[Standing]) -> Vec<Sentence> {
    let standing = |i: usize| standings.iter().find(|s| s.index == i);
    let mut out = Vec::new();
    for c in &run.configurations {
        let (Some(this), Some(name), Some(version)) = (standing(c.index), detail(c, "underneath.name"), detail(c, "underneath.version"))
        else {
            continue;
        };
        // The system's library of that name, measured directly in this run.
        let system = run.configurations.iter().find(|d| {
            d.spec.library.is_none()
                && d.bindings.is_empty()
                && detail(d, "runtime").is_none()
                && d.backend.as_ref().is_some_and(|b| b.name == name)
        });
        if let Some(d) = system {
            let system_version = d.backend.as_ref().map_or("", |b| b.version.as_str());
            if !system_version.contains(version) {
                let vs = standing(d.index).map(|o| format!("; {}", factor(this, o))).unwrap_or_default();
                out.push(Sentence {
                    text: format!(
                        "[{}] {} calls its own {name} {version}, not the system's {} [{}]{vs}",
                        c.index,
                        label(c),
                        system_version,
                        d.index
                    ),
                    backing: format!(
                        "reported by the runtime's driver ([{}] underneath) and measured in this run",
                        c.index
                    ),
                });
            }
        }
        // Another binding of the same runtime that calls something else.
        let runtime = detail(c, "runtime");
        for o in run.configurations.iter().filter(|o| o.index > c.index) {
            let (Some(other), Some(other_version)) = (standing(o.index), detail(o, "underneath.version")) else {
                continue;
            };
            if runtime.is_some() && detail(o, "runtime") == runtime && other_version != version {
                out.push(Sentence {
                    text: format!(
                        "in the same {}, [{}] calls {name} {version} and [{}] calls {} {other_version}: {}",
                        runtime.unwrap_or_default(),
                        c.index,
                        o.index,
                        detail(o, "underneath.name").unwrap_or_default(),
                        factor(other, this)
                    ),
                    backing: format!("reported by the drivers of [{}] and [{}], measured in this run", c.index, o.index),
                });
            }
        }
    }
    out
}

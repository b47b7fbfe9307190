//! Human labels for configurations: "OpenSSL 3.0.19", "OpenSSL 3.0.19 ·
//! AES off", "libgcrypt 1.10.1", "before · OpenSSL 4.0.3", "OpenSSL 3.0.19 ·
//! aarch64, emulated". Every output (terminal table, Markdown, HTML, compare,
//! the audit) names configurations through [`Labels`], so one configuration
//! reads the same everywhere; the raw mask, file and index stay in the
//! environment details.
//!
//! A label is built from what the run recorded: the library's own name and
//! version, its build where a file was named ("clang 14.0.6 -O3 · no-asm"), the run's label when a report holds several runs, the placement
//! ("2 threads", or the core type "Cortex-A76"), the audit role
//! (which families were switched off) or "masked" for another capability
//! environment, the worker's architecture where it differs from the host's or
//! between configurations, "emulated" where the worker was started through an
//! emulator, and "debug build" for Rust code compiled without optimisation.
//! Two configurations that would still read the same are told apart by their
//! library file, then by their worker command, then by their position.

use cryptobench_core::result::{ConfigurationResult, RunResult};

/// Separates the parts of a label.
pub const SEPARATOR: &str = " · ";

/// Programs that run a worker built for another architecture.
const EMULATORS: &[&str] = &["qemu-", "box64", "box86", "FEXInterpreter", "FEXLoader", "arch"];

/// What may tell two configurations with the same label apart.
type Distinguisher = dyn Fn(&ConfigurationResult) -> Option<String>;

/// The labels of every configuration of the runs of one report.
#[derive(Debug, Clone)]
pub struct Labels {
    /// (position of the run in the report, configuration index, label).
    entries: Vec<(usize, usize, String)>,
}

impl Labels {
    /// Labels for the configurations of one run.
    pub fn for_run(run: &RunResult) -> Labels {
        Self::for_runs(&[(String::new(), run)])
    }

    /// Labels for the configurations of several runs, each named as the
    /// report names it (its `--label` where it has one). A run's name is
    /// part of its labels only when there are several runs.
    pub fn for_runs(runs: &[(String, &RunResult)]) -> Labels {
        let several = runs.len() > 1;
        let arches: Vec<&str> = runs
            .iter()
            .flat_map(|(_, r)| r.configurations.iter().map(move |c| worker_arch(r, c)))
            .collect();
        let mixed_arches = arches.iter().any(|a| *a != arches[0]);
        let mut entries = Vec::new();
        for (pos, (name, run)) in runs.iter().enumerate() {
            for c in &run.configurations {
                let mut parts = Vec::new();
                if several {
                    parts.push(run.label.clone().unwrap_or_else(|| name.clone()));
                }
                parts.push(library_label(c));
                parts.extend(build(c));
                parts.extend(c.placement.as_ref().map(|p| p.describe()));
                parts.extend(role(run, c));
                parts.extend(platform(run, c, mixed_arches));
                if run.imported.is_some() {
                    parts.push("openssl speed".into());
                }
                entries.push((pos, c.index, parts.join(SEPARATOR)));
            }
        }
        let mut labels = Labels { entries };
        labels.disambiguate(runs);
        labels
    }

    /// The label of configuration `index` of the report's run at `run_pos`.
    pub fn get(&self, run_pos: usize, index: usize) -> &str {
        self.entries
            .iter()
            .find(|(p, i, _)| *p == run_pos && *i == index)
            .map(|(_, _, l)| l.as_str())
            .unwrap_or("?")
    }

    /// The configuration's position among all configurations of the report:
    /// what its colour, dash and marker follow, the same in every chart.
    pub fn position(&self, run_pos: usize, index: usize) -> usize {
        self.entries.iter().position(|(p, i, _)| *p == run_pos && *i == index).unwrap_or(0)
    }

    /// Every label in the order of the runs and their configurations.
    pub fn all(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(_, _, l)| l.as_str())
    }

    /// Appends to labels that collide what tells them apart: the library file
    /// name, else the worker command, else the configuration's position.
    fn disambiguate(&mut self, runs: &[(String, &RunResult)]) {
        let config = |pos: usize, index: usize| runs[pos].1.configurations.iter().find(|c| c.index == index);
        let distinguishers: [&Distinguisher; 2] = [&|c| library_file(c).map(|f| format!("({f})")), &|c| {
            c.spec.worker.as_ref().map(|w| format!("(via {})", w.join(" ")))
        }];
        for distinguish in distinguishers {
            for group in self.collisions() {
                let extra: Vec<Option<String>> = group
                    .iter()
                    .map(|&k| {
                        let (p, i, _) = &self.entries[k];
                        config(*p, *i).and_then(distinguish)
                    })
                    .collect();
                // Only when it tells them apart: the same file twice says nothing.
                if extra.iter().enumerate().any(|(a, x)| extra[a + 1..].iter().any(|y| y != x)) {
                    for (&k, x) in group.iter().zip(extra) {
                        if let Some(x) = x {
                            self.entries[k].2.push(' ');
                            self.entries[k].2.push_str(&x);
                        }
                    }
                }
            }
        }
        for group in self.collisions() {
            for (n, &k) in group.iter().enumerate() {
                self.entries[k].2.push_str(&format!(" (configuration {})", n + 1));
            }
        }
    }

    /// Groups of entries (positions) that share a label.
    fn collisions(&self) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (k, (_, _, l)) in self.entries.iter().enumerate() {
            if groups.iter().any(|g| g.contains(&k)) {
                continue;
            }
            let same: Vec<usize> = (k..self.entries.len()).filter(|&j| self.entries[j].2 == *l).collect();
            if same.len() > 1 {
                groups.push(same);
            }
        }
        groups
    }
}

/// "OpenSSL 3.0.19", "libgcrypt 1.10.1", "Nettle 3.8", "RustCrypto",
/// "Linux kernel 6.1.0": the library's name and its version number, as the
/// library reported them; the configuration as the user wrote it where the
/// library never answered.
pub fn library_label(c: &ConfigurationResult) -> String {
    let Some(b) = &c.backend else {
        return c.spec.display();
    };
    name_and_version(&b.name, &b.version)
}

/// "OpenSSL 1.1.1w" from the name "OpenSSL" and the version string
/// "OpenSSL 1.1.1w  11 Sep 2023"; the name alone where the version string
/// holds no version number of its own (RustCrypto's list of crates).
pub fn name_and_version(name: &str, version: &str) -> String {
    match version_number(version, name) {
        Some(v) => format!("{name} {v}"),
        None => name.to_string(),
    }
}

/// The version number in a library's version string: the first word after
/// the words of its name, when it starts with a digit ("OpenSSL 1.1.1w  11
/// Sep 2023" → "1.1.1w"; "RustCrypto (aes 0.9.4, …)" → none).
fn version_number<'a>(version: &'a str, name: &str) -> Option<&'a str> {
    let name_words: Vec<String> = name.split_whitespace().map(str::to_lowercase).collect();
    let word = version.split_whitespace().find(|w| !name_words.contains(&w.to_lowercase()))?;
    let word = word.trim_end_matches([',', ';', ':']);
    word.starts_with(|ch: char| ch.is_ascii_digit()).then_some(word)
}

/// "clang 14.0.6 -O3 · no-asm": how the library was built, as it says
/// itself (its `build` detail, e.g. OpenSSL's compiler line), for a library
/// loaded from a file the user named: builds of one version side by side
/// (the OpenSSL build lab) differ only there.
fn build(c: &ConfigurationResult) -> Option<String> {
    c.spec.library.as_ref()?;
    c.backend.as_ref()?.details.get("build").cloned()
}

/// The audit role ("AES off", "all off") of a configuration of an audit,
/// "provider NAME" or "engine ID" for one given `--provider` or `--engine`, "masked" for one measured
/// with another capability environment.
fn role(run: &RunResult, c: &ConfigurationResult) -> Option<String> {
    if let Some(audit) = &run.audit {
        if let Some(m) = audit.libraries.iter().find_map(|l| l.configuration(c.index)) {
            return (!m.families_off.is_empty()).then(|| m.role());
        }
    }
    if let Some(provider) = c.spec.env.get(cryptobench_core::result::PROVIDER_ENV) {
        return Some(format!("provider {provider}"));
    }
    if let Some(engine) = c.spec.env.get(cryptobench_core::result::ENGINE_ENV) {
        return Some(format!("engine {engine}"));
    }
    if let Some(query) = c.spec.env.get(cryptobench_core::result::PROPERTIES_ENV) {
        return Some(format!("properties {query}"));
    }
    c.spec.capability_env().next().is_some().then(|| "masked".to_string())
}

/// The worker's architecture, the host's where the worker did not say.
fn worker_arch<'a>(run: &'a RunResult, c: &'a ConfigurationResult) -> &'a str {
    c.platform.as_ref().map(|p| p.arch.as_str()).unwrap_or(run.host.arch.as_str())
}

/// The worker's architecture as people name it ("ppc64le" where Rust says "powerpc64").
fn worker_arch_label<'a>(run: &'a RunResult, c: &'a ConfigurationResult) -> &'a str {
    match c.platform.as_ref() {
        Some(p) => p.arch_label(),
        None => run.host.arch.as_str(),
    }
}

/// "aarch64", "aarch64, emulated", "debug build": where the worker ran, when
/// that is not simply the host.
fn platform(run: &RunResult, c: &ConfigurationResult, mixed_arches: bool) -> Vec<String> {
    let mut parts = Vec::new();
    let arch = worker_arch(run, c);
    // The worker says whether it was emulated; for runs without that report,
    // the command it was started with is the best evidence.
    let emulated = match c.platform.as_ref() {
        Some(p) => p.emulated_by.is_some(),
        None => c.spec.worker.as_ref().and_then(|w| w.first()).is_some_and(|program| {
            let file = program.rsplit('/').next().unwrap_or(program);
            EMULATORS
                .iter()
                .any(|e| if e.ends_with('-') { file.starts_with(e) } else { file == *e })
        }),
    };
    if arch != run.host.arch || mixed_arches || emulated {
        let arch = worker_arch_label(run, c);
        parts.push(if emulated { format!("{arch}, emulated") } else { arch.to_string() });
    }
    // Only code compiled into the worker runs slower in a debug build; the
    // C libraries it loads were built optimised.
    let linked_in = c.backend.as_ref().is_some_and(|b| b.kind.as_deref() == Some("linked-in"));
    if c.platform.as_ref().is_some_and(|p| !p.optimized) && linked_in {
        parts.push("debug build".into());
    }
    parts
}

/// The file name of the library a configuration loaded.
fn library_file(c: &ConfigurationResult) -> Option<String> {
    let path = c
        .backend
        .as_ref()
        .and_then(|b| b.library_path.clone())
        .or_else(|| c.spec.library.clone())?;
    Some(path.rsplit(['/', '\\']).next().unwrap_or(&path).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_numbers_come_from_the_library_string() {
        assert_eq!(version_number("OpenSSL 1.1.1w  11 Sep 2023", "OpenSSL"), Some("1.1.1w"));
        assert_eq!(version_number("OpenSSL 3.0.19 27 Jan 2026", "OpenSSL"), Some("3.0.19"));
        assert_eq!(version_number("libgcrypt 1.10.1", "libgcrypt"), Some("1.10.1"));
        assert_eq!(version_number("Nettle 3.8", "Nettle"), Some("3.8"));
        assert_eq!(version_number("RustCrypto (aes 0.9.4, sha2 0.11.1)", "RustCrypto"), None);
        assert_eq!(
            version_number("Linux 6.1.0-18-amd64", "Linux kernel crypto API"),
            Some("6.1.0-18-amd64")
        );
        assert_eq!(version_number("unknown version (not in the text)", "OpenSSL"), None);
    }
}

//! The library registry's types: one [`Entry`] per library, listed once in
//! [`crate::libraries::LIBRARIES`] (crates/backends/src/libraries/mod.rs). Everything the rest of
//! cryptobench knows about a library that is not measured comes from its
//! entry — how to open it, what to install, the cargo feature that builds
//! it in, how to read and mask its view of the CPU — so that nothing
//! outside a library's folder matches on its id (as rustls's core never
//! matches on a provider's name).

use std::collections::BTreeMap;

use cryptobench_core::catalog::Family;
use cryptobench_core::result::BackendInfo;
use cryptobench_cpu::features::Feature;

use crate::backend::Backend;
use crate::error::OpenError;
use crate::known_defects::KnownDefect;

/// `--provider NAME[=PATH]` reaches the worker in [`PROVIDER_ENV`]; a library
/// that serves it reports the name it loaded under [`PROVIDER_DETAIL`] in its
/// details, and any other refuses the configuration (crate::libraries::open),
/// so that no provider is ever silently ignored.
pub use cryptobench_core::result::{ENGINE_ENV, PROPERTIES_ENV, PROVIDER_ENV};
pub const PROVIDER_DETAIL: &str = "provider_requested";
/// As [`PROVIDER_DETAIL`], for `--engine` ([`ENGINE_ENV`]).
pub const ENGINE_DETAIL: &str = "engine_requested";
/// As [`PROVIDER_DETAIL`], for `--properties` ([`PROPERTIES_ENV`]).
pub const PROPERTIES_DETAIL: &str = "properties_requested";

/// How a library is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A shared library loaded at run time; `--backend ID=PATH` loads another build.
    Loaded,
    /// Compiled into cryptobench (a Rust crate, or C sources a crate builds); loads no file.
    LinkedIn,
    /// A language runtime reached through a driver program; `--backend ID=EXECUTABLE` picks the runtime.
    Runtime,
    /// An interface of the operating system (the kernel's crypto API); loads no file.
    OsApi,
}

/// What the audit needs to switch a library's acceleration off, family by
/// family, before the library is loaded (crates/backends/src/*/mask.rs).
pub struct MaskContext<'a> {
    /// The library's capability string as its worker reported it (e.g. `OPENSSL_ia32cap=0x…:0x…`).
    pub capabilities: Option<&'a str>,
    /// The CPU features the worker sees.
    pub cpu: &'a [Feature],
    /// CPUID's vendor string, where there is one.
    pub vendor: Option<&'a str>,
    /// The worker's architecture (Rust's names: "x86_64", "aarch64").
    pub arch: &'a str,
}

/// One masked configuration's environment: the variable and its value, and
/// the CPU features that makes unusable (empty: this mask switches nothing
/// off in this library, so it is not measured).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mask {
    pub var: &'static str,
    pub value: String,
    pub cleared: Vec<&'static str>,
}

/// Builds the mask that switches `families` off, or says why this library
/// cannot be masked in this context.
pub type MaskFn = fn(&MaskContext<'_>, &[Family]) -> Result<Mask, String>;

/// A library's own view of the CPU, decoded from the capability string its
/// backend reports, with the features that string can express at all in
/// the library's `version` (its own version string).
pub type ViewFn = fn(capabilities: &str, version: Option<&str>) -> Option<(Vec<Feature>, &'static [&'static str])>;

/// The features named by the `items` of a capability string, through
/// `table` (an item and the feature names it stands for), each feature
/// once; `source` says where a feature was read (shown with it).
pub fn features_named<'i>(
    items: impl Iterator<Item = &'i str>,
    table: &[(&str, &[&'static str])],
    source: impl Fn(&str) -> String,
) -> Vec<Feature> {
    let mut out: Vec<Feature> = Vec::new();
    for item in items {
        if let Some((_, names)) = table.iter().find(|(i, _)| *i == item) {
            for name in *names {
                if !out.iter().any(|f| f.name == *name) {
                    out.push(Feature {
                        name,
                        source: source(item),
                    });
                }
            }
        }
    }
    out
}

/// Opens a library in the worker: the path (or runtime executable) of
/// `--backend ID=PATH`, or None for the default.
pub type OpenFn = fn(Option<&str>) -> Result<Box<dyn Backend>, OpenError>;

/// The library file of a named build (`--backend ID=@NAME`), or an error
/// that says which names exist.
pub type NamedFn = fn(&str) -> Result<String, String>;

/// One library: its id, how to open it, and what else cryptobench knows of it.
pub struct Entry {
    /// The `--backend` id.
    pub id: &'static str,
    /// The library's name as people say it.
    pub name: &'static str,
    pub kind: Kind,
    /// Opens it in the worker.
    pub open: OpenFn,
    /// What to install when it is missing (Debian/Ubuntu packages, as .ci/run installs them).
    pub install: Option<&'static str>,
    /// The cargo feature that builds it in, where it is left out by default.
    pub feature: Option<&'static str>,
    /// How to read its view of the CPU from its capability string.
    pub view: Option<ViewFn>,
    /// How the audit switches its acceleration off.
    pub mask: Option<MaskFn>,
    /// Its table of known defects (its folder's defects.rs): what is known
    /// of a defect the checks find, cited (crate::known_defects).
    pub known_defects: &'static [KnownDefect],
    /// Its named builds (OpenSSL's build lab), where it has them.
    pub named: Option<NamedFn>,
}

impl Mask {
    /// The mask that sets the variable `var` to `value` and so clears `cleared`.
    pub fn new((var, value): (&'static str, String), cleared: Vec<&'static str>) -> Mask {
        Mask { var, value, cleared }
    }
}

impl Kind {
    /// The kind's name in results (`BackendInfo::kind`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Loaded => "loaded",
            Kind::LinkedIn => "linked-in",
            Kind::Runtime => "runtime",
            Kind::OsApi => "os-api",
        }
    }
}

impl Entry {
    /// An entry of `kind`, with no install hint, cargo feature or CPU hooks.
    pub const fn new(id: &'static str, name: &'static str, kind: Kind, open: OpenFn) -> Entry {
        Entry {
            id,
            name,
            kind,
            open,
            install: None,
            feature: None,
            view: None,
            mask: None,
            known_defects: &[],
            named: None,
        }
    }

    /// A shared library loaded at run time; `install` says how to install it.
    pub const fn loaded(id: &'static str, name: &'static str, install: &'static str, open: OpenFn) -> Entry {
        Entry {
            install: Some(install),
            ..Entry::new(id, name, Kind::Loaded, open)
        }
    }

    /// The entry with its table of known defects.
    pub const fn with_defects(self, known_defects: &'static [KnownDefect]) -> Entry {
        Entry { known_defects, ..self }
    }

    /// The entry with a resolver of named builds (`--backend ID=@NAME`).
    pub const fn with_named(self, named: NamedFn) -> Entry {
        Entry {
            named: Some(named),
            ..self
        }
    }

    /// The entry with the hooks that read (`view`) and mask its view of the CPU.
    pub const fn with_cpu(self, view: Option<ViewFn>, mask: Option<MaskFn>) -> Entry {
        Entry { view, mask, ..self }
    }

    /// The library's self-description under the entry's id and name: its
    /// `version`, the file it runs from, its own view of the CPU and further
    /// facts. (The worker adds the entry's kind.)
    pub fn info(
        &self,
        version: String,
        library_path: Option<String>,
        cpu_capabilities: Option<String>,
        details: BTreeMap<String, String>,
    ) -> BackendInfo {
        BackendInfo {
            id: self.id.into(),
            name: self.name.into(),
            version,
            library_path,
            cpu_capabilities,
            details,
            kind: None,
            ecdsa_nonce: None,
        }
    }

    /// Whether `--backend ID=PATH` may name a file for it.
    pub fn takes_path(&self) -> bool {
        matches!(self.kind, Kind::Loaded | Kind::Runtime)
    }
}

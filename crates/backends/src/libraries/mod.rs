//! Every library cryptobench measures: one folder each, listed once in
//! [`LIBRARIES`] (the registry; entry type in crates/backends/src/registry.rs),
//! and the lookups the rest of cryptobench uses instead of matching on ids.
//!
//! Adding a library (docs/ARCHITECTURE.md, "Adding a library"): its folder
//! here, with a `pub static ENTRY`, and two lines in this file — its `mod`
//! and its entry in [`LIBRARIES`].

pub mod aws_lc;
pub mod bearssl;
mod block_mode;
pub mod boringssl;
pub mod botan;
pub mod cng;
pub mod commoncrypto;
pub mod cryptopp;
#[cfg(any(feature = "boringssl", feature = "aws-lc"))]
mod evp_pk;
#[cfg(any(feature = "boringssl", feature = "aws-lc"))]
mod evp_pk_sessions;
pub mod gcrypt;
pub mod gnutls;
pub mod kernel;
pub mod liboqs;
pub mod mbedtls;
pub mod nettle;
pub mod nss;
pub mod openssl;
pub mod pkcs11;
mod provider;
pub mod ring;
pub mod runtime;
pub mod rustcrypto;
pub mod sodium;
pub mod tomcrypt;
pub mod wolfssl;

use cryptobench_core::result::ConfigurationSpec;
use cryptobench_cpu::features::Feature;

use crate::backend::Backend;
use crate::error::OpenError;
use crate::registry::Entry;

/// Every library, in the order `backends` lists them: the C libraries, the
/// linked-in Rust crates, the OS interfaces (the kernel, Windows' CNG, Apple's CommonCrypto), then the language runtimes.
pub static LIBRARIES: &[&Entry] = &[
    &openssl::ENTRY,
    &gcrypt::ENTRY,
    &nettle::ENTRY,
    &rustcrypto::ENTRY,
    &sodium::ENTRY,
    &kernel::ENTRY,
    &cng::ENTRY,
    &commoncrypto::ENTRY,
    &pkcs11::ENTRY,
    &ring::ENTRY,
    &aws_lc::ENTRY,
    &gnutls::ENTRY,
    &mbedtls::ENTRY,
    &wolfssl::ENTRY,
    &nss::ENTRY,
    &bearssl::ENTRY,
    &tomcrypt::ENTRY,
    &botan::ENTRY,
    &cryptopp::ENTRY,
    &boringssl::ENTRY,
    &liboqs::ENTRY,
    &runtime::PYTHON_HASHLIB,
    &runtime::PYTHON_CRYPTOGRAPHY,
    &runtime::NODE,
    &runtime::GO,
    &runtime::JAVA,
];

/// The reference library linked into every worker: the second library of
/// the public-key cross-checks (crates/backends/src/pk/verify.rs).
pub const REFERENCE: &str = "rustcrypto";

/// The library whose `openssl speed` defaults `--algos openssl-speed`
/// follows (its loaded version decides the set).
pub const OPENSSL_SPEED: &str = "openssl";

/// The library `run` measures when no `--backend` is given.
pub const DEFAULT: &str = "openssl";

/// Every `--backend` id, in the registry's order.
pub fn ids() -> impl Iterator<Item = &'static str> {
    LIBRARIES.iter().map(|e| e.id)
}

/// The entry of `id`.
pub fn find(id: &str) -> Option<&'static Entry> {
    LIBRARIES.iter().find(|e| e.id == id).copied()
}

/// Opens the backend a configuration names. Call it in the worker process
/// only: loading a library may run its initialisers and fix its CPU view.
pub fn open(spec: &ConfigurationSpec) -> Result<Box<dyn Backend>, OpenError> {
    let entry = find(&spec.backend).ok_or_else(|| OpenError::UnknownBackend {
        id: spec.backend.clone(),
        valid: ids().collect::<Vec<_>>().join(", "),
    })?;
    match (&spec.library, entry.takes_path()) {
        (Some(path), false) => Err(OpenError::NoLibraryFile {
            id: entry.id,
            path: path.clone(),
        }),
        (path, _) => {
            let backend = (entry.open)(path.as_deref())?;
            use crate::registry::{ENGINE_DETAIL, ENGINE_ENV, PROPERTIES_DETAIL, PROPERTIES_ENV, PROVIDER_DETAIL, PROVIDER_ENV};
            let details = backend.info().details;
            for (var, detail, flag, what) in [
                (PROVIDER_ENV, PROVIDER_DETAIL, "--provider", "providers (OpenSSL 3.x has)"),
                (ENGINE_ENV, ENGINE_DETAIL, "--engine", "engines (OpenSSL has)"),
                (
                    PROPERTIES_ENV,
                    PROPERTIES_DETAIL,
                    "--properties",
                    "property queries (OpenSSL 3.x has)",
                ),
            ] {
                if let Some(asked) = spec.env.get(var).filter(|_| !details.contains_key(detail)) {
                    return Err(OpenError::Load {
                        path: entry.id.to_string(),
                        reason: format!("{flag} {asked}: {} has no {what}", entry.name),
                    });
                }
            }
            Ok(backend)
        }
    }
}

/// Opens the [`REFERENCE`] library (linked in, so it opens everywhere).
pub fn open_reference() -> Option<Box<dyn Backend>> {
    find(REFERENCE).and_then(|e| (e.open)(None).ok())
}

/// A library's own view of the CPU, decoded from the capability string
/// its worker reported, by the view hook of its registry entry: the
/// features, and those the library's `version` can express at all.
pub fn capability_view(id: &str, capabilities: &str, version: Option<&str>) -> Option<(Vec<Feature>, &'static [&'static str])> {
    find(id).and_then(|e| e.view).and_then(|view| view(capabilities, version))
}

/// The library's capability vector decoded and held against `cpu`, the
/// features its worker detected: what `cryptobench cpu` shows per library,
/// what the audit warns about and what `run` answers with. `library` names
/// the library in the mismatches' messages. None where the library reports
/// no vector, or one cryptobench does not decode.
pub fn capability_view_against(
    id: &str,
    capabilities: Option<&str>,
    version: Option<&str>,
    cpu: &[Feature],
    library: &str,
) -> Option<cryptobench_core::audit::CapabilityView> {
    let (features, expressible) = capability_view(id, capabilities?, version)?;
    let found = cryptobench_cpu::features::mismatches(cpu, &features, library, expressible);
    Some(cryptobench_core::audit::CapabilityView {
        features: cryptobench_cpu::features::to_records(&features),
        expressible: expressible.iter().map(|f| f.to_string()).collect(),
        mismatches: found.iter().map(|m| m.record()).collect(),
    })
}

/// What to install for a backend whose library is missing; None for the
/// backends linked into cryptobench and for the language runtimes, whose
/// reason says what to install.
pub fn install_hint(id: &str) -> Option<&'static str> {
    find(id).and_then(|e| e.install)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Kind;

    #[test]
    fn ids_are_unique() {
        let ids: Vec<_> = ids().collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(ids.len(), sorted.len(), "{ids:?}");
        assert!(find(REFERENCE).is_some() && find(DEFAULT).is_some());
    }

    #[test]
    fn every_library_that_can_be_missing_says_what_to_install() {
        for e in LIBRARIES {
            // A language runtime's own reason says what to install (libraries/runtime).
            let needs_hint = matches!(e.kind, Kind::Loaded | Kind::OsApi) || e.feature.is_some();
            assert_eq!(e.install.is_some(), needs_hint, "{}", e.id);
        }
    }

    #[test]
    fn a_path_for_a_library_linked_in_is_refused() {
        let spec = ConfigurationSpec {
            backend: REFERENCE.into(),
            library: Some("/x.so".into()),
            env: Default::default(),
            worker: None,
        };
        assert!(matches!(open(&spec), Err(OpenError::NoLibraryFile { .. })));
    }
}

//! liboqs (Open Quantum Safe), linked in through oqs-sys, which builds the
//! liboqs release it vendors (0.13.0) with CMake: post-quantum public key
//! only, ML-KEM-512/768/1024, ML-DSA-44/65/87, Falcon-512/1024 and
//! HQC-128/192/256 through its generic
//! `OQS_KEM_*` / `OQS_SIG_*` objects ([`pk`]), the calls its own
//! `speed_kem`/`speed_sig` time. The build is liboqs's portable one
//! (`OQS_DIST_BUILD`): each call picks the AVX2 code or the reference C
//! code by the CPU it runs on (`OQS_CPU_has_extension`, shown in the
//! backend's details). Built without OpenSSL (oqs-sys's `openssl` feature
//! off), so SHA-3 and SHAKE are liboqs's own.
//!
//! Its ML-DSA verification on AVX2 has two defects of the pq-crystals code
//! it ships, found by Wycheproof ([`defects`]).
//!
//! Built only with the cargo feature `liboqs`: its CMake build needs cmake
//! and bindgen's libclang. The symmetric catalog is `n/a`: liboqs has
//! SHA-3 and AES only as internals of its schemes.

mod defects;
#[cfg(feature = "liboqs")]
mod kat;
#[cfg(feature = "liboqs")]
mod kat_rng;
#[cfg(feature = "liboqs")]
mod objects;
#[cfg(feature = "liboqs")]
mod pk;
#[cfg(feature = "liboqs")]
mod seeded;

use crate::backend::Backend;
use crate::error::OpenError;
use crate::registry::{Entry, Kind};
#[cfg(feature = "liboqs")]
use {crate::library::Library, cryptobench_core::result::BackendInfo, oqs_sys::common as oqs, std::collections::BTreeMap};

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry {
    id: "liboqs",
    name: "liboqs (Open Quantum Safe)",
    kind: Kind::LinkedIn,
    open,
    install: Some("rebuild cryptobench with `--features liboqs` (oqs-sys builds liboqs with cmake and needs libclang-dev)"),
    feature: Some("liboqs"),
    view: None,
    mask: None,
    known_defects: defects::KNOWN_DEFECTS,
    named: None,
};

/// Opens the backend, or says how to build it in.
fn open(_path: Option<&str>) -> Result<Box<dyn Backend>, OpenError> {
    #[cfg(feature = "liboqs")]
    return Ok(Box::new(LiboqsBackend::open()));
    #[cfg(not(feature = "liboqs"))]
    Err(OpenError::LeftOut {
        library: "liboqs",
        feature: "liboqs",
        needs: "oqs-sys builds liboqs from source with cmake and bindgen's libclang",
    })
}

#[cfg(feature = "liboqs")]
pub struct LiboqsBackend;

#[cfg(feature = "liboqs")]
impl LiboqsBackend {
    pub fn open() -> LiboqsBackend {
        // SAFETY: OQS_init only sets up liboqs's CPU detection; calling it again is harmless.
        unsafe { oqs::OQS_init() };
        LiboqsBackend
    }
}

/// The CPU extensions liboqs's dispatch reads, as it sees them.
#[cfg(feature = "liboqs")]
fn cpu_extensions() -> String {
    use oqs::OQS_CPU_EXT::*;
    let named = [
        (OQS_CPU_EXT_AVX2, "avx2"),
        (OQS_CPU_EXT_AVX512, "avx512"),
        (OQS_CPU_EXT_BMI2, "bmi2"),
        (OQS_CPU_EXT_POPCNT, "popcnt"),
        (OQS_CPU_EXT_AES, "aes"),
        (OQS_CPU_EXT_ARM_NEON, "neon"),
    ];
    let on: Vec<&str> = named
        .iter()
        // SAFETY: a query of the features OQS_init detected.
        .filter(|(ext, _)| unsafe { oqs::OQS_CPU_has_extension(*ext) } != 0)
        .map(|(_, name)| *name)
        .collect();
    on.join(",")
}

#[cfg(feature = "liboqs")]
impl Library for LiboqsBackend {
    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }

    fn info(&self) -> BackendInfo {
        // SAFETY: OQS_version returns a static string.
        let version = crate::native::text(unsafe { oqs::OQS_version() }).unwrap_or_else(|| "unknown".into());
        let mut details = BTreeMap::new();
        details.insert("OQS_CPU_has_extension".to_string(), cpu_extensions());
        ENTRY.info(
            format!("liboqs {version} (oqs-sys, built from its vendored source)"),
            std::env::current_exe().ok().map(|p| p.display().to_string()),
            None,
            details,
        )
    }
}

//! GnuTLS's view of the CPU and its masks (x86): the registry's `view` and
//! `mask` hooks.
//!
//! GnuTLS registers its accelerated implementations at initialisation and
//! logs what it found (accel.rs); the gnutls backend reports those lines as
//! "gnutls: Intel AES accelerator was detected; …". `GNUTLS_CPUID_OVERRIDE`
//! replaces the detection by a set of capabilities
//! (lib/accelerated/x86/x86-common.c, GnuTLS 3.7: EMPTY_SET 0x1,
//! INTEL_AES_NI 0x2, INTEL_SSSE3 0x4, INTEL_PCLMUL 0x8, INTEL_AVX 0x10,
//! INTEL_SHA 0x20; a requested capability the CPU lacks is left out with a
//! "requested but not available" line), so a mask is every capability
//! minus the families switched off.

use cryptobench_core::catalog::Family;
use cryptobench_cpu::features::Feature;

use crate::registry::{features_named, Mask, MaskContext};

/// The environment variable GnuTLS reads for its CPU capabilities (x86-common.c, register_x86_crypto).
pub const CPUID_OVERRIDE_ENV: &str = "GNUTLS_CPUID_OVERRIDE";

const EMPTY_SET: u32 = 0x1;
const INTEL_AES_NI: u32 = 0x2;
const INTEL_SSSE3: u32 = 0x4;
const INTEL_PCLMUL: u32 = 0x8;
const INTEL_AVX: u32 = 0x10;
const INTEL_SHA: u32 = 0x20;

/// The variable and value that leave every capability on except `families`.
fn env_mask(families: &[Family]) -> (&'static str, String) {
    let mut caps = INTEL_AES_NI | INTEL_SSSE3 | INTEL_PCLMUL | INTEL_AVX | INTEL_SHA;
    for f in families {
        caps &= !match f {
            Family::Aes => INTEL_AES_NI,
            Family::Clmul => INTEL_PCLMUL,
            Family::Sha => INTEL_SHA,
            // GnuTLS's vector paths: the SSSE3 AES/GCM/SHA code and the AVX GCM.
            Family::Simd => INTEL_SSSE3 | INTEL_AVX,
            // No capability bit of GnuTLS's selects big-number code.
            Family::Bignum => 0,
        };
    }
    // 0 would mean "detect"; EMPTY_SET asks for none.
    (CPUID_OVERRIDE_ENV, format!("0x{:x}", if caps == 0 { EMPTY_SET } else { caps }))
}

/// The CPU features a mask of `families` switches off (GnuTLS has no VAES,
/// SHA512, AVX2 or AVX-512 code to switch).
fn cleared(families: &[Family]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for f in families {
        out.extend_from_slice(match f {
            Family::Aes => &["aes"][..],
            Family::Clmul => &["pclmulqdq"],
            Family::Sha => &["sha_ni"],
            Family::Simd => &["ssse3", "avx"],
            Family::Bignum => &[],
        });
    }
    out
}

/// Log line → the features it shows GnuTLS uses (the GCM accelerator is
/// registered only with PCLMUL, its AVX variant only with AVX and MOVBE).
const LINES: &[(&str, &[&str])] = &[
    ("Intel SSSE3 was detected", &["ssse3"]),
    ("Intel AES accelerator was detected", &["aes"]),
    ("Intel GCM accelerator (AVX) was detected", &["pclmulqdq", "avx"]),
    ("Intel GCM accelerator was detected", &["pclmulqdq"]),
    ("Intel SHA was detected", &["sha_ni"]),
];

/// Features the log can express.
const UNDERSTOOD: &[&str] = &["ssse3", "aes", "pclmulqdq", "sha_ni"];

/// Decodes "gnutls: …; …" as the backend reports it.
fn features(capabilities: &str) -> Option<Vec<Feature>> {
    let lines = capabilities.trim().strip_prefix("gnutls:")?;
    Some(features_named(lines.split(';').map(str::trim), LINES, |line| {
        format!("GnuTLS: {line}")
    }))
}

/// The registry's view hook: the accelerator lines decoded.
pub fn view(capabilities: &str, _version: Option<&str>) -> Option<(Vec<Feature>, &'static [&'static str])> {
    features(capabilities).map(|f| (f, UNDERSTOOD))
}

/// The registry's mask hook: `GNUTLS_CPUID_OVERRIDE` names x86 capabilities only.
pub fn mask(ctx: &MaskContext<'_>, families: &[Family]) -> Result<Mask, String> {
    if ctx.arch != "x86_64" && ctx.arch != "x86" {
        return Err(format!("{CPUID_OVERRIDE_ENV} masks are built for x86 only, not {}", ctx.arch));
    }
    Ok(Mask::new(env_mask(families), cleared(families)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_leave_the_other_capabilities_on() {
        assert_eq!(env_mask(&[Family::Aes]), (CPUID_OVERRIDE_ENV, "0x3c".to_string()));
        assert_eq!(env_mask(&[Family::Clmul]).1, "0x36");
        assert_eq!(env_mask(&[Family::Sha]).1, "0x1e");
        assert_eq!(env_mask(&[Family::Aes, Family::Clmul, Family::Sha]).1, "0x14");
        assert_eq!(env_mask(&[Family::Simd]).1, "0x2a");
        assert_eq!(env_mask(&Family::ALL).1, "0x1");
    }

    fn context(arch: &str) -> MaskContext<'_> {
        MaskContext {
            capabilities: None,
            cpu: &[],
            vendor: None,
            arch,
        }
    }

    #[test]
    fn masks_are_built_for_x86_only() {
        let m = mask(&context("x86_64"), &[Family::Aes, Family::Simd]).unwrap();
        assert_eq!((m.var, m.value.as_str()), (CPUID_OVERRIDE_ENV, "0x28"));
        assert_eq!(m.cleared, vec!["aes", "ssse3", "avx"]);
        assert_eq!(
            mask(&context("aarch64"), &[Family::Aes]).unwrap_err(),
            "GNUTLS_CPUID_OVERRIDE masks are built for x86 only, not aarch64"
        );
    }

    #[test]
    fn decodes_the_log_lines() {
        let f = features("gnutls: Intel SSSE3 was detected; Intel SHA was detected; Intel AES accelerator was detected; Intel GCM accelerator (AVX) was detected").unwrap();
        let names: Vec<&str> = f.iter().map(|x| x.name).collect();
        assert_eq!(names, vec!["ssse3", "sha_ni", "aes", "pclmulqdq", "avx"]);
        assert!(features("gnutls: no accelerator detected").unwrap().is_empty());
        assert!(features("hwflist:intel-aesni").is_none());
        assert_eq!(
            view("gnutls: Intel SHA was detected", None).map(|(f, u)| (f.len(), u.len())),
            Some((1, 4))
        );
    }
}

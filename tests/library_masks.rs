//! The audit's masks of the newer libraries take effect: a worker started
//! with a library's mask reports a CPU view without the masked family, in
//! the library's own words (GnuTLS's accelerator log, Botan's CPUID bits,
//! the capability vector of AWS-LC and BoringSSL), while the view without
//! the mask has it.

mod common;

use common::cryptobench;
#[cfg(target_arch = "x86_64")]
use cryptobench_backends::libraries::{capability_view, find};
#[cfg(target_arch = "x86_64")]
use cryptobench_backends::registry::MaskContext;
#[cfg(target_arch = "x86_64")]
use cryptobench_core::catalog::Family;
use serde_json::Value;

/// The CPU view a backend's worker reports (`backends --format json`), with `env` set.
fn view(id: &str, env: Option<(&str, &str)>) -> Result<Option<String>, String> {
    let mut cmd = cryptobench();
    cmd.args(["backends", "--format", "json"]);
    if let Some((var, value)) = env {
        cmd.env(var, value);
    }
    let out = cmd.output().expect("cryptobench runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let entry = json["backends"]
        .as_array()
        .and_then(|list| list.iter().find(|b| b["id"] == id))
        .unwrap_or_else(|| panic!("{id} is not listed"));
    if entry["available"] != true {
        return Err(entry["reason"].as_str().unwrap_or("unavailable").to_string());
    }
    Ok(entry["backend"]["cpu_capabilities"].as_str().map(str::to_string))
}

#[cfg(target_arch = "x86_64")]
fn names(id: &str, capabilities: &str) -> Vec<&'static str> {
    capability_view(id, capabilities, None)
        .map(|(features, _)| features.into_iter().map(|f| f.name).collect())
        .unwrap_or_default()
}

/// The variable and value of `id`'s registry mask that switches the AES family off.
#[cfg(target_arch = "x86_64")]
fn aes_mask(id: &str) -> (&'static str, String) {
    let ctx = MaskContext {
        capabilities: None,
        cpu: &[],
        vendor: None,
        arch: std::env::consts::ARCH,
    };
    let mask = find(id).and_then(|e| e.mask).expect("a maskable library");
    let m = mask(&ctx, &[Family::Aes]).expect("an AES mask on x86_64");
    (m.var, m.value)
}

/// `kept`: a feature of another family, which must stay as it was.
#[cfg(target_arch = "x86_64")]
fn aes_off_takes_effect(id: &str, var: &str, value: &str, kept: &str) {
    let plain = match view(id, None) {
        Ok(Some(v)) => v,
        Ok(None) => panic!("{id} reports no CPU view"),
        Err(why) => return cryptobench_testkit::backend_unavailable(id, why),
    };
    if !names(id, &plain).contains(&"aes") {
        return cryptobench_testkit::platform_lacks("AES instructions", format!("{id} does not use them here: {plain}"));
    }
    let masked = view(id, Some((var, value))).unwrap_or_else(|why| panic!("{id} with {var}={value}: {why}"));
    let masked = masked.unwrap_or_else(|| panic!("{id} reports no CPU view with {var}={value}"));
    assert!(
        !names(id, &masked).contains(&"aes"),
        "{id} with {var}={value} still reports AES: {masked}"
    );
    // Only the family goes.
    assert_eq!(
        names(id, &plain).contains(&kept),
        names(id, &masked).contains(&kept),
        "{id}: {plain} / {masked}"
    );
}

#[cfg(target_arch = "x86_64")]
#[test]
fn gnutls_cpuid_override_takes_effect() {
    let (var, value) = aes_mask("gnutls");
    // GnuTLS registers its PCLMUL GCM only beside AES-NI (x86-common.c), so
    // the AES mask hides that line too; SHA-NI is the family that stays.
    aes_off_takes_effect("gnutls", var, &value, "sha_ni");
}

#[cfg(target_arch = "x86_64")]
#[test]
fn botan_clear_cpuid_takes_effect() {
    let (var, value) = aes_mask("botan");
    aes_off_takes_effect("botan", var, &value, "pclmulqdq");
}

/// AES-NI (word 0 bit 57) and VAES (word 1 bit 41), as the OpenSSL mask of the aes family.
#[cfg(target_arch = "x86_64")]
const AES_OFF: &str = "~0x200000000000000:~0x20000000000";

#[cfg(target_arch = "x86_64")]
#[test]
fn aws_lc_honours_openssl_ia32cap() {
    aes_off_takes_effect("aws-lc-rs", "OPENSSL_ia32cap", AES_OFF, "pclmulqdq");
}

#[cfg(target_arch = "x86_64")]
#[test]
fn boringssl_honours_openssl_ia32cap() {
    aes_off_takes_effect("boring", "OPENSSL_ia32cap", AES_OFF, "pclmulqdq");
}

/// AWS-LC aborts the process when OPENSSL_ia32cap or OPENSSL_armcap asks
/// for a capability it did not find (cpu_intel.c, cpu_aarch64.c). Built
/// without its static initializer (.cargo/config.toml) it reads them only
/// when the aws-lc-rs backend opens, so another backend's mask — OpenSSL's
/// aarch64 masks are absolute values in OpenSSL's bit layout — cannot abort
/// a worker that merely links AWS-LC.
#[test]
fn aws_lc_reads_the_openssl_variables_only_when_it_opens() {
    // Only a build that links AWS-LC (the feature `aws-lc`) can show it.
    if let Err(why) = view("aws-lc-rs", None) {
        return cryptobench_testkit::backend_unavailable("aws-lc-rs", why);
    }
    let var = if cfg!(target_arch = "aarch64") {
        "OPENSSL_armcap"
    } else {
        "OPENSSL_ia32cap"
    };
    let out = cryptobench()
        .args(["algorithms", "--format", "json"])
        .env(var, "0xffffffffffffffff:0xffffffffffffffff")
        .output()
        .expect("cryptobench runs");
    assert!(out.status.success(), "{var}: {}", String::from_utf8_lossy(&out.stderr));
}

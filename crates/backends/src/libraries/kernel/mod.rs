//! The Linux kernel's crypto API through AF_ALG sockets (skcipher, aead,
//! hash), the path to in-kernel drivers and crypto co-processors. The driver
//! the kernel chose for an algorithm (the highest-priority implementation
//! of that name in `/proc/crypto`) is reported per cell. Where the socket
//! family is refused (EAFNOSUPPORT, or EPERM in some containers), and on
//! every system but Linux, the library is unavailable with that reason.

#[cfg(target_os = "linux")]
mod calls;
#[cfg(target_os = "linux")]
mod sessions;
#[cfg(target_os = "linux")]
mod socket;

use std::fmt::Display;

use cryptobench_core::AlgorithmSpec;

use crate::backend::Backend;
use crate::error::OpenError;
use crate::registry::{Entry, Kind};

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry {
    id: "kernel",
    name: "Linux kernel crypto API",
    kind: Kind::OsApi,
    open,
    install: Some("a Linux kernel with AF_ALG (CONFIG_CRYPTO_USER_API_SKCIPHER, _AEAD, _HASH) and a sandbox that allows the socket family"),
    feature: None,
    view: None,
    mask: None,
    known_defects: &[],
    named: None,
};

/// Why the kernel's crypto API cannot be reached: `what` the operating
/// system refuses. (The words are those crates/testkit recognises,
/// REFUSED_BY_THE_OS: a fact of the platform, not a missing install.)
fn refused(what: impl Display) -> OpenError {
    OpenError::Refused(format!(
        "the operating system refuses {what}, so the kernel's crypto API cannot be reached; on Linux, \
         `--worker uml` runs the worker inside User-Mode Linux instead (apt-get install user-mode-linux kmod)"
    ))
}

/// The host line of `/proc/cpuinfo` where this kernel is User-Mode Linux
/// (arch/um/kernel/um_arch.c writes `vendor_id : User Mode Linux` and the
/// host's uname as `host`): a kernel running as a process, whose system
/// calls its host intercepts.
#[cfg_attr(not(any(target_os = "linux", test)), allow(dead_code))]
fn uml_host(cpuinfo: &str) -> Option<String> {
    let field = |key: &str| {
        cpuinfo.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == key).then(|| v.trim().to_string())
        })
    };
    (field("vendor_id")? == "User Mode Linux").then(|| field("host").unwrap_or_else(|| "unknown".into()))
}

#[cfg(target_os = "linux")]
fn open(path: Option<&str>) -> Result<Box<dyn Backend>, OpenError> {
    let _ = path; // an OS interface loads no file (the registry refuses a path first)
    Ok(Box::new(linux::KernelLibrary::open()?))
}

#[cfg(not(target_os = "linux"))]
fn open(path: Option<&str>) -> Result<Box<dyn Backend>, OpenError> {
    let _ = path;
    Err(refused("AF_ALG sockets (only Linux has them)"))
}

/// (AF_ALG type, kernel algorithm name) of a catalog algorithm.
#[cfg_attr(not(any(target_os = "linux", test)), allow(dead_code))]
fn kernel_name(alg: &AlgorithmSpec) -> Option<(&'static str, String)> {
    let digest = |n: &str| Some(("hash", n.to_string()));
    match alg.id {
        "chacha20-poly1305" => return Some(("aead", "rfc7539(chacha20,poly1305)".into())),
        "des-ede3-cbc" => return Some(("skcipher", "cbc(des3_ede)".into())),
        "md5" | "sha1" | "sha224" | "sha256" | "sha384" | "sha512" | "sha3-256" | "sha3-512" => return digest(alg.id),
        "blake2b512" => return digest("blake2b-512"),
        "blake2s256" => return digest("blake2s-256"),
        _ => {}
    }
    let mode = alg.id.strip_prefix("aes-")?.split_once('-')?.1;
    // Modes whose kernel IV and tag conventions are those of the catalog; CCM (a 16-byte
    // IV carrying L'), GCM-SIV, OCB and SIV are not mapped.
    if !matches!(mode, "ecb" | "cbc" | "cfb128" | "ctr" | "gcm" | "xts") {
        return None;
    }
    let mode = if mode == "cfb128" { "cfb" } else { mode };
    let kind = if mode == "gcm" { "aead" } else { "skcipher" };
    Some((kind, format!("{mode}(aes)")))
}

/// The driver `/proc/crypto` lists with the highest priority for `name`: the one the kernel uses.
#[cfg(target_os = "linux")]
fn driver_of(name: &str) -> Option<String> {
    driver_in(&std::fs::read_to_string("/proc/crypto").ok()?, name)
}

/// [`driver_of`] over the text of `/proc/crypto`: entries separated by blank
/// lines, `key : value` lines; entries whose self-test did not pass are ignored.
#[cfg_attr(not(any(target_os = "linux", test)), allow(dead_code))]
fn driver_in(text: &str, name: &str) -> Option<String> {
    let mut best: Option<(i64, String)> = None;
    for entry in text.split("\n\n") {
        let field = |key: &str| {
            entry.lines().find_map(|l| {
                let (k, v) = l.split_once(':')?;
                (k.trim() == key).then(|| v.trim().to_string())
            })
        };
        if field("name").as_deref() != Some(name) || field("selftest").is_some_and(|s| s != "passed") {
            continue;
        }
        let priority = field("priority").and_then(|p| p.parse().ok()).unwrap_or(0);
        if let Some(driver) = field("driver") {
            if best.as_ref().is_none_or(|(p, _)| priority > *p) {
                best = Some((priority, driver));
            }
        }
    }
    best.map(|(_, d)| d)
}

#[cfg(target_os = "linux")]
mod linux {
    //! The library on Linux: the transformation sockets, and the sessions
    //! over their operation sockets (sessions.rs).

    use std::collections::BTreeMap;

    use cryptobench_core::result::BackendInfo;
    use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode};

    use super::calls::os_error;
    use super::sessions::{aad_scratch, KernelCipher, KernelDigest, NO_AEAD_STREAM, NO_REKEY};
    use super::socket::{family_available, Tfm};
    use super::{driver_of, kernel_name, refused};
    use crate::error::{BackendError, OpenError};
    use crate::library::{CipherTask, DigestTask, Library};

    pub struct KernelLibrary {
        release: String,
        /// The host's uname where this kernel is User-Mode Linux.
        uml_host: Option<String>,
    }

    impl KernelLibrary {
        pub fn open() -> Result<KernelLibrary, OpenError> {
            family_available().map_err(|e| refused(format_args!("AF_ALG sockets here ({e})")))?;
            // SAFETY: uname fills a plain struct.
            let mut u: libc::utsname = unsafe { std::mem::zeroed() };
            let release = if unsafe { libc::uname(&mut u) } == 0 {
                // SAFETY: uname NUL-terminates its fields.
                unsafe { std::ffi::CStr::from_ptr(u.release.as_ptr()) }
                    .to_string_lossy()
                    .into_owned()
            } else {
                "unknown".into()
            };
            let uml_host = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|c| super::uml_host(&c));
            Ok(KernelLibrary { release, uml_host })
        }

        /// A bound transformation, keyed (and with the tag length set, for AEADs).
        fn tfm(&self, alg: &AlgorithmSpec, key: &[u8]) -> Result<Tfm, BackendError> {
            let (kind, name) =
                kernel_name(alg).ok_or_else(|| BackendError::Unsupported(format!("{} (no kernel algorithm mapped)", alg.id)))?;
            let tfm = Tfm::bind(kind, &name).map_err(|e| match e.raw_os_error() {
                Some(libc::ENOENT) => BackendError::Unsupported(format!("{} (the kernel has no {name})", alg.id)),
                _ => BackendError::Unsupported(format!("{} (binding {name} fails: {e})", alg.id)),
            })?;
            if !alg.is_digest() {
                tfm.set_key(key).map_err(|e| os_error("setsockopt(ALG_SET_KEY)", e))?;
            }
            if alg.class == AlgorithmClass::Aead {
                tfm.set_authsize(alg.tag_len)
                    .map_err(|e| os_error("setsockopt(ALG_SET_AEAD_AUTHSIZE)", e))?;
            }
            Ok(tfm)
        }
    }

    impl Library for KernelLibrary {
        fn info(&self) -> BackendInfo {
            let mut details = BTreeMap::new();
            details.insert("interface".to_string(), "AF_ALG (skcipher, aead, hash)".to_string());
            let version = match &self.uml_host {
                Some(host) => {
                    details.insert(
                        "kernel".to_string(),
                        format!(
                            "User-Mode Linux {}, a kernel run as a process on {host}: its drivers are the generic C code, \
                             and every system call passes through the host",
                            self.release
                        ),
                    );
                    format!("Linux {} (User-Mode Linux)", self.release)
                }
                None => {
                    details.insert("kernel".to_string(), format!("Linux {}", self.release));
                    format!("Linux {}", self.release)
                }
            };
            BackendInfo {
                name: "Linux kernel".into(),
                ..super::ENTRY.info(version, None, None, details)
            }
        }

        fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
            task.with(|encrypt| {
                let tfm = self.tfm(alg, key)?;
                let op = tfm.accept().map_err(|e| os_error("accept", e))?;
                let aead = alg.class == AlgorithmClass::Aead;
                Ok(KernelCipher {
                    _tfm: tfm,
                    op,
                    encrypt,
                    aead,
                    xts: alg.id.ends_with("-xts"),
                    block: if alg.id.starts_with("des") { 8 } else { 16 },
                    iv: iv.to_vec(),
                    started: false,
                    aad_out: aad_scratch(aead),
                })
            })
        }

        fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
            let tfm = self.tfm(alg, &[])?;
            let op = tfm.accept().map_err(|e| os_error("accept", e))?;
            task.with(KernelDigest {
                _tfm: tfm,
                op,
                len: alg.digest_len,
            })
        }

        fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
            kernel_name(alg)?;
            if cell.rekey {
                return Some(format!("{} with --rekey ({NO_REKEY})", alg.id));
            }
            if cell.mode != Mode::Stream || alg.is_digest() {
                return None;
            }
            if alg.class == AlgorithmClass::Aead {
                return Some(format!("{} in stream mode ({NO_AEAD_STREAM})", alg.id));
            }
            // CTR and CFB chain through the kernel's IV only after whole blocks.
            if alg.granularity == 1 && !alg.id.ends_with("-xts") && !cell.size.is_multiple_of(16) {
                return Some(format!(
                    "{} in stream mode with {}-byte updates (the kernel chains only after whole 16-byte blocks)",
                    alg.id, cell.size
                ));
            }
            None
        }

        fn implementation(&self, alg: &AlgorithmSpec) -> Option<String> {
            driver_of(&kernel_name(alg)?.1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROC_CRYPTO: &str = "name         : gcm(aes)
driver       : gcm_base(ctr(aes-generic),ghash-generic)
module       : gcm
priority     : 100
selftest     : passed
type         : aead

name         : gcm(aes)
driver       : generic-gcm-aesni
module       : aesni_intel
priority     : 400
selftest     : passed
type         : aead

name         : gcm(aes)
driver       : broken-gcm
priority     : 900
selftest     : unknown

name         : sha256
driver       : sha256-generic
priority     : 100
";

    #[test]
    fn the_highest_priority_tested_driver_is_the_one_used() {
        assert_eq!(driver_in(PROC_CRYPTO, "gcm(aes)").as_deref(), Some("generic-gcm-aesni"));
        assert_eq!(driver_in(PROC_CRYPTO, "sha256").as_deref(), Some("sha256-generic"));
        assert_eq!(driver_in(PROC_CRYPTO, "cbc(aes)"), None);
    }

    #[test]
    fn user_mode_linux_is_recognised_from_cpuinfo() {
        let uml = "processor\t: 0\nvendor_id\t: User Mode Linux\nmodel name\t: UML\nmode\t\t: skas\nhost\t\t: Linux vm 6.18.44 x86_64\n";
        assert_eq!(uml_host(uml).as_deref(), Some("Linux vm 6.18.44 x86_64"));
        assert_eq!(uml_host("processor\t: 0\nvendor_id\t: GenuineIntel\n"), None);
    }

    #[test]
    fn a_refusal_says_so_as_the_tests_expect() {
        let e = refused("AF_ALG sockets here (Address family not supported by protocol (os error 97))");
        assert!(e.to_string().contains(cryptobench_testkit::REFUSED_BY_THE_OS), "{e}");
        // Where this machine refuses them (a sandbox, another system), the same words.
        if let Err(e) = open(None) {
            assert!(e.to_string().contains(cryptobench_testkit::REFUSED_BY_THE_OS), "{e}");
        }
    }

    #[test]
    fn catalog_ids_map_to_kernel_names() {
        let name = |id: &str| kernel_name(cryptobench_core::catalog::find(id).unwrap());
        assert_eq!(name("aes-256-gcm"), Some(("aead", "gcm(aes)".into())));
        assert_eq!(name("aes-128-cfb128"), Some(("skcipher", "cfb(aes)".into())));
        assert_eq!(name("aes-256-xts"), Some(("skcipher", "xts(aes)".into())));
        assert_eq!(name("chacha20-poly1305"), Some(("aead", "rfc7539(chacha20,poly1305)".into())));
        assert_eq!(name("des-ede3-cbc"), Some(("skcipher", "cbc(des3_ede)".into())));
        assert_eq!(name("blake2b512"), Some(("hash", "blake2b-512".into())));
        for alg in cryptobench_core::CATALOG.iter().take(29) {
            assert!(kernel_name(alg).is_some(), "{} has no kernel name", alg.id);
        }
        assert_eq!(name("aes-128-ccm"), None);
        assert_eq!(name("hmac-sha256"), None);
    }
}

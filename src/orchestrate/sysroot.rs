//! The root a foreign worker's dynamic loader and libraries come from:
//! qemu-user's `-L ROOT` makes every absolute path the guest opens resolve
//! under ROOT first and on the host second, so the guest's loader, C
//! library and crypto libraries may live in a folder of their own.
//!
//! Looked for, in order: `CRYPTOBENCH_<NAME>_SYSROOT`; the sysroot that
//! `scripts/cross-sysroot NAME` makes under the cache folder
//! (`~/.cache/cryptobench/sysroots/<name>`, `CRYPTOBENCH_CACHE` overrides),
//! Debian's packages of the target unpacked there, or for riscv64, for which
//! Debian 12 has no archive, the cross C library with an OpenSSL built by
//! `bench/build-openssl`; then `/` with the multiarch folders. The first
//! that holds the target's dynamic loader is taken.

use std::path::PathBuf;

use anyhow::Result;
use cryptobench_backends::libraries::runtime::cache_root;

use super::targets::Target;
use crate::exit::usage;

/// The variable that names a sysroot for `t`, e.g. CRYPTOBENCH_S390X_SYSROOT.
pub fn variable(t: &Target) -> String {
    format!("CRYPTOBENCH_{}_SYSROOT", t.name.to_ascii_uppercase())
}

/// The sysroot `scripts/cross-sysroot` makes for `t`.
pub fn made_by_script(t: &Target) -> PathBuf {
    cache_root().join("sysroots").join(t.name)
}

/// The roots looked at for `t`, in order.
pub fn candidates(t: &Target) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(named) = std::env::var_os(variable(t)).filter(|v| !v.is_empty()) {
        out.push(PathBuf::from(named));
    }
    out.push(made_by_script(t));
    out.push(PathBuf::from("/"));
    out
}

/// Whether `root` holds the loader of `t` (a link that leaves the root and
/// dangles there counts as missing, as it does for qemu).
fn holds_loader(root: &std::path::Path, t: &Target) -> bool {
    root.join(t.loader.trim_start_matches('/')).exists()
}

/// The root to give qemu-user's `-L` for `t`: the first candidate that holds
/// its dynamic loader. A root named by the variable must hold it.
pub fn find(t: &Target) -> Result<PathBuf> {
    if let Some(named) = std::env::var_os(variable(t)).filter(|v| !v.is_empty()) {
        let root = PathBuf::from(named);
        return if holds_loader(&root, t) {
            Ok(root)
        } else {
            Err(usage(format!(
                "--arch {}: {}={} holds no {} dynamic loader ({} under it); make one with scripts/cross-sysroot {} {}",
                t.name,
                variable(t),
                root.display(),
                t.name,
                t.loader,
                t.name,
                root.display()
            )))
        };
    }
    if let Some(root) = candidates(t).into_iter().find(|r| holds_loader(r, t)) {
        return Ok(root);
    }
    let install = if t.debian_archive {
        format!(
            "or install the target's packages beside this system's: dpkg --add-architecture {d}; apt-get update; \
             apt-get install libc6:{d} libssl3:{d} (their versions must equal the installed {h} ones)",
            d = t.debian,
            h = std::env::consts::ARCH
        )
    } else {
        format!("(Debian 12 has no {} archive: the script builds OpenSSL for it)", t.debian)
    };
    Err(usage(format!(
        "--arch {}: the {} dynamic loader {} is in none of: {}; make a sysroot with: scripts/cross-sysroot {} {}",
        t.name,
        t.name,
        t.loader,
        candidates(t).iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "),
        t.name,
        install
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_s_sysroot_comes_before_the_system_root() {
        let t = super::super::targets::target("s390x").unwrap();
        let c = candidates(t);
        assert!(c.iter().any(|p| p.ends_with("sysroots/s390x")), "{c:?}");
        assert_eq!(c.last().unwrap(), &PathBuf::from("/"));
        assert_eq!(variable(t), "CRYPTOBENCH_S390X_SYSROOT");
    }

    #[test]
    fn a_root_without_the_loader_is_passed_over() {
        let t = super::super::targets::target("riscv64").unwrap();
        let empty = tempfile::tempdir().unwrap();
        assert!(!holds_loader(empty.path(), t));
        std::fs::create_dir_all(empty.path().join("lib")).unwrap();
        std::fs::write(empty.path().join("lib/ld-linux-riscv64-lp64d.so.1"), b"").unwrap();
        assert!(holds_loader(empty.path(), t));
    }
}

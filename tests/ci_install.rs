//! What `.ci/run` installs, checked where a rule can say what is missing
//! without a fresh machine: its `apt-get install` runs with
//! `--no-install-recommends`, so whatever a package only recommends must be
//! named in the list itself. A cross gcc only recommends its C library's
//! headers (`libc6-dev-ARCH-cross`): without them ring's C does not build for
//! that target (`bits/libc-header-start.h: No such file or directory`), and a
//! machine that had them from earlier work hid it. A fresh Debian 12 root
//! runs the whole of `.ci/run`: `scripts/fresh-debian-ci`.

use std::collections::BTreeSet;
use std::path::Path;

fn ci_script() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run")).expect(".ci/run is readable")
}

/// The words of every bash array assigned in `script` (`NAME=(…)` and
/// `NAME+=(…)`, over several lines), comments left out, by array name.
fn arrays(script: &str) -> Vec<(String, Vec<String>)> {
    let code: String = script
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = Vec::new();
    let mut rest = code.as_str();
    while let Some(open) = rest.find("=(") {
        let before = &rest[..open];
        let name: String = before
            .trim_end_matches('+')
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let body = &rest[open + 2..];
        let close = body.find(')').expect("an array closes");
        found.push((name, body[..close].split_whitespace().map(str::to_owned).collect()));
        rest = &body[close..];
    }
    found
}

/// The Debian packages `.ci/run` installs by name: its `packages` and `windows_packages` arrays.
fn installed_by_name(script: &str) -> BTreeSet<String> {
    arrays(script)
        .into_iter()
        .filter(|(name, _)| name == "packages" || name == "windows_packages")
        .flat_map(|(_, words)| words)
        .filter(|w| !w.starts_with('"') && !w.contains('$'))
        .collect()
}

/// Debian's name of the architecture of a GNU triple's first part (the
/// Multiarch tuples, wiki.debian.org/Multiarch/Tuples), for the cross
/// compilers `.ci/run` installs.
const DEBIAN_ARCH_OF_GNU_CPU: &[(&str, &str)] = &[
    ("aarch64", "arm64"),
    ("powerpc64le", "ppc64el"),
    ("s390x", "s390x"),
    ("riscv64", "riscv64"),
];

/// What is missing from `packages`: the headers of each cross C compiler
/// (`gcc-CPU-linux-gnu` needs `libc6-dev-ARCH-cross`), and the amd64 twin of
/// each `:arm64` package (the tests compare a library's arm64 build with its
/// native one). libc6 is on every Debian system (Priority: required).
fn missing_companions(packages: &BTreeSet<String>) -> Vec<String> {
    let mut missing = Vec::new();
    for package in packages {
        if let Some(cpu) = package.strip_prefix("gcc-").and_then(|p| p.strip_suffix("-linux-gnu")) {
            match DEBIAN_ARCH_OF_GNU_CPU.iter().find(|(gnu, _)| *gnu == cpu) {
                Some((_, arch)) => {
                    let headers = format!("libc6-dev-{arch}-cross");
                    if !packages.contains(&headers) {
                        missing.push(format!(
                            "{headers} (the C library headers {package} only recommends; without them no C builds for {cpu})"
                        ));
                    }
                }
                None => missing.push(format!(
                    "Debian's architecture name for {cpu} (the cross compiler {package}): add it to DEBIAN_ARCH_OF_GNU_CPU"
                )),
            }
        }
        if let Some(native) = package.strip_suffix(":arm64") {
            if native != "libc6" && !packages.contains(native) {
                missing.push(format!("{native} (the amd64 twin of {package})"));
            }
        }
    }
    missing
}

#[test]
fn the_package_list_is_read_whole() {
    let packages = installed_by_name(&ci_script());
    for expected in [
        "libssl3",
        "postgresql",
        "qemu-user",
        "libssl3:arm64",
        "gcc-s390x-linux-gnu",
        "wine64",
    ] {
        assert!(
            packages.contains(expected),
            "{expected} is in .ci/run's list, as read here: {packages:?}"
        );
    }
}

#[test]
fn every_cross_compiler_has_its_headers_and_every_arm64_library_its_twin() {
    let script = ci_script();
    assert!(
        script.contains("apt-get install -y -qq --no-install-recommends"),
        ".ci/run installs without recommends, which is why this test names them"
    );
    let missing = missing_companions(&installed_by_name(&script));
    assert!(missing.is_empty(), ".ci/run's packages lack:\n  {}", missing.join("\n  "));
}

#[test]
fn a_cross_compiler_without_its_headers_is_found() {
    let planted: BTreeSet<String> = [
        "gcc-riscv64-linux-gnu",
        "libc6-dev-s390x-cross",
        "gcc-s390x-linux-gnu",
        "libssl3:arm64",
        "gcc-mips-linux-gnu",
    ]
    .map(str::to_owned)
    .into();
    let missing = missing_companions(&planted);
    assert_eq!(missing.len(), 3, "{missing:?}");
    assert!(missing[0].starts_with("Debian's architecture name for mips"), "{missing:?}");
    assert!(missing[1].starts_with("libc6-dev-riscv64-cross"), "{missing:?}");
    assert!(missing[2].starts_with("libssl3 (the amd64 twin"), "{missing:?}");
}

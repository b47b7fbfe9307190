//! The OpenSSL build lab: `--backend openssl=@NAME` (a variant built by
//! bench/openssl-lab) and `cryptobench lab`, the table of builds side by side.

mod common;

use std::path::Path;

use common::cryptobench;

fn ok(out: std::process::Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn fails_with_2(out: std::process::Output) -> String {
    assert_eq!(out.status.code(), Some(2), "stdout: {}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// The real run of three OpenSSL builds (tests/fixtures/runs/README.md):
/// 1.1.1w and 4.0.3 from bench/build-openssl, folders named by their version.
const THREE_BUILDS: &str = "tests/fixtures/runs/three-builds.json";

#[test]
fn the_table_holds_every_build_against_the_baseline() {
    let text = ok(cryptobench().args(["lab", THREE_BUILDS, "--baseline", "4.0.3"]).output().unwrap());
    assert!(
        text.starts_with("B: OpenSSL 4.0.3 (baseline) — openssl=…/4.0.3/libcrypto.so\n"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

/// A real run of three bench/openssl-lab variants of 3.0.8 (gcc, clang, gcc no-asm).
const LAB_308: &str = "tests/fixtures/runs/lab-3.0.8.json";

#[test]
fn lab_variants_are_named_by_their_build() {
    let text = ok(cryptobench().args(["lab", LAB_308, "--baseline", "3.0.8-gcc-O3"]).output().unwrap());
    for line in [
        "B: OpenSSL 3.0.8 · gcc 12.2.0 -O3 (baseline) — openssl=…/3.0.8-gcc-O3/libcrypto.so\n",
        "1: OpenSSL 3.0.8 · clang 14.0.6 -O3 — openssl=…/3.0.8-clang-O3/libcrypto.so\n",
        "2: OpenSSL 3.0.8 · gcc 12.2.0 -O3 · no-asm — openssl=…/3.0.8-gcc-O3-noasm/libcrypto.so\n",
    ] {
        assert!(text.contains(line), "{line}{text}");
    }
    insta::assert_snapshot!(text);
}

#[test]
fn markdown_and_html() {
    let md = ok(cryptobench()
        .args(["lab", THREE_BUILDS, "--baseline", "@1.1.1w", "--format", "markdown"])
        .output()
        .unwrap());
    insta::assert_snapshot!(md);
    let html = ok(cryptobench()
        .args(["lab", THREE_BUILDS, "--baseline", "2", "--format", "html"])
        .output()
        .unwrap());
    assert!(
        html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"),
        "{html}"
    );
    // Baseline by index 2 (indices count from 1): the system's 3.0.19.
    assert!(html.contains("<li>B: OpenSSL 3.0.19 (baseline) — openssl</li>"), "{html}");
    assert_eq!(html.matches("<tr>").count(), 1 + 12, "a header and the 12 cells: {html}");
}

#[test]
fn an_unknown_baseline_lists_the_configurations() {
    let err = fails_with_2(
        cryptobench()
            .args(["lab", THREE_BUILDS, "--baseline", "3.5.5-gcc-O3"])
            .output()
            .unwrap(),
    );
    assert!(err.contains("--baseline 3.5.5-gcc-O3: no configuration"), "{err}");
    assert!(err.contains("[1] openssl=…/1.1.1w/libcrypto.so = OpenSSL 1.1.1w"), "{err}");
    assert!(err.contains("[3] openssl=…/4.0.3/libcrypto.so = OpenSSL 4.0.3"), "{err}");
}

#[test]
fn a_run_of_one_configuration_has_no_lab_table() {
    let err = fails_with_2(cryptobench().args(["lab", "tests/fixtures/runs/core-types.json"]).output().unwrap());
    assert!(err.contains("builds side by side"), "{err}");
}

#[test]
fn an_unknown_variant_name_lists_the_built_ones() {
    let lab = tempfile::tempdir().unwrap();
    for name in ["3.5.5-gcc-O3", "3.5.5-clang-O3-noasm"] {
        std::fs::create_dir(lab.path().join(name)).unwrap();
        std::fs::write(lab.path().join(name).join("libcrypto.so"), b"").unwrap();
    }
    let err = fails_with_2(
        cryptobench()
            .env("CRYPTOBENCH_OPENSSL_LAB", lab.path())
            .args(["run", "--backend", "openssl=@3.0.8-gcc-O3"])
            .output()
            .unwrap(),
    );
    assert!(err.contains("no OpenSSL lab variant named '3.0.8-gcc-O3'"), "{err}");
    assert!(err.contains("built: 3.5.5-clang-O3-noasm, 3.5.5-gcc-O3"), "{err}");
    let empty = tempfile::tempdir().unwrap();
    let err = fails_with_2(
        cryptobench()
            .env("CRYPTOBENCH_OPENSSL_LAB", empty.path())
            .args(["run", "--backend", "openssl=@x"])
            .output()
            .unwrap(),
    );
    assert!(err.contains("none is built in") && err.contains("bench/openssl-lab"), "{err}");
    let err = fails_with_2(cryptobench().args(["run", "--backend", "gcrypt=@x"]).output().unwrap());
    assert!(err.contains("has no named builds"), "{err}");
}

/// The system's libcrypto.so.3 of this architecture: where ldconfig knows
/// one, else in Debian's multiarch folder (an arm64 library installed
/// beside the amd64 one, run under qemu-user, is not in the host's cache).
fn system_libcrypto() -> Option<String> {
    let (arch, triple) = if cfg!(target_arch = "aarch64") {
        ("AArch64", "aarch64-linux-gnu")
    } else {
        ("x86-64", "x86_64-linux-gnu")
    };
    let listed = std::process::Command::new("ldconfig").arg("-p").output().ok().and_then(|out| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find(|l| l.trim_start().starts_with("libcrypto.so.3 ") && l.contains(arch))
            .and_then(|l| l.rsplit(" => ").next().map(str::to_string))
    });
    listed.or_else(|| {
        [format!("/usr/lib/{triple}/libcrypto.so.3"), format!("/lib/{triple}/libcrypto.so.3")]
            .into_iter()
            .find(|p| std::path::Path::new(p).is_file())
    })
}

#[test]
fn a_variant_name_loads_its_library_and_the_build_is_read_from_it() {
    if !common::system_openssl_available() {
        return;
    }
    let Some(system) = system_libcrypto() else {
        cryptobench_testkit::missing("libcrypto.so.3 in ldconfig's cache", "needed as a stand-in lab variant");
        return;
    };
    let lab = tempfile::tempdir().unwrap();
    let dir = lab.path().join("system-copy");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(Path::new(&system), dir.join("libcrypto.so")).unwrap();
    let out = ok(cryptobench()
        .env("CRYPTOBENCH_OPENSSL_LAB", lab.path())
        .args(["algorithms", "--backend", "openssl=@system-copy", "--format", "json"])
        .output()
        .unwrap());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let c = &v["configurations"][0];
    assert_eq!(c["available"], true, "{c}");
    let backend = &c["backend"];
    assert!(
        backend["library_path"].as_str().unwrap().ends_with("system-copy/libcrypto.so"),
        "{backend}"
    );
    // Its build, read from its compiler line and the file's compiler notes, names it.
    let build = backend["details"]["build"].as_str().expect("a build detail");
    assert!(build.contains(" -O"), "{build}");
    assert!(backend["version"].as_str().unwrap().ends_with(&format!(" · {build}")), "{backend}");
}

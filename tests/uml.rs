//! The kernel backend run for real inside User-Mode Linux (`--worker uml`):
//! where the sandbox refuses AF_ALG sockets, UML's own kernel serves them.
//! `.ci/run` installs user-mode-linux and kmod; without them these tests
//! skip with the reason, and fail under CI=true. Each prints how long the
//! boot and its work took (CI time; nothing is asserted about it).

mod common;

use std::time::Instant;

use common::{cryptobench, json, FAST};

/// Whether a worker can run under UML here; says why not otherwise.
fn uml_ready() -> bool {
    if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        cryptobench_testkit::platform_lacks(
            "User-Mode Linux for this build",
            "Debian's user-mode-linux is an x86-64 kernel, and runs this architecture's cryptobench only natively",
        );
        return false;
    }
    let out = cryptobench()
        .args(["algorithms", "--backend", "kernel", "--worker", "uml", "--format", "json"])
        .output()
        .unwrap();
    if out.status.code() == Some(2) {
        cryptobench_testkit::missing("user-mode-linux and kmod", String::from_utf8_lossy(&out.stderr).trim());
        return false;
    }
    true
}

#[test]
fn the_kernel_backend_verifies_inside_user_mode_linux() {
    if !uml_ready() {
        return;
    }
    let started = Instant::now();
    let out = cryptobench()
        .args([
            "verify",
            "--backend",
            "openssl",
            "--backend",
            "kernel",
            "--worker",
            "uml",
            "--algos",
            "aes-128-cbc,aes-128-ctr,aes-128-gcm,sha256",
            "--max-length",
            "64k",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    eprintln!("UML boot and verify of 4 algorithms: {:.1} s", started.elapsed().as_secs_f64());
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let kernel = v["backends"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b.to_string().contains("User-Mode Linux"))
        .unwrap_or_else(|| panic!("no backend of the verification names User-Mode Linux: {v}"));
    assert_eq!(kernel["configuration"], "kernel");
    // Known answers, round trips and tamper rejection first, for every algorithm.
    let verifications = kernel["verifications"].as_array().unwrap();
    assert_eq!(verifications.len(), 4, "{kernel}");
    for v in verifications {
        assert_eq!(v["status"], "passed", "{v}");
    }
    // Then the same outputs as OpenSSL's, and streamed in pieces as in one call.
    let mut agreed = 0;
    for r in kernel["reports"].as_array().unwrap() {
        assert!(r["failures"].as_array().unwrap().is_empty(), "{r}");
        if r["kind"] == "agreement" {
            agreed += r["passed"].as_u64().unwrap();
        }
    }
    assert!(agreed >= 4 * 5, "{agreed} agreement cases passed: {kernel}");
}

#[test]
fn a_quick_run_compares_openssl_with_the_kernel_inside_user_mode_linux() {
    if !uml_ready() {
        return;
    }
    let started = Instant::now();
    let out = cryptobench()
        .args([
            "run",
            "--backend",
            "openssl",
            "--backend",
            "kernel",
            "--worker",
            "uml",
            "--algos",
            "aes-128-cbc,aes-128-gcm,sha256",
            "--sizes",
            "16,1024",
            "--format",
            "json",
            "--no-save",
        ])
        .args(FAST)
        .output()
        .unwrap();
    eprintln!("UML boot and quick run of 3 algorithms: {:.1} s", started.elapsed().as_secs_f64());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = json(&out);
    let configurations = run["configurations"].as_array().unwrap();
    assert_eq!(configurations.len(), 2, "{run}");
    let kernel = configurations.iter().find(|c| c["spec"]["backend"] == "kernel").unwrap();
    assert_eq!(kernel["status"], "completed", "{kernel}");
    let version = kernel["backend"]["version"].as_str().unwrap();
    assert!(version.starts_with("Linux ") && version.ends_with("(User-Mode Linux)"), "{version}");
    let cells = kernel["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 6, "{kernel}");
    for cell in cells {
        assert_eq!(cell["status"], "measured", "{cell}");
        let driver = cell["implementation"].as_str().unwrap_or_default();
        let expected = match cell["algorithm"].as_str().unwrap() {
            "aes-128-cbc" => "cbc(",
            "aes-128-gcm" => "gcm",
            _ => "sha256",
        };
        assert!(driver.starts_with(expected), "the cell names the kernel's driver: {cell}");
    }
}

//! What a test does when something it needs is not on this machine.
//!
//! On a developer's machine a missing library, compiler, server or browser
//! skips the test with the reason printed. Under CI (`CI=true`), where
//! `.ci/run` installs everything, the same absence is a failure: a broken
//! install step must never turn the suite silently green.
//!
//! And what several test binaries read of the docs they hold the code to
//! ([`method`]: docs/METHOD.md's table of named extra work).

use std::fmt::Display;

pub mod method;

/// Whether the tests run under CI (`CI=true`, as `.ci/run` and most CI services set it).
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// `dependency` is missing for `why`: the test skips (the caller returns
/// right after), except under CI, where this panics at the caller's line.
#[track_caller]
pub fn missing(dependency: &str, why: impl Display) {
    if under_ci() {
        panic!("{dependency} is missing under CI=true ({why}): .ci/run must install it, so this test may not skip");
    }
    eprintln!("SKIPPED: {dependency} is missing: {why}");
}

/// The operating system refuses something no install can provide (the
/// kernel's AF_ALG sockets in a sandbox, a CPU feature): the test skips
/// everywhere, saying why. Use it only for facts about the platform.
pub fn platform_lacks(facility: &str, why: impl Display) {
    eprintln!("SKIPPED: this platform lacks {facility}: {why}");
}

/// How a backend says the build of cryptobench under test leaves it out (a
/// cargo feature not enabled, e.g. `boringssl`; crates/backends/src/error.rs,
/// `OpenError::LeftOut`): a choice of the build, not an install.
pub const LEFT_OUT_OF_THIS_BUILD: &str = "this build of cryptobench leaves out";

/// The backends `.ci/run` cannot install for the target under test, named
/// with the reason in `CRYPTOBENCH_TEST_WITHOUT` (comma separated ids; e.g.
/// Botan for arm64, whose libtspi1 dependency cannot be installed beside the
/// amd64 one).
pub const WITHOUT_ENV: &str = "CRYPTOBENCH_TEST_WITHOUT";

/// How a backend says the operating system refuses the way to it, which no
/// install can provide (the kernel's crypto API: sandboxes refuse AF_ALG
/// sockets, and only Linux has them; crates/backends/src/libraries/kernel).
pub const REFUSED_BY_THE_OS: &str = "the operating system refuses";

/// Whether a backend's absence is excused everywhere, CI included: what the
/// operating system refuses ([`REFUSED_BY_THE_OS`]) is a fact of the
/// platform; a backend left out of this build by its features (the
/// aarch64 build of .ci/run has no BoringSSL), or named in
/// [`WITHOUT_ENV`], is a stated choice of the build, not a broken install;
/// a language runtime refusing to run emulated ([`RUNTIME_NOT_EMULATED`]) is
/// how the tests run.
pub fn absence_excused(id: &str, why: &str) -> bool {
    why.contains(REFUSED_BY_THE_OS)
        || why.contains(LEFT_OUT_OF_THIS_BUILD)
        || why.contains(RUNTIME_NOT_EMULATED)
        || std::env::var(WITHOUT_ENV).is_ok_and(|list| list.split(',').any(|x| x.trim() == id))
}

/// The words with which a language runtime refuses a worker that runs under
/// an emulator (crates/backends/src/runtime/mod.rs says them): its driver would
/// run natively. A fact of how the tests run (the aarch64 run under qemu-user),
/// not a missing install.
pub const RUNTIME_NOT_EMULATED: &str = "a language runtime's driver would run natively";

/// A backend of cryptobench could not be opened for `why`: the test skips,
/// and fails under CI unless the absence is excused ([`absence_excused`]);
/// every other library is an install.
#[track_caller]
pub fn backend_unavailable(id: &str, why: impl Display) {
    let why = why.to_string();
    if why.contains(REFUSED_BY_THE_OS) {
        platform_lacks(&format!("what the {id} backend needs"), why);
    } else if why.contains(RUNTIME_NOT_EMULATED) {
        platform_lacks("a native worker for the language runtime", why);
    } else if absence_excused(id, &why) {
        eprintln!("SKIPPED: backend {id} is not part of this build or target: {why}");
    } else {
        missing(&format!("the {id} backend's library"), why);
    }
}

/// The emulator this test process runs under, when it is emulated (cargo's
/// `runner` for a cross target, e.g. `qemu-aarch64 -L /`): a program it
/// spawns for its own architecture must be started through it too, since
/// without binfmt_misc the kernel cannot run it. Read from the target
/// runner cargo exports, else `qemu-<arch> -L /` when /proc/cpuinfo describes
/// another architecture.
pub fn own_emulator() -> Option<Vec<String>> {
    let arch = std::env::consts::ARCH;
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let x86_host = info.lines().any(|l| l.starts_with("vendor_id")) && info.lines().any(|l| l.starts_with("flags"));
    let foreign = match arch {
        "x86" | "x86_64" => !x86_host && info.contains("CPU implementer"),
        _ => x86_host,
    };
    if !foreign {
        return None;
    }
    let qemu = if arch == "arm" {
        "qemu-arm".to_string()
    } else {
        format!("qemu-{arch}")
    };
    Some(vec![qemu, "-L".into(), "/".into()])
}

/// A command that runs `program` (built for this process's architecture),
/// through this process's emulator where it is emulated.
pub fn native_command(program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
    match own_emulator() {
        Some(prefix) => {
            let mut c = std::process::Command::new(&prefix[0]);
            c.args(&prefix[1..]).arg(program);
            c
        }
        None => std::process::Command::new(program),
    }
}

/// The C compiler for fixtures that this process will load: the cross
/// compiler of its architecture when it is emulated (`aarch64-linux-gnu-gcc`), else `cc`.
pub fn c_compiler() -> String {
    if let Ok(cc) = std::env::var("CRYPTOBENCH_TEST_CC") {
        return cc;
    }
    match (own_emulator(), std::env::consts::ARCH) {
        (Some(_), "aarch64") => "aarch64-linux-gnu-gcc".into(),
        (Some(_), "arm") => "arm-linux-gnueabihf-gcc".into(),
        _ => "cc".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_ci_variable() {
        // The variable is read, not cached: this test sees what its process was given.
        let expected = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1");
        assert_eq!(under_ci(), expected);
    }

    #[test]
    fn what_the_platform_or_the_build_decides_is_excused_and_a_missing_install_is_not() {
        let os = "the operating system refuses AF_ALG sockets here (Address family not supported by protocol (os error 97)), so the kernel's crypto API cannot be reached";
        // Whatever the library's id: no test matches an id to excuse it.
        assert!(absence_excused("kernel", os));
        assert!(absence_excused("any", os));
        assert!(absence_excused(
            "boring",
            "this build of cryptobench leaves out BoringSSL: rebuild with `--features boringssl` (cmake)"
        ));
        assert!(absence_excused(
            "node",
            "this worker runs under qemu-aarch64, but a language runtime's driver would run natively, so its figures would not describe the emulated machine"
        ));
        let install = "no OpenSSL libcrypto found on this system (tried libcrypto.so.3)";
        assert_eq!(
            absence_excused("kernel", install),
            std::env::var(WITHOUT_ENV).is_ok_and(|l| l.split(',').any(|x| x.trim() == "kernel"))
        );
    }

    #[test]
    fn a_refusal_of_the_os_skips_everywhere_and_a_missing_library_fails_under_ci() {
        let refused = std::panic::catch_unwind(|| backend_unavailable("kernel", "the operating system refuses AF_ALG sockets here"));
        assert!(refused.is_ok(), "skipped, CI or not");
        let missing = std::panic::catch_unwind(|| backend_unavailable("openssl-test-id", "no OpenSSL libcrypto found on this system"));
        assert_eq!(missing.is_err(), under_ci());
    }

    #[test]
    fn a_missing_dependency_fails_only_under_ci() {
        let outcome = std::panic::catch_unwind(|| missing("libexample", "not found"));
        assert_eq!(outcome.is_err(), under_ci());
    }
}

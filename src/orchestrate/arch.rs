//! `--arch`: running a configuration's worker as another architecture under
//! qemu-user. Finds the emulator and a cryptobench built for that target,
//! says where it looked and how to get what is missing, and gives the
//! command that starts the worker.
//!
//! The targets are Debian's multiarch names; qemu-user runs the foreign
//! binary with `-L SYSROOT`, so the target's dynamic loader and libraries
//! come from that root: `/` with the multiarch folders (`dpkg
//! --add-architecture arm64`, then e.g. `apt-get install libc6:arm64
//! libssl3:arm64`), or a folder of the target's own (sysroot.rs).

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::sysroot;
pub use super::targets::{target, Target, TARGETS};
use crate::exit::usage;

/// The first `program` on PATH.
pub fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(program)).find(|p| p.is_file())
}

/// ELF e_machine of a file (offset 18, little- or big-endian per EI_DATA), if it is ELF.
fn elf_machine(path: &Path) -> Option<u16> {
    use std::io::Read;
    let mut head = [0u8; 20];
    std::fs::File::open(path).ok()?.read_exact(&mut head).ok()?;
    if &head[..4] != b"\x7fELF" {
        return None;
    }
    let bytes = [head[18], head[19]];
    Some(if head[5] == 2 {
        u16::from_be_bytes(bytes)
    } else {
        u16::from_le_bytes(bytes)
    })
}

/// The programs that can serve as a worker: the whole cryptobench (its
/// hidden `worker` subcommand) or the worker alone (crates/worker), which
/// a cross build compiles in a fraction of the time.
const PROGRAMS: [&str; 2] = ["cryptobench", "cryptobench-worker"];

/// Where a worker for `t` is looked for, in order: `CRYPTOBENCH_<NAME>_BINARY`
/// (e.g. CRYPTOBENCH_AARCH64_BINARY), this executable, `cryptobench-<name>` beside this
/// executable, the cargo target folder this executable was built in
/// (`target/<triple>/{release,debug}/cryptobench` and `cryptobench-worker`),
/// `cryptobench-<name>` on PATH.
pub fn candidates(t: &Target) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(p) = std::env::var_os(format!("CRYPTOBENCH_{}_BINARY", t.name.to_ascii_uppercase())) {
        out.push(PathBuf::from(p));
    }
    if let Ok(exe) = std::env::current_exe() {
        // This very executable, when it is built for the target (an emulated orchestrator).
        out.push(exe.clone());
        if let Some(dir) = exe.parent() {
            out.push(dir.join(format!("cryptobench-{}", t.name)));
            // …/target/release/cryptobench → …/target/<triple>/{release,debug}/cryptobench
            if let Some(target_dir) = dir.parent() {
                for profile in ["release", "debug"] {
                    for program in PROGRAMS {
                        out.push(target_dir.join(t.triple).join(profile).join(program));
                    }
                }
            }
        }
    }
    if let Some(p) = on_path(&format!("cryptobench-{}", t.name)) {
        out.push(p);
    }
    out
}

/// The command that starts a worker for `t`, and the emulator's own
/// description of itself (`qemu-aarch64 version 7.2.22 …`).
pub fn worker_command(t: &Target) -> Result<(Vec<String>, String)> {
    let qemu = on_path(t.qemu).ok_or_else(|| {
        usage(format!(
            "--arch {}: {} is not on PATH; install qemu-user (Debian/Ubuntu: apt-get install qemu-user)",
            t.name, t.qemu
        ))
    })?;
    let tried = candidates(t);
    let binary = tried.iter().find(|p| elf_machine(p) == Some(t.elf_machine)).ok_or_else(|| {
        usage(format!(
            "--arch {}: no cryptobench built for {} found; looked at:\n{}\nbuild one with:\n  rustup target add {}\n  \
             apt-get install {}\n  cargo build --release --target {} -p cryptobench-worker\n(.cargo/config.toml names the \
             linker; `-p cryptobench` builds the whole command), or set CRYPTOBENCH_{}_BINARY to one",
            t.name,
            t.triple,
            tried.iter().map(|p| format!("  {}", p.display())).collect::<Vec<_>>().join("\n"),
            t.triple,
            t.gcc,
            t.triple,
            t.name.to_ascii_uppercase()
        ))
    })?;
    let root = sysroot::find(t)?;
    let version = describe(&qemu);
    let command = vec![
        qemu.display().to_string(),
        "-L".to_string(),
        root.display().to_string(),
        binary.display().to_string(),
    ];
    Ok((command, version))
}

/// The emulator's own first line of `--version` ("qemu-aarch64 version 7.2.22 (Debian …)").
fn describe(qemu: &Path) -> String {
    std::process::Command::new(qemu)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.lines().next().map(|l| l.trim().to_string()))
        .unwrap_or_else(|| qemu.display().to_string())
}

/// The emulator for this very process's architecture, and its description,
/// when this process is itself emulated: its workers must be started
/// through it too, since the kernel cannot run them without binfmt_misc
/// (absent in most containers).
pub fn own_emulator() -> Option<(PathBuf, String)> {
    cryptobench_cpu::emulation::detect()?;
    let t = TARGETS.iter().find(|t| {
        let own = std::env::consts::ARCH;
        t.triple.starts_with(own) || (own == "x86" && t.name == "i386") || (own == "arm" && t.name == "armhf")
    })?;
    let qemu = on_path(t.qemu)?;
    let described = describe(&qemu);
    Some((qemu, described))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases() {
        assert_eq!(target("aarch64").unwrap().qemu, "qemu-aarch64");
        assert_eq!(target("arm64").unwrap().name, "aarch64");
        assert_eq!(target("ppc64le").unwrap().name, "ppc64el");
        let err = target("mips").err().unwrap().to_string();
        assert_eq!(target("ppc64le").unwrap().elf_machine, 21);
        assert_eq!(target("riscv64").unwrap().qemu, "qemu-riscv64");
        assert!(err.contains("aarch64, armhf, ppc64el, s390x, riscv64, i386"), "{err}");
    }

    #[test]
    fn this_executable_is_an_elf_of_its_own_machine() {
        let exe = std::env::current_exe().unwrap();
        if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
            assert_eq!(elf_machine(&exe), Some(62));
        }
        assert_eq!(elf_machine(Path::new("/nonexistent")), None);
    }

    /// An s390x binary's header is big-endian (EI_DATA = 2): its e_machine
    /// 22 reads as 5632 in the host's little-endian order, and the worker
    /// would never be found.
    #[test]
    fn a_big_endian_elf_header_is_read_in_its_own_byte_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut head = [0u8; 20];
        head[..4].copy_from_slice(b"\x7fELF");
        head[4] = 2; // ELFCLASS64
        head[5] = 2; // ELFDATA2MSB
        head[18..20].copy_from_slice(&22u16.to_be_bytes());
        let s390x = dir.path().join("s390x");
        std::fs::write(&s390x, head).unwrap();
        assert_eq!(elf_machine(&s390x), Some(target("s390x").unwrap().elf_machine));
        head[5] = 1; // ELFDATA2LSB
        head[18..20].copy_from_slice(&21u16.to_le_bytes());
        let ppc64le = dir.path().join("ppc64le");
        std::fs::write(&ppc64le, head).unwrap();
        assert_eq!(elf_machine(&ppc64le), Some(target("ppc64le").unwrap().elf_machine));
    }

    #[test]
    fn the_cargo_target_folder_is_among_the_places_looked_at() {
        let t = target("aarch64").unwrap();
        let c = candidates(t);
        assert!(
            c.iter().any(|p| p.ends_with("aarch64-unknown-linux-gnu/release/cryptobench")),
            "{c:?}"
        );
        let c = candidates(target("s390x").unwrap());
        assert!(
            c.iter().any(|p| p.ends_with("s390x-unknown-linux-gnu/release/cryptobench-worker")),
            "the worker alone is looked for too: {c:?}"
        );
    }
}

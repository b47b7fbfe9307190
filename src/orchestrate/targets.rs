//! The foreign architectures `--arch` knows: Debian's and Rust's names for
//! each, its emulator, cross compiler, dynamic loader and ELF machine. Kept
//! apart from arch.rs (which finds and starts a worker) so that the sysroot
//! lookup (sysroot.rs), which arch.rs uses, can read the table too.

use anyhow::Result;

use crate::exit::usage;

/// A foreign architecture cryptobench knows how to run.
pub struct Target {
    /// The name `--arch` takes (Debian's, where they differ from Rust's).
    pub name: &'static str,
    /// Rust's target triple for `cargo build --target`.
    pub triple: &'static str,
    /// The qemu-user program (Debian package qemu-user).
    pub qemu: &'static str,
    /// Debian's architecture and cross compiler package.
    pub debian: &'static str,
    pub gcc: &'static str,
    /// The dynamic loader the target's binaries ask for (under `-L /`).
    pub loader: &'static str,
    /// ELF e_machine of the target (System V ABI, "Machine" values).
    pub elf_machine: u16,
    /// Whether Debian 12 has an archive of the target's packages (riscv64 came with Debian 13).
    pub debian_archive: bool,
}

pub const TARGETS: &[Target] = &[
    Target {
        name: "aarch64",
        triple: "aarch64-unknown-linux-gnu",
        qemu: "qemu-aarch64",
        debian: "arm64",
        gcc: "gcc-aarch64-linux-gnu",
        loader: "/lib/ld-linux-aarch64.so.1",
        elf_machine: 183,
        debian_archive: true,
    },
    Target {
        name: "armhf",
        triple: "armv7-unknown-linux-gnueabihf",
        qemu: "qemu-arm",
        debian: "armhf",
        gcc: "gcc-arm-linux-gnueabihf",
        loader: "/lib/ld-linux-armhf.so.3",
        elf_machine: 40,
        debian_archive: true,
    },
    Target {
        name: "ppc64el",
        triple: "powerpc64le-unknown-linux-gnu",
        qemu: "qemu-ppc64le",
        debian: "ppc64el",
        gcc: "gcc-powerpc64le-linux-gnu",
        loader: "/lib64/ld64.so.2",
        elf_machine: 21,
        debian_archive: true,
    },
    Target {
        name: "s390x",
        triple: "s390x-unknown-linux-gnu",
        qemu: "qemu-s390x",
        debian: "s390x",
        gcc: "gcc-s390x-linux-gnu",
        loader: "/lib/ld64.so.1",
        elf_machine: 22,
        debian_archive: true,
    },
    Target {
        name: "riscv64",
        triple: "riscv64gc-unknown-linux-gnu",
        qemu: "qemu-riscv64",
        debian: "riscv64",
        gcc: "gcc-riscv64-linux-gnu",
        loader: "/lib/ld-linux-riscv64-lp64d.so.1",
        // EM_RISCV (the RISC-V ELF psABI).
        elf_machine: 243,
        debian_archive: false,
    },
    Target {
        name: "i386",
        triple: "i686-unknown-linux-gnu",
        qemu: "qemu-i386",
        debian: "i386",
        gcc: "gcc-i686-linux-gnu",
        loader: "/lib/ld-linux.so.2",
        elf_machine: 3,
        debian_archive: true,
    },
];

/// The target `--arch NAME` means (Rust's names are accepted too).
pub fn target(name: &str) -> Result<&'static Target> {
    let n = name.trim().to_ascii_lowercase();
    let alias = match n.as_str() {
        "arm64" => "aarch64",
        "armv7" | "arm" => "armhf",
        "ppc64le" | "powerpc64le" => "ppc64el",
        "riscv" | "riscv64gc" => "riscv64",
        "x86" | "i686" => "i386",
        other => other,
    };
    TARGETS.iter().find(|t| t.name == alias).ok_or_else(|| {
        usage(format!(
            "unknown architecture '{name}' in --arch; valid: {}",
            TARGETS.iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
        ))
    })
}

//! `--worker uml`: a configuration's worker run inside User-Mode Linux, a
//! Linux kernel that runs as an ordinary process (Debian package
//! user-mode-linux). Its use is the kernel's crypto API where the sandbox
//! refuses AF_ALG sockets: inside UML the socket family is UML's own, its
//! algorithms those of the generic C code in UML's modules (UML has no
//! AES-NI driver), and every system call of the worker is intercepted by
//! the UML kernel, so the per-call cost describes UML, not a native kernel.
//!
//! The orchestrator starts `cryptobench uml-worker worker` like any worker.
//! That process boots `linux` with the host's filesystem as its root
//! (hostfs), an init script loads the crypto modules and runs
//! `cryptobench worker` with the job from a file; the worker's lines are
//! written to another file on the host, which is followed and forwarded as
//! they come (the UML console is a terminal, whose echo and line limits a
//! JSON protocol does not survive).

use std::fmt::Write as _;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use cryptobench_core::protocol::{read_job, read_message, write_line, WorkerMessage, PROTOCOL_VERSION};

use crate::exit::usage;

/// The word `--worker` takes for this placement.
pub const PLACE: &str = "uml";

/// Where Debian's user-mode-linux package puts the modules of its kernel.
const MODULES: &str = "/usr/lib/uml/modules";

/// The crypto modules loaded before the worker starts (those present; the
/// rest of the kernel's crypto, md5/sha1/sha256/blake2b/aes-generic, is
/// built in): the AF_ALG interfaces, the modes, and the generic ciphers and
/// digests the catalog maps to kernel names (crates/backends kernel/mod.rs).
const CRYPTO_MODULES: &[&str] = &[
    "af_alg",
    "algif_skcipher",
    "algif_hash",
    "algif_aead",
    "ecb",
    "cbc",
    "cfb",
    "ctr",
    "xts",
    "gcm",
    "ghash-generic",
    "aes_ti",
    "des_generic",
    "chacha_generic",
    "poly1305_generic",
    "chacha20poly1305",
    "sha512_generic",
    "sha3_generic",
    "hmac",
    "cmac",
];

/// The UML kernel (`linux` on PATH) and the folder of its modules, or why
/// a worker cannot run under UML here.
pub fn kernel() -> Result<(PathBuf, PathBuf)> {
    let install = "install User-Mode Linux (Debian/Ubuntu: apt-get install user-mode-linux kmod)";
    let linux = super::arch::on_path("linux").ok_or_else(|| usage(format!("--worker uml: `linux` is not on PATH; {install}")))?;
    let modules = std::fs::read_dir(MODULES)
        .ok()
        .and_then(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).find(|p| p.join("modules.dep").is_file()))
        .ok_or_else(|| usage(format!("--worker uml: no UML kernel modules under {MODULES}; {install}")))?;
    Ok((linux, modules))
}

/// The worker command of a configuration placed with `--worker uml`: this
/// executable's `uml-worker` (`worker` is appended).
pub fn worker_command() -> Result<Vec<String>> {
    kernel()?;
    let exe = std::env::current_exe().context("cannot find the cryptobench executable to start a worker")?;
    Ok(vec![exe.display().to_string(), "uml-worker".to_string()])
}

/// The `insmod` order of `wanted` and what they depend on, from `modules.dep`
/// (`kernel/crypto/gcm.ko: kernel/crypto/gf128mul.ko …`): dependencies first, each once.
pub fn load_order(dep: &str, wanted: &[&str]) -> Vec<String> {
    let deps = |path: &str| -> Vec<String> {
        dep.lines()
            .find_map(|l| {
                let (m, d) = l.split_once(':')?;
                (m.trim() == path).then(|| d.split_whitespace().map(String::from).collect())
            })
            .unwrap_or_default()
    };
    let mut order: Vec<String> = Vec::new();
    for name in wanted {
        let path = format!("kernel/crypto/{name}.ko");
        if !dep.lines().any(|l| l.split_once(':').is_some_and(|(m, _)| m.trim() == path)) {
            continue;
        }
        // modules.dep lists every dependency, indirect ones included, deepest last.
        for d in deps(&path).into_iter().rev().chain([path]) {
            if !order.contains(&d) {
                order.push(d);
            }
        }
    }
    order
}

/// Single quotes for sh.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The init script: /proc, the modules, the worker with this process's
/// environment and folder, its exit status, then power off.
fn init_script(modules: &Path, order: &[String], env: &[(String, String)], dir: &Path) -> String {
    let mut s = String::from("#!/bin/sh\n# init of a User-Mode Linux that runs one cryptobench worker\n");
    s.push_str("mount -t proc proc /proc 2>/dev/null\nmount -t sysfs sysfs /sys 2>/dev/null\n");
    for m in order {
        let _ = writeln!(
            s,
            "/usr/sbin/insmod {} 2>>{}",
            quoted(&modules.join(m).display().to_string()),
            quoted(&dir.join("err").display().to_string())
        );
    }
    for (k, v) in env {
        let _ = writeln!(s, "export {k}={}", quoted(v));
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let exe = std::env::current_exe().unwrap_or_default();
    let f = |name: &str| quoted(&dir.join(name).display().to_string());
    let _ = writeln!(s, "cd {} || cd /", quoted(&cwd.display().to_string()));
    let _ = writeln!(
        s,
        "{} worker <{} >{} 2>>{}\necho $? >{}.tmp && mv {}.tmp {}",
        quoted(&exe.display().to_string()),
        f("job"),
        f("out"),
        f("err"),
        f("rc"),
        f("rc"),
        f("rc")
    );
    s.push_str("exec /usr/sbin/poweroff -f\n");
    s
}

/// `cryptobench uml-worker worker`: the job from stdin into a file, UML
/// booted, the worker's lines forwarded from its output file; the exit
/// status is the inner worker's.
pub fn serve() -> Result<ExitCode> {
    if !cfg!(target_os = "linux") {
        bail!("--worker {PLACE}: User-Mode Linux is a Linux kernel run as a Linux process, so it runs on Linux only");
    }
    let (linux, modules) = kernel()?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).context("reading the job from stdin")?;
    let mut job = read_job(&line).context("the job on stdin is not valid; `cryptobench uml-worker` is started by `cryptobench run`")?;
    // UML has one virtual CPU: the UML process itself is pinned on the host instead.
    if let Some(cpu) = job.pin_cpu.take() {
        if let Err(e) = cryptobench_cpu::pin_to_cpu(cpu) {
            write_line(
                &mut std::io::stdout(),
                &WorkerMessage::Unavailable {
                    protocol: PROTOCOL_VERSION,
                    reason: e.to_string(),
                },
            )?;
            return Ok(ExitCode::SUCCESS);
        }
    }
    // Barriers need answers on stdin while measuring: not offered (the hello says so below).
    job.barrier = false;
    let dir = tempfile::Builder::new()
        .prefix("cryptobench-uml-")
        .tempdir()
        .context("a folder for the UML exchange")?;
    let mut job_file = std::fs::File::create(dir.path().join("job"))?;
    write_line(&mut job_file, &job)?;
    let dep = std::fs::read_to_string(modules.join("modules.dep")).context("reading UML's modules.dep")?;
    let order = load_order(&dep, CRYPTO_MODULES);
    let env: Vec<(String, String)> = std::env::vars()
        .filter(|(k, v)| !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && !v.contains('\0'))
        .chain(job.configuration.env.clone())
        .collect();
    let init = dir.path().join("init");
    std::fs::write(&init, init_script(&modules, &order, &env, dir.path()))?;
    #[cfg(unix)]
    std::fs::set_permissions(&init, std::os::unix::fs::PermissionsExt::from_mode(0o755))?;
    std::fs::File::create(dir.path().join("out"))?;
    let mut command = Command::new(&linux);
    #[cfg(target_os = "linux")]
    // SAFETY: prctl is async-signal-safe; it only asks for SIGKILL when this process dies
    // (the orchestrator kills a silent worker), so that UML and its helpers go with it.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let mut uml = command
        .args(["mem=512M", "rootfstype=hostfs", "rootflags=/", "rw", "quiet"])
        .arg(format!("init={}", init.display()))
        .args(["con=null", "con0=null"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start User-Mode Linux ({})", linux.display()))?;
    let uml_stderr = super::worker_client::stderr_tail(uml.stderr.take().expect("piped"));
    let mut out = std::fs::File::open(dir.path().join("out"))?;
    let mut pending = Vec::new();
    let mut stdout = std::io::stdout().lock();
    let mut forward = |pending: &mut Vec<u8>, stdout: &mut std::io::StdoutLock| -> Result<()> {
        let mut chunk = Vec::new();
        out.read_to_end(&mut chunk)?;
        pending.extend_from_slice(&chunk);
        while let Some(n) = pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = pending.drain(..=n).collect();
            let text = String::from_utf8_lossy(&line);
            match read_message(text.trim_end()) {
                Ok(WorkerMessage::Hello {
                    protocol,
                    backend,
                    supported,
                    platform,
                    extra_work,
                    ..
                }) => write_line(
                    stdout,
                    &WorkerMessage::Hello {
                        protocol,
                        backend,
                        supported,
                        platform,
                        barrier: false,
                        extra_work,
                    },
                )?,
                _ => {
                    stdout.write_all(&line)?;
                    stdout.flush()?;
                }
            }
        }
        Ok(())
    };
    let status = loop {
        forward(&mut pending, &mut stdout)?;
        if let Some(status) = uml.try_wait()? {
            break status;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    forward(&mut pending, &mut stdout)?;
    let err = std::fs::read_to_string(dir.path().join("err")).unwrap_or_default();
    eprint!("{err}");
    match std::fs::read_to_string(dir.path().join("rc"))
        .ok()
        .and_then(|t| t.trim().parse::<u8>().ok())
    {
        Some(rc) => Ok(ExitCode::from(rc)),
        None => {
            let tail = uml_stderr.join().unwrap_or_default();
            bail!(
                "User-Mode Linux ({}) ended ({status}) before its worker did{}",
                linux.display(),
                tail.lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .map(|l| format!("; its last words: {l}"))
                    .unwrap_or_default()
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEP: &str = "kernel/crypto/gf128mul.ko:
kernel/crypto/gcm.ko:
kernel/crypto/ghash-generic.ko: kernel/crypto/gf128mul.ko
kernel/crypto/af_alg.ko:
kernel/crypto/algif_hash.ko: kernel/crypto/af_alg.ko
kernel/crypto/des_generic.ko: kernel/lib/crypto/libdes.ko
";

    #[test]
    fn dependencies_load_first_and_once_and_absent_modules_are_left_out() {
        let order = load_order(DEP, &["af_alg", "algif_hash", "ghash-generic", "gcm", "cmac", "des_generic"]);
        assert_eq!(
            order,
            [
                "kernel/crypto/af_alg.ko",
                "kernel/crypto/algif_hash.ko",
                "kernel/crypto/gf128mul.ko",
                "kernel/crypto/ghash-generic.ko",
                "kernel/crypto/gcm.ko",
                "kernel/lib/crypto/libdes.ko",
                "kernel/crypto/des_generic.ko",
            ]
        );
    }

    #[test]
    fn the_script_quotes_what_it_exports() {
        let s = init_script(
            Path::new("/m"),
            &["kernel/crypto/cbc.ko".into()],
            &[("X".into(), "it's".into())],
            Path::new("/d"),
        );
        assert!(s.contains("insmod '/m/kernel/crypto/cbc.ko'"), "{s}");
        assert!(s.contains(r"export X='it'\''s'"), "{s}");
        assert!(s.ends_with("exec /usr/sbin/poweroff -f\n"), "{s}");
    }
}

//! `cryptobench advise`: measures what it needs (or reads a stored run),
//! says what it ran, then gives crates/advice's advice per algorithm.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

use cryptobench_advice::LibraryView;
use cryptobench_backends::libraries;
use cryptobench_core::result::{ConfigurationResult, ConfigurationStatus, RunResult};
use cryptobench_cpu::microarch::{self, Microarch};

use crate::cli::{AdviseArgs, Cli, Command};
use crate::exit::{usage, INCOMPLETE};
use crate::orchestrate::execute::{complete, execute};
use crate::orchestrate::plan;
use crate::orchestrate::store::load_runs;
use crate::orchestrate::worker_client::Probes;

/// What `advise` measures when no --algos is given: one symmetric
/// algorithm per family of acceleration (AES with GHASH, ChaCha20 with
/// Poly1305, the SHA-2 pair, AES-CTR) and the public-key operations of
/// TLS and of the post-quantum standards. The best-known table covers
/// them unevenly: which cores have figures for which is in
/// crates/advice/data/best-known.json, and the advice says where none is.
const DEFAULT_ALGOS: &str = "aes-128-gcm,chacha20-poly1305,sha256,sha512,aes-128-ctr,rsa2048-pss,ecdsap256,ed25519,x25519,mlkem768,mldsa65";
/// The sizes it measures: small, middle, and the 16 KiB the advice is read
/// at (public key: the schemes that hash their message sign these too).
const SIZES: &str = "16,1024,16384";

pub fn advise(args: &AdviseArgs) -> Result<ExitCode> {
    if args.core.as_deref().is_some_and(|c| c.eq_ignore_ascii_case("list")) {
        for m in microarch::all() {
            println!("{:<16} {:<44} {}", m.id, m.name, m.arch);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let core = core(args.core.as_deref())?;
    for a in &args.algos {
        if cryptobench_core::catalog::get(a.trim()).is_err() && cryptobench_core::pk::find(a).is_none() {
            return Err(usage(format!(
                "unknown algorithm '{a}' in --algos; valid: {}, {}",
                cryptobench_core::catalog::valid_names(),
                cryptobench_core::pk::valid_names()
            )));
        }
    }
    let run = match &args.from {
        Some(from) => {
            let (_, run) = load_runs(std::slice::from_ref(from), &args.db)?.remove(0);
            eprintln!("advice on the stored run {from}; nothing measured");
            run
        }
        None => measure(args)?,
    };
    print!("{}", what_ran(&run));
    let view = |c: &ConfigurationResult| -> Option<LibraryView> {
        let b = c.backend.as_ref()?;
        let (features, nameable) = libraries::capability_view(&c.spec.backend, b.cpu_capabilities.as_deref()?, Some(&b.version))?;
        Some(LibraryView {
            seen: features.iter().map(|f| f.name.to_string()).collect(),
            nameable: nameable.iter().map(|f| f.to_string()).collect(),
        })
    };
    let mut advice = cryptobench_advice::advise_with(&run, core, Some(&view));
    if !args.algos.is_empty() {
        // By catalog id, whichever alias or catalog named it.
        let id = |x: &str| {
            cryptobench_core::pk::find(x)
                .map(|p| p.id.to_string())
                .or_else(|| cryptobench_core::catalog::get(x.trim()).ok().map(|a| a.id.to_string()))
        };
        advice
            .algorithms
            .retain(|a| args.algos.iter().any(|x| id(x).as_deref() == Some(a.algorithm.as_str())));
    }
    print!("{}", cryptobench_advice::render::text(&advice));
    Ok(if args.from.is_some() || complete(&run) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(INCOMPLETE)
    })
}

fn core(name: Option<&str>) -> Result<Option<&'static Microarch>> {
    let Some(name) = name else { return Ok(None) };
    microarch::find(name).map(Some).ok_or_else(|| {
        let valid: Vec<&str> = microarch::all().iter().map(|m| m.id.as_str()).collect();
        usage(format!("unknown core '{name}' in --core; valid: {}", valid.join(", ")))
    })
}

/// Every OpenSSL built by bench/build-openssl: target/openssl/*/libcrypto.so
/// beside this executable's target folder and under the current folder.
fn lab_builds() -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = vec![PathBuf::from("target/openssl")];
    if let Some(target) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent()?.parent().map(Path::to_path_buf))
    {
        roots.push(target.join("openssl"));
    }
    let mut found: Vec<PathBuf> = Vec::new();
    for root in roots {
        let Ok(dirs) = std::fs::read_dir(&root) else { continue };
        for d in dirs.flatten() {
            let lib = d.path().join("libcrypto.so");
            if let Ok(canonical) = lib.canonicalize() {
                if !found.contains(&canonical) {
                    found.push(canonical);
                }
            }
        }
    }
    found.sort();
    found
}

fn measure(args: &AdviseArgs) -> Result<RunResult> {
    let algos = if args.algos.is_empty() {
        DEFAULT_ALGOS.to_string()
    } else {
        args.algos.join(",")
    };
    let mut argv: Vec<String> = ["cryptobench", "run", "--no-save", "--algos", &algos, "--sizes", SIZES]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let backends: Vec<String> = if args.backends.is_empty() {
        std::iter::once("all".to_string())
            .chain(lab_builds().iter().map(|p| format!("openssl={}", p.display())))
            .collect()
    } else {
        args.backends.clone()
    };
    for b in &backends {
        argv.push("--backend".into());
        argv.push(b.clone());
    }
    eprintln!("measuring: {}", argv[1..].join(" "));
    let cli = Cli::try_parse_from(&argv).map_err(|e| usage(e.to_string()))?;
    let Command::Run(run_args) = cli.command else {
        unreachable!("the arguments above name `run`")
    };
    let mut plan = plan::build(&run_args)?;
    let mut probes = Probes::within(plan.silence_limit);
    crate::orchestrate::speed_set::resolve(&mut plan, &mut probes)?;
    execute(&plan, &mut probes)
}

/// What ran: one line per configuration, with its status.
fn what_ran(run: &RunResult) -> String {
    let mut s = String::from("What ran:\n");
    for c in &run.configurations {
        let status = match &c.status {
            ConfigurationStatus::Completed => "measured".to_string(),
            other => other.reason().unwrap_or_default().to_string(),
        };
        let masked: Vec<String> = c.spec.capability_env().map(|(k, v)| format!("{k}={v}")).collect();
        let masked = if masked.is_empty() {
            String::new()
        } else {
            format!(" with {}", masked.join(" "))
        };
        s.push_str(&format!(
            "  [{}] {}{masked}: {status}\n",
            c.index,
            cryptobench_advice::standing::label(c)
        ));
    }
    s.push('\n');
    s
}

//! Records the versions of the RustCrypto crates linked in (from the
//! workspace's Cargo.lock), so that the rustcrypto backend reports the
//! versions that were really built rather than the requirements.

const CRATES: &[&str] = &[
    "aes",
    "aes-gcm",
    "chacha20poly1305",
    "cbc",
    "ctr",
    "cfb-mode",
    "xts-mode",
    "des",
    "md-5",
    "sha1",
    "sha2",
    "sha3",
    "blake2",
    "ccm",
    "ocb3",
    "aes-siv",
    "aes-gcm-siv",
    "chacha20",
    "hmac",
    "cmac",
    "poly1305",
    "ghash",
    "camellia",
    "aria",
    "sm4",
    "sm3",
    "blake3",
    "shake",
];

/// The versions Cargo.lock records for `names`, as "name version".
fn locked_versions(lock: &str, names: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    // Cargo.lock: [[package]] blocks with `name = "…"` followed by `version = "…"`.
    let mut name: Option<&str> = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = \"").and_then(|s| s.strip_suffix('"')) {
            name = Some(n);
        } else if let (Some(n), Some(v)) = (name, line.strip_prefix("version = \"").and_then(|s| s.strip_suffix('"'))) {
            if names.contains(&n) {
                found.push(format!("{n} {v}"));
            }
            name = None;
        }
    }
    found
}

/// The version of one locked crate, or what to say when it is unknown.
fn locked_version(lock: &str, name: &str) -> String {
    locked_versions(lock, &[name])
        .first()
        .and_then(|nv| nv.split_once(' ').map(|(_, v)| v.to_string()))
        .unwrap_or_else(|| "(version unknown: built without the workspace Cargo.lock)".to_string())
}

/// Builds src/libraries/cryptopp/shim.cpp and shim_pk.cpp into a shared object that links libcrypto++
/// (Crypto++ has no C API), for the cryptopp backend to load at run time.
/// Without a C++ compiler or Crypto++'s headers (Debian: g++,
/// libcrypto++-dev) it is left out, and the backend says so.
fn build_cryptopp_shim() {
    println!("cargo:rustc-check-cfg=cfg(cryptobench_cryptopp_shim)");
    println!("cargo:rerun-if-changed=src/libraries/cryptopp/shim.cpp");
    println!("cargo:rerun-if-changed=src/libraries/cryptopp/shim_pk.cpp");
    let why_not = |reason: String| {
        println!("cargo:warning=the Crypto++ shim was not built ({reason}); the cryptopp backend will be unavailable");
        println!("cargo:rustc-env=CRYPTOBENCH_CRYPTOPP_SHIM_MISSING={reason}");
    };
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return why_not("it is built and loaded on Linux only".into());
    }
    let compiler = match cc::Build::new().cpp(true).cargo_metadata(false).try_get_compiler() {
        Ok(c) => c,
        Err(e) => return why_not(format!("no C++ compiler: {e}")),
    };
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("libcryptobench_cryptopp.so");
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/libraries/cryptopp");
    let result = std::process::Command::new(compiler.path())
        .args(compiler.args())
        .args(["-shared", "-fPIC", "-O2", "-std=c++17", "-s"])
        .arg(folder.join("shim.cpp"))
        .arg(folder.join("shim_pk.cpp"))
        .arg("-o")
        .arg(&out)
        .arg("-lcryptopp")
        .output();
    match result {
        Ok(o) if o.status.success() => {
            println!("cargo:rustc-cfg=cryptobench_cryptopp_shim");
            println!("cargo:rustc-env=CRYPTOBENCH_CRYPTOPP_SHIM={}", out.display());
        }
        Ok(o) => {
            let err = String::from_utf8_lossy(&o.stderr);
            let first = err
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or("compiler error")
                .trim()
                .to_string();
            why_not(format!("{} failed: {first}; install libcrypto++-dev", compiler.path().display()))
        }
        Err(e) => why_not(format!("cannot run {}: {e}", compiler.path().display())),
    }
}

fn main() {
    build_cryptopp_shim();
    let lock = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text = std::fs::read_to_string(&lock).unwrap_or_default();
    let found = locked_versions(&text, CRATES);
    let summary = if found.is_empty() {
        "crate versions unknown: built without the workspace Cargo.lock".to_string()
    } else {
        found.join(", ")
    };
    println!("cargo:rustc-env=CRYPTOBENCH_RUSTCRYPTO_CRATES={summary}");
    println!("cargo:rustc-env=CRYPTOBENCH_RING_VERSION={}", locked_version(&text, "ring"));
    println!(
        "cargo:rustc-env=CRYPTOBENCH_AWS_LC_RS_VERSION={}",
        locked_version(&text, "aws-lc-rs")
    );
    println!(
        "cargo:rustc-env=CRYPTOBENCH_BORING_SYS_VERSION={}",
        locked_version(&text, "boring-sys")
    );
    // aws-lc-sys prefixes every C symbol with aws_lc_<version with underscores>
    // (its builder/main.rs, prefix_string), OPENSSL_ia32cap_P included.
    let sys = locked_version(&text, "aws-lc-sys");
    println!(
        "cargo:rustc-env=CRYPTOBENCH_AWSLC_IA32CAP_SYMBOL=aws_lc_{}_OPENSSL_ia32cap_P",
        sys.replace('.', "_")
    );
}

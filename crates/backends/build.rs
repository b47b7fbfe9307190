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

fn main() {
    let lock = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text = std::fs::read_to_string(&lock).unwrap_or_default();
    let mut found = Vec::new();
    // Cargo.lock: [[package]] blocks with `name = "…"` followed by `version = "…"`.
    let mut name: Option<&str> = None;
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("name = \"").and_then(|s| s.strip_suffix('"')) {
            name = Some(n);
        } else if let (Some(n), Some(v)) = (name, line.strip_prefix("version = \"").and_then(|s| s.strip_suffix('"'))) {
            if CRATES.contains(&n) {
                found.push(format!("{n} {v}"));
            }
            name = None;
        }
    }
    let summary = if found.is_empty() {
        "crate versions unknown: built without the workspace Cargo.lock".to_string()
    } else {
        found.join(", ")
    };
    println!("cargo:rustc-env=CRYPTOBENCH_RUSTCRYPTO_CRATES={summary}");
}

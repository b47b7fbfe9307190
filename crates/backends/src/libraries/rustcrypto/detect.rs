//! Which code path the RustCrypto crates take on this CPU. The crates decide
//! at run time with `cpufeatures`; asking `cpufeatures` the same questions
//! with the same feature lists gives the same answer (aes 0.9
//! `src/lib.rs` "aes"; sha2 0.11 `src/sha256.rs` "sha", "sse4.1"; chacha20
//! 0.10 `src/lib.rs` "avx2", "sse2"; polyval (GHASH of aes-gcm) "pclmulqdq").

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod x86 {
    cpufeatures::new!(aes_ni, "aes");
    cpufeatures::new!(clmul, "pclmulqdq");
    cpufeatures::new!(sha_ni, "sha", "sse4.1");
    cpufeatures::new!(avx2, "avx2");
    cpufeatures::new!(sse2, "sse2");

    pub fn aes() -> &'static str {
        if aes_ni::get() {
            "aes-ni"
        } else {
            "soft"
        }
    }
    pub fn ghash() -> &'static str {
        if clmul::get() {
            "pclmulqdq"
        } else {
            "soft"
        }
    }
    pub fn sha() -> &'static str {
        if sha_ni::get() {
            "sha-ni"
        } else {
            "soft"
        }
    }
    pub fn chacha() -> &'static str {
        if avx2::get() {
            "avx2"
        } else if sse2::get() {
            "sse2"
        } else {
            "soft"
        }
    }
}

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
mod x86 {
    // Other architectures: the crates have their own detection (e.g. aarch64
    // "aes" hwcap); not distinguished here, so nothing is claimed.
    pub fn aes() -> &'static str {
        "not detected on this architecture"
    }
    pub fn ghash() -> &'static str {
        "not detected on this architecture"
    }
    pub fn sha() -> &'static str {
        "not detected on this architecture"
    }
    pub fn chacha() -> &'static str {
        "not detected on this architecture"
    }
}

/// The implementation that runs for a catalog algorithm, where the crates choose one at run time.
pub fn implementation(alg_id: &str) -> Option<String> {
    if alg_id.ends_with("-gcm") {
        return Some(format!("aes: {}, ghash: {}", x86::aes(), x86::ghash()));
    }
    if alg_id.starts_with("aes-") {
        return Some(x86::aes().to_string());
    }
    match alg_id {
        "chacha20-poly1305" => Some(format!("chacha20: {}", x86::chacha())),
        // sha1 0.11 `src/compress.rs` uses SHA-NI with sse2/ssse3/sse4.1, implied by "sha" on every x86 CPU that has it.
        "sha1" | "sha224" | "sha256" => Some(x86::sha().to_string()),
        _ => None,
    }
}

/// A summary line for the backend's description.
pub fn summary() -> String {
    format!(
        "aes: {}, ghash: {}, sha1/sha256: {}, chacha20: {}",
        x86::aes(),
        x86::ghash(),
        x86::sha(),
        x86::chacha()
    )
}

//! What to install for a backend whose library is missing (Debian and
//! Ubuntu package names, as `.ci/run` installs them).

/// The packages, or what else it takes, to make `id` available; None for
/// the backends always linked into cryptobench and for the language
/// runtimes, whose reason says what to install.
pub fn install_hint(id: &str) -> Option<&'static str> {
    Some(match id {
        "openssl" => "apt-get install libssl3",
        "gcrypt" => "apt-get install libgcrypt20",
        "nettle" => "apt-get install libnettle8",
        "sodium" => "apt-get install libsodium23",
        "gnutls" => "apt-get install libgnutls30",
        "mbedtls" => "apt-get install libmbedcrypto7",
        "wolfssl" => "apt-get install libwolfssl35",
        "tomcrypt" => "apt-get install libtomcrypt1",
        "botan" => "apt-get install libbotan-2-19",
        "cryptopp" => "apt-get install libcrypto++8 (and, when building cryptobench, g++ libcrypto++-dev for its Crypto++ shim)",
        "boring" => "rebuild cryptobench with `--features boringssl` (BoringSSL's build needs cmake, perl and libclang-dev)",
        "aws-lc-rs" => "rebuild cryptobench with `--features aws-lc` (aws-lc-sys compiles AWS-LC with cc and cmake)",
        "kernel" => {
            "a Linux kernel with AF_ALG (CONFIG_CRYPTO_USER_API_SKCIPHER, _AEAD, _HASH) and a sandbox that allows the socket family"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_loaded_library_has_a_hint() {
        for id in crate::BACKEND_IDS {
            // A language runtime's own reason says what to install (crate::runtime).
            let no_hint = ["rustcrypto", "ring"].contains(id) || crate::runtime::Runtime::from_id(id).is_some();
            assert_eq!(super::install_hint(id).is_none(), no_hint, "{id}");
        }
    }
}

//! Which block cipher and mode a catalog cipher is, for the libraries that
//! key one context per cipher and call one function per mode (Mbed TLS,
//! wolfSSL, LibTomCrypt, Crypto++): read from the catalog's id once, here;
//! each library maps it to its own calls and constants, and names what it
//! does not map.

use cryptobench_core::AlgorithmSpec;

/// A catalog cipher these libraries key: AES in one of its modes, or one
/// of the other ciphers in the mode the catalog has it in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockMode {
    /// AES-ECB.
    Ecb,
    /// AES-CBC.
    Cbc,
    /// AES-CFB with 128-bit feedback.
    Cfb,
    /// AES-CTR.
    Ctr,
    /// AES-XTS.
    Xts,
    /// AES-GCM.
    Gcm,
    /// ChaCha20-Poly1305 (RFC 8439).
    ChaPoly,
    /// Triple DES (EDE3) in CBC.
    Des3,
    /// Camellia (any key length) in CBC.
    CamelliaCbc,
}

impl BlockMode {
    /// The block mode of the catalog cipher `alg`, where it is one of these.
    pub fn of(alg: &AlgorithmSpec) -> Option<BlockMode> {
        match alg.id {
            "chacha20-poly1305" => return Some(BlockMode::ChaPoly),
            "des-ede3-cbc" => return Some(BlockMode::Des3),
            "camellia-128-cbc" | "camellia-192-cbc" | "camellia-256-cbc" => return Some(BlockMode::CamelliaCbc),
            _ => {}
        }
        let (_, mode) = alg.id.strip_prefix("aes-")?.split_once('-')?;
        Some(match mode {
            "ecb" => BlockMode::Ecb,
            "cbc" => BlockMode::Cbc,
            "cfb128" => BlockMode::Cfb,
            "ctr" => BlockMode::Ctr,
            "xts" => BlockMode::Xts,
            "gcm" => BlockMode::Gcm,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use cryptobench_core::catalog::CATALOG;

    use super::*;

    #[test]
    fn reads_the_catalog_ciphers_it_names() {
        let of = |id: &str| BlockMode::of(CATALOG.iter().find(|a| a.id == id).expect("in the catalog"));
        assert_eq!(of("aes-256-cfb128"), Some(BlockMode::Cfb));
        assert_eq!(of("aes-128-xts"), Some(BlockMode::Xts));
        assert_eq!(of("camellia-192-cbc"), Some(BlockMode::CamelliaCbc));
        assert_eq!(of("aes-128-gcm-siv"), None);
        assert_eq!(of("aes-128-ccm"), None);
        assert_eq!(of("xchacha20-poly1305"), None);
        assert_eq!(of("aria-128-cbc"), None);
    }
}

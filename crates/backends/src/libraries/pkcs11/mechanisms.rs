//! Which PKCS#11 mechanism computes a catalog algorithm (PKCS#11 v2.40
//! current mechanisms specification; the values are cryptoki-sys's).

use cryptoki_sys::*;

use super::sessions::Cipher;

/// A symmetric cipher: how it is asked, its key type and the mechanism the token must list.
pub fn cipher(id: &str, tag_len: usize) -> Option<(Cipher, CK_KEY_TYPE, CK_MECHANISM_TYPE)> {
    if id == "des-ede3-cbc" {
        return Some((Cipher::WithIv(CKM_DES3_CBC), CKK_DES3, CKM_DES3_CBC));
    }
    let mode = id.strip_prefix("aes-")?.split_once('-')?.1;
    Some(match mode {
        "ecb" => (Cipher::Plain(CKM_AES_ECB), CKK_AES, CKM_AES_ECB),
        "cbc" => (Cipher::WithIv(CKM_AES_CBC), CKK_AES, CKM_AES_CBC),
        "ctr" => (Cipher::Ctr, CKK_AES, CKM_AES_CTR),
        "gcm" => (Cipher::Gcm { tag: tag_len }, CKK_AES, CKM_AES_GCM),
        _ => return None,
    })
}

/// A digest's mechanism.
pub fn digest(id: &str) -> Option<CK_MECHANISM_TYPE> {
    Some(match id {
        "md5" => CKM_MD5,
        "sha1" => CKM_SHA_1,
        "sha224" => CKM_SHA224,
        "sha256" => CKM_SHA256,
        "sha384" => CKM_SHA384,
        "sha512" => CKM_SHA512,
        "sha3-224" => CKM_SHA3_224,
        "sha3-256" => CKM_SHA3_256,
        "sha3-384" => CKM_SHA3_384,
        "sha3-512" => CKM_SHA3_512,
        _ => return None,
    })
}

/// A MAC's mechanism and the key type of its key object.
pub fn mac(id: &str) -> Option<(CK_MECHANISM_TYPE, CK_KEY_TYPE)> {
    Some(match id {
        "hmac-md5" => (CKM_MD5_HMAC, CKK_GENERIC_SECRET),
        "hmac-sha1" => (CKM_SHA_1_HMAC, CKK_GENERIC_SECRET),
        "hmac-sha256" => (CKM_SHA256_HMAC, CKK_GENERIC_SECRET),
        "hmac-sha512" => (CKM_SHA512_HMAC, CKK_GENERIC_SECRET),
        "aes-128-cmac" => (CKM_AES_CMAC, CKK_AES),
        _ => return None,
    })
}

/// The name of a mechanism the catalog maps, for `algorithms` and the cells.
pub fn name(m: CK_MECHANISM_TYPE) -> String {
    let known = [
        (CKM_DES3_CBC, "CKM_DES3_CBC"),
        (CKM_AES_ECB, "CKM_AES_ECB"),
        (CKM_AES_CBC, "CKM_AES_CBC"),
        (CKM_AES_CTR, "CKM_AES_CTR"),
        (CKM_AES_GCM, "CKM_AES_GCM"),
        (CKM_MD5, "CKM_MD5"),
        (CKM_SHA_1, "CKM_SHA_1"),
        (CKM_SHA224, "CKM_SHA224"),
        (CKM_SHA256, "CKM_SHA256"),
        (CKM_SHA384, "CKM_SHA384"),
        (CKM_SHA512, "CKM_SHA512"),
        (CKM_SHA3_224, "CKM_SHA3_224"),
        (CKM_SHA3_256, "CKM_SHA3_256"),
        (CKM_SHA3_384, "CKM_SHA3_384"),
        (CKM_SHA3_512, "CKM_SHA3_512"),
        (CKM_MD5_HMAC, "CKM_MD5_HMAC"),
        (CKM_SHA_1_HMAC, "CKM_SHA_1_HMAC"),
        (CKM_SHA256_HMAC, "CKM_SHA256_HMAC"),
        (CKM_SHA512_HMAC, "CKM_SHA512_HMAC"),
        (CKM_AES_CMAC, "CKM_AES_CMAC"),
        (CKM_ECDSA, "CKM_ECDSA"),
        (CKM_ECDSA_SHA256, "CKM_ECDSA_SHA256"),
    ];
    known
        .iter()
        .find(|(k, _)| *k == m)
        .map(|(_, n)| n.to_string())
        .unwrap_or_else(|| format!("mechanism 0x{m:x}"))
}

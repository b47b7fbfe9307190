//! The BoringSSL backend proper (see the module docs).

use std::collections::BTreeMap;

use boring_sys as ffi;
use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode};

use super::cpu;
use super::mac::{Mac, MacKind};
use super::sessions::{Cipher, Hash, Scheme};
use crate::error::BackendError;
use crate::sessions::{digest_once, open_once, prepare_cipher, prepare_digest, seal_once, unsupported};
use crate::backend::{check_key_and_iv, Backend, CellInputs, Primitive, Sealed, Support};

pub struct BoringBackend {
    capabilities: Option<String>,
}

fn scheme_of(alg: &AlgorithmSpec) -> Result<Scheme, BackendError> {
    // SAFETY: the EVP_* getters return static descriptors.
    unsafe {
        Ok(match alg.id {
            "aes-128-ecb" => Scheme::Plain(ffi::EVP_aes_128_ecb()),
            "aes-192-ecb" => Scheme::Plain(ffi::EVP_aes_192_ecb()),
            "aes-256-ecb" => Scheme::Plain(ffi::EVP_aes_256_ecb()),
            "aes-128-cbc" => Scheme::Plain(ffi::EVP_aes_128_cbc()),
            "aes-192-cbc" => Scheme::Plain(ffi::EVP_aes_192_cbc()),
            "aes-256-cbc" => Scheme::Plain(ffi::EVP_aes_256_cbc()),
            "aes-128-ctr" => Scheme::Plain(ffi::EVP_aes_128_ctr()),
            "aes-192-ctr" => Scheme::Plain(ffi::EVP_aes_192_ctr()),
            "aes-256-ctr" => Scheme::Plain(ffi::EVP_aes_256_ctr()),
            "des-ede3-cbc" => Scheme::Plain(ffi::EVP_des_ede3_cbc()),
            "aes-128-gcm" => Scheme::Aead(ffi::EVP_aead_aes_128_gcm(), Some(ffi::EVP_aes_128_gcm())),
            "aes-192-gcm" => Scheme::Aead(ffi::EVP_aead_aes_192_gcm(), Some(ffi::EVP_aes_192_gcm())),
            "aes-256-gcm" => Scheme::Aead(ffi::EVP_aead_aes_256_gcm(), Some(ffi::EVP_aes_256_gcm())),
            "chacha20-poly1305" => Scheme::Aead(ffi::EVP_aead_chacha20_poly1305(), None),
            "xchacha20-poly1305" => Scheme::Aead(ffi::EVP_aead_xchacha20_poly1305(), None),
            "aes-128-gcm-siv" => Scheme::Aead(ffi::EVP_aead_aes_128_gcm_siv(), None),
            "aes-256-gcm-siv" => Scheme::Aead(ffi::EVP_aead_aes_256_gcm_siv(), None),
            id if id.ends_with("-cfb128") || id.ends_with("-xts") => {
                return Err(unsupported(format!(
                    "{id} (in BoringSSL only in its decrepit library, which boring-sys does not link)"
                )))
            }
            id => return Err(unsupported(format!("{id} (not in BoringSSL)"))),
        })
    }
}

fn md_of(alg: &AlgorithmSpec) -> Result<*const ffi::EVP_MD, BackendError> {
    // SAFETY: the EVP_* getters return static descriptors.
    unsafe {
        Ok(match alg.id {
            "md5" => ffi::EVP_md5(),
            "sha1" => ffi::EVP_sha1(),
            "sha224" => ffi::EVP_sha224(),
            "sha256" => ffi::EVP_sha256(),
            "sha384" => ffi::EVP_sha384(),
            "sha512" => ffi::EVP_sha512(),
            "blake2b512" => return Err(unsupported("blake2b512 (BoringSSL has BLAKE2b-256 only)")),
            id => return Err(unsupported(format!("{id} (not in BoringSSL)"))),
        })
    }
}

/// The calls of a catalog MAC, with the key length checked where the MAC has one.
fn mac_of(alg: &AlgorithmSpec, key: &[u8]) -> Result<MacKind, BackendError> {
    // SAFETY: the EVP_* getters return static descriptors.
    let kind = unsafe {
        match alg.id {
            "hmac-md5" => return Ok(MacKind::Hmac(ffi::EVP_md5())),
            "hmac-sha1" => return Ok(MacKind::Hmac(ffi::EVP_sha1())),
            "hmac-sha256" => return Ok(MacKind::Hmac(ffi::EVP_sha256())),
            "hmac-sha512" => return Ok(MacKind::Hmac(ffi::EVP_sha512())),
            "aes-128-cmac" => MacKind::Cmac,
            "poly1305" => MacKind::Poly1305,
            id => return Err(unsupported(format!("{id} (not in BoringSSL: its GHASH is internal to GCM)"))),
        }
    };
    crate::sessions::check_mac_key(alg, key)?;
    Ok(kind)
}

impl BoringBackend {
    pub fn open() -> BoringBackend {
        BoringBackend {
            capabilities: cpu::capability_vector(),
        }
    }

    fn keyed(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], encrypt: bool) -> Result<Cipher, BackendError> {
        check_key_and_iv(alg, key, iv)?;
        Cipher::new(scheme_of(alg)?, key, iv, encrypt, alg.tag_len)
    }
}

impl Backend for BoringBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert("BORINGSSL_API_VERSION".to_string(), ffi::BORINGSSL_API_VERSION.to_string());
        if let Ok(v) = std::env::var("OPENSSL_ia32cap") {
            details.insert("OPENSSL_ia32cap".to_string(), v);
        }
        // SAFETY: OPENSSL_VERSION (0) names a static string ("BoringSSL").
        let name = crate::native::text(unsafe { ffi::OpenSSL_version(0) }).unwrap_or_else(|| "BoringSSL".into());
        BackendInfo {
            id: "boring".into(),
            name: "BoringSSL (boring)".into(),
            version: format!(
                "{name} (API version {}, boring-sys {})",
                ffi::BORINGSSL_API_VERSION,
                env!("CRYPTOBENCH_BORING_SYS_VERSION")
            ),
            library_path: std::env::current_exe().ok().map(|p| p.display().to_string()),
            cpu_capabilities: self.capabilities.clone(),
            details,
        }
    }

    fn support(&self, alg: &AlgorithmSpec) -> Support {
        Support::from(if alg.is_digest() {
            md_of(alg).map(drop)
        } else if alg.is_mac() {
            mac_of(alg, &crate::checks::verify::inputs_for(alg, 1).key).map(drop)
        } else {
            scheme_of(alg).map(drop)
        })
    }

    fn encrypt_once(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Sealed, BackendError> {
        if let Some(problem) = alg.size_problem(plaintext.len()) {
            return Err(BackendError::Invalid(problem));
        }
        seal_once(self.keyed(alg, key, iv, true)?, alg, iv, aad, plaintext)
    }

    fn decrypt_once(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
    ) -> Result<Vec<u8>, BackendError> {
        open_once(self.keyed(alg, key, iv, false)?, alg, iv, aad, ciphertext, tag)
    }

    fn digest_once(&self, alg: &AlgorithmSpec, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        digest_once(Hash::new(md_of(alg)?)?, message)
    }

    fn mac_once(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        super::mac::mac_once(mac_of(alg, key)?, key, message, alg.digest_len)
    }

    fn prepare(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        crate::backend::check_mode(alg, cell)?;
        if alg.is_digest() {
            return Ok(prepare_digest(cell, alg, Hash::new(md_of(alg)?)?, None));
        }
        if alg.is_mac() {
            return Ok(prepare_digest(cell, alg, Mac::new(mac_of(alg, &inputs.key)?, &inputs.key)?, None));
        }
        if let (Scheme::Aead(_, None), Mode::Stream, AlgorithmClass::Aead) = (scheme_of(alg)?, cell.mode, alg.class) {
            return Err(unsupported(format!(
                "{} in stream mode (BoringSSL offers it only as an EVP_AEAD, which seals whole messages; use --mode message)",
                alg.id
            )));
        }
        prepare_cipher(
            cell,
            alg,
            inputs,
            message,
            |encrypt| self.keyed(alg, &inputs.key, &inputs.iv, encrypt),
            None,
        )
    }
}

//! GNU Nettle (`libnettle.so.8`), loaded at run time: AES ECB/CBC/CFB/CTR
//! (aes.h with cbc.h, cfb.h, ctr.h), AES-GCM (gcm.h, `gcm_aes*`), AES-XTS
//! (xts.h, 3.5+), ChaCha20-Poly1305 (chacha-poly1305.h, RFC 8439 nonce),
//! 3DES-CBC (des.h) and the digests Nettle describes as `struct nettle_hash`
//! (nettle-meta.h). Manual: <https://www.lysator.liu.se/~nisse/nettle/nettle.html>.
//! Nettle's "fat" builds choose their x86 code at load time, which
//! `NETTLE_FAT_OVERRIDE` in the worker's environment masks.

mod api;
pub mod capabilities;
mod cipher;
mod defects;
mod ecc;
mod gmp;
mod hogweed;
mod mac;
mod pk;
mod pk_ecc;
mod pk_eddsa;
mod rsa;
mod sessions;

use std::collections::BTreeMap;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode};

use self::api::{Api, NettleHash};
use self::capabilities::FAT_OVERRIDE_ENV;
use self::cipher::{Chain, Keyed, Scheme, SetKey};
use self::mac::MacSession;
use self::sessions::{HashSession, NettleCipher};
use crate::backend::AeadCall;
use crate::error::{BackendError, OpenError};
use crate::library::{CipherTask, DigestTask, Library};
use crate::native;
use crate::registry::Entry;
use crate::sessions::message_once;

const DEFAULT_LIBRARIES: &[&str] = native::per_platform(
    &["libnettle.8.dylib", "libnettle.dylib"],
    &["libnettle-8.dll"],
    &["libnettle.so.8", "libnettle.so"],
);

pub struct NettleBackend {
    api: Api,
    /// (catalog id, the library's `struct nettle_hash`), for the digests it exports.
    hashes: Vec<(&'static str, *const NettleHash)>,
    path: String,
    version: String,
    /// libhogweed's public key (hogweed.rs), or why it could not be loaded.
    hogweed: Result<hogweed::Hogweed, String>,
    _library: libloading::Library,
}

/// Catalog digest → exported `struct nettle_hash` symbol.
const HASH_SYMBOLS: &[(&str, &[u8])] = &[
    ("md5", b"nettle_md5\0"),
    ("sha1", b"nettle_sha1\0"),
    ("sha224", b"nettle_sha224\0"),
    ("sha256", b"nettle_sha256\0"),
    ("sha384", b"nettle_sha384\0"),
    ("sha512", b"nettle_sha512\0"),
    ("sha3-256", b"nettle_sha3_256\0"),
    ("sha3-512", b"nettle_sha3_512\0"),
    ("blake2b512", b"nettle_blake2b_512\0"),
    ("blake2s256", b"nettle_blake2s_256\0"),
    ("sha3-224", b"nettle_sha3_224\0"),
    ("sha3-384", b"nettle_sha3_384\0"),
    // 3.8+
    ("sm3", b"nettle_sm3\0"),
];

/// The lengths Nettle's GCM takes for vectors: any IV but an empty one, tags of 1 to 16 bytes;
/// other AEADs the catalog's only.
fn gcm_lengths(alg: &AlgorithmSpec, key: &[u8], iv: &[u8], tag_len: usize, version: &str) -> Result<(), BackendError> {
    if key.len() != alg.key_len {
        return Err(BackendError::Invalid(format!("{} takes a {}-byte key", alg.id, alg.key_len)));
    }
    if !alg.id.ends_with("-gcm") {
        if iv.len() == alg.iv_len && tag_len == alg.tag_len {
            return Ok(());
        }
        return Err(crate::backend::catalog_lengths_only(alg));
    }
    if iv.is_empty() {
        return Err(BackendError::Unsupported(format!(
            "an empty GCM IV ({version}'s gcm_set_iv asserts a length)"
        )));
    }
    if tag_len == 0 || tag_len > 16 {
        return Err(BackendError::Unsupported(format!(
            "a GCM tag length above 16 bytes or of 0 ({version})"
        )));
    }
    Ok(())
}

fn unsupported(alg: &AlgorithmSpec, why: &str) -> BackendError {
    BackendError::Unsupported(format!("{} ({why})", alg.id))
}

impl NettleBackend {
    pub fn open(path: Option<&str>) -> Result<NettleBackend, OpenError> {
        let loaded = native::load(path, DEFAULT_LIBRARIES, "Nettle", "nettle")?;
        // SAFETY: looked up by the documented name; `int nettle_version_major(void)` (version.h, 3.1+).
        let major = unsafe {
            loaded
                .library
                .get::<unsafe extern "C" fn() -> std::ffi::c_int>(b"nettle_version_major\0")
        }
        .map_err(|_| OpenError::NotThatLibrary {
            path: loaded.tried.clone(),
            expected: "libnettle of Nettle 3.1 or later",
            symbol: "nettle_version_major",
        })?;
        let path = native::file_of(*major as *const std::ffi::c_void, &loaded.tried);
        // SAFETY: the library is Nettle (it exports nettle_version_major); kept alive beside the table.
        let api = unsafe { Api::load(&loaded.library) }.map_err(|symbol| OpenError::MissingSymbol {
            path: path.clone(),
            symbol,
            library: "Nettle",
            version: "3.x".into(),
        })?;
        // SAFETY: plain queries.
        let version = format!("Nettle {}.{}", unsafe { (api.nettle_version_major)() }, unsafe {
            (api.nettle_version_minor)()
        });
        let hashes = HASH_SYMBOLS
            .iter()
            .filter_map(|(id, sym)| {
                // SAFETY: a data symbol of type `const struct nettle_hash`; its address is the pointer.
                unsafe { loaded.library.get::<*const NettleHash>(*sym) }.ok().map(|s| (*id, *s))
            })
            .collect();
        let hogweed = hogweed::load_hogweed(&path);
        Ok(NettleBackend {
            api,
            hashes,
            path,
            version,
            hogweed,
            _library: loaded.library,
        })
    }

    fn mac_fns(&self, alg: &AlgorithmSpec) -> Result<mac::MacFns, BackendError> {
        match mac::MacFns::of(&self.api, alg.id) {
            Some(Ok(fns)) => Ok(fns),
            Some(Err(what)) => Err(unsupported(alg, &format!("{} lacks {what}", self.version))),
            None => Err(unsupported(
                alg,
                "not offered by Nettle: its Poly1305 is Poly1305-AES only and its GHASH internal",
            )),
        }
    }

    fn hash(&self, alg: &AlgorithmSpec) -> Result<&NettleHash, BackendError> {
        let (_, p) = self
            .hashes
            .iter()
            .find(|(id, _)| *id == alg.id)
            .ok_or_else(|| unsupported(alg, &format!("{} exports no such struct nettle_hash", self.version)))?;
        // SAFETY: a static structure inside the loaded library, which lives as long as self.
        Ok(unsafe { &**p })
    }

    /// The functions that implement a catalog cipher, where this Nettle has them all.
    fn scheme(&self, alg: &AlgorithmSpec) -> Result<Scheme, BackendError> {
        let a = &self.api;
        let missing = |what: &str| unsupported(alg, &format!("{} lacks {what}", self.version));
        if alg.id == "chacha20-poly1305" {
            return match (
                a.nettle_chacha_poly1305_set_key,
                a.nettle_chacha_poly1305_set_nonce,
                a.nettle_chacha_poly1305_update,
                a.nettle_chacha_poly1305_encrypt,
                a.nettle_chacha_poly1305_decrypt,
                a.nettle_chacha_poly1305_digest,
            ) {
                (Some(set_key), Some(set_nonce), Some(update), Some(encrypt), Some(decrypt), Some(digest)) => Ok(Scheme::ChaPoly {
                    set_key,
                    set_nonce,
                    update,
                    encrypt,
                    decrypt,
                    digest,
                }),
                _ => Err(missing("chacha_poly1305_*")),
            };
        }
        if alg.id == "des-ede3-cbc" {
            return match (a.nettle_des3_set_key, a.nettle_des3_encrypt, a.nettle_des3_decrypt) {
                (Some(set), Some(enc), Some(dec)) => Ok(Scheme::Block {
                    chain: Chain::Cbc,
                    block: 8,
                    set_enc: SetKey::Checked(set),
                    set_dec: SetKey::Checked(set),
                    enc,
                    dec,
                }),
                _ => Err(missing("des3_*")),
            };
        }
        let camellia = match alg.id {
            "camellia-128-cbc" => Some((
                a.nettle_camellia128_set_encrypt_key,
                a.nettle_camellia_set_decrypt_key,
                a.nettle_camellia128_crypt,
            )),
            "camellia-192-cbc" => Some((
                a.nettle_camellia192_set_encrypt_key,
                a.nettle_camellia192_set_decrypt_key,
                a.nettle_camellia256_crypt,
            )),
            "camellia-256-cbc" => Some((
                a.nettle_camellia256_set_encrypt_key,
                a.nettle_camellia256_set_decrypt_key,
                a.nettle_camellia256_crypt,
            )),
            _ => None,
        };
        if let Some(fns) = camellia {
            return match fns {
                (Some(set_enc), Some(set_dec), Some(crypt)) => Ok(Scheme::Block {
                    chain: Chain::Cbc,
                    block: 16,
                    set_enc: SetKey::Plain(set_enc),
                    set_dec: SetKey::Plain(set_dec),
                    enc: crypt,
                    dec: crypt,
                }),
                _ => Err(missing("camellia*_*")),
            };
        }
        let Some((bits, mode)) = alg.id.strip_prefix("aes-").and_then(|r| r.split_once('-')) else {
            return Err(unsupported(alg, "not offered by Nettle"));
        };
        let (set_enc, set_dec, enc, dec) = match bits {
            "128" => (
                a.nettle_aes128_set_encrypt_key,
                a.nettle_aes128_set_decrypt_key,
                a.nettle_aes128_encrypt,
                a.nettle_aes128_decrypt,
            ),
            "192" => (
                a.nettle_aes192_set_encrypt_key,
                a.nettle_aes192_set_decrypt_key,
                a.nettle_aes192_encrypt,
                a.nettle_aes192_decrypt,
            ),
            "256" => (
                a.nettle_aes256_set_encrypt_key,
                a.nettle_aes256_set_decrypt_key,
                a.nettle_aes256_encrypt,
                a.nettle_aes256_decrypt,
            ),
            _ => return Err(unsupported(alg, "not offered by Nettle")),
        };
        let block = |chain| Scheme::Block {
            chain,
            block: 16,
            set_enc: SetKey::Plain(set_enc),
            set_dec: SetKey::Plain(set_dec),
            enc,
            dec,
        };
        match mode {
            "ecb" => Ok(block(Chain::Ecb)),
            "cbc" => Ok(block(Chain::Cbc)),
            "ctr" => Ok(block(Chain::Ctr)),
            "cfb128" if a.nettle_cfb_encrypt.is_some() && a.nettle_cfb_decrypt.is_some() => Ok(block(Chain::Cfb)),
            "cfb128" => Err(missing("cfb_encrypt (Nettle 3.4+)")),
            "gcm" => {
                let fns = match bits {
                    "128" => (
                        a.nettle_gcm_aes128_set_key,
                        a.nettle_gcm_aes128_set_iv,
                        a.nettle_gcm_aes128_update,
                        a.nettle_gcm_aes128_encrypt,
                        a.nettle_gcm_aes128_decrypt,
                        a.nettle_gcm_aes128_digest,
                    ),
                    "192" => (
                        a.nettle_gcm_aes192_set_key,
                        a.nettle_gcm_aes192_set_iv,
                        a.nettle_gcm_aes192_update,
                        a.nettle_gcm_aes192_encrypt,
                        a.nettle_gcm_aes192_decrypt,
                        a.nettle_gcm_aes192_digest,
                    ),
                    _ => (
                        a.nettle_gcm_aes256_set_key,
                        a.nettle_gcm_aes256_set_iv,
                        a.nettle_gcm_aes256_update,
                        a.nettle_gcm_aes256_encrypt,
                        a.nettle_gcm_aes256_decrypt,
                        a.nettle_gcm_aes256_digest,
                    ),
                };
                match fns {
                    (Some(set_key), Some(set_iv), Some(update), Some(encrypt), Some(decrypt), Some(digest)) => Ok(Scheme::Gcm {
                        set_key,
                        set_iv,
                        update,
                        encrypt,
                        decrypt,
                        digest,
                    }),
                    _ => Err(missing("gcm_aes*")),
                }
            }
            "xts" => {
                let fns = match bits {
                    "128" => (
                        a.nettle_xts_aes128_set_encrypt_key,
                        a.nettle_xts_aes128_set_decrypt_key,
                        a.nettle_xts_aes128_encrypt_message,
                        a.nettle_xts_aes128_decrypt_message,
                    ),
                    _ => (
                        a.nettle_xts_aes256_set_encrypt_key,
                        a.nettle_xts_aes256_set_decrypt_key,
                        a.nettle_xts_aes256_encrypt_message,
                        a.nettle_xts_aes256_decrypt_message,
                    ),
                };
                match fns {
                    (Some(set_enc), Some(set_dec), Some(enc), Some(dec)) => Ok(Scheme::Xts {
                        set_enc,
                        set_dec,
                        enc,
                        dec,
                    }),
                    _ => Err(missing("xts_aes* (Nettle 3.5+)")),
                }
            }
            _ => Err(unsupported(alg, "not offered by Nettle")),
        }
    }

    /// A session keyed with `key` and started at `iv`.
    fn session(&self, alg: &AlgorithmSpec, scheme: Scheme, key: &[u8], iv: &[u8], encrypt: bool) -> Result<NettleCipher<'_>, BackendError> {
        Ok(NettleCipher {
            keyed: Keyed::new(&self.api, scheme, key, iv, encrypt)?,
            aead: alg.class == AlgorithmClass::Aead,
        })
    }
}

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded("nettle", "Nettle", "apt-get install libnettle8", |path| {
    Ok(Box::new(NettleBackend::open(path)?))
})
.with_cpu(None, Some(capabilities::mask))
.with_defects(defects::KNOWN_DEFECTS);

impl Library for NettleBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        if let Ok(v) = std::env::var(FAT_OVERRIDE_ENV) {
            details.insert(FAT_OVERRIDE_ENV.to_string(), v);
        }
        if let Ok(h) = &self.hogweed {
            details.insert("hogweed".to_string(), h.path.clone());
        }
        ENTRY.info(
            self.version.clone(),
            Some(self.path.clone()),
            std::env::var(FAT_OVERRIDE_ENV).ok().map(|v| format!("{FAT_OVERRIDE_ENV}={v}")),
            details,
        )
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let scheme = self.scheme(alg)?;
        task.with(|encrypt| self.session(alg, scheme, key, iv, encrypt))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        task.with(HashSession::new(self.hash(alg)?))
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        let fns = self.mac_fns(alg)?;
        task.with(MacSession { ctx: fns.keyed(key)?, fns })
    }

    /// Streams whose updates are not whole blocks of what Nettle can continue after.
    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        if cell.mode != Mode::Stream || alg.is_digest() || alg.is_mac() {
            return None;
        }
        let g = self.scheme(alg).ok()?.stream_granularity();
        (!cell.size.is_multiple_of(g)).then(|| {
            format!(
                "{} in stream mode with {}-byte updates (Nettle continues a stream only after whole {g}-byte blocks)",
                alg.id, cell.size
            )
        })
    }

    /// GCM with the vector's IV and tag lengths: `gcm_*_set_iv` takes any IV length
    /// (GHASH of the IV for lengths other than 12) and `gcm_*_digest` any tag length up
    /// to 16 (gcm.h); ChaCha20-Poly1305's nonce is fixed at 12 bytes.
    fn vector_message(&self, alg: &AlgorithmSpec, encrypt: bool, call: AeadCall, tag: &mut [u8]) -> Result<Vec<u8>, BackendError> {
        let session = self.vector_session(alg, call.key, call.iv, tag.len(), call.data.len(), encrypt)?;
        message_once(session, alg, encrypt, call, tag)
    }

    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }
}

impl NettleBackend {
    /// A session for a message with a test vector's lengths, where Nettle takes them.
    fn vector_session(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        tag_len: usize,
        len: usize,
        encrypt: bool,
    ) -> Result<NettleCipher<'_>, BackendError> {
        gcm_lengths(alg, key, iv, tag_len, &self.version)?;
        if let Some(problem) = alg.size_problem(len) {
            return Err(BackendError::Invalid(problem));
        }
        self.session(alg, self.scheme(alg)?, key, iv, encrypt)
    }
}

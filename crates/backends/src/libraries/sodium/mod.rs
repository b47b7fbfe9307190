//! libsodium (`libsodium.so.23`), loaded at run time: AES-256-GCM (only
//! where `crypto_aead_aes256gcm_is_available()` says the CPU has AES-NI and
//! PCLMUL; libsodium has no portable AES), ChaCha20-Poly1305 (IETF, 96-bit
//! nonce, RFC 8439), SHA-256, SHA-512 and BLAKE2b-512.
//! API: <https://doc.libsodium.org/secret-key_cryptography/aead>,
//! <https://doc.libsodium.org/advanced/sha-2_hash_function>,
//! <https://doc.libsodium.org/hashing/generic_hashing>.

mod api;
mod extra;
mod pk;
mod pk_api;
mod primitives;

use std::collections::BTreeMap;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};

use self::api::Api;
use self::primitives::{check, AeadMessage, DigestMessage, DigestStream};
use crate::error::{BackendError, OpenError};
use crate::native::{self, CtxMem};
use crate::backend::{check_key_and_iv, Backend, CellInputs, Primitive, Sealed, Support};

#[cfg(target_os = "macos")]
const DEFAULT_LIBRARIES: &[&str] = &["libsodium.26.dylib", "libsodium.23.dylib", "libsodium.dylib"];
#[cfg(windows)]
const DEFAULT_LIBRARIES: &[&str] = &["libsodium.dll"];
#[cfg(not(any(target_os = "macos", windows)))]
const DEFAULT_LIBRARIES: &[&str] = &["libsodium.so.23", "libsodium.so.26", "libsodium.so"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aead {
    Aes256Gcm,
    ChaCha20Poly1305,
    /// `crypto_aead_xchacha20poly1305_ietf_*`: libsodium's main AEAD (192-bit nonce).
    XChaCha20Poly1305,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hash {
    Sha256,
    Sha512,
    Blake2b512,
}

pub struct SodiumBackend {
    api: Api,
    path: String,
    version: String,
    aes_gcm: bool,
    /// Ed25519 and X25519 (pk_api.rs), or the first function this libsodium lacks.
    pk_api: Result<pk_api::PkApi, &'static str>,
    _library: libloading::Library,
}

fn hash_of(alg: &AlgorithmSpec) -> Option<Hash> {
    Some(match alg.id {
        "sha256" => Hash::Sha256,
        "sha512" => Hash::Sha512,
        "blake2b512" => Hash::Blake2b512,
        _ => return None,
    })
}

/// One-shot digest into `out` (resized to the digest length).
pub(crate) fn hash_once(api: &Api, hash: Hash, msg: &[u8], out: &mut Vec<u8>) -> Result<(), BackendError> {
    // SAFETY: `out` is resized to the digest length before the call.
    unsafe {
        match hash {
            Hash::Sha256 => {
                out.resize(32, 0);
                check(
                    (api.crypto_hash_sha256)(out.as_mut_ptr(), msg.as_ptr(), msg.len() as u64),
                    "crypto_hash_sha256",
                )
            }
            Hash::Sha512 => {
                out.resize(64, 0);
                check(
                    (api.crypto_hash_sha512)(out.as_mut_ptr(), msg.as_ptr(), msg.len() as u64),
                    "crypto_hash_sha512",
                )
            }
            Hash::Blake2b512 => {
                out.resize(64, 0);
                check(
                    (api.crypto_generichash_blake2b)(out.as_mut_ptr(), 64, msg.as_ptr(), msg.len() as u64, std::ptr::null(), 0),
                    "crypto_generichash_blake2b",
                )
            }
        }
    }
}

/// A fresh streaming state (`*_init`), in memory of the size libsodium reports.
pub(crate) fn hash_init(api: &Api, hash: Hash) -> Result<CtxMem, BackendError> {
    // SAFETY: the memory has the size the library's *_statebytes() gives, 64-byte aligned.
    unsafe {
        match hash {
            Hash::Sha256 => {
                let mut s = CtxMem::new((api.crypto_hash_sha256_statebytes)());
                check((api.crypto_hash_sha256_init)(s.ptr()), "crypto_hash_sha256_init")?;
                Ok(s)
            }
            Hash::Sha512 => {
                let mut s = CtxMem::new((api.crypto_hash_sha512_statebytes)());
                check((api.crypto_hash_sha512_init)(s.ptr()), "crypto_hash_sha512_init")?;
                Ok(s)
            }
            Hash::Blake2b512 => {
                let mut s = CtxMem::new((api.crypto_generichash_blake2b_statebytes)());
                check(
                    (api.crypto_generichash_blake2b_init)(s.ptr(), std::ptr::null(), 0, 64),
                    "crypto_generichash_blake2b_init",
                )?;
                Ok(s)
            }
        }
    }
}

pub(crate) fn hash_update(api: &Api, hash: Hash, state: &mut CtxMem, msg: &[u8]) -> Result<(), BackendError> {
    let (p, n) = (msg.as_ptr(), msg.len() as u64);
    // SAFETY: the state was initialised by hash_init for the same hash.
    unsafe {
        match hash {
            Hash::Sha256 => check((api.crypto_hash_sha256_update)(state.ptr(), p, n), "crypto_hash_sha256_update"),
            Hash::Sha512 => check((api.crypto_hash_sha512_update)(state.ptr(), p, n), "crypto_hash_sha512_update"),
            Hash::Blake2b512 => check(
                (api.crypto_generichash_blake2b_update)(state.ptr(), p, n),
                "crypto_generichash_blake2b_update",
            ),
        }
    }
}

pub(crate) fn hash_final(api: &Api, hash: Hash, state: &mut CtxMem) -> Result<Vec<u8>, BackendError> {
    let mut out = vec![0u8; if hash == Hash::Sha256 { 32 } else { 64 }];
    // SAFETY: as hash_update; `out` has the digest length.
    unsafe {
        match hash {
            Hash::Sha256 => check(
                (api.crypto_hash_sha256_final)(state.ptr(), out.as_mut_ptr()),
                "crypto_hash_sha256_final",
            )?,
            Hash::Sha512 => check(
                (api.crypto_hash_sha512_final)(state.ptr(), out.as_mut_ptr()),
                "crypto_hash_sha512_final",
            )?,
            Hash::Blake2b512 => check(
                (api.crypto_generichash_blake2b_final)(state.ptr(), out.as_mut_ptr(), 64),
                "crypto_generichash_blake2b_final",
            )?,
        }
    }
    Ok(out)
}

impl SodiumBackend {
    pub fn open(path: Option<&str>) -> Result<SodiumBackend, OpenError> {
        let loaded = native::load(path, DEFAULT_LIBRARIES, "libsodium", "sodium")?;
        // SAFETY: the symbol is looked up by its documented name; checked below before use.
        let probe = unsafe {
            loaded
                .library
                .get::<unsafe extern "C" fn() -> *const std::ffi::c_char>(b"sodium_version_string\0")
        }
        .map_err(|_| OpenError::NotThatLibrary {
            path: loaded.tried.clone(),
            expected: "libsodium",
            symbol: "sodium_version_string",
        })?;
        let path = native::file_of(*probe as *const std::ffi::c_void, &loaded.tried);
        // SAFETY: `sodium_version_string(void)` returns a static string.
        let version = native::text(unsafe { probe() }).unwrap_or_default();
        // SAFETY: the library is libsodium (it exports sodium_version_string); kept alive beside the table.
        let api = unsafe { Api::load(&loaded.library) }.map_err(|symbol| OpenError::MissingSymbol {
            path: path.clone(),
            symbol,
            library: "libsodium",
            version: version.clone(),
        })?;
        // SAFETY: documented initialiser; 0 = initialised, 1 = already, -1 = failure.
        if unsafe { (api.sodium_init)() } < 0 {
            return Err(OpenError::Load {
                path,
                reason: "sodium_init() failed".into(),
            });
        }
        // Must be asked after sodium_init, which runs the CPU detection.
        let aes_gcm = api.crypto_aead_aes256gcm_is_available.is_some_and(|f| unsafe { f() } == 1)
            && api.crypto_aead_aes256gcm_beforenm.is_some()
            && api.crypto_aead_aes256gcm_encrypt_detached_afternm.is_some()
            && api.crypto_aead_aes256gcm_decrypt_detached_afternm.is_some()
            && api.crypto_aead_aes256gcm_encrypt_detached.is_some()
            && api.crypto_aead_aes256gcm_decrypt_detached.is_some()
            && api.crypto_aead_aes256gcm_statebytes.is_some();
        // SAFETY: as for `api`.
        let pk_api = unsafe { pk_api::PkApi::load(&loaded.library) };
        Ok(SodiumBackend {
            api,
            path,
            version: format!("libsodium {version}"),
            aes_gcm,
            pk_api,
            _library: loaded.library,
        })
    }

    fn aead_of(&self, alg: &AlgorithmSpec) -> Result<Aead, BackendError> {
        match alg.id {
            "chacha20-poly1305" => Ok(Aead::ChaCha20Poly1305),
            "xchacha20-poly1305"
                if self.api.crypto_aead_xchacha20poly1305_ietf_encrypt_detached.is_some()
                    && self.api.crypto_aead_xchacha20poly1305_ietf_decrypt_detached.is_some() =>
            {
                Ok(Aead::XChaCha20Poly1305)
            }
            "aes-256-gcm" if self.aes_gcm => Ok(Aead::Aes256Gcm),
            "aes-256-gcm" => Err(BackendError::Unsupported(
                "aes-256-gcm (crypto_aead_aes256gcm_is_available() is false: libsodium's AES-GCM needs AES-NI and PCLMUL)".into(),
            )),
            "aes-128-gcm" | "aes-192-gcm" => Err(BackendError::Unsupported(format!("{} (libsodium has AES-256-GCM only)", alg.id))),
            _ => Err(BackendError::Unsupported(format!("{} (not in libsodium)", alg.id))),
        }
    }

    fn hash(&self, alg: &AlgorithmSpec) -> Result<Hash, BackendError> {
        hash_of(alg).ok_or_else(|| BackendError::Unsupported(format!("{} (not in libsodium)", alg.id)))
    }

    fn check_lengths(alg: &AlgorithmSpec, key: &[u8], iv: &[u8], tag: Option<&[u8]>) -> Result<(), BackendError> {
        if key.len() != alg.key_len || iv.len() != alg.iv_len || tag.is_some_and(|t| t.len() != alg.tag_len) {
            return Err(BackendError::Invalid(format!(
                "{} takes a {}-byte key, a {}-byte nonce and a {}-byte tag here",
                alg.id, alg.key_len, alg.iv_len, alg.tag_len
            )));
        }
        Ok(())
    }

    fn mac(&self, alg: &AlgorithmSpec) -> Result<extra::Mac, BackendError> {
        match extra::Mac::of(alg.id) {
            Some(m) if m.available(&self.api) => Ok(m),
            Some(_) => Err(BackendError::Unsupported(format!(
                "{} (this {} lacks its calls)",
                alg.id, self.version
            ))),
            None => Err(BackendError::Unsupported(format!("{} (not in libsodium)", alg.id))),
        }
    }

    /// ChaCha20 over a whole message from the IV's counter.
    fn chacha_once(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], input: &[u8]) -> Result<Vec<u8>, BackendError> {
        check_key_and_iv(alg, key, iv)?;
        let (counter, nonce) = extra::split_iv(iv)?;
        let mut out = vec![0u8; input.len()];
        // SAFETY: both buffers cover input.len() bytes; the key is 32 bytes (checked).
        unsafe { extra::chacha_xor(&self.api, out.as_mut_ptr(), input.as_ptr(), input.len(), &nonce, counter, key)? };
        Ok(out)
    }

    fn runtime_flags(&self) -> String {
        let flags = [
            ("aesni", self.api.sodium_runtime_has_aesni),
            ("pclmul", self.api.sodium_runtime_has_pclmul),
            ("avx2", self.api.sodium_runtime_has_avx2),
            ("ssse3", self.api.sodium_runtime_has_ssse3),
            ("sse41", self.api.sodium_runtime_has_sse41),
        ];
        flags
            .iter()
            // SAFETY: documented `int sodium_runtime_has_*(void)`, valid after sodium_init.
            .filter_map(|(name, f)| f.map(|f| format!("{name}={}", unsafe { f() })))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl Backend for SodiumBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert("aes256gcm_is_available".to_string(), self.aes_gcm.to_string());
        BackendInfo {
            id: "sodium".into(),
            name: "libsodium".into(),
            version: self.version.clone(),
            library_path: Some(self.path.clone()),
            cpu_capabilities: Some(format!("sodium_runtime_has: {}", self.runtime_flags())),
            details,
        }
    }

    fn support(&self, alg: &AlgorithmSpec) -> Support {
        let r = match alg.class {
            AlgorithmClass::Aead => self.aead_of(alg).map(drop),
            AlgorithmClass::Digest => self.hash(alg).map(drop),
            AlgorithmClass::Mac => self.mac(alg).map(drop),
            AlgorithmClass::Cipher if alg.id == "chacha20" && self.api.crypto_stream_chacha20_ietf_xor_ic.is_some() => Ok(()),
            AlgorithmClass::Cipher => Err(BackendError::Unsupported(format!(
                "{} (libsodium offers no unauthenticated block cipher modes)",
                alg.id
            ))),
        };
        Support::from(r)
    }

    fn encrypt_once(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Sealed, BackendError> {
        if alg.id == "chacha20" {
            return Ok(Sealed {
                ciphertext: self.chacha_once(alg, key, iv, plaintext)?,
                tag: Vec::new(),
            });
        }
        let aead = self.aead_of(alg)?;
        Self::check_lengths(alg, key, iv, None)?;
        let mut ciphertext = vec![0u8; plaintext.len()];
        let mut tag = vec![0u8; alg.tag_len];
        let mut tag_len = 0u64;
        let f = match aead {
            Aead::Aes256Gcm => self.api.crypto_aead_aes256gcm_encrypt_detached.expect("checked at open"),
            Aead::ChaCha20Poly1305 => self.api.crypto_aead_chacha20poly1305_ietf_encrypt_detached,
            Aead::XChaCha20Poly1305 => self
                .api
                .crypto_aead_xchacha20poly1305_ietf_encrypt_detached
                .expect("checked in aead_of"),
        };
        // SAFETY: lengths checked above; output buffers sized for ciphertext and tag. The raw-key
        // call is a path independent of the timed `*_afternm` one for AES-GCM.
        let rc = unsafe {
            f(
                ciphertext.as_mut_ptr(),
                tag.as_mut_ptr(),
                &mut tag_len,
                plaintext.as_ptr(),
                plaintext.len() as u64,
                aad.as_ptr(),
                aad.len() as u64,
                std::ptr::null(),
                iv.as_ptr(),
                key.as_ptr(),
            )
        };
        check(rc, "crypto_aead_*_encrypt_detached")?;
        Ok(Sealed { ciphertext, tag })
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
        if alg.id == "chacha20" {
            return self.chacha_once(alg, key, iv, ciphertext);
        }
        let aead = self.aead_of(alg)?;
        Self::check_lengths(alg, key, iv, Some(tag))?;
        let mut out = vec![0u8; ciphertext.len()];
        let f = match aead {
            Aead::Aes256Gcm => self.api.crypto_aead_aes256gcm_decrypt_detached.expect("checked at open"),
            Aead::ChaCha20Poly1305 => self.api.crypto_aead_chacha20poly1305_ietf_decrypt_detached,
            Aead::XChaCha20Poly1305 => self
                .api
                .crypto_aead_xchacha20poly1305_ietf_decrypt_detached
                .expect("checked in aead_of"),
        };
        // SAFETY: lengths checked above.
        let rc = unsafe {
            f(
                out.as_mut_ptr(),
                std::ptr::null_mut(),
                ciphertext.as_ptr(),
                ciphertext.len() as u64,
                tag.as_ptr(),
                aad.as_ptr(),
                aad.len() as u64,
                iv.as_ptr(),
                key.as_ptr(),
            )
        };
        if rc != 0 {
            return Err(BackendError::AuthenticationFailed);
        }
        Ok(out)
    }

    fn mac_once(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        // init/update/final: independent of the timed path (a state copy; Poly1305's one-shot call).
        let mac = self.mac(alg)?;
        let mut state = extra::init(&self.api, mac, key)?;
        extra::update(&self.api, mac, &mut state, message)?;
        let mut out = [0u8; 64];
        let n = extra::finish(&self.api, mac, &mut state, &mut out)?;
        Ok(out[..n].to_vec())
    }

    fn digest_once(&self, alg: &AlgorithmSpec, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        // init/update/final: independent of the timed one-shot call.
        let hash = self.hash(alg)?;
        let mut state = hash_init(&self.api, hash)?;
        hash_update(&self.api, hash, &mut state, message)?;
        hash_final(&self.api, hash, &mut state)
    }

    fn prepare(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        let api = &self.api;
        if alg.is_mac() {
            let mac = self.mac(alg)?;
            let keyed = extra::init(api, mac, &inputs.key)?;
            return Ok(match cell.mode {
                Mode::Message => Box::new(extra::MacMessage {
                    api,
                    mac,
                    key: inputs.key.clone(),
                    work: keyed.clone(),
                    keyed,
                    out: [0; 64],
                }),
                Mode::Stream => Box::new(extra::MacStream { api, mac, state: keyed }),
            });
        }
        if alg.id == "chacha20" {
            check_key_and_iv(alg, &inputs.key, &inputs.iv)?;
            let (start, nonce) = extra::split_iv(&inputs.iv)?;
            let stream = cell.mode == Mode::Stream;
            if stream && !cell.size.is_multiple_of(64) {
                return Err(BackendError::Unsupported(format!(
                    "chacha20 in stream mode with {}-byte updates (crypto_stream_chacha20_ietf_xor_ic restarts at a block: updates must be whole 64-byte blocks)",
                    cell.size
                )));
            }
            let decrypt_message = !stream && cell.operation == Operation::Decrypt;
            return Ok(Box::new(extra::ChaCha {
                api,
                key: inputs.key.clone(),
                nonce,
                start,
                counter: start,
                stream,
                ciphertext: if decrypt_message {
                    self.chacha_once(alg, &inputs.key, &inputs.iv, message)?
                } else {
                    Vec::new()
                },
            }));
        }
        if alg.is_digest() {
            let hash = self.hash(alg)?;
            return Ok(match cell.mode {
                Mode::Message => Box::new(DigestMessage {
                    api,
                    hash,
                    // Sized here: the timed calls must not allocate.
                    out: vec![0; alg.digest_len],
                }),
                Mode::Stream => Box::new(DigestStream {
                    api,
                    hash,
                    state: hash_init(api, hash)?,
                }),
            });
        }
        let aead = self.aead_of(alg)?;
        Self::check_lengths(alg, &inputs.key, &inputs.iv, None)?;
        if cell.mode == Mode::Stream {
            return Err(BackendError::Unsupported(format!(
                "{} in stream mode (libsodium's AEAD calls seal whole messages only; use --mode message)",
                alg.id
            )));
        }
        let encrypt = cell.operation == Operation::Encrypt;
        let sealed = if encrypt {
            Sealed {
                ciphertext: Vec::new(),
                tag: vec![0; alg.tag_len],
            }
        } else {
            self.encrypt_once(alg, &inputs.key, &inputs.iv, &inputs.aad, message)?
        };
        let mut state = CtxMem::new(0);
        if aead == Aead::Aes256Gcm {
            // SAFETY: statebytes() is the size of crypto_aead_aes256gcm_state (16-byte aligned; CtxMem gives 64).
            state = CtxMem::new(unsafe { (api.crypto_aead_aes256gcm_statebytes.expect("checked at open"))() });
            check(
                unsafe { (api.crypto_aead_aes256gcm_beforenm.expect("checked at open"))(state.ptr(), inputs.key.as_ptr()) },
                "crypto_aead_aes256gcm_beforenm",
            )?;
        }
        Ok(Box::new(AeadMessage {
            api,
            aead,
            state,
            key: inputs.key.clone(),
            iv: inputs.iv.clone(),
            aad: inputs.aad.clone(),
            encrypt,
            rekey: cell.rekey,
            tag: sealed.tag,
            ciphertext: sealed.ciphertext,
        }))
    }

    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }
}

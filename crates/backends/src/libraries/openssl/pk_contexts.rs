//! The EVP_PKEY objects of OpenSSL's public key (1.1.1, 3.x, 4.x), owned
//! and freed on drop, and the contexts each operation is initialised with
//! (crates/backends/src/libraries/openssl/pk.rs says which call each
//! operation times).
//!
//! Keys are imported from [`PkKeys`]: RSA and EC private keys as DER
//! (`d2i_PrivateKey`, as speed.c loads its RSA keys), public keys as
//! SubjectPublicKeyInfo (`d2i_PUBKEY`), EdDSA/X25519/X448 as raw keys, and
//! ML-KEM/ML-DSA/SLH-DSA generated from their seed (`EVP_PKEY_keygen` with
//! the "seed" parameter, OpenSSL 3.5+). Algorithms the loaded library lacks
//! are reported with the version that has them.

use std::ffi::{c_int, c_void, CString};
use std::ptr::{null, null_mut};

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};

use super::api::Api;
use super::handles::error_queue;
use super::pk_api::*;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;

/// The first OpenSSL version number with ML-KEM, ML-DSA and SLH-DSA (3.5.0).
const PQC_VERSION: u64 = 0x3050_0000;

/// What a call needs: both symbol tables.
#[derive(Clone, Copy)]
pub(super) struct Lib<'a> {
    pub api: &'a Api,
    pub pk: &'a PkApi,
    /// The engine `--engine` made the default, where one was asked for.
    pub engine: Option<&'a str>,
    /// The provider `--provider` asked to be preferred, where one was.
    pub wanted: Option<&'a str>,
}

impl Lib<'_> {
    /// What serves an operation whose provider is `provider` (null: a
    /// legacy key, or a 1.1.1 without providers), as the symmetric cells
    /// say it (OpensslBackend::implementation): "provider default", "engine
    /// pkcs11", or the default path where an engine was asked for and does
    /// not serve the key.
    pub fn served(&self, provider: Option<*const c_void>) -> Option<String> {
        let name = |p: *const c_void| {
            // SAFETY: a live provider's name is a static string of the provider.
            (!p.is_null())
                .then(|| self.api.OSSL_PROVIDER_get0_name.and_then(|f| crate::native::text(unsafe { f(p) })))
                .flatten()
        };
        match (provider.and_then(name), self.engine) {
            (Some(p), None) => Some(match self.wanted {
                Some(w) if w != p => format!("provider {p}: the default path, provider {w} does not serve this key"),
                _ => format!("provider {p}"),
            }),
            (Some(p), Some(e)) => Some(format!("provider {p}: the default path, engine {e} does not serve this key")),
            // 3.x: a legacy key, made with the engine's method.
            (None, Some(e)) if provider.is_some() => Some(format!("engine {e}")),
            (None, Some(e)) => Some(format!(
                "built in or engine {e} (OpenSSL 1.1.1 does not say which serves a key operation)"
            )),
            (None, None) => None,
        }
    }

    pub fn fail(&self, call: &'static str) -> BackendError {
        BackendError::Call {
            call,
            detail: error_queue(self.api),
        }
    }

    pub fn check(&self, rc: c_int, call: &'static str) -> Result<(), BackendError> {
        if rc == 1 {
            Ok(())
        } else {
            Err(self.fail(call))
        }
    }

    pub fn version(&self) -> u64 {
        // SAFETY: no arguments.
        #[allow(clippy::useless_conversion)]
        u64::from(unsafe { (self.pk.OpenSSL_version_num)() })
    }
}

/// An owned EVP_PKEY.
pub(super) struct Pkey<'a> {
    pub lib: Lib<'a>,
    pub ptr: *mut EvpPkey,
}

impl<'a> Pkey<'a> {
    pub fn new(lib: Lib<'a>, ptr: *mut EvpPkey, call: &'static str) -> Result<Pkey<'a>, BackendError> {
        if ptr.is_null() {
            Err(lib.fail(call))
        } else {
            Ok(Pkey { lib, ptr })
        }
    }
}

impl Drop for Pkey<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { (self.lib.pk.EVP_PKEY_free)(self.ptr) };
    }
}

/// An owned EVP_PKEY_CTX.
pub(super) struct Ctx<'a> {
    pub lib: Lib<'a>,
    pub ptr: *mut EvpPkeyCtx,
}

impl<'a> Ctx<'a> {
    pub fn new(lib: Lib<'a>, ptr: *mut EvpPkeyCtx, call: &'static str) -> Result<Ctx<'a>, BackendError> {
        if ptr.is_null() {
            Err(lib.fail(call))
        } else {
            Ok(Ctx { lib, ptr })
        }
    }

    pub fn for_key(key: &Pkey<'a>) -> Result<Ctx<'a>, BackendError> {
        // SAFETY: live key; NULL engine.
        Ctx::new(
            key.lib,
            unsafe { (key.lib.pk.EVP_PKEY_CTX_new)(key.ptr, null_mut()) },
            "EVP_PKEY_CTX_new",
        )
    }

    fn ctrl(&self, name: &str, value: &str) -> Result<(), BackendError> {
        let (n, v) = (CString::new(name).expect("no NUL"), CString::new(value).expect("no NUL"));
        // SAFETY: live context, NUL-terminated strings.
        let rc = unsafe { (self.lib.pk.EVP_PKEY_CTX_ctrl_str)(self.ptr, n.as_ptr(), v.as_ptr()) };
        if rc > 0 {
            Ok(())
        } else {
            Err(BackendError::Call {
                call: "EVP_PKEY_CTX_ctrl_str",
                detail: format!("{name}={value}: {}", error_queue(self.lib.api)),
            })
        }
    }
}

impl Ctx<'_> {
    /// What serves this context's operation ([`Lib::served`]).
    pub fn served(&self) -> Option<String> {
        // SAFETY: a live context; the getter only reads it.
        let provider = self.lib.pk.EVP_PKEY_CTX_get0_provider.map(|f| unsafe { f(self.ptr) });
        self.lib.served(provider)
    }
}

impl Drop for Ctx<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { (self.lib.pk.EVP_PKEY_CTX_free)(self.ptr) };
    }
}

/// An owned EVP_MD_CTX (EdDSA).
pub(super) struct MdCtx<'a> {
    pub lib: Lib<'a>,
    pub ptr: *mut EvpMdCtx,
}

impl Drop for MdCtx<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { (self.lib.pk.EVP_MD_CTX_free)(self.ptr) };
    }
}

fn raw_id(alg: &PkAlgorithmSpec) -> Option<c_int> {
    Some(match alg.openssl_name {
        "ED25519" => EVP_PKEY_ED25519,
        "ED448" => EVP_PKEY_ED448,
        "X25519" => EVP_PKEY_X25519,
        "X448" => EVP_PKEY_X448,
        _ => return None,
    })
}

fn is_pqc(alg: &PkAlgorithmSpec) -> bool {
    matches!(alg.kind, PkKind::MlKem | PkKind::MlDsa | PkKind::SlhDsa)
}

impl<'a> Lib<'a> {
    fn der_key(self, private: bool, kind: c_int, der: &[u8]) -> Result<Pkey<'a>, BackendError> {
        let mut p = der.as_ptr();
        let len = der.len() as std::ffi::c_long;
        // SAFETY: p walks over `der`, which outlives the call.
        let ptr = unsafe {
            if private {
                (self.pk.d2i_PrivateKey)(kind, null_mut(), &mut p, len)
            } else {
                (self.pk.d2i_PUBKEY)(null_mut(), &mut p, len)
            }
        };
        Pkey::new(self, ptr, if private { "d2i_PrivateKey" } else { "d2i_PUBKEY" })
    }

    fn raw_key(self, id: c_int, private: bool, bytes: &[u8]) -> Result<Pkey<'a>, BackendError> {
        // SAFETY: bytes outlive the call; NULL engine.
        let ptr = unsafe {
            if private {
                (self.pk.EVP_PKEY_new_raw_private_key)(id, null_mut(), bytes.as_ptr(), bytes.len())
            } else {
                (self.pk.EVP_PKEY_new_raw_public_key)(id, null_mut(), bytes.as_ptr(), bytes.len())
            }
        };
        Pkey::new(
            self,
            ptr,
            if private {
                "EVP_PKEY_new_raw_private_key"
            } else {
                "EVP_PKEY_new_raw_public_key"
            },
        )
    }

    /// A context for key generation of `alg` (any version: by type id; 3.x: by name).
    pub fn keygen_ctx(self, alg: &PkAlgorithmSpec) -> Result<Ctx<'a>, BackendError> {
        if matches!(alg.kind, PkKind::Falcon | PkKind::Hqc) {
            return Err(BackendError::Unsupported(format!(
                "{}: OpenSSL has no {} of its own (the Open Quantum Safe provider adds it)",
                alg.id, alg.openssl_name
            )));
        }
        let ctx = if is_pqc(alg) {
            let from_name = self.pk.EVP_PKEY_CTX_new_from_name.ok_or_else(|| unsupported(self, alg))?;
            let name = CString::new(alg.openssl_name).expect("no NUL");
            // SAFETY: default library context and properties.
            let ptr = unsafe { from_name(null_mut(), name.as_ptr(), null()) };
            if ptr.is_null() {
                error_queue(self.api);
                return Err(unsupported(self, alg));
            }
            Ctx { lib: self, ptr }
        } else {
            let id = raw_id(alg).unwrap_or(if alg.is_rsa() { EVP_PKEY_RSA } else { EVP_PKEY_EC });
            // SAFETY: a type id; NULL engine.
            Ctx::new(
                self,
                unsafe { (self.pk.EVP_PKEY_CTX_new_id)(id, null_mut()) },
                "EVP_PKEY_CTX_new_id",
            )?
        };
        // SAFETY: live context.
        self.check(unsafe { (self.pk.EVP_PKEY_keygen_init)(ctx.ptr) }, "EVP_PKEY_keygen_init")?;
        if alg.is_rsa() {
            ctx.ctrl("rsa_keygen_bits", &alg.bits.to_string())?;
        } else if alg.openssl_name.starts_with("P-") {
            ctx.ctrl("ec_paramgen_curve", alg.openssl_name)?;
        }
        Ok(ctx)
    }

    pub fn keygen(self, ctx: &Ctx<'a>) -> Result<Pkey<'a>, BackendError> {
        let mut key = null_mut();
        // SAFETY: an initialised keygen context.
        self.check(unsafe { (self.pk.EVP_PKEY_keygen)(ctx.ptr, &mut key) }, "EVP_PKEY_keygen")?;
        Pkey::new(self, key, "EVP_PKEY_keygen")
    }

    /// The key pair (or public key) `keys` describes.
    pub fn load(self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Pkey<'a>, BackendError> {
        if is_pqc(alg) {
            if keys.seed.is_empty() {
                let from_raw = self.pk.EVP_PKEY_new_raw_public_key_ex.ok_or_else(|| unsupported(self, alg))?;
                let name = CString::new(alg.openssl_name).expect("no NUL");
                // SAFETY: default library context; the key bytes outlive the call.
                let ptr = unsafe { from_raw(null_mut(), name.as_ptr(), null(), keys.public.as_ptr(), keys.public.len()) };
                return Pkey::new(self, ptr, "EVP_PKEY_new_raw_public_key_ex");
            }
            let ctx = self.keygen_ctx(alg)?;
            let set = self.pk.EVP_PKEY_CTX_set_params.ok_or_else(|| unsupported(self, alg))?;
            let mut seed = keys.seed.clone();
            let params = [
                OsslParam {
                    key: c"seed".as_ptr(),
                    data_type: OSSL_PARAM_OCTET_STRING,
                    data: seed.as_mut_ptr().cast(),
                    data_size: seed.len(),
                    return_size: OSSL_PARAM_UNMODIFIED,
                },
                OsslParam {
                    key: null(),
                    data_type: 0,
                    data: null_mut(),
                    data_size: 0,
                    return_size: 0,
                },
            ];
            // SAFETY: a terminated parameter array over `seed`, alive during the call.
            self.check(unsafe { set(ctx.ptr, params.as_ptr()) }, "EVP_PKEY_CTX_set_params(seed)")?;
            return self.keygen(&ctx);
        }
        if let Some(id) = raw_id(alg) {
            return if keys.seed.is_empty() {
                self.raw_key(id, false, &keys.public)
            } else {
                self.raw_key(id, true, &keys.seed)
            };
        }
        let kind = if alg.is_rsa() { EVP_PKEY_RSA } else { EVP_PKEY_EC };
        if !keys.private_der.is_empty() {
            self.der_key(true, kind, &keys.private_der)
        } else if !keys.public_der.is_empty() {
            self.der_key(false, kind, &keys.public_der)
        } else if !alg.is_rsa() && !keys.public.is_empty() {
            self.der_key(false, kind, &crate::pk::encoding::ec_spki(alg, &keys.public))
        } else {
            Err(BackendError::Invalid(format!("no key material for {}", alg.id)))
        }
    }

    /// A context for signing (or verifying) with `alg`'s parameters set.
    pub fn sign_ctx(self, alg: &PkAlgorithmSpec, key: &Pkey<'a>, sign: bool) -> Result<Ctx<'a>, BackendError> {
        let ctx = Ctx::for_key(key)?;
        let (init, name) = if sign {
            (self.pk.EVP_PKEY_sign_init, "EVP_PKEY_sign_init")
        } else {
            (self.pk.EVP_PKEY_verify_init, "EVP_PKEY_verify_init")
        };
        // SAFETY: live context.
        if unsafe { init(ctx.ptr) } != 1 {
            if !is_pqc(alg) {
                return Err(self.fail(name));
            }
            // ML-DSA/SLH-DSA may offer message signing only (as speed.c 3.5 falls back to it).
            error_queue(self.api);
            let (Some(fetch), Some(free)) = (self.pk.EVP_SIGNATURE_fetch, self.pk.EVP_SIGNATURE_free) else {
                return Err(self.fail(name));
            };
            let message_init = if sign {
                self.pk.EVP_PKEY_sign_message_init
            } else {
                self.pk.EVP_PKEY_verify_message_init
            }
            .ok_or_else(|| self.fail(name))?;
            let cname = CString::new(alg.openssl_name).expect("no NUL");
            // SAFETY: default library context; the fetched algorithm is freed after init took its reference.
            unsafe {
                let sig = fetch(null_mut(), cname.as_ptr(), null());
                let rc = message_init(ctx.ptr, sig, null());
                free(sig);
                self.check(rc, "EVP_PKEY_sign_message_init")?;
            }
        }
        match alg.kind {
            PkKind::RsaPkcs1 => {
                ctx.ctrl("rsa_padding_mode", "pkcs1")?;
                ctx.ctrl("digest", "sha256")?;
            }
            PkKind::RsaPss => {
                ctx.ctrl("rsa_padding_mode", "pss")?;
                ctx.ctrl("digest", "sha256")?;
                ctx.ctrl("rsa_mgf1_md", "sha256")?;
                ctx.ctrl("rsa_pss_saltlen", "32")?;
            }
            _ => {}
        }
        Ok(ctx)
    }

    pub fn oaep_ctx(self, key: &Pkey<'a>, encrypt: bool) -> Result<Ctx<'a>, BackendError> {
        let ctx = Ctx::for_key(key)?;
        // SAFETY: live context.
        let rc = unsafe {
            if encrypt {
                (self.pk.EVP_PKEY_encrypt_init)(ctx.ptr)
            } else {
                (self.pk.EVP_PKEY_decrypt_init)(ctx.ptr)
            }
        };
        self.check(rc, "EVP_PKEY_encrypt_init")?;
        ctx.ctrl("rsa_padding_mode", "oaep")?;
        ctx.ctrl("rsa_oaep_md", "sha256")?;
        ctx.ctrl("rsa_mgf1_md", "sha256")?;
        Ok(ctx)
    }

    pub fn derive_ctx(self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<(Ctx<'a>, Pkey<'a>, Pkey<'a>), BackendError> {
        let peer = keys
            .peer
            .as_deref()
            .ok_or_else(|| BackendError::Invalid("key agreement needs a peer".into()))?;
        let ours = self.load(alg, keys)?;
        let peer_public = PkKeys {
            public: peer.public.clone(),
            public_der: peer.public_der.clone(),
            seed: if peer.public.is_empty() { peer.seed.clone() } else { Vec::new() },
            private_der: if peer.public.is_empty() {
                peer.private_der.clone()
            } else {
                Vec::new()
            },
            ..PkKeys::default()
        };
        let theirs = self.load(alg, &peer_public)?;
        let ctx = Ctx::for_key(&ours)?;
        // SAFETY: live context and keys.
        unsafe {
            self.check((self.pk.EVP_PKEY_derive_init)(ctx.ptr), "EVP_PKEY_derive_init")?;
            self.check((self.pk.EVP_PKEY_derive_set_peer)(ctx.ptr, theirs.ptr), "EVP_PKEY_derive_set_peer")?;
        }
        Ok((ctx, ours, theirs))
    }

    pub fn public_of(self, alg: &PkAlgorithmSpec, key: &Pkey<'a>) -> Result<Vec<u8>, BackendError> {
        if alg.openssl_name.starts_with("P-") || alg.is_rsa() {
            // i2d_PublicKey: the point of an EC key, RSAPublicKey DER of an RSA key.
            let mut out: *mut u8 = null_mut();
            // SAFETY: OpenSSL allocates `out`, freed below with CRYPTO_free.
            let n = unsafe { (self.pk.i2d_PublicKey)(key.ptr, &mut out) };
            if n <= 0 || out.is_null() {
                return Err(self.fail("i2d_PublicKey"));
            }
            let v = unsafe { std::slice::from_raw_parts(out, n as usize) }.to_vec();
            unsafe { (self.pk.CRYPTO_free)(out.cast(), c"pk.rs".as_ptr(), 0) };
            return Ok(v);
        }
        let mut len = 0usize;
        // SAFETY: first call sizes, second fills.
        unsafe {
            self.check(
                (self.pk.EVP_PKEY_get_raw_public_key)(key.ptr, null_mut(), &mut len),
                "EVP_PKEY_get_raw_public_key",
            )?;
            let mut out = vec![0u8; len];
            self.check(
                (self.pk.EVP_PKEY_get_raw_public_key)(key.ptr, out.as_mut_ptr(), &mut len),
                "EVP_PKEY_get_raw_public_key",
            )?;
            out.truncate(len);
            Ok(out)
        }
    }

    fn md_ctx(self) -> Result<MdCtx<'a>, BackendError> {
        // SAFETY: allocation without arguments.
        let ptr = unsafe { (self.pk.EVP_MD_CTX_new)() };
        if ptr.is_null() {
            return Err(self.fail("EVP_MD_CTX_new"));
        }
        Ok(MdCtx { lib: self, ptr })
    }

    /// EdDSA: a message-digest context initialised for signing or verifying with `key`.
    pub fn eddsa_ctx(self, key: &Pkey<'a>, sign: bool) -> Result<MdCtx<'a>, BackendError> {
        let md = self.md_ctx()?;
        // SAFETY: live contexts and key; no digest (EdDSA hashes itself).
        let rc = unsafe {
            if sign {
                (self.pk.EVP_DigestSignInit)(md.ptr, null_mut(), null(), null_mut(), key.ptr)
            } else {
                (self.pk.EVP_DigestVerifyInit)(md.ptr, null_mut(), null(), null_mut(), key.ptr)
            }
        };
        self.check(rc, "EVP_DigestSignInit")?;
        Ok(md)
    }
}

pub(super) fn unsupported(lib: Lib<'_>, alg: &PkAlgorithmSpec) -> BackendError {
    let v = lib.version();
    BackendError::Unsupported(if is_pqc(alg) && v < PQC_VERSION {
        format!(
            "{} ({} needs OpenSSL 3.5 or later; the loaded libcrypto is 0x{v:x})",
            alg.id, alg.openssl_name
        )
    } else {
        format!("{} (not provided by the loaded libcrypto, 0x{v:x})", alg.id)
    })
}

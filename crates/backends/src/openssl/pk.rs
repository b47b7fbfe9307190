//! Public key through EVP_PKEY (OpenSSL 1.1.1, 3.x, 4.x), calling per
//! timed operation what `apps/speed.c` calls (docs/METHOD.md, "Public
//! key"): `EVP_PKEY_sign`/`EVP_PKEY_verify` on a context initialised once
//! (RSA, ECDSA, ML-DSA, SLH-DSA), `EVP_DigestSign`/`EVP_DigestVerify`
//! (EdDSA; re-initialised with the kept key per call from 3.0 on, as 3.x's
//! speed.c does, because a one-shot EdDSA context is spent after one call),
//! `EVP_PKEY_derive` on a context with the peer set,
//! `EVP_PKEY_encapsulate`/`EVP_PKEY_decapsulate`, `EVP_PKEY_encrypt`/
//! `EVP_PKEY_decrypt`, and `EVP_PKEY_keygen` + `EVP_PKEY_free`.
//!
//! Keys are imported from [`PkKeys`]: RSA and EC private keys as DER
//! (`d2i_PrivateKey`, as speed.c loads its RSA keys), public keys as
//! SubjectPublicKeyInfo (`d2i_PUBKEY`), EdDSA/X25519/X448 as raw keys, and
//! ML-KEM/ML-DSA/SLH-DSA generated from their seed (`EVP_PKEY_keygen` with
//! the "seed" parameter, OpenSSL 3.5+). Algorithms the loaded library lacks
//! are reported with the version that has them.

use std::ffi::{c_int, CString};
use std::ptr::{null, null_mut};

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptobench_core::{CellSpec, Operation};

use super::api::Api;
use super::handles::error_queue;
use super::pk_api::*;
use super::OpensslBackend;
use crate::error::BackendError;
use crate::pk_keys::PkKeys;
use crate::pk_traits::PkBackend;
use crate::traits::{Primitive, Support};

/// The first OpenSSL version number with ML-KEM, ML-DSA and SLH-DSA (3.5.0).
const PQC_VERSION: u64 = 0x3050_0000;

/// What a call needs: both symbol tables.
#[derive(Clone, Copy)]
struct Lib<'a> {
    api: &'a Api,
    pk: &'a PkApi,
}

impl Lib<'_> {
    fn fail(&self, call: &'static str) -> BackendError {
        BackendError::Call {
            call,
            detail: error_queue(self.api),
        }
    }

    fn check(&self, rc: c_int, call: &'static str) -> Result<(), BackendError> {
        if rc == 1 {
            Ok(())
        } else {
            Err(self.fail(call))
        }
    }

    fn version(&self) -> u64 {
        // SAFETY: no arguments.
        #[allow(clippy::useless_conversion)]
        u64::from(unsafe { (self.pk.OpenSSL_version_num)() })
    }
}

/// An owned EVP_PKEY.
struct Pkey<'a> {
    lib: Lib<'a>,
    ptr: *mut EvpPkey,
}

impl<'a> Pkey<'a> {
    fn new(lib: Lib<'a>, ptr: *mut EvpPkey, call: &'static str) -> Result<Pkey<'a>, BackendError> {
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
struct Ctx<'a> {
    lib: Lib<'a>,
    ptr: *mut EvpPkeyCtx,
}

impl<'a> Ctx<'a> {
    fn new(lib: Lib<'a>, ptr: *mut EvpPkeyCtx, call: &'static str) -> Result<Ctx<'a>, BackendError> {
        if ptr.is_null() {
            Err(lib.fail(call))
        } else {
            Ok(Ctx { lib, ptr })
        }
    }

    fn for_key(key: &Pkey<'a>) -> Result<Ctx<'a>, BackendError> {
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

impl Drop for Ctx<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, freed once.
        unsafe { (self.lib.pk.EVP_PKEY_CTX_free)(self.ptr) };
    }
}

/// An owned EVP_MD_CTX (EdDSA).
struct MdCtx<'a> {
    lib: Lib<'a>,
    ptr: *mut EvpMdCtx,
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

/// SubjectPublicKeyInfo of an uncompressed EC point (RFC 5480 §2): the
/// fixed prefix of the curve, then the point.
fn ec_spki(alg: &PkAlgorithmSpec, point: &[u8]) -> Vec<u8> {
    let prefix = match alg.openssl_name {
        "P-256" => "3059301306072a8648ce3d020106082a8648ce3d030107034200",
        "P-384" => "3076301006072a8648ce3d020106052b81040022036200",
        _ => "30819b301006072a8648ce3d020106052b8104002303818600",
    };
    let mut der = hex::decode(prefix).expect("hex");
    der.extend_from_slice(point);
    der
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
    fn keygen_ctx(self, alg: &PkAlgorithmSpec) -> Result<Ctx<'a>, BackendError> {
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

    fn keygen(self, ctx: &Ctx<'a>) -> Result<Pkey<'a>, BackendError> {
        let mut key = null_mut();
        // SAFETY: an initialised keygen context.
        self.check(unsafe { (self.pk.EVP_PKEY_keygen)(ctx.ptr, &mut key) }, "EVP_PKEY_keygen")?;
        Pkey::new(self, key, "EVP_PKEY_keygen")
    }

    /// The key pair (or public key) `keys` describes.
    fn load(self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Pkey<'a>, BackendError> {
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
            self.der_key(false, kind, &ec_spki(alg, &keys.public))
        } else {
            Err(BackendError::Invalid(format!("no key material for {}", alg.id)))
        }
    }

    /// A context for signing (or verifying) with `alg`'s parameters set.
    fn sign_ctx(self, alg: &PkAlgorithmSpec, key: &Pkey<'a>, sign: bool) -> Result<Ctx<'a>, BackendError> {
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

    fn oaep_ctx(self, key: &Pkey<'a>, encrypt: bool) -> Result<Ctx<'a>, BackendError> {
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

    fn derive_ctx(self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<(Ctx<'a>, Pkey<'a>, Pkey<'a>), BackendError> {
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

    fn public_of(self, alg: &PkAlgorithmSpec, key: &Pkey<'a>) -> Result<Vec<u8>, BackendError> {
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
    fn eddsa_ctx(self, key: &Pkey<'a>, sign: bool) -> Result<MdCtx<'a>, BackendError> {
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

fn unsupported(lib: Lib<'_>, alg: &PkAlgorithmSpec) -> BackendError {
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

impl OpensslBackend {
    fn lib(&self) -> Result<Lib<'_>, BackendError> {
        match &self.pk_api {
            Ok(pk) => Ok(Lib { api: &self.api, pk }),
            Err(symbol) => Err(BackendError::Unsupported(format!(
                "public key (the loaded libcrypto lacks {symbol})"
            ))),
        }
    }
}

fn sign_once(lib: Lib<'_>, alg: &PkAlgorithmSpec, key: &Pkey<'_>, message: &[u8]) -> Result<Vec<u8>, BackendError> {
    let mut out = vec![0u8; 64 * 1024];
    let mut len = out.len();
    if alg.kind == PkKind::EdDsa {
        let md = lib.eddsa_ctx(key, true)?;
        // SAFETY: out has room for any signature; message outlives the call.
        lib.check(
            unsafe { (lib.pk.EVP_DigestSign)(md.ptr, out.as_mut_ptr(), &mut len, message.as_ptr(), message.len()) },
            "EVP_DigestSign",
        )?;
    } else {
        let ctx = lib.sign_ctx(alg, key, true)?;
        // SAFETY: as above.
        lib.check(
            unsafe { (lib.pk.EVP_PKEY_sign)(ctx.ptr, out.as_mut_ptr(), &mut len, message.as_ptr(), message.len()) },
            "EVP_PKEY_sign",
        )?;
    }
    out.truncate(len);
    Ok(out)
}

fn verify_once(lib: Lib<'_>, alg: &PkAlgorithmSpec, key: &Pkey<'_>, message: &[u8], sig: &[u8]) -> Result<bool, BackendError> {
    // SAFETY: live contexts; buffers outlive the calls.
    let rc = if alg.kind == PkKind::EdDsa {
        let md = lib.eddsa_ctx(key, false)?;
        unsafe { (lib.pk.EVP_DigestVerify)(md.ptr, sig.as_ptr(), sig.len(), message.as_ptr(), message.len()) }
    } else {
        let ctx = lib.sign_ctx(alg, key, false)?;
        unsafe { (lib.pk.EVP_PKEY_verify)(ctx.ptr, sig.as_ptr(), sig.len(), message.as_ptr(), message.len()) }
    };
    error_queue(lib.api);
    Ok(rc == 1)
}

impl PkBackend for OpensslBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        let lib = match self.lib() {
            Ok(l) => l,
            Err(e) => return Support::Unsupported(e.to_string()),
        };
        let probe = lib.keygen_ctx(alg).map(drop).map_err(|e| match e {
            BackendError::Unsupported(_) => e,
            _ => unsupported(lib, alg),
        });
        Support::from(probe)
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let lib = self.lib()?;
        lib.public_of(alg, &lib.load(alg, keys)?)
    }

    fn sign(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let lib = self.lib()?;
        sign_once(lib, alg, &lib.load(alg, keys)?, message)
    }

    fn verify(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let lib = self.lib()?;
        let key = match lib.load(alg, keys) {
            Ok(k) => k,
            // A public key the library refuses to load verifies nothing (test vectors).
            Err(BackendError::Call { .. }) if keys.is_public_only() => return Ok(false),
            Err(e) => return Err(e),
        };
        verify_once(lib, alg, &key, message, signature)
    }

    fn encrypt(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let lib = self.lib()?;
        let key = lib.load(alg, keys)?;
        let ctx = lib.oaep_ctx(&key, true)?;
        let mut out = vec![0u8; alg.rsa_bytes()];
        let mut len = out.len();
        // SAFETY: out holds a modulus-sized ciphertext.
        lib.check(
            unsafe { (lib.pk.EVP_PKEY_encrypt)(ctx.ptr, out.as_mut_ptr(), &mut len, message.as_ptr(), message.len()) },
            "EVP_PKEY_encrypt",
        )?;
        out.truncate(len);
        Ok(out)
    }

    fn decrypt(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, ciphertext: &[u8]) -> Result<Vec<u8>, BackendError> {
        let lib = self.lib()?;
        let key = lib.load(alg, keys)?;
        let ctx = lib.oaep_ctx(&key, false)?;
        let mut out = vec![0u8; alg.rsa_bytes()];
        let mut len = out.len();
        // SAFETY: out holds a modulus-sized plaintext.
        let rc = unsafe { (lib.pk.EVP_PKEY_decrypt)(ctx.ptr, out.as_mut_ptr(), &mut len, ciphertext.as_ptr(), ciphertext.len()) };
        if rc != 1 {
            error_queue(lib.api);
            return Err(BackendError::AuthenticationFailed);
        }
        out.truncate(len);
        Ok(out)
    }

    fn derive(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let lib = self.lib()?;
        let (ctx, _ours, _theirs) = lib.derive_ctx(alg, keys)?;
        let mut out = vec![0u8; 256];
        let mut len = out.len();
        // SAFETY: out holds any curve's secret.
        lib.check(
            unsafe { (lib.pk.EVP_PKEY_derive)(ctx.ptr, out.as_mut_ptr(), &mut len) },
            "EVP_PKEY_derive",
        )?;
        out.truncate(len);
        Ok(out)
    }

    fn encapsulate(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<(Vec<u8>, Vec<u8>), BackendError> {
        let lib = self.lib()?;
        let key = lib.load(alg, keys)?;
        let kem = Kem::new(lib, &key, true)?;
        let (mut ct, mut ss) = (vec![0u8; kem.ct_len], vec![0u8; kem.ss_len]);
        kem.encapsulate(&mut ct, &mut ss)?;
        Ok((ct, ss))
    }

    fn decapsulate(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, ciphertext: &[u8]) -> Result<Vec<u8>, BackendError> {
        let lib = self.lib()?;
        let key = lib.load(alg, keys)?;
        let kem = Kem::new(lib, &key, false)?;
        let mut ss = vec![0u8; 64];
        let len = kem.decapsulate(ciphertext, &mut ss)?;
        ss.truncate(len);
        Ok(ss)
    }

    fn prepare_pk(
        &self,
        cell: &CellSpec,
        alg: &PkAlgorithmSpec,
        keys: &PkKeys,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        let lib = self.lib()?;
        if let Support::Unsupported(why) = self.pk_support(alg) {
            return Err(BackendError::Unsupported(why));
        }
        let op = cell.operation;
        Ok(match op {
            Operation::Keygen => Box::new(Keygen {
                ctx: lib.keygen_ctx(alg)?,
                last: None,
                alg: cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?,
            }),
            Operation::Sign | Operation::Verify => {
                let key = lib.load(alg, keys)?;
                let sig = sign_once(lib, alg, &key, message)?;
                let sign = op == Operation::Sign;
                if alg.kind == PkKind::EdDsa {
                    let md = lib.eddsa_ctx(&key, sign)?;
                    Box::new(EdDsa {
                        reinit: lib.version() >= 0x3000_0000,
                        md,
                        key,
                        sign,
                        len: sig.len(),
                        sig,
                    })
                } else {
                    Box::new(Signing {
                        ctx: lib.sign_ctx(alg, &key, sign)?,
                        _key: key,
                        sign,
                        len: sig.len(),
                        sig: if sign { vec![0u8; 64 * 1024] } else { sig },
                    })
                }
            }
            Operation::Encrypt | Operation::Decrypt => {
                let key = lib.load(alg, keys)?;
                let encrypt = op == Operation::Encrypt;
                let input = if encrypt {
                    message.to_vec()
                } else {
                    self.encrypt(alg, keys, message)?
                };
                Box::new(Oaep {
                    ctx: lib.oaep_ctx(&key, encrypt)?,
                    _key: key,
                    encrypt,
                    input,
                    out: vec![0u8; alg.rsa_bytes()],
                    len: 0,
                })
            }
            Operation::Derive => {
                let (ctx, ours, theirs) = lib.derive_ctx(alg, keys)?;
                Box::new(Derive {
                    ctx,
                    _keys: (ours, theirs),
                    out: vec![0u8; 256],
                    len: 0,
                })
            }
            Operation::Encaps | Operation::Decaps => {
                let key = lib.load(alg, keys)?;
                let encaps = op == Operation::Encaps;
                let kem = Kem::new(lib, &key, encaps)?;
                let (mut ct, mut ss) = (vec![0u8; kem.ct_len], vec![0u8; kem.ss_len]);
                if !encaps {
                    Kem::new(lib, &key, true)?.encapsulate(&mut ct, &mut ss)?;
                }
                Box::new(KemLoop {
                    kem,
                    _key: key,
                    encaps,
                    ct,
                    ss,
                })
            }
            Operation::Digest | Operation::Mac => return Err(BackendError::Unsupported(format!("{} {}", alg.id, op.short()))),
        })
    }
}

/// An encapsulation or decapsulation context (OpenSSL 3.0+ KEM API).
struct Kem<'a> {
    lib: Lib<'a>,
    ctx: Ctx<'a>,
    ct_len: usize,
    ss_len: usize,
}

impl<'a> Kem<'a> {
    fn new(lib: Lib<'a>, key: &Pkey<'a>, encaps: bool) -> Result<Kem<'a>, BackendError> {
        let (Some(e_init), Some(d_init), Some(encapsulate)) = (
            lib.pk.EVP_PKEY_encapsulate_init,
            lib.pk.EVP_PKEY_decapsulate_init,
            lib.pk.EVP_PKEY_encapsulate,
        ) else {
            return Err(BackendError::Unsupported("KEMs (OpenSSL 3.0+)".into()));
        };
        let ctx = Ctx::for_key(key)?;
        let (mut ct_len, mut ss_len) = (0usize, 0usize);
        // SAFETY: live context; the sizing call writes the two lengths.
        unsafe {
            let init_ctx = Ctx::for_key(key)?;
            lib.check(e_init(init_ctx.ptr, null()), "EVP_PKEY_encapsulate_init")?;
            lib.check(
                encapsulate(init_ctx.ptr, null_mut(), &mut ct_len, null_mut(), &mut ss_len),
                "EVP_PKEY_encapsulate(sizes)",
            )?;
            if encaps {
                lib.check(e_init(ctx.ptr, null()), "EVP_PKEY_encapsulate_init")?;
            } else {
                lib.check(d_init(ctx.ptr, null()), "EVP_PKEY_decapsulate_init")?;
            }
        }
        Ok(Kem { lib, ctx, ct_len, ss_len })
    }

    fn encapsulate(&self, ct: &mut [u8], ss: &mut [u8]) -> Result<(), BackendError> {
        let f = self.lib.pk.EVP_PKEY_encapsulate.expect("checked in new");
        let (mut cl, mut sl) = (ct.len(), ss.len());
        // SAFETY: buffers of the sizes the library gave.
        self.lib.check(
            unsafe { f(self.ctx.ptr, ct.as_mut_ptr(), &mut cl, ss.as_mut_ptr(), &mut sl) },
            "EVP_PKEY_encapsulate",
        )
    }

    fn decapsulate(&self, ct: &[u8], ss: &mut [u8]) -> Result<usize, BackendError> {
        let f = self
            .lib
            .pk
            .EVP_PKEY_decapsulate
            .ok_or_else(|| BackendError::Unsupported("KEMs".into()))?;
        let mut sl = ss.len();
        // SAFETY: ss has room for the secret; ct outlives the call.
        self.lib.check(
            unsafe { f(self.ctx.ptr, ss.as_mut_ptr(), &mut sl, ct.as_ptr(), ct.len()) },
            "EVP_PKEY_decapsulate",
        )?;
        Ok(sl)
    }
}

/// `EVP_PKEY_keygen` + `EVP_PKEY_free` per call (apps/speed.c
/// `KEM_keygen_loop`/`SIG_keygen_loop`): each call frees the key of the
/// call before, so that the last one can be reported.
struct Keygen<'a> {
    ctx: Ctx<'a>,
    last: Option<Pkey<'a>>,
    alg: &'static PkAlgorithmSpec,
}

impl Primitive for Keygen<'_> {
    fn run(&mut self, iterations: u64, _buf: &mut [u8]) -> Result<(), BackendError> {
        let lib = self.ctx.lib;
        for _ in 0..iterations {
            let mut key = null_mut();
            // SAFETY: an initialised keygen context.
            lib.check(unsafe { (lib.pk.EVP_PKEY_keygen)(self.ctx.ptr, &mut key) }, "EVP_PKEY_keygen")?;
            // Dropping the previous key is its EVP_PKEY_free.
            self.last = Some(Pkey::new(lib, key, "EVP_PKEY_keygen")?);
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        match &self.last {
            Some(key) => Ok(Some(self.ctx.lib.public_of(self.alg, key)?)),
            None => Ok(None),
        }
    }
}

/// `EVP_PKEY_sign` / `EVP_PKEY_verify` on one initialised context (apps/speed.c `RSA_sign_loop`, `ECDSA_sign_loop`, `SIG_sign_loop`).
struct Signing<'a> {
    ctx: Ctx<'a>,
    _key: Pkey<'a>,
    sign: bool,
    sig: Vec<u8>,
    len: usize,
}

impl Primitive for Signing<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let lib = self.ctx.lib;
        for _ in 0..iterations {
            // SAFETY: sig has room for a signature (sign) or holds one (verify).
            unsafe {
                if self.sign {
                    self.len = self.sig.len();
                    lib.check(
                        (lib.pk.EVP_PKEY_sign)(self.ctx.ptr, self.sig.as_mut_ptr(), &mut self.len, buf.as_ptr(), buf.len()),
                        "EVP_PKEY_sign",
                    )?;
                } else {
                    lib.check(
                        (lib.pk.EVP_PKEY_verify)(self.ctx.ptr, self.sig.as_ptr(), self.len, buf.as_ptr(), buf.len()),
                        "EVP_PKEY_verify",
                    )?;
                }
            }
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.sig[..self.len].to_vec()))
    }
}

/// EdDSA: `EVP_DigestSign` / `EVP_DigestVerify`, re-initialised per call from 3.0 on (apps/speed.c `EdDSA_sign_loop`).
struct EdDsa<'a> {
    md: MdCtx<'a>,
    key: Pkey<'a>,
    reinit: bool,
    sign: bool,
    sig: Vec<u8>,
    len: usize,
}

impl Primitive for EdDsa<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let lib = self.md.lib;
        for _ in 0..iterations {
            // SAFETY: live contexts; sig holds an EdDSA signature.
            unsafe {
                if self.sign {
                    if self.reinit {
                        lib.check(
                            (lib.pk.EVP_DigestSignInit)(self.md.ptr, null_mut(), null(), null_mut(), null_mut()),
                            "EVP_DigestSignInit",
                        )?;
                    }
                    self.len = self.sig.len();
                    lib.check(
                        (lib.pk.EVP_DigestSign)(self.md.ptr, self.sig.as_mut_ptr(), &mut self.len, buf.as_ptr(), buf.len()),
                        "EVP_DigestSign",
                    )?;
                } else {
                    if self.reinit {
                        lib.check(
                            (lib.pk.EVP_DigestVerifyInit)(self.md.ptr, null_mut(), null(), null_mut(), null_mut()),
                            "EVP_DigestVerifyInit",
                        )?;
                    }
                    lib.check(
                        (lib.pk.EVP_DigestVerify)(self.md.ptr, self.sig.as_ptr(), self.len, buf.as_ptr(), buf.len()),
                        "EVP_DigestVerify",
                    )?;
                }
            }
        }
        let _ = &self.key;
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.sig[..self.len].to_vec()))
    }
}

/// RSA-OAEP: `EVP_PKEY_encrypt` / `EVP_PKEY_decrypt` on one initialised context.
struct Oaep<'a> {
    ctx: Ctx<'a>,
    _key: Pkey<'a>,
    encrypt: bool,
    input: Vec<u8>,
    out: Vec<u8>,
    len: usize,
}

impl Primitive for Oaep<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let lib = self.ctx.lib;
        let input: &[u8] = if self.encrypt { buf } else { &self.input };
        for _ in 0..iterations {
            self.len = self.out.len();
            // SAFETY: out holds a modulus-sized result.
            let rc = unsafe {
                if self.encrypt {
                    (lib.pk.EVP_PKEY_encrypt)(self.ctx.ptr, self.out.as_mut_ptr(), &mut self.len, input.as_ptr(), input.len())
                } else {
                    (lib.pk.EVP_PKEY_decrypt)(self.ctx.ptr, self.out.as_mut_ptr(), &mut self.len, input.as_ptr(), input.len())
                }
            };
            lib.check(rc, "EVP_PKEY_encrypt/decrypt")?;
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out[..self.len].to_vec()))
    }
}

/// `EVP_PKEY_derive` on a context with the peer set (apps/speed.c `ECDH_EVP_derive_key_loop`).
struct Derive<'a> {
    ctx: Ctx<'a>,
    _keys: (Pkey<'a>, Pkey<'a>),
    out: Vec<u8>,
    len: usize,
}

impl Primitive for Derive<'_> {
    fn run(&mut self, iterations: u64, _buf: &mut [u8]) -> Result<(), BackendError> {
        let lib = self.ctx.lib;
        for _ in 0..iterations {
            self.len = self.out.len();
            // SAFETY: out holds any curve's secret.
            lib.check(
                unsafe { (lib.pk.EVP_PKEY_derive)(self.ctx.ptr, self.out.as_mut_ptr(), &mut self.len) },
                "EVP_PKEY_derive",
            )?;
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out[..self.len].to_vec()))
    }
}

/// `EVP_PKEY_encapsulate` / `EVP_PKEY_decapsulate` (apps/speed.c `KEM_encaps_loop`/`KEM_decaps_loop`).
struct KemLoop<'a> {
    kem: Kem<'a>,
    _key: Pkey<'a>,
    encaps: bool,
    ct: Vec<u8>,
    ss: Vec<u8>,
}

impl Primitive for KemLoop<'_> {
    fn run(&mut self, iterations: u64, _buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            if self.encaps {
                self.kem.encapsulate(&mut self.ct, &mut self.ss)?;
            } else {
                self.kem.decapsulate(&self.ct, &mut self.ss)?;
            }
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some([self.ct.as_slice(), self.ss.as_slice()].concat()))
    }
}

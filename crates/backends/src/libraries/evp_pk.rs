//! Public key through the EVP_PKEY API that BoringSSL and AWS-LC keep from
//! OpenSSL (both forked it, and boring-sys and aws-lc-sys bind it with the
//! same signatures): one definition, instantiated in each library's pk.rs
//! with its FFI crate. Per timed operation it calls what OpenSSL's
//! `apps/speed.c` calls, as crates/backends/src/libraries/openssl/pk.rs
//! does: `EVP_PKEY_sign`/`EVP_PKEY_verify` on a context initialised once
//! (RSA PKCS#1 v1.5 and PSS over the precomputed SHA-256 digest, PSS with
//! MGF1-SHA-256 and a 32-byte salt; ECDSA over the digest), one-shot
//! `EVP_DigestSign`/`EVP_DigestVerify` for Ed25519 on one context (neither
//! library spends an Ed25519 context after a call, as OpenSSL 3 does, so it
//! is not re-initialised), `EVP_PKEY_derive` on a context with the peer set
//! (X25519, ECDH), `EVP_PKEY_encrypt`/`EVP_PKEY_decrypt` (RSA-OAEP with
//! SHA-256), and `EVP_PKEY_keygen` + `EVP_PKEY_free`. Keys come in as
//! OpenSSL's do: RSA and EC private keys from their DER (`d2i_PrivateKey`),
//! public keys from a SubjectPublicKeyInfo (`d2i_PUBKEY`), Ed25519 and
//! X25519 from their raw bytes.

/// Defines, for the FFI crate `$ffi`: `Pkey`, `Ctx` (owned handles),
/// `check` and `error_queue`, `classic_support` (which classic schemes the
/// EVP offers), `load`, `public_of` and `classic_session` (a `PkSession`
/// for every classic operation, of evp_pk_sessions.rs).
macro_rules! evp_pk {
    ($ffi:ident) => {
        use std::ffi::{c_int, c_long};
        use std::ptr::null_mut;

        use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
        use cryptobench_core::Operation;
        use $ffi as ffi;

        use crate::error::BackendError;
        use crate::pk::keys::PkKeys;
        use crate::pk::{fill, PkSession};

        /// Room for any signature the EVP makes here (RSA-4096: 512 bytes;
        /// ML-DSA-87 where the library has it: 4,627).
        const MAX_SIGNATURE: usize = 8 * 1024;

        /// The library's error queue, drained, as text.
        pub(super) fn error_queue() -> String {
            let mut parts = Vec::new();
            loop {
                // SAFETY: reads and pops the calling thread's error queue.
                let code = unsafe { ffi::ERR_get_error() };
                if code == 0 {
                    break;
                }
                let mut buf = [0 as std::ffi::c_char; 256];
                // SAFETY: writes at most buf.len() bytes, NUL-terminated.
                unsafe { ffi::ERR_error_string_n(code as _, buf.as_mut_ptr(), buf.len()) };
                // SAFETY: NUL-terminated by ERR_error_string_n.
                parts.push(
                    unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }
                        .to_string_lossy()
                        .into_owned(),
                );
            }
            if parts.is_empty() {
                "no error queued".to_string()
            } else {
                parts.join("; ")
            }
        }

        /// 1 is success; anything else fails with the error queue.
        pub(super) fn check(rc: c_int, call: &'static str) -> Result<(), BackendError> {
            if rc == 1 {
                Ok(())
            } else {
                Err(BackendError::Call {
                    call,
                    detail: error_queue(),
                })
            }
        }

        /// An `EVP_PKEY`, freed on drop.
        pub(super) struct Pkey(pub *mut ffi::EVP_PKEY);

        impl Pkey {
            pub(super) fn new(ptr: *mut ffi::EVP_PKEY, call: &'static str) -> Result<Pkey, BackendError> {
                if ptr.is_null() {
                    Err(BackendError::Call {
                        call,
                        detail: error_queue(),
                    })
                } else {
                    Ok(Pkey(ptr))
                }
            }
        }

        impl Drop for Pkey {
            fn drop(&mut self) {
                // SAFETY: an owned key.
                unsafe { ffi::EVP_PKEY_free(self.0) };
            }
        }

        /// An `EVP_PKEY_CTX`, freed on drop.
        pub(super) struct Ctx(pub *mut ffi::EVP_PKEY_CTX);

        impl Ctx {
            pub(super) fn new(ptr: *mut ffi::EVP_PKEY_CTX, call: &'static str) -> Result<Ctx, BackendError> {
                if ptr.is_null() {
                    Err(BackendError::Call {
                        call,
                        detail: error_queue(),
                    })
                } else {
                    Ok(Ctx(ptr))
                }
            }

            pub(super) fn for_key(key: &Pkey) -> Result<Ctx, BackendError> {
                // SAFETY: a live key; the context takes its own reference.
                Ctx::new(unsafe { ffi::EVP_PKEY_CTX_new(key.0, null_mut()) }, "EVP_PKEY_CTX_new")
            }
        }

        impl Drop for Ctx {
            fn drop(&mut self) {
                // SAFETY: an owned context.
                unsafe { ffi::EVP_PKEY_CTX_free(self.0) };
            }
        }

        /// An `EVP_MD_CTX`, freed on drop.
        struct MdCtx(*mut ffi::EVP_MD_CTX);

        impl Drop for MdCtx {
            fn drop(&mut self) {
                // SAFETY: an owned context.
                unsafe { ffi::EVP_MD_CTX_free(self.0) };
            }
        }

        /// The raw-key type of Ed25519 and X25519.
        fn raw_id(alg: &PkAlgorithmSpec) -> Option<c_int> {
            match alg.openssl_name {
                "ED25519" => Some(ffi::EVP_PKEY_ED25519 as c_int),
                "X25519" => Some(ffi::EVP_PKEY_X25519 as c_int),
                _ => None,
            }
        }

        /// The NID of a NIST curve.
        fn curve_nid(alg: &PkAlgorithmSpec) -> Option<c_int> {
            match alg.openssl_name {
                "P-256" => Some(ffi::NID_X9_62_prime256v1 as c_int),
                "P-384" => Some(ffi::NID_secp384r1 as c_int),
                "P-521" => Some(ffi::NID_secp521r1 as c_int),
                _ => None,
            }
        }

        /// Whether the EVP offers a classic scheme; `lib` names the library in the answer.
        pub(super) fn classic_support(alg: &PkAlgorithmSpec, lib: &str) -> Result<(), BackendError> {
            match alg.kind {
                PkKind::RsaPkcs1 | PkKind::RsaPss | PkKind::RsaOaep | PkKind::Ecdsa => Ok(()),
                PkKind::EdDsa | PkKind::Ecdh if raw_id(alg).is_some() || curve_nid(alg).is_some() => Ok(()),
                PkKind::EdDsa | PkKind::Ecdh => Err(BackendError::Unsupported(format!("{}: {lib} has no Curve448", alg.id))),
                _ => Err(BackendError::Unsupported(format!("{}: not in {lib}", alg.id))),
            }
        }

        fn der_key(private: bool, kind: c_int, der: &[u8]) -> Result<Pkey, BackendError> {
            let mut p = der.as_ptr();
            // SAFETY: p walks der, which outlives the call.
            unsafe {
                if private {
                    Pkey::new(
                        ffi::d2i_PrivateKey(kind, null_mut(), &mut p, der.len() as c_long),
                        "d2i_PrivateKey",
                    )
                } else {
                    Pkey::new(ffi::d2i_PUBKEY(null_mut(), &mut p, der.len() as c_long), "d2i_PUBKEY")
                }
            }
        }

        /// The key of `keys` (the private one where it has one).
        pub(super) fn load(alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Pkey, BackendError> {
            if let Some(id) = raw_id(alg) {
                // SAFETY: the bytes outlive the call, which copies them.
                return unsafe {
                    if keys.seed.is_empty() {
                        Pkey::new(
                            ffi::EVP_PKEY_new_raw_public_key(id, null_mut(), keys.public.as_ptr(), keys.public.len()),
                            "EVP_PKEY_new_raw_public_key",
                        )
                    } else {
                        Pkey::new(
                            ffi::EVP_PKEY_new_raw_private_key(id, null_mut(), keys.seed.as_ptr(), keys.seed.len()),
                            "EVP_PKEY_new_raw_private_key",
                        )
                    }
                };
            }
            let kind = if alg.is_rsa() { ffi::EVP_PKEY_RSA } else { ffi::EVP_PKEY_EC } as c_int;
            if !keys.private_der.is_empty() {
                der_key(true, kind, &keys.private_der)
            } else if !keys.public_der.is_empty() {
                der_key(false, kind, &keys.public_der)
            } else if !alg.is_rsa() && !keys.public.is_empty() {
                der_key(false, kind, &crate::pk::encoding::ec_spki(alg, &keys.public))
            } else {
                Err(BackendError::Invalid(format!("no key material for {}", alg.id)))
            }
        }

        /// Bytes the library allocated, copied out and freed (`OPENSSL_free`).
        fn take(ptr: *mut u8, len: usize) -> Vec<u8> {
            // SAFETY: the library wrote len bytes at ptr, which the caller owns.
            let v = unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec();
            // SAFETY: allocated by the library for the caller.
            unsafe { ffi::OPENSSL_free(ptr.cast()) };
            v
        }

        /// The public key as cryptobench compares it: the uncompressed point
        /// (EC), the raw key (Ed25519, X25519); RSA as SubjectPublicKeyInfo.
        pub(super) fn public_of(alg: &PkAlgorithmSpec, key: &Pkey) -> Result<Vec<u8>, BackendError> {
            let mut out: *mut u8 = null_mut();
            if curve_nid(alg).is_some() {
                // SAFETY: a live key; the library allocates *out.
                let n = unsafe { ffi::EVP_PKEY_get1_tls_encodedpoint(key.0, &mut out) };
                if n == 0 || out.is_null() {
                    return Err(BackendError::Call {
                        call: "EVP_PKEY_get1_tls_encodedpoint",
                        detail: error_queue(),
                    });
                }
                return Ok(take(out, n as usize));
            }
            if alg.is_rsa() {
                // SAFETY: as above.
                let n = unsafe { ffi::i2d_PUBKEY(key.0, &mut out) };
                if n <= 0 || out.is_null() {
                    return Err(BackendError::Call {
                        call: "i2d_PUBKEY",
                        detail: error_queue(),
                    });
                }
                return Ok(take(out, n as usize));
            }
            let mut len = 0usize;
            // SAFETY: a sizing call, then a call into a buffer of that size.
            unsafe {
                check(
                    ffi::EVP_PKEY_get_raw_public_key(key.0, null_mut(), &mut len),
                    "EVP_PKEY_get_raw_public_key",
                )?;
                let mut v = vec![0u8; len];
                check(
                    ffi::EVP_PKEY_get_raw_public_key(key.0, v.as_mut_ptr(), &mut len),
                    "EVP_PKEY_get_raw_public_key",
                )?;
                v.truncate(len);
                Ok(v)
            }
        }

        /// A context initialised for signing or verifying with `alg`'s padding.
        fn sign_ctx(alg: &PkAlgorithmSpec, key: &Pkey, sign: bool) -> Result<Ctx, BackendError> {
            let ctx = Ctx::for_key(key)?;
            // SAFETY: a live context; EVP_sha256 is a static.
            unsafe {
                if sign {
                    check(ffi::EVP_PKEY_sign_init(ctx.0), "EVP_PKEY_sign_init")?;
                } else {
                    check(ffi::EVP_PKEY_verify_init(ctx.0), "EVP_PKEY_verify_init")?;
                }
                let padding = match alg.kind {
                    PkKind::RsaPkcs1 => ffi::RSA_PKCS1_PADDING,
                    PkKind::RsaPss => ffi::RSA_PKCS1_PSS_PADDING,
                    _ => return Ok(ctx),
                };
                check(
                    ffi::EVP_PKEY_CTX_set_rsa_padding(ctx.0, padding as c_int),
                    "EVP_PKEY_CTX_set_rsa_padding",
                )?;
                check(
                    ffi::EVP_PKEY_CTX_set_signature_md(ctx.0, ffi::EVP_sha256()),
                    "EVP_PKEY_CTX_set_signature_md",
                )?;
                if alg.kind == PkKind::RsaPss {
                    check(
                        ffi::EVP_PKEY_CTX_set_rsa_mgf1_md(ctx.0, ffi::EVP_sha256()),
                        "EVP_PKEY_CTX_set_rsa_mgf1_md",
                    )?;
                    check(
                        ffi::EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx.0, 32),
                        "EVP_PKEY_CTX_set_rsa_pss_saltlen",
                    )?;
                }
            }
            Ok(ctx)
        }

        /// A context initialised for RSA-OAEP (SHA-256, MGF1-SHA-256).
        fn oaep_ctx(key: &Pkey, encrypt: bool) -> Result<Ctx, BackendError> {
            let ctx = Ctx::for_key(key)?;
            // SAFETY: a live context; EVP_sha256 is a static.
            unsafe {
                if encrypt {
                    check(ffi::EVP_PKEY_encrypt_init(ctx.0), "EVP_PKEY_encrypt_init")?;
                } else {
                    check(ffi::EVP_PKEY_decrypt_init(ctx.0), "EVP_PKEY_decrypt_init")?;
                }
                check(
                    ffi::EVP_PKEY_CTX_set_rsa_padding(ctx.0, ffi::RSA_PKCS1_OAEP_PADDING as c_int),
                    "EVP_PKEY_CTX_set_rsa_padding",
                )?;
                check(
                    ffi::EVP_PKEY_CTX_set_rsa_oaep_md(ctx.0, ffi::EVP_sha256()),
                    "EVP_PKEY_CTX_set_rsa_oaep_md",
                )?;
                check(
                    ffi::EVP_PKEY_CTX_set_rsa_mgf1_md(ctx.0, ffi::EVP_sha256()),
                    "EVP_PKEY_CTX_set_rsa_mgf1_md",
                )?;
            }
            Ok(ctx)
        }

        /// A keygen context for `alg` (RSA with its modulus size, EC with its curve).
        fn keygen_ctx(alg: &PkAlgorithmSpec) -> Result<Ctx, BackendError> {
            let id = raw_id(alg).unwrap_or(if alg.is_rsa() { ffi::EVP_PKEY_RSA } else { ffi::EVP_PKEY_EC } as c_int);
            // SAFETY: a new context, initialised and parameterised.
            unsafe {
                let ctx = Ctx::new(ffi::EVP_PKEY_CTX_new_id(id, null_mut()), "EVP_PKEY_CTX_new_id")?;
                check(ffi::EVP_PKEY_keygen_init(ctx.0), "EVP_PKEY_keygen_init")?;
                if alg.is_rsa() {
                    check(
                        ffi::EVP_PKEY_CTX_set_rsa_keygen_bits(ctx.0, alg.bits as c_int),
                        "EVP_PKEY_CTX_set_rsa_keygen_bits",
                    )?;
                } else if let Some(nid) = curve_nid(alg) {
                    check(
                        ffi::EVP_PKEY_CTX_set_ec_paramgen_curve_nid(ctx.0, nid),
                        "EVP_PKEY_CTX_set_ec_paramgen_curve_nid",
                    )?;
                }
                Ok(ctx)
            }
        }

        /// A session for a classic scheme's operation `op`.
        pub(super) fn classic_session(alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession>, BackendError> {
            Ok(match op {
                Operation::Keygen => Box::new(Keygen {
                    ctx: keygen_ctx(alg)?,
                    last: None,
                    alg: cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?,
                }),
                Operation::Derive => {
                    let peer = keys
                        .peer
                        .as_deref()
                        .ok_or_else(|| BackendError::Invalid("key agreement needs a peer".into()))?;
                    let ours = load(alg, keys)?;
                    let peer_public = PkKeys {
                        public: peer.public.clone(),
                        public_der: peer.public_der.clone(),
                        seed: if peer.public.is_empty() {
                            peer.seed.clone()
                        } else {
                            Vec::new()
                        },
                        private_der: if peer.public.is_empty() {
                            peer.private_der.clone()
                        } else {
                            Vec::new()
                        },
                        ..PkKeys::default()
                    };
                    let theirs = load(alg, &peer_public)?;
                    let ctx = Ctx::for_key(&ours)?;
                    // SAFETY: live context and keys.
                    unsafe {
                        check(ffi::EVP_PKEY_derive_init(ctx.0), "EVP_PKEY_derive_init")?;
                        check(ffi::EVP_PKEY_derive_set_peer(ctx.0, theirs.0), "EVP_PKEY_derive_set_peer")?;
                    }
                    Box::new(Secret {
                        ctx,
                        _keys: (ours, theirs),
                    })
                }
                Operation::Sign | Operation::Verify if alg.kind == PkKind::EdDsa => {
                    Box::new(one_shot(load(alg, keys)?, op == Operation::Sign)?)
                }
                Operation::Sign | Operation::Verify => match load(alg, keys) {
                    Ok(key) => Box::new(Signing {
                        ctx: sign_ctx(alg, &key, op == Operation::Sign)?,
                        _key: key,
                    }),
                    // A public key the library refuses to load verifies nothing (test vectors).
                    Err(BackendError::Call { .. }) if keys.is_public_only() && op == Operation::Verify => {
                        error_queue();
                        Box::new(crate::pk::Rejecting)
                    }
                    Err(e) => return Err(e),
                },
                Operation::Encrypt | Operation::Decrypt => {
                    let key = load(alg, keys)?;
                    Box::new(Oaep {
                        ctx: oaep_ctx(&key, op == Operation::Encrypt)?,
                        _key: key,
                        len: alg.rsa_bytes(),
                    })
                }
                _ => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
            })
        }

        crate::libraries::evp_pk_sessions::evp_pk_sessions!($ffi);
    };
}

pub(crate) use evp_pk;

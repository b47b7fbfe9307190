//! The sessions of the EVP_PKEY definition BoringSSL and AWS-LC share
//! (crates/backends/src/libraries/evp_pk.rs, which expands this macro in
//! the same module): per call the function `apps/speed.c` calls, on a
//! context initialised once.

/// Defines, in the module where `evp_pk!` expands it (whose
/// `Ctx`, `Pkey`, `MdCtx`, `check`, `error_queue` and `public_of` it
/// uses): `Signing`, `OneShot` with `one_shot`, `Oaep`,
/// `Secret` and `Keygen`.
macro_rules! evp_pk_sessions {
    ($ffi:ident) => {
        /// 1 verifies; anything else rejects (the error queue is drained).
        fn verdict(rc: c_int) -> Result<bool, BackendError> {
            if rc != 1 {
                error_queue();
            }
            Ok(rc == 1)
        }

        /// `EVP_PKEY_sign` / `EVP_PKEY_verify` on one initialised context.
        struct Signing {
            ctx: Ctx,
            _key: Pkey,
        }

        impl PkSession for Signing {
            fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
                fill(signature, MAX_SIGNATURE, |out| {
                    let mut len = MAX_SIGNATURE;
                    // SAFETY: out has room for MAX_SIGNATURE bytes.
                    check(
                        unsafe { ffi::EVP_PKEY_sign(self.ctx.0, out, &mut len, message.as_ptr(), message.len()) },
                        "EVP_PKEY_sign",
                    )?;
                    Ok(len)
                })
            }

            fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
                // SAFETY: live context; the buffers outlive the call.
                verdict(unsafe {
                    ffi::EVP_PKEY_verify(
                        self.ctx.0,
                        signature.as_ptr(),
                        signature.len(),
                        message.as_ptr(),
                        message.len(),
                    )
                })
            }
        }

        /// One-shot `EVP_DigestSign` / `EVP_DigestVerify` (Ed25519; ML-DSA where the library has it).
        pub(super) struct OneShot {
            md: MdCtx,
            _key: Pkey,
        }

        /// A one-shot signing or verifying context on `key` (no digest: the scheme hashes the message itself).
        pub(super) fn one_shot(key: Pkey, sign: bool) -> Result<OneShot, BackendError> {
            // SAFETY: a new context, initialised with the live key.
            let md = unsafe { ffi::EVP_MD_CTX_new() };
            if md.is_null() {
                return Err(BackendError::Call {
                    call: "EVP_MD_CTX_new",
                    detail: error_queue(),
                });
            }
            let md = MdCtx(md);
            // SAFETY: as above; a NULL digest and engine.
            unsafe {
                if sign {
                    check(
                        ffi::EVP_DigestSignInit(md.0, null_mut(), std::ptr::null(), null_mut(), key.0),
                        "EVP_DigestSignInit",
                    )?;
                } else {
                    check(
                        ffi::EVP_DigestVerifyInit(md.0, null_mut(), std::ptr::null(), null_mut(), key.0),
                        "EVP_DigestVerifyInit",
                    )?;
                }
            }
            Ok(OneShot { md, _key: key })
        }

        impl PkSession for OneShot {
            fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
                fill(signature, MAX_SIGNATURE, |out| {
                    let mut len = MAX_SIGNATURE;
                    // SAFETY: out has room for MAX_SIGNATURE bytes.
                    check(
                        unsafe { ffi::EVP_DigestSign(self.md.0, out, &mut len, message.as_ptr(), message.len()) },
                        "EVP_DigestSign",
                    )?;
                    Ok(len)
                })
            }

            fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
                // SAFETY: live context; the buffers outlive the call.
                verdict(unsafe {
                    ffi::EVP_DigestVerify(
                        self.md.0,
                        signature.as_ptr(),
                        signature.len(),
                        message.as_ptr(),
                        message.len(),
                    )
                })
            }
        }

        /// RSA-OAEP: `EVP_PKEY_encrypt` / `EVP_PKEY_decrypt` on one initialised context.
        struct Oaep {
            ctx: Ctx,
            _key: Pkey,
            /// The modulus length: the longest ciphertext or plaintext.
            len: usize,
        }

        impl PkSession for Oaep {
            fn encrypt(&mut self, message: &[u8], ciphertext: &mut Vec<u8>) -> Result<(), BackendError> {
                fill(ciphertext, self.len, |out| {
                    let mut len = self.len;
                    // SAFETY: out holds a modulus-sized ciphertext.
                    check(
                        unsafe { ffi::EVP_PKEY_encrypt(self.ctx.0, out, &mut len, message.as_ptr(), message.len()) },
                        "EVP_PKEY_encrypt",
                    )?;
                    Ok(len)
                })
            }

            fn decrypt(&mut self, ciphertext: &[u8], message: &mut Vec<u8>) -> Result<(), BackendError> {
                fill(message, self.len, |out| {
                    let mut len = self.len;
                    // SAFETY: out holds a modulus-sized plaintext.
                    let rc = unsafe { ffi::EVP_PKEY_decrypt(self.ctx.0, out, &mut len, ciphertext.as_ptr(), ciphertext.len()) };
                    if rc != 1 {
                        error_queue();
                        return Err(BackendError::AuthenticationFailed);
                    }
                    Ok(len)
                })
            }
        }

        /// `EVP_PKEY_derive` on a context with the peer set.
        struct Secret {
            ctx: Ctx,
            _keys: (Pkey, Pkey),
        }

        impl PkSession for Secret {
            fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
                fill(secret, 256, |out| {
                    let mut len = 256;
                    // SAFETY: out holds any curve's secret.
                    check(unsafe { ffi::EVP_PKEY_derive(self.ctx.0, out, &mut len) }, "EVP_PKEY_derive")?;
                    Ok(len)
                })
            }
        }

        /// `EVP_PKEY_keygen` + `EVP_PKEY_free` per call (the previous key is
        /// freed when the next replaces it, so the last can be reported).
        pub(super) struct Keygen {
            pub(super) ctx: Ctx,
            pub(super) last: Option<Pkey>,
            pub(super) alg: &'static PkAlgorithmSpec,
        }

        impl PkSession for Keygen {
            fn keygen(&mut self) -> Result<(), BackendError> {
                let mut key = null_mut();
                // SAFETY: an initialised keygen context.
                check(unsafe { ffi::EVP_PKEY_keygen(self.ctx.0, &mut key) }, "EVP_PKEY_keygen")?;
                self.last = Some(Pkey::new(key, "EVP_PKEY_keygen")?);
                Ok(())
            }

            fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
                match &self.last {
                    Some(key) => public_of(self.alg, key),
                    None => Ok(Vec::new()),
                }
            }
        }
    };
}

pub(crate) use evp_pk_sessions;

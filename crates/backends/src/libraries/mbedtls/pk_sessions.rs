//! Mbed TLS's public-key sessions: per call what its programs/pkey/*.c and
//! benchmark.c call, on keys and contexts made once (pk_contexts.rs).
//! Mbed TLS computes with heap-allocated big integers (`mbedtls_mpi` grows
//! with `mbedtls_calloc` in every operation), so every session names it.

use std::ffi::c_int;

use cryptobench_core::pk::PkAlgorithmSpec;

use super::api::{MBEDTLS_MD_SHA256, MBEDTLS_MD_SHA384, MBEDTLS_MD_SHA512};
use super::pk_api::*;
use super::pk_contexts::{check, Blob, Ecdh, Pk, Rng};
use crate::error::BackendError;
use crate::named::Allocation;
use crate::pk::{fill, PkSession};

/// Room for any signature made here (RSA-4096: 512 bytes; ECDSA P-521: 139).
const MAX_SIGNATURE: usize = 1024;

const ALLOCATES: Allocation = Allocation::in_c("Mbed TLS's big integers (mbedtls_mpi) are allocated on the heap in every operation");

/// The digest an ECDSA signature's length implies (md.h's ids): the nonce
/// of Mbed TLS's deterministic ECDSA (RFC 6979) is derived with it.
pub fn md_for_digest(len: usize) -> c_int {
    match len {
        48 => MBEDTLS_MD_SHA384,
        64 => MBEDTLS_MD_SHA512,
        _ => MBEDTLS_MD_SHA256,
    }
}

/// `mbedtls_pk_sign` / `mbedtls_pk_verify` over the digest: RSA PKCS#1
/// v1.5 (the key's default padding) and ECDSA.
pub struct PkSigning<'a> {
    pub key: Pk<'a>,
    pub rng: Rng<'a>,
    pub md: c_int,
}

impl PkSession for PkSigning<'_> {
    fn allocates(&self) -> Option<Allocation> {
        Some(ALLOCATES)
    }

    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, key, md) = (self.key.api, self.key.ptr(), self.md);
        fill(signature, MAX_SIGNATURE, |out| {
            let mut len = 0;
            // SAFETY: out has room for MAX_SIGNATURE bytes, above any signature here.
            check(
                unsafe { (api.mbedtls_pk_sign)(key, md, message.as_ptr(), message.len(), out, &mut len, self.rng.f(), self.rng.p()) },
                "mbedtls_pk_sign",
            )?;
            Ok(len)
        })
    }

    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        // SAFETY: a live key; the buffers outlive the call.
        let rc = unsafe {
            (self.key.api.mbedtls_pk_verify)(
                self.key.ptr(),
                self.md,
                message.as_ptr(),
                message.len(),
                signature.as_ptr(),
                signature.len(),
            )
        };
        Ok(rc == 0)
    }
}

/// RSA-PSS on the key's RSA context (padding V21 with SHA-256 for MGF1):
/// `mbedtls_rsa_rsassa_pss_sign_ext` with a 32-byte salt /
/// `mbedtls_rsa_rsassa_pss_verify_ext` expecting it.
pub struct Pss<'a> {
    pub key: Pk<'a>,
    pub rng: Rng<'a>,
}

impl PkSession for Pss<'_> {
    fn allocates(&self) -> Option<Allocation> {
        Some(ALLOCATES)
    }

    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, rsa) = (self.key.api, self.key.inner());
        // SAFETY: a live RSA context.
        let len = unsafe { (api.mbedtls_rsa_get_len)(rsa) };
        fill(signature, len, |out| {
            // SAFETY: out holds a modulus-sized signature.
            check(
                unsafe {
                    (api.mbedtls_rsa_rsassa_pss_sign_ext)(
                        rsa,
                        self.rng.f(),
                        self.rng.p(),
                        MBEDTLS_MD_SHA256,
                        message.len() as u32,
                        message.as_ptr(),
                        32,
                        out,
                    )
                },
                "mbedtls_rsa_rsassa_pss_sign_ext",
            )?;
            Ok(len)
        })
    }

    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let (api, rsa) = (self.key.api, self.key.inner());
        // SAFETY: a live RSA context.
        if signature.len() != unsafe { (api.mbedtls_rsa_get_len)(rsa) } {
            return Ok(false);
        }
        // SAFETY: the signature is modulus-sized (the call reads that many bytes).
        let rc = unsafe {
            (api.mbedtls_rsa_rsassa_pss_verify_ext)(
                rsa,
                None,
                std::ptr::null_mut(),
                MBEDTLS_RSA_PUBLIC,
                MBEDTLS_MD_SHA256,
                message.len() as u32,
                message.as_ptr(),
                MBEDTLS_MD_SHA256,
                32,
                signature.as_ptr(),
            )
        };
        Ok(rc == 0)
    }
}

/// RSA-OAEP on the key's RSA context (padding V21, SHA-256): the 2.x calls
/// with their `mode` (public to encrypt, private to decrypt), empty label.
pub struct Oaep<'a> {
    pub key: Pk<'a>,
    pub rng: Rng<'a>,
}

impl PkSession for Oaep<'_> {
    fn allocates(&self) -> Option<Allocation> {
        Some(ALLOCATES)
    }

    fn encrypt(&mut self, message: &[u8], ciphertext: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, rsa) = (self.key.api, self.key.inner());
        // SAFETY: a live RSA context.
        let len = unsafe { (api.mbedtls_rsa_get_len)(rsa) };
        fill(ciphertext, len, |out| {
            // SAFETY: out holds a modulus-sized ciphertext.
            check(
                unsafe {
                    (api.mbedtls_rsa_rsaes_oaep_encrypt)(
                        rsa,
                        self.rng.f(),
                        self.rng.p(),
                        MBEDTLS_RSA_PUBLIC,
                        std::ptr::null(),
                        0,
                        message.len(),
                        message.as_ptr(),
                        out,
                    )
                },
                "mbedtls_rsa_rsaes_oaep_encrypt",
            )?;
            Ok(len)
        })
    }

    fn decrypt(&mut self, ciphertext: &[u8], message: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, rsa) = (self.key.api, self.key.inner());
        // SAFETY: a live RSA context.
        let len = unsafe { (api.mbedtls_rsa_get_len)(rsa) };
        if ciphertext.len() != len {
            return Err(BackendError::AuthenticationFailed);
        }
        fill(message, len, |out| {
            let mut olen = 0;
            // SAFETY: the ciphertext is modulus-sized; out holds up to len bytes.
            let rc = unsafe {
                (api.mbedtls_rsa_rsaes_oaep_decrypt)(
                    rsa,
                    self.rng.f(),
                    self.rng.p(),
                    MBEDTLS_RSA_PRIVATE,
                    std::ptr::null(),
                    0,
                    &mut olen,
                    ciphertext.as_ptr(),
                    out,
                    len,
                )
            };
            if rc != 0 {
                return Err(BackendError::AuthenticationFailed);
            }
            Ok(olen)
        })
    }
}

/// `mbedtls_ecdh_calc_secret` on a context with both parties set (blinded
/// with the DRBG, as Mbed TLS asks of every ECDH computation).
pub struct Secret<'a> {
    pub ecdh: Ecdh<'a>,
    pub rng: Rng<'a>,
    pub api: &'a PkApi,
}

impl PkSession for Secret<'_> {
    fn allocates(&self) -> Option<Allocation> {
        Some(ALLOCATES)
    }

    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let (api, ctx) = (self.api, self.ecdh.ptr());
        fill(secret, 128, |out| {
            let mut len = 0;
            // SAFETY: out holds any curve's secret (P-521: 66 bytes).
            check(
                unsafe { (api.mbedtls_ecdh_calc_secret)(ctx, &mut len, out, 128, self.rng.f(), self.rng.p()) },
                "mbedtls_ecdh_calc_secret",
            )?;
            Ok(len)
        })
    }
}

/// Key generation, freeing the previous key first (as `openssl speed`
/// generates and frees): RSA with `mbedtls_rsa_gen_key` (e = 65537) on an
/// RSA context of its own, EC with `mbedtls_ecp_gen_key` into a pk context
/// set up for an EC key (so that its public key can be written out).
pub struct Keygen<'a> {
    pub api: &'a PkApi,
    pub rng: Rng<'a>,
    /// RSA modulus bits, or 0 for EC.
    pub rsa_bits: u32,
    pub group: c_int,
    pub rsa: Option<Blob>,
    pub ec: Option<Pk<'a>>,
    pub alg: &'static PkAlgorithmSpec,
}

impl PkSession for Keygen<'_> {
    fn allocates(&self) -> Option<Allocation> {
        Some(ALLOCATES)
    }

    fn keygen(&mut self) -> Result<(), BackendError> {
        let api = self.api;
        if self.rsa_bits > 0 {
            let rsa = match &self.rsa {
                Some(rsa) => {
                    // SAFETY: the previous key's context, initialised below when it was made.
                    unsafe { (api.mbedtls_rsa_free)(rsa.ptr()) };
                    rsa
                }
                None => self.rsa.insert(Blob::new(PK_CTX_BYTES)),
            };
            // SAFETY: owned memory, initialised before the key is generated into it.
            unsafe {
                (api.mbedtls_rsa_init)(rsa.ptr(), MBEDTLS_RSA_PKCS_V15, 0);
                return check(
                    (api.mbedtls_rsa_gen_key)(rsa.ptr(), self.rng.f(), self.rng.p(), self.rsa_bits, 65537),
                    "mbedtls_rsa_gen_key",
                );
            }
        }
        // The previous key is freed in its context (mbedtls_pk_free), whose memory is kept.
        let pk = match &self.ec {
            Some(pk) => {
                pk.reset();
                pk
            }
            None => self.ec.insert(Pk::new(api)),
        };
        // SAFETY: a live pk context, set up for an EC key (which allocates its keypair).
        unsafe {
            check(
                (api.mbedtls_pk_setup)(pk.ptr(), (api.mbedtls_pk_info_from_type)(MBEDTLS_PK_ECKEY)),
                "mbedtls_pk_setup",
            )?;
            check(
                (api.mbedtls_ecp_gen_key)(self.group, pk.inner(), self.rng.f(), self.rng.p()),
                "mbedtls_ecp_gen_key",
            )?;
        }
        Ok(())
    }

    /// RSA: the modulus; EC: the uncompressed point.
    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        if let Some(rsa) = &self.rsa {
            let api = self.api;
            // SAFETY: a generated key; N is written big-endian into a modulus-sized buffer.
            unsafe {
                let len = (api.mbedtls_rsa_get_len)(rsa.ptr());
                let mut n = vec![0u8; len];
                let null = std::ptr::null_mut();
                check(
                    (api.mbedtls_rsa_export_raw)(rsa.ptr(), n.as_mut_ptr(), len, null, 0, null, 0, null, 0, null, 0),
                    "mbedtls_rsa_export_raw",
                )?;
                return Ok(n);
            }
        }
        match &self.ec {
            Some(pk) => Ok(crate::pk::encoding::point_of_spki(self.alg, &pk.public_der()?)),
            None => Ok(Vec::new()),
        }
    }
}

impl Drop for Keygen<'_> {
    fn drop(&mut self) {
        if let Some(rsa) = &self.rsa {
            // SAFETY: initialised by keygen.
            unsafe { (self.api.mbedtls_rsa_free)(rsa.ptr()) };
        }
    }
}

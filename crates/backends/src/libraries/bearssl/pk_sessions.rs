//! BearSSL's public-key sessions: every call writes into the caller's
//! buffer (crate::pk::fill) or into memory the session made beforehand,
//! and BearSSL itself never allocates, so no timed call allocates.

use std::ffi::{c_int, c_uint};

use super::api::*;
use super::pk_keys::{Drbg, EcPrivate, RsaPrivate, RsaPublic};
use crate::error::BackendError;
use crate::pk::{fill, PkSession};

fn failed(call: &'static str) -> BackendError {
    BackendError::Call {
        call,
        detail: "returned 0 (failure)".into(),
    }
}

/// RSA PKCS#1 v1.5 signing of the digest (SHA-256's DigestInfo: `BR_HASH_OID_SHA256`).
pub struct RsaSigner {
    pub sign: RsaPkcs1Sign,
    pub key: RsaPrivate,
}

impl PkSession for RsaSigner {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let (sk, n) = (self.key.raw(), self.key.len());
        fill(signature, n, |out| {
            // SAFETY: out holds n bytes, the modulus length BearSSL writes; the key's bytes are live.
            match unsafe { (self.sign)(BR_HASH_OID_SHA256.as_ptr(), message.as_ptr(), message.len(), &sk, out) } {
                1 => Ok(n),
                _ => Err(failed("br_rsa_pkcs1_sign")),
            }
        })
    }
}

/// RSA PKCS#1 v1.5 verification: BearSSL checks the padding and the
/// DigestInfo and hands the digest back (bearssl_rsa.h:262), compared here.
pub struct RsaVerifier {
    pub vrfy: RsaPkcs1Vrfy,
    pub key: RsaPublic,
    pub digest: [u8; 64],
}

impl PkSession for RsaVerifier {
    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        if message.len() > self.digest.len() {
            return Err(BackendError::Invalid("digests of at most 64 bytes".into()));
        }
        let pk = self.key.raw();
        // SAFETY: `digest` receives message.len() bytes; the inputs cover their lengths.
        let ok = unsafe {
            (self.vrfy)(
                signature.as_ptr(),
                signature.len(),
                BR_HASH_OID_SHA256.as_ptr(),
                message.len(),
                &pk,
                self.digest.as_mut_ptr(),
            )
        };
        Ok(ok == 1 && self.digest[..message.len()] == *message)
    }
}

/// RSA-OAEP with SHA-256 (MGF1-SHA-256) and an empty label.
pub struct RsaOaep {
    pub encrypt: Option<(RsaOaepEncrypt, RsaPublic, Drbg)>,
    pub decrypt: Option<(RsaOaepDecrypt, RsaPrivate)>,
    pub sha256: *const HashClass,
}

impl PkSession for RsaOaep {
    fn encrypt(&mut self, message: &[u8], ciphertext: &mut Vec<u8>) -> Result<(), BackendError> {
        let (enc, key, rng) = self
            .encrypt
            .as_mut()
            .ok_or_else(|| BackendError::Invalid("a decrypting session".into()))?;
        let (pk, n, sha256) = (key.raw(), key.len(), self.sha256);
        fill(ciphertext, n, |out| {
            // SAFETY: out holds n bytes; rng is a seeded HMAC-DRBG; no label.
            let written = unsafe {
                enc(
                    rng.class(),
                    sha256,
                    std::ptr::null(),
                    0,
                    &pk,
                    out.cast(),
                    n,
                    message.as_ptr().cast(),
                    message.len(),
                )
            };
            if written == 0 {
                return Err(failed("br_rsa_oaep_encrypt"));
            }
            Ok(written)
        })
    }

    fn decrypt(&mut self, ciphertext: &[u8], message: &mut Vec<u8>) -> Result<(), BackendError> {
        let (dec, key) = self
            .decrypt
            .as_ref()
            .ok_or_else(|| BackendError::Invalid("an encrypting session".into()))?;
        let sk = key.raw();
        let n = ciphertext.len();
        fill(message, n, |out| {
            let mut len = n;
            // SAFETY: out holds n bytes: the ciphertext is copied there and decrypted in place.
            let ok = unsafe {
                std::ptr::copy_nonoverlapping(ciphertext.as_ptr(), out, n);
                dec(self.sha256, std::ptr::null(), 0, &sk, out.cast(), &mut len)
            };
            if ok != 1 {
                return Err(BackendError::AuthenticationFailed);
            }
            Ok(len)
        })
    }
}

/// ECDSA over the digest, ASN.1 (DER) signatures. `hash` is the class
/// whose output length is the digest's (BearSSL reads the digest length
/// from it, and its RFC 6979 HMAC-DRBG runs on it).
pub struct Ecdsa {
    pub sign: Option<(EcdsaSign, EcPrivate)>,
    pub vrfy: Option<(EcdsaVrfy, Vec<u8>, c_int)>,
    pub ec: *const EcImpl,
    pub hash: *const HashClass,
}

/// The longest DER ECDSA signature here: P-521, 2 × (66 + 3) + 3 bytes.
const MAX_ECDSA: usize = 144;

impl PkSession for Ecdsa {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let (sign, key) = self
            .sign
            .as_ref()
            .ok_or_else(|| BackendError::Invalid("a verifying session".into()))?;
        // SAFETY: a static vtable.
        let len = unsafe { (*self.hash).output_len() };
        if message.len() != len {
            return Err(BackendError::Invalid(format!(
                "BearSSL signs a digest as long as its hash's output ({len} bytes)"
            )));
        }
        let sk = key.raw();
        fill(signature, MAX_ECDSA, |out| {
            // SAFETY: out holds MAX_ECDSA bytes; message has the hash's length.
            let n = unsafe { sign(self.ec, self.hash, message.as_ptr().cast(), &sk, out.cast()) };
            if n == 0 {
                return Err(failed("br_ecdsa_sign_asn1"));
            }
            Ok(n)
        })
    }

    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let (vrfy, point, curve) = self
            .vrfy
            .as_ref()
            .ok_or_else(|| BackendError::Invalid("a signing session".into()))?;
        let pk = EcKey {
            curve: *curve,
            data: point.as_ptr().cast_mut(),
            len: point.len(),
        };
        // SAFETY: the inputs cover their lengths; the point's bytes are live.
        let ok = unsafe {
            vrfy(
                self.ec,
                message.as_ptr().cast(),
                message.len(),
                &pk,
                signature.as_ptr().cast(),
                signature.len(),
            )
        };
        Ok(ok == 1)
    }
}

/// ECDH and X25519 through `br_ec_impl.mul`: the peer's point is copied
/// into `work` (made once) and multiplied in place; the secret is its x
/// coordinate (`xoff`), all of it for X25519.
pub struct Agreement {
    pub ec: *const EcImpl,
    pub key: EcPrivate,
    pub peer: Vec<u8>,
    pub work: Vec<u8>,
}

impl PkSession for Agreement {
    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        self.work.clear();
        self.work.extend_from_slice(&self.peer);
        let curve = self.key.curve;
        let mut xlen = 0usize;
        // SAFETY: a static implementation; work holds the encoded point, multiplied in place.
        let (ok, xoff) = unsafe {
            let ok = ((*self.ec).mul)(
                self.work.as_mut_ptr(),
                self.work.len(),
                self.key.x.as_ptr(),
                self.key.x.len(),
                curve,
            );
            (ok, ((*self.ec).xoff)(curve, &mut xlen))
        };
        if ok != 1 {
            return Err(BackendError::Call {
                call: "br_ec_impl.mul",
                detail: "returned 0 (an invalid point)".into(),
            });
        }
        let x = self.work.get(xoff..xoff + xlen).ok_or_else(|| failed("br_ec_impl.xoff"))?;
        fill(secret, xlen, |out| {
            // SAFETY: out holds xlen bytes.
            unsafe { std::ptr::copy_nonoverlapping(x.as_ptr(), out, xlen) };
            Ok(xlen)
        })
    }
}

/// Key generation: RSA (`br_rsa_keygen`, e = 65537) into buffers made once
/// (BR_RSA_KBUF_PRIV_SIZE and _PUB_SIZE of 4096 bits: 1280 and 516
/// bytes, bearssl_rsa.h), EC (`br_ec_keygen`) into one of
/// BR_EC_KBUF_PRIV_MAX_SIZE (72, bearssl_ec.h).
pub struct KeyGen<'a> {
    pub api: &'a Api,
    pub rng: Drbg,
    pub rsa: Option<(RsaKeygen, c_uint)>,
    pub ec: Option<(*const EcImpl, c_int)>,
    pub private: Vec<u8>,
    pub public: Vec<u8>,
    /// The public key's place and length in `public` (RSA: n), or the private scalar's length (EC).
    pub last: (usize, usize),
}

impl PkSession for KeyGen<'_> {
    fn keygen(&mut self) -> Result<(), BackendError> {
        let rng = self.rng.class();
        if let Some((keygen, bits)) = self.rsa {
            let mut sk = RsaPrivateKey {
                n_bitlen: 0,
                p: std::ptr::null_mut(),
                plen: 0,
                q: std::ptr::null_mut(),
                qlen: 0,
                dp: std::ptr::null_mut(),
                dplen: 0,
                dq: std::ptr::null_mut(),
                dqlen: 0,
                iq: std::ptr::null_mut(),
                iqlen: 0,
            };
            let mut pk = RsaPublicKey {
                n: std::ptr::null_mut(),
                nlen: 0,
                e: std::ptr::null_mut(),
                elen: 0,
            };
            // SAFETY: the buffers have the sizes BearSSL needs for `bits` (made for 4096).
            let ok = unsafe {
                keygen(
                    rng,
                    &mut sk,
                    self.private.as_mut_ptr().cast(),
                    &mut pk,
                    self.public.as_mut_ptr().cast(),
                    bits,
                    65537,
                )
            };
            if ok != 1 {
                return Err(failed("br_rsa_keygen"));
            }
            // SAFETY: pk.n points into `public`.
            self.last = (unsafe { pk.n.offset_from(self.public.as_ptr()) } as usize, pk.nlen);
            return Ok(());
        }
        let (ec, curve) = self.ec.ok_or_else(|| failed("keygen"))?;
        let mut sk = EcKey {
            curve: 0,
            data: std::ptr::null_mut(),
            len: 0,
        };
        // SAFETY: `private` exceeds BR_EC_KBUF_PRIV_MAX_SIZE.
        let n = unsafe { (self.api.br_ec_keygen)(rng, ec, &mut sk, self.private.as_mut_ptr().cast(), curve) };
        if n == 0 {
            return Err(failed("br_ec_keygen"));
        }
        self.last = (0, n);
        Ok(())
    }

    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        let (at, len) = self.last;
        if len == 0 {
            return Err(BackendError::Invalid("no key generated yet".into()));
        }
        if self.rsa.is_some() {
            return Ok(self.public[at..at + len].to_vec());
        }
        let (ec, curve) = self.ec.ok_or_else(|| failed("keygen"))?;
        let key = EcPrivate {
            curve,
            x: self.private[..len].to_vec(),
        };
        key.public(self.api, ec)
    }
}

//! libgcrypt's public key (`gcry_pk_*` over S-expressions, libgcrypt 1.8+;
//! `gcry_ecc_mul_point` 1.9+): RSA PKCS#1 v1.5, PSS and OAEP, ECDSA on
//! P-256/P-384/P-521, Ed25519, X25519 and X448. Keys are the run's keys
//! written as S-expressions (gcrypt's `u` is p⁻¹ mod q: cryptobench passes
//! PKCS#1's q as gcrypt's p and p as q, so that PKCS#1's qInv is that
//! coefficient). The data S-expression of a cell is built once in
//! `prepare`; each timed call is one `gcry_pk_sign`/`verify`/`encrypt`/
//! `decrypt`/`genkey` and the release of the S-expression it returns (the
//! library's own allocations, as its API has them).
//! API: <https://www.gnupg.org/documentation/manuals/gcrypt/Cryptographic-Functions.html>.

use std::ffi::{c_char, c_int, c_uint, c_void};
use std::ptr::{null, null_mut};

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptobench_core::{CellSpec, Operation};

use super::GcryptBackend;
use crate::error::BackendError;
use crate::pk::encoding::{ecdsa_der, ecdsa_from_der, pad};
use crate::pk::keys::PkKeys;
use crate::pk::PkBackend;
use crate::backend::{Primitive, Support};

type Sexp = *mut c_void;

crate::native::api_table! {
    required {
        gcry_sexp_new: fn(*mut Sexp, *const c_void, usize, c_int) -> c_uint;
        gcry_sexp_release: fn(Sexp) -> ();
        gcry_sexp_find_token: fn(Sexp, *const c_char, usize) -> Sexp;
        gcry_sexp_nth_data: fn(Sexp, c_int, *mut usize) -> *const c_char;
        gcry_pk_sign: fn(*mut Sexp, Sexp, Sexp) -> c_uint;
        gcry_pk_verify: fn(Sexp, Sexp, Sexp) -> c_uint;
        gcry_pk_encrypt: fn(*mut Sexp, Sexp, Sexp) -> c_uint;
        gcry_pk_decrypt: fn(*mut Sexp, Sexp, Sexp) -> c_uint;
        gcry_pk_genkey: fn(*mut Sexp, Sexp) -> c_uint;
        gcry_ecc_mul_point: fn(c_int, *mut u8, *const u8, *const u8) -> c_uint;
    }
    optional {}
}

/// The public-key table under a name of its own beside the symmetric `Api`.
pub type PkApi = Api;

/// `GCRY_ECC_CURVE25519`, `GCRY_ECC_CURVE448` (gcrypt.h, 1.9+).
const ECC_CURVE25519: c_int = 1;
const ECC_CURVE448: c_int = 2;

/// An owned S-expression.
struct S<'a> {
    api: &'a PkApi,
    ptr: Sexp,
}

impl<'a> S<'a> {
    fn parse(api: &'a PkApi, text: &str) -> Result<S<'a>, BackendError> {
        let mut ptr = null_mut();
        // SAFETY: the text outlives the call; autodetect=1 reads the advanced format.
        let rc = unsafe { (api.gcry_sexp_new)(&mut ptr, text.as_ptr().cast(), text.len(), 1) };
        if rc != 0 || ptr.is_null() {
            return Err(BackendError::Call {
                call: "gcry_sexp_new",
                detail: format!("error {rc}"),
            });
        }
        Ok(S { api, ptr })
    }

    /// The bytes of the value after `token` (e.g. "s" in (sig-val (rsa (s #…#)))).
    fn value(&self, token: &str) -> Option<Vec<u8>> {
        // SAFETY: live list; the found sub-list is released below.
        unsafe {
            let sub = (self.api.gcry_sexp_find_token)(self.ptr, token.as_ptr().cast(), token.len());
            if sub.is_null() {
                return None;
            }
            let mut len = 0usize;
            let data = (self.api.gcry_sexp_nth_data)(sub, 1, &mut len);
            let out = (!data.is_null()).then(|| std::slice::from_raw_parts(data.cast::<u8>(), len).to_vec());
            (self.api.gcry_sexp_release)(sub);
            out
        }
    }
}

impl Drop for S<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, released once.
        unsafe { (self.api.gcry_sexp_release)(self.ptr) };
    }
}

fn h(bytes: &[u8]) -> String {
    format!("#{}#", hex::encode(bytes))
}

fn curve_name(alg: &PkAlgorithmSpec) -> &'static str {
    match alg.openssl_name {
        "P-256" => "NIST P-256",
        "P-384" => "NIST P-384",
        "P-521" => "NIST P-521",
        _ => "Ed25519",
    }
}

/// The primes and CRT coefficient as libgcrypt's secret key takes them:
/// p < q and u = p⁻¹ mod q (libgcrypt manual, "RSA key parameters"). PKCS#1
/// gives qInv = q⁻¹ mod p for primes in either order; with p > q libgcrypt's
/// CRT step goes wrong for some inputs (about 1 in 270 PSS signatures of an
/// imported key did not verify, by libgcrypt or RustCrypto).
fn gcrypt_primes(keys: &PkKeys, r: &crate::pk::keys::RsaParts) -> Result<[Vec<u8>; 3], BackendError> {
    use rsa::pkcs1::DecodeRsaPrivateKey;
    use rsa::traits::{PrivateKeyParts, PublicKeyParts};
    let below = |a: &[u8], b: &[u8]| (a.len(), a) < (b.len(), b);
    if below(&r.q, &r.p) {
        // q < p: gcrypt's p is PKCS#1's q, and qInv is the inverse it wants.
        return Ok([r.q.clone(), r.p.clone(), r.qinv.clone()]);
    }
    // p < q: p⁻¹ mod q, the qInv of the same key with its primes given the other way round.
    let invalid = |e: rsa::Error| BackendError::Invalid(format!("RSA key: {e}"));
    let key = rsa::RsaPrivateKey::from_pkcs1_der(&keys.private_der).map_err(|e| BackendError::Invalid(format!("RSA key: {e}")))?;
    let primes = key.primes();
    let swapped = rsa::RsaPrivateKey::from_components(
        key.n().as_ref().clone(),
        key.e().clone(),
        key.d().clone(),
        vec![primes[1].as_ref().clone(), primes[0].as_ref().clone()],
    )
    .map_err(invalid)?;
    let u = swapped
        .qinv()
        .map(|m| m.retrieve().to_be_bytes().to_vec())
        .ok_or_else(|| BackendError::Invalid("RSA key without a CRT coefficient".into()))?;
    Ok([r.p.clone(), r.q.clone(), u])
}

/// The key S-expressions (private, public) of `keys`.
fn key_texts(alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<(String, String), BackendError> {
    if let Some(r) = &keys.rsa {
        let public = format!("(public-key (rsa (n {})(e {})))", h(&r.n), h(&r.e));
        let [p, q, u] = gcrypt_primes(keys, r)?;
        let private = format!(
            "(private-key (rsa (n {})(e {})(d {})(p {})(q {})(u {})))",
            h(&r.n),
            h(&r.e),
            h(&r.d),
            h(&p),
            h(&q),
            h(&u)
        );
        return Ok((private, public));
    }
    if alg.is_rsa() {
        use rsa::pkcs8::DecodePublicKey;
        use rsa::traits::PublicKeyParts;
        let k = rsa::RsaPublicKey::from_public_key_der(&keys.public_der).map_err(|e| BackendError::Invalid(e.to_string()))?;
        let public = format!(
            "(public-key (rsa (n {})(e {})))",
            h(&k.n().as_ref().to_be_bytes()),
            h(&k.e().to_be_bytes())
        );
        return Ok((String::new(), public));
    }
    match alg.kind {
        PkKind::Ecdsa => {
            let public = if keys.public.is_empty() {
                crate::pk::verify::ec_keys_from_scalar(alg, &keys.ec_private)
                    .map_err(BackendError::Invalid)?
                    .public
            } else {
                keys.public.clone()
            };
            let curve = curve_name(alg);
            Ok((
                format!(
                    "(private-key (ecc (curve \"{curve}\")(q {})(d {})))",
                    h(&public),
                    h(&keys.ec_private)
                ),
                format!("(public-key (ecc (curve \"{curve}\")(q {})))", h(&public)),
            ))
        }
        _ => {
            // Ed25519: the public key in gcrypt's prefixed form (0x40 ‖ A).
            let public = if keys.public.is_empty() {
                let s: [u8; 32] = keys
                    .seed
                    .as_slice()
                    .try_into()
                    .map_err(|_| BackendError::Invalid("an Ed25519 key is 32 bytes".into()))?;
                ed25519_dalek::SigningKey::from_bytes(&s).verifying_key().to_bytes().to_vec()
            } else {
                keys.public.clone()
            };
            let q = [&[0x40u8][..], &public].concat();
            Ok((
                format!("(private-key (ecc (curve Ed25519)(flags eddsa)(q {})(d {})))", h(&q), h(&keys.seed)),
                format!("(public-key (ecc (curve Ed25519)(flags eddsa)(q {})))", h(&q)),
            ))
        }
    }
}

/// The data S-expression of a signature over `message` (a digest for RSA and ECDSA).
fn sign_data(alg: &PkAlgorithmSpec, message: &[u8]) -> String {
    match alg.kind {
        PkKind::RsaPkcs1 => format!("(data (flags pkcs1)(hash sha256 {}))", h(message)),
        PkKind::RsaPss => format!("(data (flags pss)(salt-length 2:32)(hash sha256 {}))", h(message)),
        PkKind::Ecdsa => format!("(data (flags raw)(value {}))", h(message)),
        _ => format!("(data (flags eddsa)(hash-algo sha512)(value {}))", h(message)),
    }
}

impl GcryptBackend {
    fn pk_api(&self) -> Result<&PkApi, BackendError> {
        self.pk_api
            .as_ref()
            .map_err(|s| BackendError::Unsupported(format!("public key (this libgcrypt lacks {s})")))
    }

    /// Signature bytes from a (sig-val …) S-expression.
    fn signature_bytes(alg: &PkAlgorithmSpec, sig: &S<'_>) -> Result<Vec<u8>, BackendError> {
        let missing = || BackendError::Invalid("gcrypt's signature lacks its values".into());
        Ok(match alg.kind {
            PkKind::RsaPkcs1 | PkKind::RsaPss => pad(&sig.value("s").ok_or_else(missing)?, alg.rsa_bytes()),
            PkKind::Ecdsa => {
                let n = alg.bits.div_ceil(8) as usize;
                ecdsa_der(
                    &pad(&sig.value("r").ok_or_else(missing)?, n),
                    &pad(&sig.value("s").ok_or_else(missing)?, n),
                )
            }
            _ => [
                pad(&sig.value("r").ok_or_else(missing)?, 32),
                pad(&sig.value("s").ok_or_else(missing)?, 32),
            ]
            .concat(),
        })
    }

    /// The (sig-val …) S-expression of signature bytes.
    fn signature_text(alg: &PkAlgorithmSpec, sig: &[u8]) -> Option<String> {
        Some(match alg.kind {
            // gcrypt takes the signature as an integer: the octet string's length check of
            // RFC 8017 §8.1.2/§8.2.2 step 1 (exactly k bytes) is the caller's.
            PkKind::RsaPkcs1 | PkKind::RsaPss if sig.len() != alg.rsa_bytes() => return None,
            PkKind::RsaPkcs1 | PkKind::RsaPss => format!("(sig-val (rsa (s {})))", h(sig)),
            PkKind::Ecdsa => {
                let (r, s) = ecdsa_from_der(alg, sig)?;
                format!("(sig-val (ecdsa (r {})(s {})))", h(&r), h(&s))
            }
            _ if sig.len() == 64 => format!("(sig-val (eddsa (r {})(s {})))", h(&sig[..32]), h(&sig[32..])),
            _ => return None,
        })
    }

    fn mul(&self, alg: &PkAlgorithmSpec, scalar: &[u8], point: Option<&[u8]>) -> Result<Vec<u8>, BackendError> {
        let api = self.pk_api()?;
        let (curve, n) = if alg.openssl_name == "X448" {
            (ECC_CURVE448, 56)
        } else {
            (ECC_CURVE25519, 32)
        };
        if scalar.len() != n || point.is_some_and(|p| p.len() != n) {
            return Err(BackendError::Invalid(format!("{} keys are {n} bytes", alg.id)));
        }
        let mut out = vec![0u8; n];
        // SAFETY: n-byte buffers; a NULL point means the base point.
        let rc = unsafe { (api.gcry_ecc_mul_point)(curve, out.as_mut_ptr(), scalar.as_ptr(), point.map_or(null(), <[u8]>::as_ptr)) };
        if rc != 0 {
            return Err(BackendError::Call {
                call: "gcry_ecc_mul_point",
                detail: format!("error {rc}"),
            });
        }
        Ok(out)
    }
}

fn call(rc: c_uint, call: &'static str) -> Result<(), BackendError> {
    if rc == 0 {
        Ok(())
    } else {
        Err(BackendError::Call {
            call,
            detail: format!("gpg error {rc}"),
        })
    }
}

impl PkBackend for GcryptBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        if let Err(e) = self.pk_api() {
            return Support::Unsupported(e.to_string());
        }
        match (alg.kind, alg.openssl_name) {
            (PkKind::RsaPkcs1 | PkKind::RsaPss | PkKind::RsaOaep | PkKind::Ecdsa, _)
            | (PkKind::EdDsa, "ED25519")
            | (PkKind::Ecdh, "X25519" | "X448") => Support::Supported,
            _ => Support::Unsupported(format!("{}: not driven through libgcrypt in cryptobench", alg.id)),
        }
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        match alg.kind {
            PkKind::Ecdh if !alg.openssl_name.starts_with("P-") => self.mul(alg, &keys.seed, None),
            _ => {
                // What the S-expression carries: gcrypt computes nothing here for RSA, EC or EdDSA keys.
                Err(BackendError::Unsupported(format!("{} public key from the private key", alg.id)))
            }
        }
    }

    fn sign(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let api = self.pk_api()?;
        let (private, _) = key_texts(alg, keys)?;
        let (key, data) = (S::parse(api, &private)?, S::parse(api, &sign_data(alg, message))?);
        let mut sig = null_mut();
        // SAFETY: live S-expressions.
        call(unsafe { (api.gcry_pk_sign)(&mut sig, data.ptr, key.ptr) }, "gcry_pk_sign")?;
        Self::signature_bytes(alg, &S { api, ptr: sig })
    }

    fn verify(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let api = self.pk_api()?;
        let (_, public) = key_texts(alg, keys)?;
        let Some(sig_text) = Self::signature_text(alg, signature) else {
            return Ok(false);
        };
        let (Ok(key), Ok(data), Ok(sig)) = (
            S::parse(api, &public),
            S::parse(api, &sign_data(alg, message)),
            S::parse(api, &sig_text),
        ) else {
            return Ok(false);
        };
        // SAFETY: live S-expressions.
        Ok(unsafe { (api.gcry_pk_verify)(sig.ptr, data.ptr, key.ptr) } == 0)
    }

    fn encrypt(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let api = self.pk_api()?;
        let (_, public) = key_texts(alg, keys)?;
        let key = S::parse(api, &public)?;
        let data = S::parse(api, &format!("(data (flags oaep)(hash-algo sha256)(value {}))", h(message)))?;
        let mut ct = null_mut();
        // SAFETY: live S-expressions.
        call(unsafe { (api.gcry_pk_encrypt)(&mut ct, data.ptr, key.ptr) }, "gcry_pk_encrypt")?;
        let ct = S { api, ptr: ct };
        Ok(pad(
            &ct.value("a").ok_or_else(|| BackendError::Invalid("no ciphertext".into()))?,
            alg.rsa_bytes(),
        ))
    }

    fn decrypt(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, ciphertext: &[u8]) -> Result<Vec<u8>, BackendError> {
        let api = self.pk_api()?;
        let (private, _) = key_texts(alg, keys)?;
        let key = S::parse(api, &private)?;
        let data = S::parse(api, &format!("(enc-val (flags oaep)(hash-algo sha256)(rsa (a {})))", h(ciphertext)))?;
        let mut plain = null_mut();
        // SAFETY: live S-expressions.
        if unsafe { (api.gcry_pk_decrypt)(&mut plain, data.ptr, key.ptr) } != 0 {
            return Err(BackendError::AuthenticationFailed);
        }
        let plain = S { api, ptr: plain };
        plain.value("value").ok_or(BackendError::AuthenticationFailed)
    }

    fn derive(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let peer = keys
            .peer
            .as_deref()
            .ok_or_else(|| BackendError::Invalid("key agreement needs a peer".into()))?;
        if alg.openssl_name.starts_with("P-") {
            return Err(BackendError::Unsupported(format!(
                "{}: ECDH on NIST curves through libgcrypt",
                alg.id
            )));
        }
        let theirs = if peer.public.is_empty() {
            self.mul(alg, &peer.seed, None)?
        } else {
            peer.public.clone()
        };
        self.mul(alg, &keys.seed, Some(&theirs))
    }

    fn prepare_pk(
        &self,
        cell: &CellSpec,
        alg: &PkAlgorithmSpec,
        keys: &PkKeys,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        if let Support::Unsupported(why) = self.pk_support(alg) {
            return Err(BackendError::Unsupported(why));
        }
        let api = self.pk_api()?;
        let op = cell.operation;
        if alg.kind == PkKind::Ecdh {
            if op != Operation::Derive || alg.openssl_name.starts_with("P-") {
                return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short())));
            }
            let peer = keys
                .peer
                .as_deref()
                .ok_or_else(|| BackendError::Invalid("key agreement needs a peer".into()))?;
            let point = if peer.public.is_empty() {
                self.mul(alg, &peer.seed, None)?
            } else {
                peer.public.clone()
            };
            let n = point.len();
            if keys.seed.len() != n {
                return Err(BackendError::Invalid(format!("{} keys are {n} bytes", alg.id)));
            }
            return Ok(Box::new(Mul {
                api,
                curve: if n == 56 { ECC_CURVE448 } else { ECC_CURVE25519 },
                scalar: keys.seed.clone(),
                point,
                out: vec![0u8; n],
            }));
        }
        let (private, public) = key_texts(alg, keys)?;
        let mut sig_bytes = Vec::new();
        let (key, data, sig) = match op {
            Operation::Sign => (S::parse(api, &private)?, S::parse(api, &sign_data(alg, message))?, None),
            Operation::Verify => {
                let sig = self.sign(alg, keys, message)?;
                let text = Self::signature_text(alg, &sig).ok_or_else(|| BackendError::Invalid("signature".into()))?;
                sig_bytes = sig;
                (
                    S::parse(api, &public)?,
                    S::parse(api, &sign_data(alg, message))?,
                    Some(S::parse(api, &text)?),
                )
            }
            Operation::Encrypt => (
                S::parse(api, &public)?,
                S::parse(api, &format!("(data (flags oaep)(hash-algo sha256)(value {}))", h(message)))?,
                None,
            ),
            Operation::Decrypt => {
                let ct = self.encrypt(alg, keys, message)?;
                (
                    S::parse(api, &private)?,
                    S::parse(api, &format!("(enc-val (flags oaep)(hash-algo sha256)(rsa (a {})))", h(&ct)))?,
                    None,
                )
            }
            Operation::Keygen => {
                let parms = if alg.is_rsa() {
                    format!("(genkey (rsa (nbits {}:{})))", alg.bits.to_string().len(), alg.bits)
                } else if alg.kind == PkKind::Ecdsa {
                    format!("(genkey (ecc (curve \"{}\")))", curve_name(alg))
                } else {
                    "(genkey (ecc (curve Ed25519)(flags eddsa)))".to_string()
                };
                (S::parse(api, &parms)?, S::parse(api, "(data)")?, None)
            }
            other => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, other.short()))),
        };
        Ok(Box::new(Pk {
            api,
            alg: cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?,
            op,
            key,
            data,
            sig,
            sig_bytes,
            result: None,
        }))
    }
}

/// One `gcry_pk_*` call per timed call on S-expressions built in `prepare`;
/// the result S-expression of a call is released by the next one.
struct Pk<'a> {
    api: &'a PkApi,
    alg: &'static PkAlgorithmSpec,
    op: Operation,
    key: S<'a>,
    data: S<'a>,
    sig: Option<S<'a>>,
    /// The signature a verify cell checks, as bytes.
    sig_bytes: Vec<u8>,
    result: Option<S<'a>>,
}

impl Primitive for Pk<'_> {
    fn run(&mut self, iterations: u64, _buf: &mut [u8]) -> Result<(), BackendError> {
        let api = self.api;
        for _ in 0..iterations {
            let mut out = null_mut();
            // SAFETY: live S-expressions built in prepare.
            unsafe {
                match self.op {
                    Operation::Sign => call((api.gcry_pk_sign)(&mut out, self.data.ptr, self.key.ptr), "gcry_pk_sign")?,
                    Operation::Verify => {
                        let sig = self.sig.as_ref().map_or(null_mut(), |s| s.ptr);
                        call((api.gcry_pk_verify)(sig, self.data.ptr, self.key.ptr), "gcry_pk_verify")?
                    }
                    Operation::Encrypt => call((api.gcry_pk_encrypt)(&mut out, self.data.ptr, self.key.ptr), "gcry_pk_encrypt")?,
                    Operation::Decrypt => call((api.gcry_pk_decrypt)(&mut out, self.data.ptr, self.key.ptr), "gcry_pk_decrypt")?,
                    _ => call((api.gcry_pk_genkey)(&mut out, self.key.ptr), "gcry_pk_genkey")?,
                }
            }
            // Releasing the previous result is the release each call pays.
            self.result = (!out.is_null()).then_some(S { api, ptr: out });
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        let Some(r) = &self.result else {
            return Ok(Some(self.sig_bytes.clone()));
        };
        Ok(Some(match self.op {
            Operation::Sign => GcryptBackend::signature_bytes(self.alg, r)?,
            Operation::Encrypt => pad(&r.value("a").unwrap_or_default(), self.alg.rsa_bytes()),
            Operation::Decrypt => r.value("value").unwrap_or_default(),
            // Key generation: the new public key's value (q of EC keys, n of RSA keys).
            _ => r.value(if self.alg.is_rsa() { "n" } else { "q" }).unwrap_or_default(),
        }))
    }
}

struct Mul<'a> {
    api: &'a PkApi,
    curve: c_int,
    scalar: Vec<u8>,
    point: Vec<u8>,
    out: Vec<u8>,
}

impl Primitive for Mul<'_> {
    fn run(&mut self, iterations: u64, _buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: buffers of the curve's length.
            call(
                unsafe { (self.api.gcry_ecc_mul_point)(self.curve, self.out.as_mut_ptr(), self.scalar.as_ptr(), self.point.as_ptr()) },
                "gcry_ecc_mul_point",
            )?;
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out.clone()))
    }
}

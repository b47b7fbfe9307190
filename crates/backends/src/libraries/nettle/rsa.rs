//! Nettle's RSA (libhogweed, rsa.h of Nettle 3.4+) on GMP integers:
//! PKCS#1 v1.5 and PSS (salt 32 bytes, MGF1-SHA-256) signatures over a
//! SHA-256 digest (`rsa_sha256_sign_digest_tr`, `rsa_pss_sha256_sign_digest_tr`:
//! the side-channel-resistant calls, blinded with random bytes, as OpenSSL
//! blinds) and their verification, and key generation
//! (`rsa_generate_keypair`, e = 65537), each a session on keys prepared
//! once. RSA-OAEP arrived in Nettle 3.10 (`rsa_oaep_sha256_encrypt`) and is
//! not driven here.

use std::ffi::{c_int, c_uint, c_void};

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::gmp::{self, export, export_into, random, set_be, Int, Mpz};
use crate::error::BackendError;
use crate::pk::keys::{PkKeys, RsaParts};
use crate::pk::{KeptInput, PkSession};

/// `struct rsa_public_key` (rsa.h): size in bytes, n, e.
#[repr(C)]
pub struct PublicKey {
    size: usize,
    n: Mpz,
    e: Mpz,
}

/// `struct rsa_private_key` (rsa.h): size, d, p, q, a = d mod (p-1), b = d mod (q-1), c = q⁻¹ mod p.
#[repr(C)]
pub struct PrivateKey {
    size: usize,
    d: Mpz,
    p: Mpz,
    q: Mpz,
    a: Mpz,
    b: Mpz,
    c: Mpz,
}

type RandomFn = unsafe extern "C" fn(*mut c_void, usize, *mut u8);
type ProgressFn = unsafe extern "C" fn(*mut c_void, c_int);

crate::native::api_table! {
    required {
        nettle_rsa_public_key_init: fn(*mut PublicKey) -> ();
        nettle_rsa_public_key_clear: fn(*mut PublicKey) -> ();
        nettle_rsa_public_key_prepare: fn(*mut PublicKey) -> c_int;
        nettle_rsa_private_key_init: fn(*mut PrivateKey) -> ();
        nettle_rsa_private_key_clear: fn(*mut PrivateKey) -> ();
        nettle_rsa_private_key_prepare: fn(*mut PrivateKey) -> c_int;
        nettle_rsa_sha256_sign_digest_tr: fn(*const PublicKey, *const PrivateKey, *mut c_void, RandomFn, *const u8, *mut Mpz) -> c_int;
        nettle_rsa_sha256_verify_digest: fn(*const PublicKey, *const u8, *const Mpz) -> c_int;
        nettle_rsa_pss_sha256_sign_digest_tr: fn(*const PublicKey, *const PrivateKey, *mut c_void, RandomFn, usize, *const u8, *const u8, *mut Mpz) -> c_int;
        nettle_rsa_pss_sha256_verify_digest: fn(*const PublicKey, usize, *const u8, *const Mpz) -> c_int;
        nettle_rsa_generate_keypair: fn(*mut PublicKey, *mut PrivateKey, *mut c_void, RandomFn, *mut c_void, Option<ProgressFn>, c_uint, c_uint) -> c_int;
    }
    optional {}
}

/// PSS salt length, as every backend signs (docs/METHOD.md).
const SALT_LEN: usize = 32;
/// The public exponent of generated keys (F4, as OpenSSL's default).
const E: &[u8] = &[1, 0, 1];
/// SHA-256 digests are what these calls sign.
const DIGEST_LEN: usize = 32;

fn bad(what: &str) -> BackendError {
    BackendError::Invalid(what.to_string())
}

pub fn covers(alg: &PkAlgorithmSpec) -> bool {
    matches!(alg.kind, PkKind::RsaPkcs1 | PkKind::RsaPss)
}

/// A key pair (or a public key alone), cleared when dropped.
pub struct Keys<'a> {
    api: &'a Api,
    gmp: &'a gmp::Api,
    public: Box<PublicKey>,
    private: Option<Box<PrivateKey>>,
}

impl<'a> Keys<'a> {
    fn empty(api: &'a Api, gmp: &'a gmp::Api, private: bool) -> Keys<'a> {
        let mut public = Box::new(PublicKey {
            size: 0,
            n: Mpz::empty(),
            e: Mpz::empty(),
        });
        // SAFETY: initialised in place; boxed, so it does not move.
        unsafe { (api.nettle_rsa_public_key_init)(&mut *public) };
        let private = private.then(|| {
            let mut k = Box::new(PrivateKey {
                size: 0,
                d: Mpz::empty(),
                p: Mpz::empty(),
                q: Mpz::empty(),
                a: Mpz::empty(),
                b: Mpz::empty(),
                c: Mpz::empty(),
            });
            // SAFETY: as above.
            unsafe { (api.nettle_rsa_private_key_init)(&mut *k) };
            k
        });
        Keys { api, gmp, public, private }
    }

    /// The keys of `parts` (a private key where `d` is known).
    pub fn import(api: &'a Api, gmp: &'a gmp::Api, parts: &RsaParts) -> Result<Keys<'a>, BackendError> {
        let mut k = Keys::empty(api, gmp, !parts.d.is_empty());
        set_be(gmp, &mut k.public.n, &parts.n);
        set_be(gmp, &mut k.public.e, &parts.e);
        // SAFETY: initialised; prepare computes the size and checks n.
        if unsafe { (api.nettle_rsa_public_key_prepare)(&mut *k.public) } != 1 {
            return Err(bad("Nettle refuses the RSA public key"));
        }
        if let Some(private) = k.private.as_mut() {
            for (z, v) in [
                (&mut private.d, &parts.d),
                (&mut private.p, &parts.p),
                (&mut private.q, &parts.q),
                (&mut private.a, &parts.dp),
                (&mut private.b, &parts.dq),
                (&mut private.c, &parts.qinv),
            ] {
                set_be(gmp, z, v);
            }
            // SAFETY: initialised and set.
            if unsafe { (api.nettle_rsa_private_key_prepare)(&mut **private) } != 1 {
                return Err(bad("Nettle refuses the RSA private key"));
            }
        }
        Ok(k)
    }

    /// The signature's length: the modulus's in bytes.
    pub fn size(&self) -> usize {
        self.public.size
    }

    /// Signs a SHA-256 `digest` into `s` (PSS with a fresh random salt).
    fn sign_into(&self, pss: bool, digest: &[u8], salt: &mut [u8; SALT_LEN], s: &mut Int<'_>) -> Result<(), BackendError> {
        let private = self.private.as_deref().ok_or_else(|| bad("signing needs a private key"))?;
        if digest.len() != DIGEST_LEN {
            return Err(bad("Nettle's RSA signs a 32-byte SHA-256 digest"));
        }
        // SAFETY: keys prepared; the digest is 32 bytes; `s` initialised.
        let ok = unsafe {
            if pss {
                rand::RngCore::fill_bytes(&mut rand::rng(), salt);
                (self.api.nettle_rsa_pss_sha256_sign_digest_tr)(
                    &*self.public,
                    private,
                    std::ptr::null_mut(),
                    random,
                    SALT_LEN,
                    salt.as_ptr(),
                    digest.as_ptr(),
                    &mut s.raw,
                )
            } else {
                (self.api.nettle_rsa_sha256_sign_digest_tr)(
                    &*self.public,
                    private,
                    std::ptr::null_mut(),
                    random,
                    digest.as_ptr(),
                    &mut s.raw,
                )
            }
        };
        if ok != 1 {
            return Err(bad("Nettle's RSA signing failed"));
        }
        Ok(())
    }

    fn verify_raw(&self, pss: bool, digest: &[u8], s: &Int<'_>) -> bool {
        if digest.len() != DIGEST_LEN {
            return false;
        }
        // SAFETY: key prepared; the digest is 32 bytes; `s` initialised.
        unsafe {
            if pss {
                (self.api.nettle_rsa_pss_sha256_verify_digest)(&*self.public, SALT_LEN, digest.as_ptr(), &s.raw) == 1
            } else {
                (self.api.nettle_rsa_sha256_verify_digest)(&*self.public, digest.as_ptr(), &s.raw) == 1
            }
        }
    }
}

impl Drop for Keys<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in empty.
        unsafe {
            (self.api.nettle_rsa_public_key_clear)(&mut *self.public);
            if let Some(k) = self.private.as_mut() {
                (self.api.nettle_rsa_private_key_clear)(&mut **k);
            }
        }
    }
}

/// The key's parts; a public key alone (test vectors) from its SubjectPublicKeyInfo.
fn parts(keys: &PkKeys) -> Result<std::borrow::Cow<'_, RsaParts>, BackendError> {
    use rsa::pkcs8::DecodePublicKey;
    use rsa::traits::PublicKeyParts;
    if let Some(r) = &keys.rsa {
        return Ok(std::borrow::Cow::Borrowed(r));
    }
    let k = rsa::RsaPublicKey::from_public_key_der(&keys.public_der).map_err(|e| BackendError::Invalid(e.to_string()))?;
    Ok(std::borrow::Cow::Owned(RsaParts {
        n: k.n().as_ref().to_be_bytes().to_vec(),
        e: k.e().to_be_bytes().to_vec(),
        d: Vec::new(),
        p: Vec::new(),
        q: Vec::new(),
        dp: Vec::new(),
        dq: Vec::new(),
        qinv: Vec::new(),
    }))
}

pub fn public_key(api: &Api, gmp: &gmp::Api, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
    let k = Keys::import(api, gmp, &*parts(keys)?)?;
    Ok(export(gmp, &k.public.n, 0))
}

/// The session of `op` on `keys`.
pub fn session<'a>(
    api: &'a Api,
    gmp: &'a gmp::Api,
    alg: &PkAlgorithmSpec,
    keys: &PkKeys,
    op: Operation,
) -> Result<Box<dyn PkSession + 'a>, BackendError> {
    let pss = alg.kind == PkKind::RsaPss;
    Ok(match op {
        Operation::Sign | Operation::Verify => Box::new(Signing {
            pss,
            keys: Keys::import(api, gmp, &*parts(keys)?)?,
            salt: [0u8; SALT_LEN],
            s: Int::new(gmp),
            kept: KeptInput::default(),
        }),
        Operation::Keygen => Box::new(Keygen {
            bits: alg.bits,
            keys: Keys::empty(api, gmp, true),
        }),
        other => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, other.short()))),
    })
}

/// Signing into a kept integer, written out (`mpz_export`) at the modulus's
/// length; verification of the signature read into an integer once
/// (`KeptInput`).
struct Signing<'a> {
    pss: bool,
    keys: Keys<'a>,
    salt: [u8; SALT_LEN],
    s: Box<Int<'a>>,
    kept: KeptInput<Box<Int<'a>>>,
}

impl PkSession for Signing<'_> {
    fn sign(&mut self, digest: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        self.keys.sign_into(self.pss, digest, &mut self.salt, &mut self.s)?;
        signature.clear();
        signature.resize(self.keys.size(), 0);
        export_into(self.keys.gmp, &self.s.raw, signature)
    }

    /// False for a signature of another length than the modulus (RFC 8017
    /// §8.1.2/§8.2.2 step 1: Nettle takes an integer, so the octet string's
    /// length is checked here, as for libgcrypt).
    fn verify(&mut self, digest: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        if signature.len() != self.keys.size() {
            return Ok(false);
        }
        let gmp = self.keys.gmp;
        let s = self.kept.get(signature, |b| Ok(Int::from_be(gmp, b)))?;
        Ok(self.keys.verify_raw(self.pss, digest, s))
    }
}

/// A new key pair per call, into the same structs (Nettle frees nothing
/// between calls: the integers keep their storage).
struct Keygen<'a> {
    bits: u32,
    keys: Keys<'a>,
}

impl PkSession for Keygen<'_> {
    fn keygen(&mut self) -> Result<(), BackendError> {
        let k = &mut self.keys;
        let private = k.private.as_deref_mut().ok_or_else(|| bad("key generation needs a private key"))?;
        set_be(k.gmp, &mut k.public.e, E);
        // SAFETY: both initialised; e set, so e_size 0 keeps it (rsa.h).
        let ok = unsafe {
            (k.api.nettle_rsa_generate_keypair)(
                &mut *k.public,
                private,
                std::ptr::null_mut(),
                random,
                std::ptr::null_mut(),
                None,
                self.bits as c_uint,
                0,
            )
        };
        if ok != 1 {
            return Err(bad("Nettle's RSA key generation failed"));
        }
        Ok(())
    }

    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        Ok(export(self.keys.gmp, &self.keys.public.n, 0))
    }
}

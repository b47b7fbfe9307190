//! Nettle's public key in libhogweed (Nettle 3.x: eddsa.h, curve25519.h,
//! curve448.h): Ed25519 (`ed25519_sha512_sign`/`_verify`), Ed448
//! (`ed448_shake256_sign`/`_verify`), X25519 and X448 (`curve25519_mul`,
//! `curve448_mul`), all on raw keys, so the run's seeds are their private
//! keys; ECDSA and ECDH on P-256/P-384/P-521 (pk_ecc.rs) and RSA
//! PKCS#1 v1.5/PSS (rsa.rs) through GMP integers.

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptobench_core::{CellSpec, Operation};

use super::{pk_ecc, rsa, NettleBackend};
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::PkBackend;
use crate::backend::{Primitive, Support};

/// Hogweed's libraries, tried after the one beside the loaded libnettle.
#[cfg(target_os = "macos")]
pub const HOGWEED_LIBRARIES: &[&str] = &["libhogweed.6.dylib", "libhogweed.dylib"];
#[cfg(not(target_os = "macos"))]
pub const HOGWEED_LIBRARIES: &[&str] = &["libhogweed.so.6", "libhogweed.so"];

crate::native::api_table! {
    required {
        nettle_ed25519_sha512_public_key: fn(*mut u8, *const u8) -> ();
        nettle_ed25519_sha512_sign: fn(*const u8, *const u8, usize, *const u8, *mut u8) -> ();
        nettle_ed25519_sha512_verify: fn(*const u8, usize, *const u8, *const u8) -> std::ffi::c_int;
        nettle_ed448_shake256_public_key: fn(*mut u8, *const u8) -> ();
        nettle_ed448_shake256_sign: fn(*const u8, *const u8, usize, *const u8, *mut u8) -> ();
        nettle_ed448_shake256_verify: fn(*const u8, usize, *const u8, *const u8) -> std::ffi::c_int;
        nettle_curve25519_mul: fn(*mut u8, *const u8, *const u8) -> ();
        nettle_curve25519_mul_g: fn(*mut u8, *const u8) -> ();
        nettle_curve448_mul: fn(*mut u8, *const u8, *const u8) -> ();
        nettle_curve448_mul_g: fn(*mut u8, *const u8) -> ();
    }
    optional {}
}

/// Hogweed's table and the library it came from (kept alive beside it).
pub struct Hogweed {
    pub api: Api,
    /// GMP's integer calls (RSA, ECDSA, ECDH take `mpz_t`), or the first symbol missing.
    pub gmp: Result<super::gmp::Api, String>,
    /// ECDSA/ECDH on the NIST curves, or the first symbol missing.
    pub ecc: Result<super::ecc::Api, String>,
    /// RSA signatures and key generation, or the first symbol missing.
    pub rsa: Result<super::rsa::Api, String>,
    pub path: String,
    _library: libloading::Library,
}

/// Loads libhogweed: the file beside `nettle_path` first, then the usual names.
pub fn load_hogweed(nettle_path: &str) -> Result<Hogweed, String> {
    let beside = std::path::Path::new(nettle_path)
        .parent()
        .map(|d| {
            HOGWEED_LIBRARIES
                .iter()
                .map(|n| d.join(n).display().to_string())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let names: Vec<&str> = beside.iter().map(String::as_str).chain(HOGWEED_LIBRARIES.iter().copied()).collect();
    let loaded = crate::native::load(None, &names, "Nettle's libhogweed", "nettle").map_err(|e| e.to_string())?;
    // SAFETY: libhogweed exports these with the signatures of Nettle 3.x's headers; kept alive beside the table.
    let api = unsafe { Api::load(&loaded.library) }.map_err(|s| format!("{} lacks {s}", loaded.tried))?;
    // SAFETY: as above: gmp.h's signatures, resolved through libhogweed (which links libgmp),
    // and Nettle 3.5+'s ecc.h/ecdsa.h ones.
    let gmp = unsafe { super::gmp::Api::load(&loaded.library) }.map_err(|s| format!("{} lacks {s}", loaded.tried));
    // SAFETY: as above.
    let ecc = unsafe { super::ecc::Api::load(&loaded.library) }.map_err(|s| format!("{} lacks {s}", loaded.tried));
    // SAFETY: as above: rsa.h of Nettle 3.4+.
    let rsa = unsafe { super::rsa::Api::load(&loaded.library) }.map_err(|s| format!("{} lacks {s}", loaded.tried));
    Ok(Hogweed {
        api,
        gmp,
        ecc,
        rsa,
        path: loaded.tried,
        _library: loaded.library,
    })
}

/// Key, signature and point lengths of the curve.
fn sizes(alg: &PkAlgorithmSpec) -> (usize, usize) {
    match alg.openssl_name {
        "ED448" => (57, 114),
        "X448" => (56, 0),
        _ => (32, 64),
    }
}

fn is448(alg: &PkAlgorithmSpec) -> bool {
    matches!(alg.openssl_name, "ED448" | "X448")
}

fn exact(v: &[u8], n: usize, what: &str) -> Result<(), BackendError> {
    if v.len() == n {
        Ok(())
    } else {
        Err(BackendError::Invalid(format!("{what} of {} bytes, not {n}", v.len())))
    }
}

impl NettleBackend {
    fn hogweed(&self) -> Result<&Api, BackendError> {
        self.hogweed
            .as_ref()
            .map(|h| &h.api)
            .map_err(|e| BackendError::Unsupported(format!("public key ({e})")))
    }

    /// The RSA and GMP tables, or why RSA is not offered.
    fn rsa(&self) -> Result<(&super::rsa::Api, &super::gmp::Api), BackendError> {
        let h = self
            .hogweed
            .as_ref()
            .map_err(|e| BackendError::Unsupported(format!("public key ({e})")))?;
        let unsupported = |e: &String| BackendError::Unsupported(format!("RSA ({e})"));
        Ok((h.rsa.as_ref().map_err(unsupported)?, h.gmp.as_ref().map_err(unsupported)?))
    }

    /// The ECC and GMP tables, or why ECDSA and ECDH are not offered.
    fn ecc(&self) -> Result<(&super::ecc::Api, &super::gmp::Api), BackendError> {
        let h = self
            .hogweed
            .as_ref()
            .map_err(|e| BackendError::Unsupported(format!("public key ({e})")))?;
        let unsupported = |e: &String| BackendError::Unsupported(format!("ECDSA and ECDH ({e})"));
        Ok((h.ecc.as_ref().map_err(unsupported)?, h.gmp.as_ref().map_err(unsupported)?))
    }

    fn public_of(&self, alg: &PkAlgorithmSpec, private: &[u8]) -> Result<Vec<u8>, BackendError> {
        let api = self.hogweed()?;
        let (n, _) = sizes(alg);
        exact(private, n, "private key")?;
        let mut out = vec![0u8; n];
        // SAFETY: buffers of the curve's key length.
        unsafe {
            match (alg.kind, is448(alg)) {
                (PkKind::EdDsa, false) => (api.nettle_ed25519_sha512_public_key)(out.as_mut_ptr(), private.as_ptr()),
                (PkKind::EdDsa, true) => (api.nettle_ed448_shake256_public_key)(out.as_mut_ptr(), private.as_ptr()),
                (_, false) => (api.nettle_curve25519_mul_g)(out.as_mut_ptr(), private.as_ptr()),
                (_, true) => (api.nettle_curve448_mul_g)(out.as_mut_ptr(), private.as_ptr()),
            }
        }
        Ok(out)
    }
}

impl PkBackend for NettleBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        if let Err(e) = self.hogweed() {
            return Support::Unsupported(e.to_string());
        }
        match (alg.kind, alg.openssl_name) {
            (PkKind::EdDsa, _) | (PkKind::Ecdh, "X25519" | "X448") => Support::Supported,
            _ if pk_ecc::covers(alg) => match self.ecc() {
                Ok(_) => Support::Supported,
                Err(e) => Support::Unsupported(e.to_string()),
            },
            _ if rsa::covers(alg) => match self.rsa() {
                Ok(_) => Support::Supported,
                Err(e) => Support::Unsupported(e.to_string()),
            },
            (PkKind::RsaOaep, _) => Support::Unsupported(format!(
                "{}: Nettle has RSA-OAEP from 3.10 on (rsa_oaep_sha256_encrypt); cryptobench does not drive it yet",
                alg.id
            )),
            _ => Support::Unsupported(format!("{}: Nettle has no {}", alg.id, alg.openssl_name)),
        }
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        if rsa::covers(alg) {
            let (api, gmp) = self.rsa()?;
            return rsa::public_key(api, gmp, keys);
        }
        if pk_ecc::covers(alg) {
            let ecc = self.ecc()?;
            return pk_ecc::public_key(ecc.0, ecc.1, alg, keys);
        }
        self.public_of(alg, &keys.seed)
    }

    fn sign(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        if rsa::covers(alg) {
            let (api, gmp) = self.rsa()?;
            return rsa::sign(api, gmp, alg, keys, message);
        }
        if pk_ecc::covers(alg) {
            let ecc = self.ecc()?;
            return pk_ecc::sign(ecc.0, ecc.1, alg, keys, message);
        }
        let api = self.hogweed()?;
        let public = self.public_of(alg, &keys.seed)?; // checks the private key's length
        let mut sig = vec![0u8; sizes(alg).1];
        let f = if is448(alg) {
            api.nettle_ed448_shake256_sign
        } else {
            api.nettle_ed25519_sha512_sign
        };
        // SAFETY: key and signature buffers of the curve's lengths.
        unsafe {
            f(
                public.as_ptr(),
                keys.seed.as_ptr(),
                message.len(),
                message.as_ptr(),
                sig.as_mut_ptr(),
            )
        };
        Ok(sig)
    }

    fn verify(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        if rsa::covers(alg) {
            let (api, gmp) = self.rsa()?;
            return rsa::verify(api, gmp, alg, keys, message, signature);
        }
        if pk_ecc::covers(alg) {
            let ecc = self.ecc()?;
            return pk_ecc::verify(ecc.0, ecc.1, alg, keys, message, signature);
        }
        let api = self.hogweed()?;
        let (n, s) = sizes(alg);
        let public = if keys.seed.is_empty() {
            keys.public.clone()
        } else {
            self.public_of(alg, &keys.seed)?
        };
        if public.len() != n || signature.len() != s {
            return Ok(false);
        }
        let f = if is448(alg) {
            api.nettle_ed448_shake256_verify
        } else {
            api.nettle_ed25519_sha512_verify
        };
        // SAFETY: lengths checked above.
        Ok(unsafe { f(public.as_ptr(), message.len(), message.as_ptr(), signature.as_ptr()) } == 1)
    }

    fn derive(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        if pk_ecc::covers(alg) {
            let ecc = self.ecc()?;
            return pk_ecc::derive(ecc.0, ecc.1, alg, keys);
        }
        let api = self.hogweed()?;
        let peer = keys
            .peer
            .as_deref()
            .ok_or_else(|| BackendError::Invalid("key agreement needs a peer".into()))?;
        let theirs = if peer.public.is_empty() {
            self.public_of(alg, &peer.seed)?
        } else {
            peer.public.clone()
        };
        let (n, _) = sizes(alg);
        exact(&keys.seed, n, "private key")?;
        exact(&theirs, n, "public key")?;
        let mut out = vec![0u8; n];
        let f = if is448(alg) {
            api.nettle_curve448_mul
        } else {
            api.nettle_curve25519_mul
        };
        // SAFETY: lengths checked above.
        unsafe { f(out.as_mut_ptr(), keys.seed.as_ptr(), theirs.as_ptr()) };
        Ok(out)
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
        if rsa::covers(alg) {
            let (api, gmp) = self.rsa()?;
            return rsa::prepare(api, gmp, cell, alg, keys, message);
        }
        if pk_ecc::covers(alg) {
            let ecc = self.ecc()?;
            return pk_ecc::prepare(ecc.0, ecc.1, cell, alg, keys, message);
        }
        let api = self.hogweed()?;
        let b448 = is448(alg);
        Ok(match cell.operation {
            Operation::Sign | Operation::Verify => Box::new(EdDsa {
                sign: if b448 {
                    api.nettle_ed448_shake256_sign
                } else {
                    api.nettle_ed25519_sha512_sign
                },
                verify: if b448 {
                    api.nettle_ed448_shake256_verify
                } else {
                    api.nettle_ed25519_sha512_verify
                },
                signing: cell.operation == Operation::Sign,
                public: self.public_of(alg, &keys.seed)?,
                private: keys.seed.clone(),
                sig: self.sign(alg, keys, message)?,
            }),
            Operation::Keygen => Box::new(Keygen {
                public_key: if b448 {
                    api.nettle_ed448_shake256_public_key
                } else {
                    api.nettle_ed25519_sha512_public_key
                },
                private: vec![0u8; sizes(alg).0],
                public: vec![0u8; sizes(alg).0],
            }),
            Operation::Derive => {
                let peer = keys
                    .peer
                    .as_deref()
                    .ok_or_else(|| BackendError::Invalid("key agreement needs a peer".into()))?;
                let point = if peer.public.is_empty() {
                    self.public_of(alg, &peer.seed)?
                } else {
                    peer.public.clone()
                };
                let n = sizes(alg).0;
                exact(&keys.seed, n, "private key")?;
                exact(&point, n, "public key")?;
                Box::new(Mul {
                    mul: if b448 { api.nettle_curve448_mul } else { api.nettle_curve25519_mul },
                    scalar: keys.seed.clone(),
                    point,
                    out: vec![0u8; n],
                })
            }
            other => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, other.short()))),
        })
    }
}

type SignFn = unsafe extern "C" fn(*const u8, *const u8, usize, *const u8, *mut u8);
type VerifyFn = unsafe extern "C" fn(*const u8, usize, *const u8, *const u8) -> std::ffi::c_int;

struct EdDsa {
    sign: SignFn,
    verify: VerifyFn,
    signing: bool,
    public: Vec<u8>,
    private: Vec<u8>,
    sig: Vec<u8>,
}

impl Primitive for EdDsa {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: key and signature buffers of the curve's lengths (prepared).
            unsafe {
                if self.signing {
                    (self.sign)(
                        self.public.as_ptr(),
                        self.private.as_ptr(),
                        buf.len(),
                        buf.as_ptr(),
                        self.sig.as_mut_ptr(),
                    );
                } else if (self.verify)(self.public.as_ptr(), buf.len(), buf.as_ptr(), self.sig.as_ptr()) != 1 {
                    return Err(BackendError::Invalid("the prepared signature does not verify".into()));
                }
            }
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.sig.clone()))
    }
}

/// A random private key and its public key per call (Nettle has no key
/// generation call: the secret is random bytes, RFC 8032 §5.1.5).
struct Keygen {
    public_key: unsafe extern "C" fn(*mut u8, *const u8),
    private: Vec<u8>,
    public: Vec<u8>,
}

impl Primitive for Keygen {
    fn run(&mut self, iterations: u64, _buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            rand::RngCore::fill_bytes(&mut rand::rng(), &mut self.private);
            // SAFETY: buffers of the curve's key length.
            unsafe { (self.public_key)(self.public.as_mut_ptr(), self.private.as_ptr()) };
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.public.clone()))
    }
}

struct Mul {
    mul: unsafe extern "C" fn(*mut u8, *const u8, *const u8),
    scalar: Vec<u8>,
    point: Vec<u8>,
    out: Vec<u8>,
}

impl Primitive for Mul {
    fn run(&mut self, iterations: u64, _buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            // SAFETY: buffers of the curve's length.
            unsafe { (self.mul)(self.out.as_mut_ptr(), self.scalar.as_ptr(), self.point.as_ptr()) };
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out.clone()))
    }
}

//! Nettle's ECDSA and ECDH on the NIST curves as cryptobench calls them:
//! one-shot calls for the checks before timing, and the timed loops
//! (`ecdsa_sign`, `ecdsa_verify`, `ecdsa_generate_keypair`, and
//! `ecc_point_mul` with the x coordinate read out for ECDH). Keys are the
//! run's seeded EC private scalars and their uncompressed public points.

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptobench_core::{CellSpec, Operation};

use super::ecc::{Api, Curve, Signature, Value};
use super::gmp::{self, Int};
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::primitive::Primitive;

fn bad(what: &str) -> BackendError {
    BackendError::Invalid(what.to_string())
}

/// The curve of `alg` where Nettle has it in ecc-curve.h.
pub fn curve<'a>(api: &'a Api, gmp: &'a gmp::Api, alg: &'a PkAlgorithmSpec) -> Result<Curve<'a>, BackendError> {
    Curve::of(api, gmp, alg).ok_or_else(|| BackendError::Unsupported(format!("{}: not a NIST curve of Nettle's", alg.id)))
}

/// Whether `alg` is ECDSA or ECDH on a curve these calls cover.
pub fn covers(alg: &PkAlgorithmSpec) -> bool {
    matches!(alg.kind, PkKind::Ecdsa | PkKind::Ecdh) && matches!(alg.openssl_name, "P-256" | "P-384" | "P-521")
}

/// The public point of `keys`: computed from the private scalar where there is one.
fn public_point<'a>(c: &Curve<'a>, keys: &PkKeys) -> Result<Option<Box<Value<'a>>>, BackendError> {
    if keys.ec_private.is_empty() {
        return Ok(c.point(&keys.public));
    }
    let private = c.scalar(&keys.ec_private)?;
    Ok(Some(c.public_of(&private)))
}

pub fn public_key(api: &Api, gmp: &gmp::Api, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
    let c = curve(api, gmp, alg)?;
    let p = public_point(&c, keys)?.ok_or_else(|| bad("the public key is not an uncompressed point on the curve"))?;
    Ok(c.encode(&p))
}

pub fn sign(api: &Api, gmp: &gmp::Api, alg: &PkAlgorithmSpec, keys: &PkKeys, digest: &[u8]) -> Result<Vec<u8>, BackendError> {
    let c = curve(api, gmp, alg)?;
    let key = c.scalar(&keys.ec_private)?;
    let mut sig = c.new_signature();
    c.sign_into(&key, digest, &mut sig);
    Ok(sig.der(alg))
}

/// Ok(false) for a public key off the curve or a signature that is not strict DER, as for a wrong one.
pub fn verify(api: &Api, gmp: &gmp::Api, alg: &PkAlgorithmSpec, keys: &PkKeys, digest: &[u8], der: &[u8]) -> Result<bool, BackendError> {
    let c = curve(api, gmp, alg)?;
    let (Some(public), Some(sig)) = (public_point(&c, keys)?, c.signature_of_der(der)) else {
        return Ok(false);
    };
    Ok(c.verify_raw(&public, digest, &sig))
}

pub fn derive(api: &Api, gmp: &gmp::Api, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
    let c = curve(api, gmp, alg)?;
    let peer = keys.peer.as_deref().ok_or_else(|| bad("key agreement needs a peer"))?;
    let theirs = public_point(&c, peer)?.ok_or_else(|| bad("the peer's public key is not on the curve"))?;
    let ours = c.scalar(&keys.ec_private)?;
    let mut out = c.new_point();
    c.mul_into(&mut out, &ours, &theirs);
    let (mut x, mut y) = (Int::new(gmp), Int::new(gmp));
    c.x_into(&out, &mut x, &mut y);
    Ok(x.to_be(c.field_bytes()))
}

pub fn prepare<'a>(
    api: &'a Api,
    gmp: &'a gmp::Api,
    cell: &CellSpec,
    alg: &PkAlgorithmSpec,
    keys: &PkKeys,
    digest: &[u8],
) -> Result<Box<dyn Primitive + 'a>, BackendError> {
    // The catalog's own entry, which lives as long as the primitive.
    let alg = cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?;
    let c = curve(api, gmp, alg)?;
    Ok(match (alg.kind, cell.operation) {
        (PkKind::Ecdsa, Operation::Sign | Operation::Verify) => {
            let key = c.scalar(&keys.ec_private)?;
            let public = c.public_of(&key);
            let mut sig = c.new_signature();
            c.sign_into(&key, digest, &mut sig);
            Box::new(Ecdsa {
                signing: cell.operation == Operation::Sign,
                alg,
                key,
                public,
                sig,
                curve: c,
            })
        }
        (PkKind::Ecdsa, Operation::Keygen) => Box::new(Keygen {
            public: c.new_point(),
            private: c.new_scalar(),
            curve: c,
        }),
        (PkKind::Ecdh, Operation::Derive) => {
            let peer = keys.peer.as_deref().ok_or_else(|| bad("key agreement needs a peer"))?;
            Box::new(Ecdh {
                ours: c.scalar(&keys.ec_private)?,
                theirs: public_point(&c, peer)?.ok_or_else(|| bad("the peer's public key is not on the curve"))?,
                out: c.new_point(),
                x: Int::new(gmp),
                y: Int::new(gmp),
                curve: c,
            })
        }
        (_, other) => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, other.short()))),
    })
}

struct Ecdsa<'a> {
    signing: bool,
    alg: &'a PkAlgorithmSpec,
    key: Box<Value<'a>>,
    public: Box<Value<'a>>,
    sig: Box<Signature<'a>>,
    curve: Curve<'a>,
}

impl Primitive for Ecdsa<'_> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            if self.signing {
                self.curve.sign_into(&self.key, buf, &mut self.sig);
            } else if !self.curve.verify_raw(&self.public, buf, &self.sig) {
                return Err(bad("the prepared signature does not verify"));
            }
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.sig.der(self.alg)))
    }
}

struct Keygen<'a> {
    public: Box<Value<'a>>,
    private: Box<Value<'a>>,
    curve: Curve<'a>,
}

impl Primitive for Keygen<'_> {
    fn run(&mut self, iterations: u64, _buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            self.curve.generate_into(&mut self.public, &mut self.private);
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.curve.encode(&self.public)))
    }
}

struct Ecdh<'a> {
    ours: Box<Value<'a>>,
    theirs: Box<Value<'a>>,
    out: Box<Value<'a>>,
    x: Box<Int<'a>>,
    y: Box<Int<'a>>,
    curve: Curve<'a>,
}

impl Primitive for Ecdh<'_> {
    fn run(&mut self, iterations: u64, _buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            self.curve.mul_into(&mut self.out, &self.ours, &self.theirs);
            self.curve.x_into(&self.out, &mut self.x, &mut self.y);
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.x.to_be(self.curve.field_bytes())))
    }
}

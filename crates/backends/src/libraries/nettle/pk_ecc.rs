//! Nettle's ECDSA and ECDH on the NIST curves as cryptobench calls them
//! (`ecdsa_sign`, `ecdsa_verify`, `ecdsa_generate_keypair`, and
//! `ecc_point_mul` with the x coordinate read out for ECDH), on a
//! `struct ecc_scalar`/`ecc_point` set when the session is made. Keys are
//! the run's seeded EC private scalars and their uncompressed public points.

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::ecc::{Api, Curve, Signature, Value};
use super::gmp::{self, export_into, Int};
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{KeptInput, PkSession};

fn bad(what: &str) -> BackendError {
    BackendError::Invalid(what.to_string())
}

/// The curve of `alg` where Nettle has it in ecc-curve.h.
fn curve<'a>(api: &'a Api, gmp: &'a gmp::Api, alg: &'a PkAlgorithmSpec) -> Result<Curve<'a>, BackendError> {
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

/// The session of `op` on `keys`.
pub fn session<'a>(
    api: &'a Api,
    gmp: &'a gmp::Api,
    alg: &PkAlgorithmSpec,
    keys: &PkKeys,
    op: Operation,
) -> Result<Box<dyn PkSession + 'a>, BackendError> {
    // The catalog's own entry, which lives as long as the session.
    let alg = cryptobench_core::pk::get(alg.id).map_err(|e| BackendError::Invalid(e.to_string()))?;
    let c = curve(api, gmp, alg)?;
    Ok(match (alg.kind, op) {
        (PkKind::Ecdsa, Operation::Sign) => Box::new(Signing {
            key: c.scalar(&keys.ec_private)?,
            sig: c.new_signature(),
            curve: c,
        }),
        (PkKind::Ecdsa, Operation::Verify) => match public_point(&c, keys)? {
            Some(public) => Box::new(Verifying {
                public,
                sig: KeptInput::default(),
                curve: c,
            }),
            // A public key off the curve verifies nothing, as a wrong signature.
            None => Box::new(crate::pk::Rejecting),
        },
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

/// `ecdsa_sign` over the digest into a kept `struct dsa_signature`, written out as DER.
struct Signing<'a> {
    key: Box<Value<'a>>,
    sig: Box<Signature<'a>>,
    curve: Curve<'a>,
}

impl PkSession for Signing<'_> {
    fn sign(&mut self, digest: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        self.curve.sign_into(&self.key, digest, &mut self.sig);
        self.sig.der_into(self.curve.alg(), signature)
    }
}

/// `ecdsa_verify` of the digest against the signature read from DER once
/// (`KeptInput`: a signature that is not strict DER verifies nothing).
struct Verifying<'a> {
    public: Box<Value<'a>>,
    sig: KeptInput<Option<Box<Signature<'a>>>>,
    curve: Curve<'a>,
}

impl PkSession for Verifying<'_> {
    fn verify(&mut self, digest: &[u8], der: &[u8]) -> Result<bool, BackendError> {
        let curve = &self.curve;
        match self.sig.get(der, |d| Ok(curve.signature_of_der(d)))? {
            Some(sig) => Ok(curve.verify_raw(&self.public, digest, sig)),
            None => Ok(false),
        }
    }
}

/// `ecdsa_generate_keypair` into the same scalar and point each call.
struct Keygen<'a> {
    public: Box<Value<'a>>,
    private: Box<Value<'a>>,
    curve: Curve<'a>,
}

impl PkSession for Keygen<'_> {
    fn keygen(&mut self) -> Result<(), BackendError> {
        self.curve.generate_into(&mut self.public, &mut self.private);
        Ok(())
    }

    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        Ok(self.curve.encode(&self.public))
    }
}

/// `ecc_point_mul` and `ecc_point_get`, the x coordinate exported (`mpz_export`) as the secret.
struct Ecdh<'a> {
    ours: Box<Value<'a>>,
    theirs: Box<Value<'a>>,
    out: Box<Value<'a>>,
    x: Box<Int<'a>>,
    y: Box<Int<'a>>,
    curve: Curve<'a>,
}

impl PkSession for Ecdh<'_> {
    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        self.curve.mul_into(&mut self.out, &self.ours, &self.theirs);
        self.curve.x_into(&self.out, &mut self.x, &mut self.y);
        secret.clear();
        secret.resize(self.curve.field_bytes(), 0);
        export_into(self.curve.gmp, &self.x.raw, secret)
    }
}

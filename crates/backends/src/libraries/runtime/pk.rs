//! Public key in a runtime: the seeded keys sent to the driver (PKCS#8 and
//! SubjectPublicKeyInfo, pk_keys.rs), one-shot `pk` requests for the
//! verification (known answers, round trips, the cross-check with
//! RustCrypto, Wycheproof), and timed cells prepared in the driver like its
//! symmetric ones (forwarded.rs): `prepare` carries the private key as the
//! key, the public key as the IV and the signature or ciphertext a verify or
//! decaps call checks as the ciphertext, and the driver times its own loop.
//!
//! The one-shot request (docs/ARCHITECTURE.md, "The pipe protocol"):
//! `pk ALG OP PRIV PUB IN IN2` and those four blobs, OP one of `public`,
//! `sign` (IN: the message), `verify` (IN: message, IN2: signature; the
//! reply's byte is 1 or 0), `derive` (PUB: the peer's public key),
//! `encaps` (`ok CT SS`), `decaps` (IN: the ciphertext).

use std::cell::RefCell;

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::{CellSpec, Operation};

use super::forwarded::{CellRequest, RuntimePrimitive};
use super::pipe::Driver;
use super::pk_keys::{private_key, spki};
use super::RuntimeLibrary;
use crate::backend::{CellInputs, Sealed};
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::primitive::Primitive;
use crate::support::Support;

/// One `pk` request: the reply's blobs.
fn request(
    driver: &RefCell<Driver>,
    name: &'static str,
    alg: &str,
    op: &str,
    blobs: [&[u8]; 4],
    replies: usize,
) -> Result<Vec<Vec<u8>>, BackendError> {
    let mut d = driver.borrow_mut();
    let [a, b, c, e] = blobs;
    d.send(
        format_args!("pk {alg} {op} {} {} {} {}", a.len(), b.len(), c.len(), e.len()),
        &blobs,
    )?;
    let v = d.ok()?;
    (0..replies).map(|i| d.read_vec(v.get(i, name)?)).collect()
}

/// Keys of one algorithm in the driver's encodings, one request per call.
struct DriverPk<'a> {
    driver: &'a RefCell<Driver>,
    name: &'static str,
    alg: &'static str,
    private: Vec<u8>,
    /// The key's public key (verify) or the peer's (derive), SubjectPublicKeyInfo.
    public: Vec<u8>,
}

impl DriverPk<'_> {
    fn call(&self, op: &str, input: &[u8], input2: &[u8], replies: usize) -> Result<Vec<Vec<u8>>, BackendError> {
        request(
            self.driver,
            self.name,
            self.alg,
            op,
            [&self.private, &self.public, input, input2],
            replies,
        )
    }

    fn one(&self, op: &str, input: &[u8], input2: &[u8], out: &mut Vec<u8>) -> Result<(), BackendError> {
        let mut got = self.call(op, input, input2, 1)?;
        *out = got.pop().unwrap_or_default();
        Ok(())
    }
}

impl PkSession for DriverPk<'_> {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        self.one("sign", message, &[], signature)
    }

    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let got = self.call("verify", message, signature, 1)?;
        match got[0].as_slice() {
            [1] => Ok(true),
            [0] => Ok(false),
            other => Err(BackendError::Call {
                call: self.name,
                detail: format!("its verification answered {other:?}, not one byte 1 or 0"),
            }),
        }
    }

    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        self.one("derive", &[], &[], secret)
    }

    fn encapsulate(&mut self, ciphertext: &mut Vec<u8>, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let mut got = self.call("encaps", &[], &[], 2)?;
        *secret = got.pop().unwrap_or_default();
        *ciphertext = got.pop().unwrap_or_default();
        Ok(())
    }

    fn decapsulate(&mut self, ciphertext: &[u8], secret: &mut Vec<u8>) -> Result<(), BackendError> {
        self.one("decaps", ciphertext, &[], secret)
    }
}

impl RuntimeLibrary {
    /// The public key the driver computes from `keys`' private key.
    fn driver_public(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let private = private_key(alg, keys)?;
        let mut got = request(&self.driver, self.name(), alg.id, "public", [&private, &[], &[], &[]], 1)?;
        Ok(got.pop().unwrap_or_default())
    }

    /// The keys an operation sends: the private key, and the public key it
    /// checks with (verify) or agrees with (derive: the peer's).
    fn encoded(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<(Vec<u8>, Vec<u8>), BackendError> {
        let public = match op {
            Operation::Verify => spki(alg, keys, || self.driver_public(alg, keys))?,
            Operation::Derive => {
                let peer = keys
                    .peer
                    .as_deref()
                    .ok_or_else(|| BackendError::Invalid(format!("{}: the key has no peer to agree with", alg.id)))?;
                spki(alg, peer, || self.driver_public(alg, peer))?
            }
            _ => Vec::new(),
        };
        Ok((private_key(alg, keys)?, public))
    }
}

impl PkLibrary for RuntimeLibrary {
    /// What the driver lists; otherwise the reason it gives (`pk_not_offered`).
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        if self.algorithms.iter().any(|a| a == alg.id) {
            return Support::Supported;
        }
        Support::Unsupported(match self.pk_not_offered.get(alg.id) {
            Some(why) => format!("{}: {why}", alg.id),
            None => format!("{} (not offered by {})", alg.id, self.info.name),
        })
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        self.driver_public(alg, keys)
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        if let Support::Unsupported(why) = PkLibrary::pk_support(self, alg) {
            return Err(BackendError::Unsupported(why));
        }
        let (private, public) = self.encoded(alg, keys, op)?;
        Ok(Box::new(DriverPk {
            driver: &self.driver,
            name: self.name(),
            alg: alg.id,
            private,
            public,
        }))
    }

    /// Every runtime's ECDSA draws k from its random generator (Go's
    /// crypto/ecdsa mixes the key and digest in; OpenSSL under pyca and
    /// Node.js, SunEC under Java): none derives it by RFC 6979.
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        let has_ecdsa = cryptobench_core::pk::PK_CATALOG
            .iter()
            .any(|a| a.kind == PkKind::Ecdsa && self.algorithms.iter().any(|x| x == a.id));
        has_ecdsa.then_some(EcdsaNonce::Random)
    }

    fn forwarded_pk(
        &self,
        cell: &CellSpec,
        alg: &PkAlgorithmSpec,
        keys: &PkKeys,
        prepared: &[u8],
    ) -> Option<Result<Box<dyn Primitive + '_>, BackendError>> {
        Some(self.prepare_pk_in_driver(cell, alg, keys, prepared))
    }
}

impl RuntimeLibrary {
    fn prepare_pk_in_driver(
        &self,
        cell: &CellSpec,
        alg: &PkAlgorithmSpec,
        keys: &PkKeys,
        prepared: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        let (key, iv) = self.encoded(alg, keys, cell.operation)?;
        let inputs = CellInputs { key, iv, aad: Vec::new() };
        let sealed = Sealed {
            ciphertext: prepared.to_vec(),
            tag: Vec::new(),
        };
        let request = CellRequest {
            handle: self.take_handle(),
            cell,
            alg: alg.id,
            keyless: false,
            inputs: &inputs,
            size: cell.size,
            sealed: &sealed,
        };
        let warmup = self.warmup_for(alg.id, cell);
        Ok(Box::new(RuntimePrimitive::prepare(&self.driver, self.name(), request, warmup)?))
    }
}

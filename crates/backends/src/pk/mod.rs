//! Public key: what a library supplies ([`PkLibrary`]: support, its public
//! key, and a [`PkSession`] per operation on imported keys) and the one
//! blanket implementation of [`PkBackend`], the interface the checks and the
//! harness use: the one-shot calls of verification and `prepare_pk` (the
//! loop of crates/backends/src/timed/public_key.rs) are written once.
//!
//! Key material always comes from [`keys::PkKeys`]: the same seeded keys
//! for every library, so that deterministic outputs (RSA PKCS#1 v1.5 and
//! EdDSA signatures, derived secrets, ML-KEM/ML-DSA public keys from their
//! seeds) can be compared byte for byte.

pub mod agreement;
pub(crate) mod encoding;
pub mod keys;
pub mod known_answers;
pub mod session;
pub mod vectors;
pub mod verify;

use cryptobench_core::pk::PkAlgorithmSpec;
use cryptobench_core::{CellSpec, Operation};

use self::keys::PkKeys;
pub use self::session::{fill, KeptInput, PkSession};
use crate::error::BackendError;
use crate::primitive::Primitive;
use crate::support::Support;

fn not_offered<T>(what: &str) -> Result<T, BackendError> {
    Err(BackendError::Unsupported(what.to_string()))
}

/// A library's public-key side, as it is added: support, its view of a
/// public key, and sessions. Return `Some(self)` from
/// [`crate::library::Library::pk`] to offer it.
pub trait PkLibrary {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support;

    /// The public key of `keys` as the library computes it from the private
    /// key: raw (Ed25519/Ed448/X25519/X448, ML-KEM encapsulation key, ML-DSA
    /// and SLH-DSA public key), the uncompressed point (EC), the modulus (RSA).
    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let _ = keys;
        not_offered(&format!("{} public key", alg.id))
    }

    /// A session on `keys` ready for `op` (keys imported, contexts made).
    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError>;
}

/// A library's public-key operations as the checks and the harness call
/// them; every [`PkLibrary`] has it through the blanket implementation below.
pub trait PkBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support;
    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError>;
    fn sign(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError>;
    /// Ok(false) when the signature does not verify.
    fn verify(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8], signature: &[u8]) -> Result<bool, BackendError>;
    fn encrypt(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError>;
    /// Fails with [`BackendError::AuthenticationFailed`] when the ciphertext is rejected.
    fn decrypt(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, ciphertext: &[u8]) -> Result<Vec<u8>, BackendError>;
    fn derive(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError>;
    /// (ciphertext, shared secret) for `keys`' encapsulation key.
    fn encapsulate(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<(Vec<u8>, Vec<u8>), BackendError>;
    fn decapsulate(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, ciphertext: &[u8]) -> Result<Vec<u8>, BackendError>;
    /// Prepares a timed cell: the session made, the signature or ciphertext
    /// a verify, decrypt or decaps cell checks computed once. `message` is
    /// what sign and verify calls sign.
    fn prepare_pk(
        &self,
        cell: &CellSpec,
        alg: &PkAlgorithmSpec,
        keys: &PkKeys,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError>;
}

/// Names what an operation lacks, as the cell's `n/a` reads it.
fn in_alg<T>(alg: &PkAlgorithmSpec, r: Result<T, BackendError>) -> Result<T, BackendError> {
    r.map_err(|e| match e {
        BackendError::Unsupported(what) if !what.starts_with(alg.id) => BackendError::Unsupported(format!("{} {what}", alg.id)),
        other => other,
    })
}

impl<P: PkLibrary> PkBackend for P {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        PkLibrary::pk_support(self, alg)
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        PkLibrary::public_key(self, alg, keys)
    }

    fn sign(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let mut signature = Vec::new();
        in_alg(alg, self.pk_session(alg, keys, Operation::Sign)?.sign(message, &mut signature))?;
        Ok(signature)
    }

    fn verify(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        in_alg(alg, self.pk_session(alg, keys, Operation::Verify)?.verify(message, signature))
    }

    fn encrypt(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let mut out = Vec::new();
        in_alg(alg, self.pk_session(alg, keys, Operation::Encrypt)?.encrypt(message, &mut out))?;
        Ok(out)
    }

    fn decrypt(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, ciphertext: &[u8]) -> Result<Vec<u8>, BackendError> {
        let mut out = Vec::new();
        in_alg(alg, self.pk_session(alg, keys, Operation::Decrypt)?.decrypt(ciphertext, &mut out))?;
        Ok(out)
    }

    fn derive(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let mut out = Vec::new();
        in_alg(alg, self.pk_session(alg, keys, Operation::Derive)?.derive(&mut out))?;
        Ok(out)
    }

    fn encapsulate(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<(Vec<u8>, Vec<u8>), BackendError> {
        let (mut ct, mut ss) = (Vec::new(), Vec::new());
        in_alg(alg, self.pk_session(alg, keys, Operation::Encaps)?.encapsulate(&mut ct, &mut ss))?;
        Ok((ct, ss))
    }

    fn decapsulate(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, ciphertext: &[u8]) -> Result<Vec<u8>, BackendError> {
        let mut ss = Vec::new();
        in_alg(alg, self.pk_session(alg, keys, Operation::Decaps)?.decapsulate(ciphertext, &mut ss))?;
        Ok(ss)
    }

    fn prepare_pk(
        &self,
        cell: &CellSpec,
        alg: &PkAlgorithmSpec,
        keys: &PkKeys,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        if let Support::Unsupported(why) = PkLibrary::pk_support(self, alg) {
            return Err(BackendError::Unsupported(why));
        }
        let op = cell.operation;
        // What a verify, decrypt or decaps call checks: made once by this library.
        let prepared = match op {
            Operation::Verify => self.sign(alg, keys, message)?,
            Operation::Decrypt => self.encrypt(alg, keys, message)?,
            Operation::Decaps => self.encapsulate(alg, keys)?.0,
            Operation::Digest | Operation::Mac => return not_offered(&format!("{} {}", alg.id, op.short())),
            _ => Vec::new(),
        };
        let session = self.pk_session(alg, keys, op)?;
        crate::timed::public_key::prepare(op, session, prepared)
    }
}

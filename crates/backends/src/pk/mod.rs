//! Public key: what a library supplies ([`PkLibrary`]: support, its public
//! key, and a [`PkSession`] per operation on imported keys) and
//! [`PkBackend`], the interface the checks and the harness use, which every
//! `PkLibrary` has through the one blanket implementation in
//! crates/backends/src/library.rs: the one-shot calls of verification and
//! `prepare_pk` (the loop of crates/backends/src/timed/public_key.rs) are
//! written once.
//!
//! Key material always comes from [`keys::PkKeys`]: the same seeded keys
//! for every library, so that deterministic outputs (RSA PKCS#1 v1.5 and
//! EdDSA signatures, derived secrets, ML-KEM/ML-DSA public keys from their
//! seeds) can be compared byte for byte.

pub(crate) mod encoding;
pub mod keys;
pub mod session;

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec};
use cryptobench_core::{CellSpec, Operation};

use self::keys::PkKeys;
pub use self::session::{fill, KeptInput, PkSession, Rejecting, ECDSA_DER_KEPT};
use crate::error::BackendError;
use crate::named::NamedWork;
use crate::primitive::Primitive;
use crate::support::Support;

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
        Err(BackendError::Unsupported(format!("{} public key", alg.id)))
    }

    /// A session on `keys` ready for `op` (keys imported, contexts made).
    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError>;

    /// How the library's ECDSA signing draws its nonce, as its calls do it
    /// here (None: the library has no ECDSA in cryptobench). Every library
    /// declares it, since it changes the work of a signature: it is shown
    /// with every ECDSA figure (docs/METHOD.md, "Public key").
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce>;

    /// The library's own known answers for `alg`, checked with the published
    /// ones before anything is timed (liboqs: the first entry of its NIST KAT
    /// files against the hash it records, libraries/liboqs/kat.rs): how many
    /// passed, or what differed. None by default.
    fn own_known_answers(&self, alg: &PkAlgorithmSpec) -> Result<usize, String> {
        let _ = alg;
        Ok(0)
    }

    /// Work a timed `op` call of `alg` does beyond what every library's does
    /// (cryptobench's conversion of a library's r ‖ s to DER in every
    /// signature), or short of it (an input kept converted in the library's
    /// own form, [`KeptInput`], where a library taking bytes parses them in
    /// every call): the named exception, shown with the cell and as `yes*`
    /// in `algorithms` (docs/METHOD.md lists them all). Declared per
    /// algorithm and operation rather than by a session, since `algorithms`
    /// names it without keys (an RSA key takes seconds to make). None by
    /// default.
    fn extra_work(&self, alg: &PkAlgorithmSpec, op: Operation) -> Option<&'static str> {
        let _ = (alg, op);
        None
    }

    /// A library whose calls run in another process (a language runtime's
    /// driver) times the cell's loop there and forwards it here, like its
    /// symmetric cells ([`crate::library::Library::forwarded`]); `prepared`
    /// is the signature or ciphertext a verify or decaps call checks. Every
    /// other library returns None and is timed by
    /// crates/backends/src/timed/public_key.rs.
    fn forwarded_pk(
        &self,
        cell: &CellSpec,
        alg: &PkAlgorithmSpec,
        keys: &PkKeys,
        prepared: &[u8],
    ) -> Option<Result<Box<dyn Primitive + '_>, BackendError>> {
        let _ = (cell, alg, keys, prepared);
        None
    }
}

/// A library's public-key operations as the checks and the harness call
/// them; every [`PkLibrary`] has it through the blanket implementation of
/// crates/backends/src/library.rs.
pub trait PkBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support;
    /// How the library's ECDSA draws its nonce ([`PkLibrary::ecdsa_nonce`]).
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce>;
    /// [`PkLibrary::own_known_answers`].
    fn own_known_answers(&self, alg: &PkAlgorithmSpec) -> Result<usize, String>;
    /// What [`PkLibrary::extra_work`] names for `alg`'s operations, those
    /// with the same work together.
    fn extra_work(&self, alg: &PkAlgorithmSpec) -> Vec<NamedWork>;
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

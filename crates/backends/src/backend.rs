//! The interface a library has once it is added ([`Backend`]), the
//! inputs of a cell and the checks of lengths and modes every library
//! shares.

use cryptobench_core::cell::DEFAULT_AAD_LEN;
use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec};

use crate::error::BackendError;
use crate::primitive::Primitive;
use crate::support::Support;

/// Refuses a key or IV whose length is not the catalog's for `alg`, before
/// any library sees it (a library may read past a short buffer).
pub fn check_key_and_iv(alg: &AlgorithmSpec, key: &[u8], iv: &[u8]) -> Result<(), BackendError> {
    if key.len() != alg.key_len || iv.len() != alg.iv_len {
        return Err(BackendError::Invalid(format!(
            "{} takes a {}-byte key and a {}-byte IV, got {} and {}",
            alg.id,
            alg.key_len,
            alg.iv_len,
            key.len(),
            iv.len()
        )));
    }
    Ok(())
}

/// [`check_key_and_iv`] for a one-shot call, and refuses a message whose
/// length the mode cannot take.
pub fn check_once(alg: &AlgorithmSpec, call: &AeadCall) -> Result<(), BackendError> {
    check_key_and_iv(alg, call.key, call.iv)?;
    match alg.size_problem(call.data.len()) {
        Some(problem) => Err(BackendError::Invalid(problem)),
        None => Ok(()),
    }
}

/// Refuses a cell whose mode the algorithm cannot take in any library
/// (e.g. CCM, SIV and GCM-SIV cannot stream updates).
pub fn check_mode(alg: &AlgorithmSpec, cell: &CellSpec) -> Result<(), BackendError> {
    match alg.mode_problem(cell.mode) {
        Some(problem) => Err(BackendError::Unsupported(problem)),
        None => Ok(()),
    }
}

/// What [`Backend::seal_with`] says by default for lengths other than the catalog's.
pub fn catalog_lengths_only(alg: &AlgorithmSpec) -> BackendError {
    BackendError::Unsupported(format!(
        "{} with IV or tag lengths other than the catalog's {} and {} bytes (this backend is driven with the catalog's only)",
        alg.id, alg.iv_len, alg.tag_len
    ))
}

/// Ciphertext and (AEAD) tag of a one-shot encryption.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    pub ciphertext: Vec<u8>,
    pub tag: Vec<u8>,
}

/// One bit of a prepared AEAD message flipped, for the tamper checks of the
/// timed path ([`Backend::prepare_tampered`]): its tag or its ciphertext.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tamper {
    Tag,
    Ciphertext,
}

impl Tamper {
    /// Flips the lowest bit of the first byte of the part this names in
    /// `sealed` (an empty part stays as it is).
    pub fn apply(self, sealed: &mut Sealed) {
        let part = match self {
            Tamper::Tag => &mut sealed.tag,
            Tamper::Ciphertext => &mut sealed.ciphertext,
        };
        if let Some(b) = part.first_mut() {
            *b ^= 1;
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Tamper::Tag => "tag",
            Tamper::Ciphertext => "ciphertext",
        }
    }
}

/// The inputs of one AEAD call: key, IV (nonce), additional data and the
/// data itself (the plaintext to seal or the ciphertext to open).
#[derive(Debug, Clone, Copy)]
pub struct AeadCall<'a> {
    pub key: &'a [u8],
    pub iv: &'a [u8],
    pub aad: &'a [u8],
    pub data: &'a [u8],
}

/// Key material a cell is prepared with (random in timed cells).
#[derive(Debug, Clone)]
pub struct CellInputs {
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
}

impl CellInputs {
    /// An AEAD call on `data` under these inputs.
    pub fn call<'a>(&'a self, data: &'a [u8]) -> AeadCall<'a> {
        AeadCall {
            key: &self.key,
            iv: &self.iv,
            aad: &self.aad,
            data,
        }
    }
}

/// A crypto library as the worker sees it: the one interface the checks
/// (crates/backends/src/checks/) and the harness use. Every library gets it
/// from the blanket implementation over [`crate::library::Library`]
/// (crates/backends/src/library.rs): support, the one-shot calls and
/// `prepare` are written once, from the library's sessions.
///
/// The one-shot calls serve verification (known answers, round trips,
/// tamper checks); [`Backend::prepare`] builds the timed operation, doing
/// everything that is not part of the measured work (symbol lookup, cipher
/// fetch, key schedule) outside the timing.
pub trait Backend {
    fn info(&self) -> BackendInfo;
    fn support(&self, alg: &AlgorithmSpec) -> Support;
    /// One-shot encryption of `call.data` (IV of the catalog's length).
    fn encrypt_once(&self, alg: &AlgorithmSpec, call: AeadCall) -> Result<Sealed, BackendError>;
    /// One-shot decryption of `call.data`; fails with
    /// [`BackendError::AuthenticationFailed`] when an AEAD tag does not verify.
    fn decrypt_once(&self, alg: &AlgorithmSpec, call: AeadCall, tag: &[u8]) -> Result<Vec<u8>, BackendError>;
    fn digest_once(&self, alg: &AlgorithmSpec, message: &[u8]) -> Result<Vec<u8>, BackendError>;
    /// One MAC of `message` under `key`, through a path independent of the timed one where
    /// the library has two. HMAC takes keys of any length; the others their own.
    fn mac_once(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError>;
    /// One-shot AEAD encryption of `call.data` with an IV (nonce) and tag length of the
    /// vector's choosing (test vectors: GCM IVs of any length, tags of 4 to 16 bytes, CCM
    /// nonces of 7 to 13 bytes). A length the library refuses is
    /// [`BackendError::Unsupported`], naming it.
    fn seal_with(&self, alg: &AlgorithmSpec, call: AeadCall, tag_len: usize) -> Result<Sealed, BackendError>;
    /// The decryption of [`Backend::seal_with`] (`call.data` is the ciphertext); the
    /// tag's length is the vector's.
    fn open_with(&self, alg: &AlgorithmSpec, call: AeadCall, tag: &[u8]) -> Result<Vec<u8>, BackendError>;
    /// Prepares a cell. `message` is the buffer content the cell starts from;
    /// decrypting cells encrypt it once here so that every timed call
    /// decrypts (and authenticates) a genuine message.
    fn prepare(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError>;
    /// As [`Backend::prepare`], for a `message` decryption cell of an AEAD,
    /// over a prepared message with one bit flipped (`tamper`): every timed
    /// call must then fail with [`BackendError::AuthenticationFailed`], or the
    /// timed `open` does not verify what it decrypts (the tamper test).
    fn prepare_tampered(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
        tamper: Tamper,
    ) -> Result<Box<dyn Primitive + '_>, BackendError>;
    /// The work `message` cells of `alg` do beyond what their mode names
    /// (named exceptions, docs/METHOD.md), for `algorithms` and the
    /// worker's hello; empty where there is none or `alg` is not supported.
    fn extra_work(&self, alg: &AlgorithmSpec) -> Vec<crate::named::NamedWork>;
    /// The library's public-key operations (crates/backends/src/pk/), where it has any.
    fn pk(&self) -> Option<&dyn crate::pk::PkBackend>;
}

/// Deterministic filler so failures reproduce (xorshift64*, Vigna 2016).
pub fn pseudo_random_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

/// Inputs of the right lengths for an algorithm, derived from a seed.
pub fn inputs_for(alg: &AlgorithmSpec, seed: u64) -> CellInputs {
    CellInputs {
        key: pseudo_random_bytes(seed, alg.key_len),
        iv: pseudo_random_bytes(seed ^ 0x5555, alg.iv_len),
        aad: if alg.class == AlgorithmClass::Aead {
            pseudo_random_bytes(seed ^ 0xaaaa, DEFAULT_AAD_LEN)
        } else {
            Vec::new()
        },
    }
}

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmSpec, CellSpec};

use crate::error::BackendError;

/// Whether a backend can do an algorithm, and if not, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Support {
    Supported,
    Unsupported(String),
}

impl From<Result<(), BackendError>> for Support {
    /// Whether looking the algorithm up succeeded; the error says why not.
    fn from(found: Result<(), BackendError>) -> Support {
        match found {
            Ok(()) => Support::Supported,
            Err(e) => Support::Unsupported(e.to_string()),
        }
    }
}

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

/// Refuses a cell whose mode the algorithm cannot take in any library
/// (e.g. CCM, SIV and GCM-SIV cannot stream updates).
pub fn check_mode(alg: &AlgorithmSpec, cell: &CellSpec) -> Result<(), BackendError> {
    match alg.mode_problem(cell.mode) {
        Some(problem) => Err(BackendError::Unsupported(problem)),
        None => Ok(()),
    }
}

/// What the default [`Backend::seal_with`] says for lengths other than the catalog's.
pub fn catalog_lengths_only(alg: &AlgorithmSpec, iv_len: usize, tag_len: usize) -> BackendError {
    let _ = (iv_len, tag_len);
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

/// Key material a cell is prepared with (random in timed cells).
#[derive(Debug, Clone)]
pub struct CellInputs {
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
}

/// A crypto library as cryptobench sees it.
///
/// The one-shot calls serve verification (known answers, round trips,
/// tamper checks); [`Backend::prepare`] builds the timed operation, doing
/// everything that is not part of the measured work (symbol lookup, cipher
/// fetch, key schedule) outside the timing.
pub trait Backend {
    fn info(&self) -> BackendInfo;
    fn support(&self, alg: &AlgorithmSpec) -> Support;
    fn encrypt_once(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Sealed, BackendError>;
    /// Fails with [`BackendError::AuthenticationFailed`] when an AEAD tag does not verify.
    fn decrypt_once(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
    ) -> Result<Vec<u8>, BackendError>;
    fn digest_once(&self, alg: &AlgorithmSpec, message: &[u8]) -> Result<Vec<u8>, BackendError>;
    /// One MAC of `message` under `key`, through a path independent of the timed one where
    /// the library has two. HMAC takes keys of any length; the others their own.
    fn mac_once(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let _ = (key, message);
        Err(BackendError::Unsupported(format!("{} (this backend computes no MACs)", alg.id)))
    }
    /// One-shot AEAD encryption with an IV (nonce) and tag length of the vector's choosing
    /// (test vectors: GCM IVs of any length, tags of 4 to 16 bytes, CCM nonces of 7 to 13
    /// bytes). A length the library refuses is [`BackendError::Unsupported`], naming it.
    /// The default takes the catalog's lengths only.
    fn seal_with(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        tag_len: usize,
    ) -> Result<Sealed, BackendError> {
        if iv.len() == alg.iv_len && tag_len == alg.tag_len {
            self.encrypt_once(alg, key, iv, aad, plaintext)
        } else {
            Err(catalog_lengths_only(alg, iv.len(), tag_len))
        }
    }
    /// The decryption of [`Backend::seal_with`]; the tag's length is the vector's.
    fn open_with(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
    ) -> Result<Vec<u8>, BackendError> {
        if iv.len() == alg.iv_len && tag.len() == alg.tag_len {
            self.decrypt_once(alg, key, iv, aad, ciphertext, tag)
        } else {
            Err(catalog_lengths_only(alg, iv.len(), tag.len()))
        }
    }
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
    /// The library's public-key operations (crates/backends/src/pk_traits.rs), where it has any.
    fn pk(&self) -> Option<&dyn crate::pk_traits::PkBackend> {
        None
    }
}

/// One prepared operation. The loop lives inside `run`, so dynamic dispatch
/// costs once per sample, not once per call.
pub trait Primitive {
    /// Performs the operation `iterations` times over `buf` (in place, or
    /// into `buf` from the prepared ciphertext when decrypting messages).
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError>;
    /// The digest or tag of the last call, where the operation has one.
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(None)
    }
    /// Which code path ran, where the library says so (e.g. "aesni", "soft").
    fn implementation(&self) -> Option<String> {
        None
    }
    /// The last `run`'s wall time and, where known, CPU time in nanoseconds,
    /// as measured inside the code that ran the loop. Runtime backends time
    /// their loop inside the runtime (the pipe to the driver is then no part
    /// of a sample); the harness uses this instead of its own clock when present.
    fn inside_timing(&self) -> Option<(u64, Option<u64>)> {
        None
    }
    /// The least warm-up, in nanoseconds, before this primitive's samples are
    /// representative: a JIT compiler must first compile the loop and the
    /// library's hot methods. The harness warms up at least this long.
    fn min_warmup_ns(&self) -> u64 {
        0
    }
}

/// Implements [`Backend::encrypt_once`] and [`Backend::decrypt_once`] inside
/// an `impl Backend` for backends whose one-shot path is a single
/// `self.crypt_once(alg, encrypt, key, iv, aad, input, tag)`.
macro_rules! one_shot_through_crypt_once {
    () => {
        fn encrypt_once(
            &self,
            alg: &cryptobench_core::AlgorithmSpec,
            key: &[u8],
            iv: &[u8],
            aad: &[u8],
            plaintext: &[u8],
        ) -> Result<$crate::Sealed, $crate::BackendError> {
            let mut tag = vec![0u8; alg.tag_len];
            let ciphertext = self.crypt_once(alg, true, key, iv, aad, plaintext, &mut tag)?;
            Ok($crate::Sealed { ciphertext, tag })
        }

        fn decrypt_once(
            &self,
            alg: &cryptobench_core::AlgorithmSpec,
            key: &[u8],
            iv: &[u8],
            aad: &[u8],
            ciphertext: &[u8],
            tag: &[u8],
        ) -> Result<Vec<u8>, $crate::BackendError> {
            let mut tag = tag.to_vec();
            self.crypt_once(alg, false, key, iv, aad, ciphertext, &mut tag)
        }
    };
}
pub(crate) use one_shot_through_crypt_once;

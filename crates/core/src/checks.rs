//! What `cryptobench verify` asks a worker to check and what the worker
//! reports back: the job's [`VerifyJob`] and one [`CheckReport`] per
//! backend, algorithm and kind of check. Comparing backends with each other
//! happens in the orchestrator, from the fingerprints reported here.

use serde::{Deserialize, Serialize};

/// The `verify` part of a job.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyJob {
    /// Catalog ids to check.
    pub algorithms: Vec<String>,
    /// Message lengths for cross-backend agreement (those an algorithm cannot take are left out).
    pub lengths: Vec<usize>,
    /// Derives keys, IVs, AAD, messages and chunk sizes, the same in every worker.
    pub seed: u64,
    /// Test vectors from a file (e.g. Project Wycheproof), already mapped to catalog ids.
    pub vectors: Vec<VectorCase>,
    /// Public-key test vectors (crates/backends/src/pk_vectors.rs); an
    /// addition with a default, so jobs without it read as before.
    #[serde(default)]
    pub pk_vectors: Vec<PkVectorCase>,
}

/// What a public-key vector checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PkVectorKind {
    /// `sig` over `msg` must verify (valid) or be rejected (invalid) under the public key.
    Verify,
    /// The private key and the peer's public key must derive `shared` (valid) or fail (invalid).
    Derive,
    /// Decapsulating `ct` with the key of `private` (a seed) must give `shared`.
    Decaps,
    /// The public key computed from the seed in `private` must be `public`.
    Keygen,
}

/// One public-key test vector; byte fields are hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PkVectorCase {
    /// Where it comes from, e.g. "ed25519_test.json tcId 17".
    pub source: String,
    /// Public-key catalog id; None when no catalog algorithm has these parameters.
    pub algorithm: Option<String>,
    /// Why no backend can run it, if so.
    pub skip: Option<String>,
    pub kind: PkVectorKind,
    /// Raw public key (EdDSA, X25519/X448 peer, ML-DSA) or uncompressed EC point.
    #[serde(default)]
    pub public: String,
    /// SubjectPublicKeyInfo DER (RSA, ECDSA, ECDH peer).
    #[serde(default)]
    pub public_der: String,
    /// Private key: EC scalar, X25519/X448 scalar, ML-KEM or ML-DSA seed.
    #[serde(default)]
    pub private: String,
    /// What is signed (the digest of the vector's message for RSA and ECDSA).
    #[serde(default)]
    pub msg: String,
    #[serde(default)]
    pub sig: String,
    #[serde(default)]
    pub ct: String,
    #[serde(default)]
    pub shared: String,
    pub expect: Expectation,
    /// Wycheproof's flags of the case (e.g. "UnnamedCurve").
    #[serde(default)]
    pub flags: Vec<String>,
}

/// What a vector expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Expectation {
    /// Encryption must give `ct` (and `tag`), decryption `msg`.
    Valid,
    /// Decryption must be rejected.
    Invalid,
    /// Either outcome is allowed (Wycheproof "acceptable"); counted as skipped.
    Acceptable,
}

/// One test vector; byte fields are hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VectorCase {
    /// Where it comes from, e.g. "aes_gcm_test.json tcId 17".
    pub source: String,
    /// Catalog id; None when no catalog algorithm has these parameters (then `skip` says why).
    pub algorithm: Option<String>,
    /// Why no backend can run it (parameters outside the catalog), if so.
    pub skip: Option<String>,
    pub key: String,
    pub iv: String,
    pub aad: String,
    pub msg: String,
    pub ct: String,
    pub tag: String,
    /// PKCS#7 padding is applied and checked around the unpadded cipher (aes_cbc_pkcs5).
    #[serde(default)]
    pub pkcs7: bool,
    pub expect: Expectation,
}

/// Which check a report is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckKind {
    /// Published known answers, round trips, tamper rejection (as before timing).
    Known,
    /// One-shot output for the same inputs, compared across backends (fingerprints).
    Agreement,
    /// The streaming API fed random chunks gives the one-shot result.
    Chunked,
    /// Test vectors from a file.
    Vectors,
}

impl CheckKind {
    pub fn name(self) -> &'static str {
        match self {
            CheckKind::Known => "known answers",
            CheckKind::Agreement => "agreement",
            CheckKind::Chunked => "chunked",
            CheckKind::Vectors => "vectors",
        }
    }
}

/// The outcome of one kind of check for one algorithm on one backend.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckReport {
    pub algorithm: String,
    pub kind: Option<CheckKind>,
    pub passed: usize,
    /// One line per failed case.
    pub failures: Vec<String>,
    pub skipped: usize,
    /// Why cases were skipped (distinct reasons).
    pub skip_reasons: Vec<String>,
    /// Case name → SHA-256 of the output (ciphertext ‖ tag, or digest), for cross-backend comparison.
    pub fingerprints: Vec<(String, String)>,
}

impl CheckReport {
    pub fn new(algorithm: &str, kind: CheckKind) -> CheckReport {
        CheckReport {
            algorithm: algorithm.to_string(),
            kind: Some(kind),
            ..CheckReport::default()
        }
    }

    pub fn skip(&mut self, reason: impl Into<String>) {
        let reason = reason.into();
        self.skipped += 1;
        if !self.skip_reasons.contains(&reason) {
            self.skip_reasons.push(reason);
        }
    }

    pub fn fail(&mut self, reason: impl Into<String>) {
        self.failures.push(reason.into());
    }
}

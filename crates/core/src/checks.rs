//! What `cryptobench verify` asks a worker to check and what the worker
//! reports back: the job's [`VerifyJob`] and one [`CheckReport`] per
//! backend, algorithm and kind of check; all one backend reported
//! ([`BackendChecks`]) and its [`tally`]. Comparing backends with each other
//! happens in the orchestrator, from the fingerprints reported here.

use serde::{Deserialize, Serialize};

use crate::defect::Defect;
use crate::result::{BackendInfo, Verification, VerificationOutcome};

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
    /// The case's comment in the file ("the encoded s was replaced by s + 2^448, …").
    #[serde(default)]
    pub comment: String,
    /// The file's notes on the case's flags ("SignatureMalleability: … See RFC 8032,
    /// Section 5.2.7"): the rule the case encodes, quoted where it finds a defect.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// Skipped cases that share a reason.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkipGroup {
    pub reason: String,
    pub count: usize,
    /// IV (nonce) lengths in bytes of the cases, sorted, where the reason is about lengths.
    #[serde(default)]
    pub iv_lengths: Vec<usize>,
    /// Tag lengths in bytes, likewise.
    #[serde(default)]
    pub tag_lengths: Vec<usize>,
}

impl SkipGroup {
    /// "120 cases: the reason (IV 1, 8, 128 B; tag 4, 8, 12 B)".
    pub fn describe(&self) -> String {
        let list = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
        let mut lengths = Vec::new();
        if !self.iv_lengths.is_empty() {
            lengths.push(format!("IV {} B", list(&self.iv_lengths)));
        }
        if !self.tag_lengths.is_empty() {
            lengths.push(format!("tag {} B", list(&self.tag_lengths)));
        }
        let lengths = if lengths.is_empty() {
            String::new()
        } else {
            format!(" ({})", lengths.join("; "))
        };
        format!(
            "{} {}: {}{lengths}",
            self.count,
            if self.count == 1 { "case" } else { "cases" },
            self.reason
        )
    }
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
    /// The case's comment in the file, where it has one.
    #[serde(default)]
    pub comment: String,
    /// The file's notes on the case's flags (Wycheproof), quoted where it finds a defect.
    #[serde(default)]
    pub notes: Vec<String>,
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
    /// The skips grouped by reason, with their count and the IV and tag
    /// lengths they cover (an addition: older workers send none).
    #[serde(default)]
    pub skip_groups: Vec<SkipGroup>,
    /// Case name → SHA-256 of the output (ciphertext ‖ tag, or digest), for cross-backend comparison.
    pub fingerprints: Vec<(String, String)>,
    /// Cases where the library breaks the rule a vector encodes
    /// (crates/core/src/defect.rs); an addition: older workers send none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defects: Vec<Defect>,
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
        self.skip_with(reason, None);
    }

    /// Counts a skipped case under its reason, with the (IV, tag) lengths in bytes of the
    /// case where they are what the reason is about.
    pub fn skip_with(&mut self, reason: impl Into<String>, lengths: Option<(usize, usize)>) {
        let reason = reason.into();
        self.skipped += 1;
        if !self.skip_reasons.contains(&reason) {
            self.skip_reasons.push(reason.clone());
        }
        let group = match self.skip_groups.iter_mut().position(|g| g.reason == reason) {
            Some(i) => &mut self.skip_groups[i],
            None => {
                self.skip_groups.push(SkipGroup {
                    reason,
                    ..SkipGroup::default()
                });
                self.skip_groups.last_mut().expect("just pushed")
            }
        };
        group.count += 1;
        if let Some((iv, tag)) = lengths {
            for (list, n) in [(&mut group.iv_lengths, iv), (&mut group.tag_lengths, tag)] {
                if let Err(at) = list.binary_search(&n) {
                    list.insert(at, n);
                }
            }
        }
    }

    pub fn fail(&mut self, reason: impl Into<String>) {
        self.failures.push(reason.into());
    }

    /// Counts a case whose answer shows a library defect.
    pub fn defect(&mut self, defect: Defect) {
        self.defects.push(defect);
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Availability {
    Available,
    Unavailable { reason: String },
    Crashed { reason: String },
}

/// Everything one backend's worker reported.
#[derive(Debug, Clone, Serialize)]
pub struct BackendChecks {
    pub configuration: String,
    #[serde(flatten)]
    pub availability: Availability,
    pub backend: Option<BackendInfo>,
    pub verifications: Vec<Verification>,
    pub reports: Vec<CheckReport>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    /// Library defects found (each is also a check that was made, not a pass or a failure).
    pub defects: usize,
}

/// The tally of one backend and algorithm over every kind of check.
pub fn tally(checks: &BackendChecks, algorithm: &str) -> Tally {
    let mut t = Tally::default();
    for v in checks.verifications.iter().filter(|v| v.algorithm == algorithm) {
        match &v.outcome {
            VerificationOutcome::Passed { checks } => t.passed += checks,
            VerificationOutcome::Failed { .. } => t.failed += 1,
            VerificationOutcome::Unsupported { .. } => {}
            VerificationOutcome::Defect { checks, defects } => {
                t.passed += checks;
                t.defects += defects.len();
            }
        }
    }
    for r in checks.reports.iter().filter(|r| r.algorithm == algorithm) {
        t.passed += r.passed;
        t.failed += r.failures.len();
        t.skipped += r.skipped;
        t.defects += r.defects.len();
    }
    t
}

/// Every defect one backend reported: those found before timing, then those of its vectors.
pub fn defects_of(checks: &BackendChecks) -> Vec<&Defect> {
    let before = checks.verifications.iter().flat_map(|v| match &v.outcome {
        VerificationOutcome::Defect { defects, .. } => defects.as_slice(),
        _ => &[],
    });
    before.chain(checks.reports.iter().flat_map(|r| r.defects.iter())).collect()
}

/// The algorithms a backend checked (supported ones), in the order reported.
pub fn algorithms_of(checks: &BackendChecks) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in &checks.verifications {
        if !matches!(v.outcome, VerificationOutcome::Unsupported { .. }) && !out.contains(&v.algorithm) {
            out.push(v.algorithm.clone());
        }
    }
    for r in &checks.reports {
        if !out.contains(&r.algorithm) {
            out.push(r.algorithm.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_group_by_reason_with_their_lengths() {
        let mut r = CheckReport::new("aes-128-gcm", CheckKind::Vectors);
        r.skip_with("the IV length", Some((8, 16)));
        r.skip_with("the IV length", Some((1, 16)));
        r.skip_with("the IV length", Some((8, 4)));
        r.skip("acceptable");
        assert_eq!(r.skipped, 4);
        assert_eq!(r.skip_groups.len(), 2);
        assert_eq!(r.skip_groups[0].describe(), "3 cases: the IV length (IV 1, 8 B; tag 4, 16 B)");
        assert_eq!(r.skip_groups[1].describe(), "1 case: acceptable");
    }
}

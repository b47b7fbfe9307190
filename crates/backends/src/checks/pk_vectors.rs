//! Public-key test vectors in Project Wycheproof's JSON format
//! (<https://github.com/C2SP/wycheproof>, `testvectors_v1`): ECDSA (DER
//! signatures), EdDSA, XDH, RSASSA-PKCS1-v1_5 and RSASSA-PSS verification,
//! ECDH, ML-KEM decapsulation and key generation from a seed, ML-DSA
//! verification. Cases are mapped to public-key catalog ids; parameters no
//! catalog algorithm has (another hash, salt length or curve, a P1363
//! signature, an ML-DSA context string) are counted as skipped, with the reason.

use cryptobench_core::checks::{CheckReport, Expectation, PkVectorCase, PkVectorKind};
use cryptobench_core::pk::{self, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;
use serde_json::Value;
use sha2::Digest;

use crate::backend::Backend;
use crate::checks::defects::{record_wrong, Library, VectorCaseRef, Wrong};
use crate::checks::pk_verify::pk_of;
use crate::checks::vectors::{comment_of, notes_of, report_for};
use crate::error::BackendError;
use crate::pk::keys::ec_keys_from_scalar;
use crate::pk::keys::PkKeys;

/// The Wycheproof `algorithm` values this reader understands.
pub const PK_FILE_ALGORITHMS: &[&str] = &[
    "ECDSA",
    "EDDSA",
    "XDH",
    "ECDH",
    "RSASSA-PKCS1-v1_5",
    "RSASSA-PSS",
    "ML-KEM",
    "ML-DSA-44",
    "ML-DSA-65",
    "ML-DSA-87",
];

/// Whether a Wycheproof file's `algorithm` is one of public key.
pub fn is_pk_file(json: &str) -> bool {
    serde_json::from_str::<Value>(json)
        .ok()
        .and_then(|d| d.get("algorithm").and_then(Value::as_str).map(|a| PK_FILE_ALGORITHMS.contains(&a)))
        .unwrap_or(false)
}

fn s(v: &Value, name: &str) -> String {
    v.get(name).and_then(Value::as_str).unwrap_or("").to_ascii_lowercase()
}

fn digest(sha: &str, msg: &str) -> Option<String> {
    let m = hex::decode(msg).ok()?;
    Some(hex::encode(match sha {
        "SHA-256" => sha2::Sha256::digest(&m).to_vec(),
        "SHA-384" => sha2::Sha384::digest(&m).to_vec(),
        "SHA-512" => sha2::Sha512::digest(&m).to_vec(),
        _ => return None,
    }))
}

fn curve_id(curve: &str, prefix: &str) -> Option<&'static PkAlgorithmSpec> {
    let name = match curve {
        "secp256r1" => "p256",
        "secp384r1" => "p384",
        "secp521r1" => "p521",
        _ => return None,
    };
    pk::find(&format!("{prefix}{name}"))
}

/// The catalog algorithm of a test group, or why none fits.
fn group_algorithm(algorithm: &str, schema: &str, g: &Value) -> Result<&'static PkAlgorithmSpec, String> {
    let curve = g
        .get("publicKey")
        .and_then(|k| k.get("curve"))
        .or_else(|| g.get("curve"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let sha = g.get("sha").and_then(Value::as_str).unwrap_or("");
    let bits = g.get("keySize").and_then(Value::as_u64).unwrap_or(0);
    let none = |why: String| Err(why);
    match algorithm {
        "ECDSA" if schema.contains("p1363") => none("ECDSA signatures in IEEE P1363 form (the catalog's are DER)".into()),
        "ECDSA" => {
            let alg = curve_id(curve, "ecdsa").ok_or(format!("ECDSA on {curve} is not in the catalog"))?;
            let expected = match alg.bits {
                256 => "SHA-256",
                384 => "SHA-384",
                _ => "SHA-512",
            };
            if sha == expected {
                Ok(alg)
            } else {
                none(format!("{} with {sha} (the catalog signs {expected} digests)", alg.id))
            }
        }
        "EDDSA" => match curve {
            "edwards25519" => Ok(pk::find("ed25519").expect("catalog")),
            "edwards448" => Ok(pk::find("ed448").expect("catalog")),
            other => none(format!("EdDSA on {other}")),
        },
        "XDH" => match curve {
            "curve25519" => Ok(pk::find("x25519").expect("catalog")),
            "curve448" => Ok(pk::find("x448").expect("catalog")),
            other => none(format!("XDH on {other}")),
        },
        "ECDH" if g.get("encoding").and_then(Value::as_str) == Some("asn") => {
            curve_id(curve, "ecdh").ok_or(format!("ECDH on {curve} is not in the catalog"))
        }
        "ECDH" => none("ECDH with public keys as bare points (the reader takes the ASN.1 files)".into()),
        "RSASSA-PKCS1-v1_5" | "RSASSA-PSS" => {
            let suffix = if algorithm == "RSASSA-PSS" { "-pss" } else { "" };
            let alg = pk::find(&format!("rsa{bits}{suffix}")).ok_or(format!("RSA-{bits} is not in the catalog"))?;
            if sha != "SHA-256" {
                return none(format!("{} with {sha} (the catalog's signs SHA-256 digests)", alg.id));
            }
            if algorithm == "RSASSA-PSS" {
                let mgf_sha = g.get("mgfSha").and_then(Value::as_str).unwrap_or("");
                let salt = g.get("sLen").and_then(Value::as_u64).unwrap_or(0);
                if mgf_sha != "SHA-256" || salt != 32 {
                    return none(format!(
                        "{} with MGF1-{mgf_sha} and a {salt}-byte salt (the catalog's: MGF1-SHA-256, 32)",
                        alg.id
                    ));
                }
            }
            Ok(alg)
        }
        "ML-KEM" | "ML-DSA-44" | "ML-DSA-65" | "ML-DSA-87" => {
            let set = g
                .get("parameterSet")
                .and_then(Value::as_str)
                .unwrap_or(algorithm)
                .to_ascii_lowercase()
                .replace('-', "");
            pk::find(&set).ok_or(format!("{set} is not in the catalog"))
        }
        other => none(format!("{other} files are not read")),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PkVectorFileError {
    #[error("not JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("not a Wycheproof test file: no {0}")]
    Shape(&'static str),
}

/// Reads a Wycheproof public-key file; `label` names it in case sources.
pub fn parse(json: &str, label: &str) -> Result<Vec<PkVectorCase>, PkVectorFileError> {
    let doc: Value = serde_json::from_str(json)?;
    let algorithm = doc
        .get("algorithm")
        .and_then(Value::as_str)
        .ok_or(PkVectorFileError::Shape("algorithm"))?;
    let schema = doc.get("schema").and_then(Value::as_str).unwrap_or("");
    let mut cases = Vec::new();
    let groups = doc
        .get("testGroups")
        .and_then(Value::as_array)
        .ok_or(PkVectorFileError::Shape("testGroups"))?;
    for g in groups {
        let mapped = group_algorithm(algorithm, schema, g);
        let tests = g.get("tests").and_then(Value::as_array).ok_or(PkVectorFileError::Shape("tests"))?;
        for t in tests {
            let expect = match t.get("result").and_then(Value::as_str) {
                Some("valid") => Expectation::Valid,
                Some("invalid") => Expectation::Invalid,
                _ => Expectation::Acceptable,
            };
            let mut case = PkVectorCase {
                source: format!(
                    "{label} tcId {}",
                    t.get("tcId")
                        .map(|v| v.to_string().trim_matches('"').to_string())
                        .unwrap_or_default()
                ),
                algorithm: mapped.as_ref().ok().map(|a| a.id.to_string()),
                skip: mapped.as_ref().err().cloned(),
                kind: PkVectorKind::Verify,
                public: String::new(),
                public_der: s(g, "publicKeyDer"),
                private: String::new(),
                msg: s(t, "msg"),
                sig: s(t, "sig"),
                ct: String::new(),
                shared: String::new(),
                expect,
                flags: t
                    .get("flags")
                    .and_then(Value::as_array)
                    .map(|f| f.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
                    .unwrap_or_default(),
                comment: comment_of(t),
                notes: notes_of(&doc, t),
            };
            match algorithm {
                "ECDSA" => {
                    case.public = g.get("publicKey").map(|k| s(k, "uncompressed")).unwrap_or_default();
                    let sha = g.get("sha").and_then(Value::as_str).unwrap_or("");
                    match digest(sha, &case.msg) {
                        Some(d) => case.msg = d,
                        None if case.skip.is_none() => case.skip = Some(format!("ECDSA with {sha}")),
                        None => {}
                    }
                }
                "RSASSA-PKCS1-v1_5" | "RSASSA-PSS" => {
                    if let Some(d) = digest("SHA-256", &case.msg) {
                        case.msg = d;
                    }
                }
                "EDDSA" => case.public = g.get("publicKey").map(|k| s(k, "pk")).unwrap_or_default(),
                "XDH" | "ECDH" => {
                    case.kind = PkVectorKind::Derive;
                    case.private = s(t, "private");
                    case.shared = s(t, "shared");
                    if algorithm == "XDH" {
                        case.public = s(t, "public");
                    } else {
                        case.public_der = s(t, "public");
                    }
                }
                "ML-KEM" => {
                    case.private = s(t, "seed");
                    if t.get("c").is_some() {
                        case.kind = PkVectorKind::Decaps;
                        case.ct = s(t, "c");
                        case.shared = s(t, "K");
                    } else if t.get("ek").is_some() && t.get("m").is_none() {
                        case.kind = PkVectorKind::Keygen;
                        case.public = s(t, "ek");
                    } else if case.skip.is_none() {
                        case.skip = Some("ML-KEM encapsulation with a given message (cryptobench encapsulates at random)".into());
                    }
                    if case.private.is_empty() && case.skip.is_none() {
                        case.skip = Some("ML-KEM keys given expanded, without their seed".into());
                    }
                }
                _ => {
                    // ML-DSA verification: the public key is the group's; a context string is outside the catalog.
                    case.public = s(g, "publicKey");
                    if !s(t, "ctx").is_empty() && case.skip.is_none() {
                        case.skip = Some("ML-DSA with a context string (the catalog's is empty)".into());
                    }
                    if case.public.is_empty() && case.skip.is_none() {
                        case.skip = Some("ML-DSA signing vectors (cryptobench checks verification)".into());
                    }
                }
            }
            cases.push(case);
        }
    }
    Ok(cases)
}

enum Outcome {
    Passed,
    Skipped(String),
    /// The library's answer contradicts the vector (crates/backends/src/checks/defects.rs).
    Wrong(Wrong),
}

/// The operation a vector kind checks (a defect's cells are that operation's).
fn operation(kind: PkVectorKind) -> Operation {
    match kind {
        PkVectorKind::Verify => Operation::Verify,
        PkVectorKind::Derive => Operation::Derive,
        PkVectorKind::Decaps => Operation::Decaps,
        PkVectorKind::Keygen => Operation::Keygen,
    }
}

fn unhex(s: &str) -> Result<Vec<u8>, String> {
    hex::decode(s).map_err(|e| format!("bad hex in vector: {e}"))
}

fn run_case(backend: &dyn Backend, alg: &PkAlgorithmSpec, case: &PkVectorCase) -> Result<Outcome, String> {
    let pk = pk_of(backend, alg)?;
    let valid = match case.expect {
        Expectation::Acceptable => return Ok(Outcome::Skipped("\"acceptable\" cases (either outcome allowed)".into())),
        Expectation::Valid => true,
        Expectation::Invalid => false,
    };
    let unsupported = |e: &BackendError| matches!(e, BackendError::Unsupported(_));
    match case.kind {
        PkVectorKind::Verify => {
            let keys = PkKeys {
                public: unhex(&case.public)?,
                public_der: unhex(&case.public_der)?,
                ..PkKeys::default()
            };
            let verdict = match pk.verify(alg, &keys, &unhex(&case.msg)?, &unhex(&case.sig)?) {
                Ok(v) => v,
                Err(e) if unsupported(&e) => return Ok(Outcome::Skipped(e.to_string())),
                Err(_) => false,
            };
            match (valid, verdict) {
                (true, true) | (false, false) => Ok(Outcome::Passed),
                (true, false) => Ok(Outcome::Wrong(Wrong::Other("rejects a signature the vector marks valid".into()))),
                (false, true) => Ok(Outcome::Wrong(Wrong::AcceptedInvalid(
                    "accepts a signature the vector marks invalid".into(),
                ))),
            }
        }
        PkVectorKind::Derive => {
            let private = unhex(&case.private)?;
            let mut keys = if alg.kind == PkKind::Ecdh && alg.openssl_name.starts_with("P-") {
                // Wycheproof writes the scalar as a signed integer: a leading zero byte may precede it.
                let n = alg.bits.div_ceil(8) as usize;
                let start = private.len().saturating_sub(n);
                let mut scalar = vec![0u8; n.saturating_sub(private.len() - start)];
                scalar.extend_from_slice(&private[start..]);
                match ec_keys_from_scalar(alg, &scalar) {
                    Ok(k) => k,
                    Err(e) => return if valid { Err(e) } else { Ok(Outcome::Passed) },
                }
            } else {
                PkKeys {
                    seed: private,
                    ..PkKeys::default()
                }
            };
            keys.peer = Some(Box::new(PkKeys {
                public: unhex(&case.public)?,
                public_der: unhex(&case.public_der)?,
                ..PkKeys::default()
            }));
            match (valid, pk.derive(alg, &keys)) {
                (true, Ok(s)) if s == unhex(&case.shared)? => Ok(Outcome::Passed),
                (true, Ok(s)) => Ok(Outcome::Wrong(Wrong::Other(format!("derives {} instead of {}", hex::encode(s), case.shared)))),
                (_, Err(e)) if unsupported(&e) => Ok(Outcome::Skipped(e.to_string())),
                (true, Err(e)) => Err(format!("key agreement failed: {e}")),
                (false, Err(_)) => Ok(Outcome::Passed),
                (false, Ok(s)) if !case.shared.is_empty() && s != unhex(&case.shared)? => Ok(Outcome::Passed),
                // Wycheproof lists the secret of the unmodified key for these: a library that
                // reads explicit curve parameters and still computes on the private key's curve
                // derives it, which its notes call not exploitable ("InvalidPublic").
                (false, Ok(_)) if case.flags.iter().any(|f| f == "UnnamedCurve") => Ok(Outcome::Skipped(
                    "invalid public keys with explicit curve parameters, accepted with the original secret (Wycheproof: UnnamedCurve, not exploitable)".into(),
                )),
                (false, Ok(_)) => Ok(Outcome::Wrong(Wrong::AcceptedInvalid("accepts a public key the vector marks invalid".into()))),
            }
        }
        PkVectorKind::Decaps => {
            let keys = PkKeys {
                seed: unhex(&case.private)?,
                ..PkKeys::default()
            };
            match (valid, pk.decapsulate(alg, &keys, &unhex(&case.ct)?)) {
                (true, Ok(s)) if s == unhex(&case.shared)? => Ok(Outcome::Passed),
                (true, Ok(_)) => Ok(Outcome::Wrong(Wrong::Other("decapsulates to another secret".into()))),
                (_, Err(e)) if unsupported(&e) => Ok(Outcome::Skipped(e.to_string())),
                (true, Err(e)) => Err(format!("decapsulation failed: {e}")),
                (false, Err(_)) => Ok(Outcome::Passed),
                (false, Ok(_)) => Ok(Outcome::Wrong(Wrong::AcceptedInvalid(
                    "decapsulates a ciphertext the vector marks invalid".into(),
                ))),
            }
        }
        PkVectorKind::Keygen => {
            let keys = PkKeys {
                seed: unhex(&case.private)?,
                ..PkKeys::default()
            };
            match (valid, pk.public_key(alg, &keys)) {
                (true, Ok(p)) if p == unhex(&case.public)? => Ok(Outcome::Passed),
                (true, Ok(_)) => Ok(Outcome::Wrong(Wrong::Other("computes another public key from the seed".into()))),
                (_, Err(e)) if unsupported(&e) => Ok(Outcome::Skipped(e.to_string())),
                (true, Err(e)) => Err(format!("key generation from the seed failed: {e}")),
                (false, _) => Ok(Outcome::Passed),
            }
        }
    }
}

/// Runs the cases of the algorithms this backend offers; one report per
/// algorithm. A wrong answer is a library defect where the library accepts
/// what the vector marks invalid or its table of known defects lists the
/// case, else a failure (crates/backends/src/checks/defects.rs).
pub fn run(backend: &dyn Backend, cases: &[PkVectorCase]) -> Vec<CheckReport> {
    let library = Library::of(backend);
    let mut reports: Vec<CheckReport> = Vec::new();
    for case in cases {
        let Some(alg) = case.algorithm.as_deref().and_then(pk::find) else {
            continue;
        };
        if pk_of(backend, alg).is_err() {
            continue;
        }
        let Some(report) = report_for(&mut reports, alg.id, case.skip.as_deref()) else {
            continue;
        };
        match run_case(backend, alg, case) {
            Ok(Outcome::Passed) => report.passed += 1,
            Ok(Outcome::Skipped(why)) => report.skip(why),
            Ok(Outcome::Wrong(wrong)) => {
                let at = VectorCaseRef {
                    algorithm: alg.id,
                    operation: operation(case.kind),
                    source: &case.source,
                    comment: &case.comment,
                    notes: &case.notes,
                };
                record_wrong(report, &library, &at, wrong);
            }
            Err(why) => report.fail(format!("{}: {why}", case.source)),
        }
    }
    reports
}

//! Test vectors in Project Wycheproof's JSON format
//! (<https://github.com/C2SP/wycheproof>, schemas `aead_test_schema_v1`,
//! `ind_cpa_test_schema_v1` and `mac_test_schema_v1`): AEAD files (AES-GCM,
//! AES-CCM, AES-GCM-SIV, AEAD-AES-SIV-CMAC, deterministic AES-SIV-CMAC, ChaCha20-Poly1305,
//! XChaCha20-Poly1305), CBC files (AES, Camellia, ARIA with PKCS#5), AES-XTS
//! and MAC files (HMAC-SHA1/256/512, AES-CMAC) are mapped to catalog
//! algorithms by key size and run against a backend. AEAD cases keep their
//! own IV and tag lengths: a backend runs every length its library takes
//! ([`Backend::seal_with`]) and names what it refuses. Cases of no catalog
//! algorithm (AES-192-XTS, AES-SIV with 384-bit keys) are kept as skipped,
//! with the reason. NIST CAVP `.rsp` files are read by [`crate::checks::cavp`].

use cryptobench_core::checks::{CheckKind, CheckReport, Expectation, VectorCase};
use cryptobench_core::{catalog, AlgorithmClass, Operation};
use serde_json::Value;

use crate::backend::{AeadCall, Backend};
use crate::checks::defects::{record_wrong, Library, VectorCaseRef, Wrong};
use crate::error::BackendError;
use crate::support::Support;

/// The Wycheproof `algorithm` values this reader understands.
pub const FILE_ALGORITHMS: &[&str] = &[
    "AES-GCM",
    "AES-CCM",
    "AES-GCM-SIV",
    "AEAD-AES-SIV-CMAC",
    "AES-SIV-CMAC",
    "CHACHA20-POLY1305",
    "XCHACHA20-POLY1305",
    "AES-CBC-PKCS5",
    "CAMELLIA-CBC-PKCS5",
    "ARIA-CBC-PKCS5",
    "AES-XTS",
    "AES-CMAC",
    "HMACSHA1",
    "HMACSHA256",
    "HMACSHA512",
];

#[derive(Debug, thiserror::Error)]
pub enum VectorFileError {
    #[error("not JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("not a Wycheproof test file: no {0}")]
    Shape(&'static str),
    #[error("Wycheproof algorithm {0} is not one cryptobench can run; files for {list} are", list = FILE_ALGORITHMS.join(", "))]
    Algorithm(String),
}

fn field<'a>(v: &'a Value, name: &'static str) -> Result<&'a Value, VectorFileError> {
    v.get(name).ok_or(VectorFileError::Shape(name))
}

fn hex_field(test: &Value, name: &str) -> String {
    test.get(name).and_then(Value::as_str).unwrap_or("").to_ascii_lowercase()
}

/// A Wycheproof case's comment.
pub fn comment_of(test: &Value) -> String {
    test.get("comment").and_then(Value::as_str).unwrap_or("").to_string()
}

/// The file's notes on a case's flags, "Flag: description" each: what the
/// case checks and the rule it encodes (Wycheproof's `notes`, schemas v1).
pub fn notes_of(doc: &Value, test: &Value) -> Vec<String> {
    let flags = test.get("flags").and_then(Value::as_array).into_iter().flatten();
    flags
        .filter_map(Value::as_str)
        .map(|flag| {
            let note = doc.get("notes").and_then(|n| n.get(flag));
            match note.and_then(|n| n.get("description")).and_then(Value::as_str) {
                Some(text) => format!("{flag}: {text}"),
                None => flag.to_string(),
            }
        })
        .collect()
}

/// Reads a Wycheproof file; `label` names it in case sources (e.g. the file name).
pub fn parse(json: &str, label: &str) -> Result<Vec<VectorCase>, VectorFileError> {
    let doc: Value = serde_json::from_str(json)?;
    let algorithm = field(&doc, "algorithm")?
        .as_str()
        .ok_or(VectorFileError::Shape("algorithm"))?
        .to_string();
    if !FILE_ALGORITHMS.contains(&algorithm.as_str()) {
        return Err(VectorFileError::Algorithm(algorithm));
    }
    let mut cases = Vec::new();
    for group in field(&doc, "testGroups")?.as_array().ok_or(VectorFileError::Shape("testGroups"))? {
        let bits = |name| group.get(name).and_then(Value::as_u64).unwrap_or(0);
        let (key_bits, iv_bits, tag_bits) = (bits("keySize"), bits("ivSize"), bits("tagSize"));
        let (id, skip, iv_pad) = map_parameters(&algorithm, key_bits, iv_bits, tag_bits);
        for test in field(group, "tests")?.as_array().ok_or(VectorFileError::Shape("tests"))? {
            let expect = match test.get("result").and_then(Value::as_str) {
                Some("valid") => Expectation::Valid,
                Some("invalid") => Expectation::Invalid,
                _ => Expectation::Acceptable,
            };
            let mut iv = hex_field(test, "iv");
            iv.push_str(&"00".repeat(iv_pad));
            let (mut ct, mut tag) = (hex_field(test, "ct"), hex_field(test, "tag"));
            if algorithm == "AES-SIV-CMAC" {
                // Deterministic AES-SIV (daead_test_schema_v1): `ct` is the synthetic IV V, then the ciphertext.
                let at = ct.len().min(32);
                tag = ct[..at].to_string();
                ct = ct[at..].to_string();
            }
            cases.push(VectorCase {
                source: format!("{label} tcId {}", test.get("tcId").and_then(Value::as_u64).unwrap_or(0)),
                algorithm: id.clone(),
                skip: skip.clone(),
                key: hex_field(test, "key"),
                iv,
                aad: hex_field(test, "aad"),
                msg: hex_field(test, "msg"),
                ct,
                tag,
                pkcs7: algorithm.ends_with("-CBC-PKCS5"),
                expect,
                comment: comment_of(test),
                notes: notes_of(&doc, test),
            });
        }
    }
    Ok(cases)
}

/// (catalog id, why skipped, zero bytes to append to the IV) for a group's parameters.
/// The id is set whenever the key size names a catalog algorithm, so that a
/// skipped case counts under the algorithm it belongs to. IV and tag lengths
/// of AEAD groups are left to the backends ([`run`]).
fn map_parameters(algorithm: &str, key_bits: u64, iv_bits: u64, _tag_bits: u64) -> (Option<String>, Option<String>, usize) {
    let by_key = |id: String, what: &str| {
        let found = catalog::find(&id).map(|a| a.id.to_string());
        let skip = found
            .is_none()
            .then(|| format!("{what} with a {key_bits}-bit key is not in the catalog"));
        (found, skip, 0)
    };
    match algorithm {
        "AES-GCM" => by_key(format!("aes-{key_bits}-gcm"), algorithm),
        "AES-CCM" => by_key(format!("aes-{key_bits}-ccm"), algorithm),
        "AES-GCM-SIV" => by_key(format!("aes-{key_bits}-gcm-siv"), algorithm),
        // keySize counts the CMAC key and the CTR key: 256 bits is AES-SIV-CMAC-256, aes-128-siv.
        "AEAD-AES-SIV-CMAC" | "AES-SIV-CMAC" => by_key(format!("aes-{}-siv", key_bits / 2), "AES-SIV"),
        "CHACHA20-POLY1305" => by_key("chacha20-poly1305".into(), algorithm),
        "XCHACHA20-POLY1305" => by_key("xchacha20-poly1305".into(), algorithm),
        "AES-CMAC" => by_key(format!("aes-{key_bits}-cmac"), algorithm),
        "HMACSHA1" => by_key("hmac-sha1".into(), algorithm),
        "HMACSHA256" => by_key("hmac-sha256".into(), algorithm),
        "HMACSHA512" => by_key("hmac-sha512".into(), algorithm),
        "AES-CBC-PKCS5" | "CAMELLIA-CBC-PKCS5" | "ARIA-CBC-PKCS5" => {
            let family = algorithm.split('-').next().unwrap_or("").to_ascii_lowercase();
            let (id, skip, pad) = by_key(format!("{family}-{key_bits}-cbc"), algorithm);
            match (id, iv_bits) {
                (Some(id), 128) => (Some(id), skip, pad),
                (id, _) => (
                    id,
                    Some(format!("{algorithm} with a {iv_bits}-bit IV (the catalog's CBC takes 128)")),
                    0,
                ),
            }
        }
        _ => {
            // AES-XTS: keySize counts both keys. The IV is the tweak, the data unit number as a
            // little-endian 128-bit value (IEEE 1619-2007 §5.1); 64-bit IVs are that number's
            // low half and are extended with zero bytes.
            let id = match key_bits {
                256 => Some("aes-128-xts".to_string()),
                512 => Some("aes-256-xts".to_string()),
                _ => None,
            };
            match (&id, iv_bits) {
                (None, _) => (
                    None,
                    Some(format!("AES-XTS with {key_bits}-bit keys (AES-192-XTS is not in the catalog)")),
                    0,
                ),
                (Some(_), 128) => (id, None, 0),
                (Some(_), 64) => (id, None, 8),
                (Some(_), _) => (
                    id,
                    Some("AES-XTS with a tweak other than 128 bits or 64 (extended with zeros)".to_string()),
                    0,
                ),
            }
        }
    }
}

fn unhex(s: &str) -> Result<Vec<u8>, String> {
    hex::decode(s).map_err(|e| format!("bad hex in vector: {e}"))
}

/// PKCS#7 (RFC 5652 §6.3) padding to whole 16-byte blocks.
fn pad(msg: &[u8]) -> Vec<u8> {
    let n = 16 - msg.len() % 16;
    let mut v = msg.to_vec();
    v.extend(std::iter::repeat_n(n as u8, n));
    v
}

fn unpad(data: &[u8]) -> Option<&[u8]> {
    let n = usize::from(*data.last()?);
    if n == 0 || n > 16 || n > data.len() || !data[data.len() - n..].iter().all(|&b| usize::from(b) == n) {
        return None;
    }
    Some(&data[..data.len() - n])
}

/// Runs the cases of the algorithms this backend supports; one report per
/// algorithm. Cases of no catalog algorithm are left to the caller to count.
pub fn run(backend: &dyn Backend, cases: &[VectorCase]) -> Vec<CheckReport> {
    let library = Library::of(backend);
    let mut reports: Vec<CheckReport> = Vec::new();
    for case in cases {
        let Some(id) = case.algorithm.as_deref() else {
            continue;
        };
        let Ok(alg) = catalog::get(id) else { continue };
        if backend.support(alg) != Support::Supported {
            continue;
        }
        let Some(report) = report_for(&mut reports, alg.id, case.skip.as_deref()) else {
            continue;
        };
        match run_case(backend, alg, case) {
            Ok(Outcome::Passed) => report.passed += 1,
            Ok(Outcome::Skipped(why)) => report.skip(why),
            Ok(Outcome::Refused(why)) => report.skip_with(why, Some((case.iv.len() / 2, case.tag.len() / 2))),
            Ok(Outcome::Wrong(operation, wrong)) => {
                let at = VectorCaseRef {
                    algorithm: alg.id,
                    operation,
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

/// The report of `algorithm` among `reports` (added at its first case), for
/// a case to run; None where the case is skipped, counted with its reason.
pub fn report_for<'r>(reports: &'r mut Vec<CheckReport>, algorithm: &str, skip: Option<&str>) -> Option<&'r mut CheckReport> {
    let index = match reports.iter().position(|r| r.algorithm == algorithm) {
        Some(i) => i,
        None => {
            reports.push(CheckReport::new(algorithm, CheckKind::Vectors));
            reports.len() - 1
        }
    };
    let report = &mut reports[index];
    match skip {
        Some(why) => {
            report.skip(why);
            None
        }
        None => Some(report),
    }
}

enum Outcome {
    Passed,
    Skipped(String),
    /// The backend's library refuses the case's IV or tag length.
    Refused(String),
    /// The library's answer to the operation contradicts the vector (crates/backends/src/checks/defects.rs).
    Wrong(Operation, Wrong),
}

fn run_case(backend: &dyn Backend, alg: &cryptobench_core::AlgorithmSpec, case: &VectorCase) -> Result<Outcome, String> {
    let (key, iv, aad, msg, ct, tag) = (
        unhex(&case.key)?,
        unhex(&case.iv)?,
        unhex(&case.aad)?,
        unhex(&case.msg)?,
        unhex(&case.ct)?,
        unhex(&case.tag)?,
    );
    if alg.class == AlgorithmClass::Mac {
        return mac_case(backend, alg, case, &key, &msg, &tag);
    }
    let aead = alg.class == AlgorithmClass::Aead;
    if key.len() != alg.key_len || (!aead && iv.len() != alg.iv_len) {
        return Ok(Outcome::Skipped(format!(
            "key or IV lengths other than {}'s {} and {} bytes",
            alg.id, alg.key_len, alg.iv_len
        )));
    }
    // A length the library refuses is a skip naming the refusal; a catalog length refused is a failure.
    let refused = |e: BackendError| -> Result<Outcome, String> {
        match e {
            BackendError::Unsupported(why) if iv.len() != alg.iv_len || tag.len() != alg.tag_len => Ok(Outcome::Refused(why)),
            BackendError::Unsupported(why) if msg.is_empty() && ct.is_empty() => Ok(Outcome::Skipped(why)),
            other => Err(other.to_string()),
        }
    };
    let message = |data| AeadCall {
        key: &key,
        iv: &iv,
        aad: &aad,
        data,
    };
    match case.expect {
        Expectation::Acceptable => Ok(Outcome::Skipped("\"acceptable\" cases (either outcome allowed)".into())),
        Expectation::Valid => {
            let plain = if case.pkcs7 { pad(&msg) } else { msg.clone() };
            if let Some(problem) = alg.size_problem(plain.len()) {
                return Ok(Outcome::Skipped(problem));
            }
            let sealed = if aead {
                backend.seal_with(alg, message(&plain), tag.len())
            } else {
                backend.encrypt_once(alg, message(&plain))
            };
            let sealed = match sealed {
                Ok(s) => s,
                Err(e) => return refused(e).map_err(|e| format!("encryption: {e}")),
            };
            if sealed.ciphertext != ct {
                return Ok(Outcome::Wrong(
                    Operation::Encrypt,
                    Wrong::Other(format!("encrypts to {}, not {}", hex::encode(&sealed.ciphertext), case.ct)),
                ));
            }
            if aead && sealed.tag != tag {
                return Ok(Outcome::Wrong(
                    Operation::Encrypt,
                    Wrong::Other(format!("tags it {}, not {}", hex::encode(&sealed.tag), case.tag)),
                ));
            }
            let back = if aead {
                backend.open_with(alg, message(&ct), &tag)
            } else {
                backend.decrypt_once(alg, message(&ct), &tag)
            };
            let back = match back {
                Ok(b) => b,
                Err(e) => return refused(e).map_err(|e| format!("decryption: {e}")),
            };
            let back = if case.pkcs7 {
                unpad(&back).ok_or("decryption gives bad padding")?.to_vec()
            } else {
                back
            };
            if back != msg {
                return Ok(Outcome::Wrong(
                    Operation::Decrypt,
                    Wrong::Other("does not decrypt the ciphertext to the message".into()),
                ));
            }
            Ok(Outcome::Passed)
        }
        Expectation::Invalid if aead => match backend.open_with(alg, message(&ct), &tag) {
            Err(BackendError::AuthenticationFailed) => Ok(Outcome::Passed),
            // Rejected before any tag was checked: the library refuses these parameters outright.
            Err(BackendError::Unsupported(why)) => Ok(Outcome::Refused(why)),
            Err(e) => Err(format!("rejected, but not as a tag failure: {e}")),
            Ok(_) => Ok(Outcome::Wrong(
                Operation::Decrypt,
                Wrong::AcceptedInvalid("accepts a message the vector marks invalid".into()),
            )),
        },
        Expectation::Invalid => {
            // *_cbc_pkcs5: the backend decrypts without padding; cryptobench checks the padding.
            if alg.size_problem(ct.len()).is_some() || ct.is_empty() {
                return Ok(Outcome::Passed);
            }
            let back = backend
                .decrypt_once(alg, message(&ct), &tag)
                .map_err(|e| format!("decryption: {e}"))?;
            match (case.pkcs7, unpad(&back)) {
                (true, None) => Ok(Outcome::Passed),
                (true, Some(_)) => Err("an invalid ciphertext decrypted to valid padding".into()),
                (false, _) => Ok(Outcome::Skipped("invalid cases of an unauthenticated mode".into())),
            }
        }
    }
}

/// A MAC case: the tag is the MAC's first `tag.len()` bytes (Wycheproof truncates); an invalid
/// case's tag must differ. A key the library refuses is a skip naming the refusal.
fn mac_case(
    backend: &dyn Backend,
    alg: &cryptobench_core::AlgorithmSpec,
    case: &VectorCase,
    key: &[u8],
    msg: &[u8],
    tag: &[u8],
) -> Result<Outcome, String> {
    let mac = match backend.mac_once(alg, key, msg) {
        Ok(m) => m,
        Err(BackendError::Unsupported(why) | BackendError::Invalid(why)) if key.len() != alg.key_len => return Ok(Outcome::Skipped(why)),
        Err(e) => return Err(e.to_string()),
    };
    let matches = tag.len() <= mac.len() && mac[..tag.len()] == *tag;
    match case.expect {
        Expectation::Acceptable => Ok(Outcome::Skipped("\"acceptable\" cases (either outcome allowed)".into())),
        Expectation::Valid if matches => Ok(Outcome::Passed),
        Expectation::Valid => Ok(Outcome::Wrong(
            Operation::Mac,
            Wrong::Other(format!(
                "computes MAC {}, which does not start with {}",
                hex::encode(&mac),
                case.tag
            )),
        )),
        Expectation::Invalid if !matches => Ok(Outcome::Passed),
        Expectation::Invalid => Ok(Outcome::Wrong(
            Operation::Mac,
            Wrong::Other("computes the tag the vector marks invalid".into()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_round_trips_and_rejects() {
        assert_eq!(pad(b"").len(), 16);
        assert_eq!(unpad(&pad(b"abc")), Some(&b"abc"[..]));
        let mut bad = pad(b"abc");
        *bad.last_mut().unwrap() = 17;
        assert_eq!(unpad(&bad), None);
        let mut bad = pad(b"abc");
        bad[14] ^= 1;
        assert_eq!(unpad(&bad), None);
    }

    #[test]
    fn deterministic_siv_splits_the_synthetic_iv_from_the_ciphertext() {
        // Wycheproof aes_siv_cmac_test.json tcId 1 (RFC 5297 Appendix A.1).
        let json = r#"{"algorithm":"AES-SIV-CMAC","testGroups":[{"keySize":256,"tests":[{"tcId":1,
            "key":"fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
            "aad":"101112131415161718191a1b1c1d1e1f2021222324252627","msg":"112233445566778899aabbccddee",
            "ct":"85632d07c6e8f37f950acd320a2ecc9340c02b9690c4dc04daef7f6afe5c","result":"valid"}]},
            {"keySize":384,"tests":[{"tcId":2,"key":"","aad":"","msg":"","ct":"00","result":"invalid"}]}]}"#;
        let cases = parse(json, "x").unwrap();
        assert_eq!(cases[0].algorithm.as_deref(), Some("aes-128-siv"));
        assert_eq!(cases[0].tag, "85632d07c6e8f37f950acd320a2ecc93");
        assert_eq!(cases[0].ct, "40c02b9690c4dc04daef7f6afe5c");
        assert!(cases[1].algorithm.is_none() && cases[1].skip.as_deref().unwrap().contains("not in the catalog"));
        let reports = run(crate::libraries::open_reference().unwrap().as_ref(), &cases);
        assert_eq!((reports[0].passed, reports[0].failures.len()), (1, 0), "{reports:?}");
    }

    #[test]
    fn foreign_files_are_refused_with_the_list() {
        let e = parse(r#"{"algorithm":"RSA-OAEP","testGroups":[]}"#, "x").unwrap_err().to_string();
        assert!(e.contains("RSA-OAEP") && e.contains("AES-GCM"), "{e}");
        assert!(parse("{", "x").is_err());
        assert!(parse(r#"{"testGroups":[]}"#, "x").is_err());
    }
}

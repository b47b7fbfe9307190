//! Test vectors in Project Wycheproof's JSON format
//! (<https://github.com/C2SP/wycheproof>, schemas `aead_test_schema_v1` and
//! `ind_cpa_test_schema_v1`): files for AES-GCM, ChaCha20-Poly1305,
//! AES-CBC-PKCS5 and AES-XTS are mapped to catalog algorithms, and run
//! against a backend. Cases whose parameters no catalog algorithm has (a
//! 128-bit GCM nonce, AES-192-XTS) are kept as skipped, with the reason.

use cryptobench_core::checks::{CheckKind, CheckReport, Expectation, VectorCase};
use cryptobench_core::{catalog, AlgorithmClass};
use serde_json::Value;

use crate::error::BackendError;
use crate::traits::{Backend, Support};

/// The Wycheproof `algorithm` values this reader understands.
pub const FILE_ALGORITHMS: &[&str] = &["AES-GCM", "CHACHA20-POLY1305", "AES-CBC-PKCS5", "AES-XTS"];

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
            cases.push(VectorCase {
                source: format!("{label} tcId {}", test.get("tcId").and_then(Value::as_u64).unwrap_or(0)),
                algorithm: id.clone(),
                skip: skip.clone(),
                key: hex_field(test, "key"),
                iv,
                aad: hex_field(test, "aad"),
                msg: hex_field(test, "msg"),
                ct: hex_field(test, "ct"),
                tag: hex_field(test, "tag"),
                pkcs7: algorithm == "AES-CBC-PKCS5",
                expect,
            });
        }
    }
    Ok(cases)
}

/// (catalog id, why skipped, zero bytes to append to the IV) for a group's parameters.
/// The id is set whenever the key size names a catalog algorithm, so that a
/// skipped case counts under the algorithm it belongs to.
fn map_parameters(algorithm: &str, key_bits: u64, iv_bits: u64, tag_bits: u64) -> (Option<String>, Option<String>, usize) {
    match algorithm {
        "AES-GCM" | "CHACHA20-POLY1305" => {
            let id = if algorithm == "AES-GCM" {
                format!("aes-{key_bits}-gcm")
            } else {
                "chacha20-poly1305".to_string()
            };
            let id = catalog::find(&id).map(|a| a.id.to_string());
            let skip = if id.is_none() {
                Some(format!("{algorithm} with a {key_bits}-bit key is not in the catalog"))
            } else if iv_bits != 96 {
                Some(format!("{algorithm} with a nonce other than 96 bits (the catalog's takes 96)"))
            } else if tag_bits != 128 {
                Some(format!("{algorithm} with a tag other than 128 bits (the catalog's has 128)"))
            } else {
                None
            };
            (id, skip, 0)
        }
        "AES-CBC-PKCS5" => {
            let id = catalog::find(&format!("aes-{key_bits}-cbc")).map(|a| a.id.to_string());
            let skip = (id.is_none() || iv_bits != 128).then(|| "AES-CBC with a key or IV size not in the catalog".to_string());
            (id, skip, 0)
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
    let mut reports: Vec<CheckReport> = Vec::new();
    for case in cases {
        let Some(id) = case.algorithm.as_deref() else {
            continue;
        };
        let Ok(alg) = catalog::get(id) else { continue };
        if backend.support(alg) != Support::Supported {
            continue;
        }
        let index = match reports.iter().position(|r| r.algorithm == alg.id) {
            Some(i) => i,
            None => {
                reports.push(CheckReport::new(alg.id, CheckKind::Vectors));
                reports.len() - 1
            }
        };
        let report = &mut reports[index];
        if let Some(why) = &case.skip {
            report.skip(why.clone());
            continue;
        }
        match run_case(backend, alg, case) {
            Ok(Outcome::Passed) => report.passed += 1,
            Ok(Outcome::Skipped(why)) => report.skip(why),
            Err(why) => report.fail(format!("{}: {why}", case.source)),
        }
    }
    reports
}

enum Outcome {
    Passed,
    Skipped(String),
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
    if key.len() != alg.key_len || iv.len() != alg.iv_len {
        return Ok(Outcome::Skipped(format!(
            "key or IV lengths other than {}'s {} and {} bytes",
            alg.id, alg.key_len, alg.iv_len
        )));
    }
    let aead = alg.class == AlgorithmClass::Aead;
    match case.expect {
        Expectation::Acceptable => Ok(Outcome::Skipped("\"acceptable\" cases (either outcome allowed)".into())),
        Expectation::Valid => {
            let plain = if case.pkcs7 { pad(&msg) } else { msg.clone() };
            if let Some(problem) = alg.size_problem(plain.len()) {
                return Ok(Outcome::Skipped(problem));
            }
            let sealed = backend
                .encrypt_once(alg, &key, &iv, &aad, &plain)
                .map_err(|e| format!("encryption: {e}"))?;
            if sealed.ciphertext != ct {
                return Err(format!("ciphertext {} differs from {}", hex::encode(&sealed.ciphertext), case.ct));
            }
            if aead && sealed.tag != tag {
                return Err(format!("tag {} differs from {}", hex::encode(&sealed.tag), case.tag));
            }
            let back = backend
                .decrypt_once(alg, &key, &iv, &aad, &ct, &tag)
                .map_err(|e| format!("decryption: {e}"))?;
            let back = if case.pkcs7 {
                unpad(&back).ok_or("decryption gives bad padding")?.to_vec()
            } else {
                back
            };
            if back != msg {
                return Err("decryption does not give the message back".into());
            }
            Ok(Outcome::Passed)
        }
        Expectation::Invalid if aead => {
            if tag.len() != alg.tag_len {
                return Ok(Outcome::Skipped(format!(
                    "a {}-byte tag ({} has {})",
                    tag.len(),
                    alg.id,
                    alg.tag_len
                )));
            }
            match backend.decrypt_once(alg, &key, &iv, &aad, &ct, &tag) {
                Err(BackendError::AuthenticationFailed) => Ok(Outcome::Passed),
                Err(e) => Err(format!("rejected, but not as a tag failure: {e}")),
                Ok(_) => Err("an invalid message was accepted".into()),
            }
        }
        Expectation::Invalid => {
            // aes_cbc_pkcs5: the backend decrypts without padding; cryptobench checks the padding.
            if alg.size_problem(ct.len()).is_some() || ct.is_empty() {
                return Ok(Outcome::Passed);
            }
            let back = backend
                .decrypt_once(alg, &key, &iv, &aad, &ct, &tag)
                .map_err(|e| format!("decryption: {e}"))?;
            match (case.pkcs7, unpad(&back)) {
                (true, None) => Ok(Outcome::Passed),
                (true, Some(_)) => Err("an invalid ciphertext decrypted to valid padding".into()),
                (false, _) => Ok(Outcome::Skipped("invalid cases of an unauthenticated mode".into())),
            }
        }
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
    fn foreign_files_are_refused_with_the_list() {
        let e = parse(r#"{"algorithm":"RSA-OAEP","testGroups":[]}"#, "x").unwrap_err().to_string();
        assert!(e.contains("RSA-OAEP") && e.contains("AES-GCM"), "{e}");
        assert!(parse("{", "x").is_err());
        assert!(parse(r#"{"testGroups":[]}"#, "x").is_err());
    }
}

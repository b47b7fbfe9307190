//! NIST CAVP response files for AES-GCM (`gcmDecrypt*.rsp`,
//! `gcmEncryptExtIV*.rsp`, the GCMVS of NIST SP 800-38D), read as they are
//! published: `[Keylen = 128]`, `[IVlen = …]`, `[Taglen = …]` section headers
//! (bits), then blocks of `Key = …`, `IV = …`, `CT = …`, `AAD = …`,
//! `Tag = …` and either `PT = …` or `FAIL` (a tag that must be rejected).
//! Every IV and tag length is kept: the backends run what their library
//! takes and name what it refuses.

use cryptobench_core::catalog;
use cryptobench_core::checks::{Expectation, VectorCase};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CavpError {
    #[error("not a CAVP GCM response file: no test case (Count = …) with Key, IV and Tag; give gcmDecrypt*.rsp or gcmEncryptExtIV*.rsp as NIST publishes them")]
    NoCases,
    #[error("line {line}: {problem}")]
    Malformed { line: usize, problem: String },
}

/// Whether `text` looks like a CAVP response file rather than JSON.
pub fn looks_like_rsp(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('#') || t.starts_with('[') || t.starts_with("Count")
}

#[derive(Default)]
struct Block {
    count: Option<String>,
    key: Option<String>,
    iv: Option<String>,
    ct: Option<String>,
    aad: Option<String>,
    tag: Option<String>,
    pt: Option<String>,
    fail: bool,
    line: usize,
}

fn hex_value(value: &str, line: usize) -> Result<String, CavpError> {
    let v = value.trim().to_ascii_lowercase();
    if !v.len().is_multiple_of(2) || !v.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(CavpError::Malformed {
            line,
            problem: format!("'{}' is not hex bytes", value.trim().chars().take(40).collect::<String>()),
        });
    }
    Ok(v)
}

/// Reads a GCM response file; `label` names it in case sources.
pub fn parse(text: &str, label: &str) -> Result<Vec<VectorCase>, CavpError> {
    let mut key_bits: Option<u64> = None;
    let mut cases = Vec::new();
    let mut block = Block::default();
    let finish = |block: &mut Block, key_bits: Option<u64>, cases: &mut Vec<VectorCase>| -> Result<(), CavpError> {
        let b = std::mem::take(block);
        let (Some(key), Some(iv), Some(tag)) = (b.key, b.iv, b.tag) else {
            if b.count.is_some() {
                return Err(CavpError::Malformed {
                    line: b.line,
                    problem: "a test case without Key, IV or Tag".into(),
                });
            }
            return Ok(());
        };
        let bits = key_bits.unwrap_or(key.len() as u64 * 4);
        let id = catalog::find(&format!("aes-{bits}-gcm")).map(|a| a.id.to_string());
        let skip = id.is_none().then(|| format!("AES-GCM with a {bits}-bit key is not in the catalog"));
        let expect = if b.fail { Expectation::Invalid } else { Expectation::Valid };
        if !b.fail && b.pt.is_none() {
            return Err(CavpError::Malformed {
                line: b.line,
                problem: "a test case with neither PT nor FAIL".into(),
            });
        }
        cases.push(VectorCase {
            source: format!("{label} [Keylen = {bits}] Count = {}", b.count.unwrap_or_default()),
            algorithm: id,
            skip,
            key,
            iv,
            aad: b.aad.unwrap_or_default(),
            msg: b.pt.unwrap_or_default(),
            ct: b.ct.unwrap_or_default(),
            tag,
            pkcs7: false,
            expect,
            comment: String::new(),
            notes: Vec::new(),
        });
        Ok(())
    };
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let number = n + 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if let Some((name, value)) = header.split_once('=') {
                if name.trim().eq_ignore_ascii_case("Keylen") {
                    key_bits = Some(value.trim().parse().map_err(|_| CavpError::Malformed {
                        line: number,
                        problem: format!("'{}' is not a key length in bits", value.trim()),
                    })?);
                }
            }
            continue;
        }
        if line.eq_ignore_ascii_case("FAIL") {
            block.fail = true;
            continue;
        }
        let Some((name, value)) = line.split_once('=') else {
            return Err(CavpError::Malformed {
                line: number,
                problem: format!(
                    "'{}' is neither a header, NAME = VALUE nor FAIL",
                    line.chars().take(40).collect::<String>()
                ),
            });
        };
        let name = name.trim();
        if name.eq_ignore_ascii_case("Count") {
            finish(&mut block, key_bits, &mut cases)?;
            block.count = Some(value.trim().to_string());
            block.line = number;
            continue;
        }
        let slot = match name {
            "Key" => &mut block.key,
            "IV" => &mut block.iv,
            "CT" => &mut block.ct,
            "AAD" => &mut block.aad,
            "Tag" => &mut block.tag,
            "PT" => &mut block.pt,
            _ => continue, // other fields of other CAVP files are not needed
        };
        *slot = Some(hex_value(value, number)?);
    }
    finish(&mut block, key_bits, &mut cases)?;
    if cases.is_empty() {
        return Err(CavpError::NoCases);
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# CAVS 14.0\n# GCM Decrypt with keysize 128 test information\n\n[Keylen = 128]\n[IVlen = 8]\n[PTlen = 0]\n[AADlen = 0]\n[Taglen = 32]\n\nCount = 0\nKey = CF063A34D4A9A76C2C86787D3F96DB71\nIV = 11\nCT = \nAAD = \nTag = 72ac8493\nPT = \n\nCount = 1\nKey = a49a5e26a2f8cb63d05546c2a62f5343\nIV = 90\nCT = \nAAD = \nTag = a2be0821\nFAIL\n";

    #[test]
    fn reads_cases_with_their_lengths() {
        let cases = parse(SAMPLE, "x.rsp").unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].algorithm.as_deref(), Some("aes-128-gcm"));
        assert_eq!(cases[0].key, "cf063a34d4a9a76c2c86787d3f96db71");
        assert_eq!((cases[0].iv.len(), cases[0].tag.len()), (2, 8));
        assert_eq!(cases[0].expect, Expectation::Valid);
        assert_eq!(cases[1].expect, Expectation::Invalid);
        assert_eq!(cases[1].source, "x.rsp [Keylen = 128] Count = 1");
        assert!(looks_like_rsp(SAMPLE) && !looks_like_rsp("{\"a\":1}"));
    }

    #[test]
    fn refuses_what_is_not_a_response_file() {
        assert_eq!(parse("# nothing\n", "x"), Err(CavpError::NoCases));
        assert!(matches!(
            parse("Count = 0\nKey = zz\n", "x"),
            Err(CavpError::Malformed { line: 2, .. })
        ));
        assert!(matches!(
            parse("Count = 0\nKey = 00\nIV = 00\nTag = 00\n", "x"),
            Err(CavpError::Malformed { .. })
        ));
        assert!(matches!(parse("hello world\n", "x"), Err(CavpError::Malformed { line: 1, .. })));
    }
}

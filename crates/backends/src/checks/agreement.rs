//! Cross-backend agreement (`cryptobench verify`): every backend computes
//! the one-shot output for the same seeded inputs over many lengths and
//! reports a fingerprint per length; the orchestrator compares them across
//! backends. Each backend also feeds its streaming API random chunks and
//! must reproduce its own one-shot result.

use cryptobench_core::checks::{CheckKind, CheckReport};
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};
use sha2::{Digest, Sha256};

use crate::backend::{inputs_for, pseudo_random_bytes};
use crate::backend::{AeadCall, Backend};
use crate::error::BackendError;

/// SHA-256 of an output, hex: enough to compare megabytes across processes.
pub fn fingerprint(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    hex::encode(h.finalize())
}

/// The one-shot output for one length, as ciphertext ‖ tag or digest.
fn one_shot(backend: &dyn Backend, alg: &AlgorithmSpec, len: usize, seed: u64) -> Result<Vec<u8>, BackendError> {
    let msg = pseudo_random_bytes(seed ^ len as u64, len);
    if alg.is_digest() {
        return backend.digest_once(alg, &msg);
    }
    let inputs = inputs_for(alg, seed.wrapping_add(len as u64));
    if alg.is_mac() {
        return backend.mac_once(alg, &inputs.key, &msg);
    }
    let sealed = backend.encrypt_once(alg, inputs.call(&msg))?;
    let mut out = sealed.ciphertext;
    out.extend_from_slice(&sealed.tag);
    Ok(out)
}

/// Fingerprints of the one-shot outputs for every length the algorithm takes.
pub fn agreement(backend: &dyn Backend, alg: &AlgorithmSpec, lengths: &[usize], seed: u64) -> CheckReport {
    let mut report = CheckReport::new(alg.id, CheckKind::Agreement);
    for &len in lengths {
        if let Some(problem) = alg.size_problem(len) {
            report.skip(problem);
            continue;
        }
        match one_shot(backend, alg, len, seed) {
            Ok(out) => report.fingerprints.push((format!("{len} bytes"), fingerprint(&[&out]))),
            Err(e @ BackendError::Unsupported(_)) => report.skip(e.to_string()),
            Err(e) => report.fail(format!("{len} bytes: {e}")),
        }
    }
    report
}

/// Chunk lengths that add up to `len`: random, and whole multiples of
/// `unit` except for the last one. xorshift from the seed, so every backend splits alike.
pub fn chunks(len: usize, unit: usize, seed: u64) -> Vec<usize> {
    let mut rng = pseudo_random_bytes(seed | 1, 64).into_iter().cycle();
    let mut left = len;
    let mut out = Vec::new();
    while left > 0 {
        let r = usize::from(rng.next().unwrap_or(1)) << 8 | usize::from(rng.next().unwrap_or(1));
        // Sizes from one unit to about a quarter of the message, with a few single units.
        let units_max = (len / unit / 4).max(1);
        let n = (r % units_max + 1) * unit;
        let n = n.min(left);
        out.push(n);
        left -= n;
    }
    out
}

/// The unit a stream must be fed in so that every library can continue it:
/// the block for block modes (GHASH: 16 bytes); any length for digests and MACs; 64 bytes for counter-like modes (Nettle's CTR,
/// CFB and GCM continue after whole 16-byte blocks, its ChaCha-Poly1305 after 64).
fn chunk_unit(alg: &AlgorithmSpec) -> usize {
    if alg.granularity > 1 {
        alg.granularity
    } else if alg.is_digest() || alg.is_mac() {
        1
    } else {
        64
    }
}

/// The streaming API fed random chunks must give the one-shot result.
/// XTS is left out: each of its updates is a data unit of its own.
pub fn chunked(backend: &dyn Backend, alg: &AlgorithmSpec, lengths: &[usize], seed: u64) -> CheckReport {
    let mut report = CheckReport::new(alg.id, CheckKind::Chunked);
    if alg.id.ends_with("-xts") {
        report.skip("XTS: every update is one data unit, so a message cannot be split");
        return report;
    }
    if let Some(problem) = alg.mode_problem(Mode::Stream) {
        report.skip(problem);
        return report;
    }
    for &len in lengths.iter().filter(|&&l| l > 0) {
        if let Some(problem) = alg.size_problem(len) {
            report.skip(problem);
            continue;
        }
        match chunked_once(backend, alg, len, seed) {
            Ok(true) => report.passed += 1,
            Ok(false) => report.fail(format!(
                "{len} bytes in chunks: the streamed output differs from the one-shot output"
            )),
            Err(e @ BackendError::Unsupported(_)) => report.skip(e.to_string()),
            Err(e) => report.fail(format!("{len} bytes in chunks: {e}")),
        }
    }
    report
}

fn chunked_once(backend: &dyn Backend, alg: &AlgorithmSpec, len: usize, seed: u64) -> Result<bool, BackendError> {
    let msg = pseudo_random_bytes(seed ^ len as u64, len);
    let unit = chunk_unit(alg);
    let cell = CellSpec {
        algorithm: alg.id.to_string(),
        operation: match alg.class {
            AlgorithmClass::Digest => Operation::Digest,
            AlgorithmClass::Mac => Operation::Mac,
            _ => Operation::Encrypt,
        },
        mode: Mode::Stream,
        rekey: false,
        size: unit,
        aad: 0,
        unit: cryptobench_core::cell::CellUnit::Bytes,
    };
    let inputs = inputs_for(alg, seed.wrapping_add(len as u64));
    let mut primitive = backend.prepare(&cell, alg, &inputs, &msg[..unit.min(len)])?;
    let mut buf = msg.clone();
    let mut at = 0;
    for n in chunks(len, unit, seed ^ 0x9e37_79b9 ^ len as u64) {
        primitive.run(1, &mut buf[at..at + n])?;
        at += n;
    }
    if alg.is_digest() {
        return Ok(primitive.last_output()? == Some(backend.digest_once(alg, &msg)?));
    }
    if alg.is_mac() {
        return Ok(primitive.last_output()? == Some(backend.mac_once(alg, &inputs.key, &msg)?));
    }
    // Stream mode carries no AAD and no tag: the ciphertext of an AEAD does not depend on them.
    let aad: &[u8] = &[];
    let expected = backend.encrypt_once(alg, AeadCall { aad, ..inputs.call(&msg) })?;
    Ok(buf == expected.ciphertext)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_message_in_whole_units() {
        for (len, unit) in [(1, 1), (100, 1), (4099, 64), (65536, 16), (1 << 20, 64)] {
            let c = chunks(len, unit, 7);
            assert_eq!(c.iter().sum::<usize>(), len);
            assert!(c[..c.len() - 1].iter().all(|n| n % unit == 0), "{len}/{unit}: {c:?}");
            if len >= 64 * unit {
                assert!(c.len() > 2, "{len}: not split: {c:?}");
            }
        }
    }

    #[test]
    fn fingerprints_tell_outputs_apart() {
        assert_eq!(fingerprint(&[b"ab", b"c"]), fingerprint(&[b"abc"]));
        assert_ne!(fingerprint(&[b"abc"]), fingerprint(&[b"abd"]));
    }
}

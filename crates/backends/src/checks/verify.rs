//! The checks a backend passes before anything is timed: published known
//! answers, round trips over many lengths, AEAD tamper rejection (in the
//! one-shot calls and in the timed `open`), and that the prepared (timed)
//! primitive computes what the verified path computes.

use cryptobench_core::cell::{CellUnit, DEFAULT_AAD_LEN};
use cryptobench_core::result::VerificationOutcome;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};

use crate::backend::{inputs_for, pseudo_random_bytes, AeadCall, Backend, CellInputs, Tamper};
use crate::checks::known_answers::{known_answers_for, KnownAnswer};
use crate::error::BackendError;
use crate::primitive::Primitive;
use crate::support::Support;

/// Verifies one algorithm of a backend; `Passed` carries the number of checks made.
pub fn verify_algorithm(backend: &dyn Backend, alg: &AlgorithmSpec) -> VerificationOutcome {
    if let Support::Unsupported(reason) = backend.support(alg) {
        return VerificationOutcome::Unsupported { reason };
    }
    let result = known_answers(backend, alg).and_then(|kat| {
        let round_trips = if alg.is_digest() {
            digest_consistency(backend, alg)?
        } else if alg.is_mac() {
            mac_consistency(backend, alg)?
        } else {
            round_trips(backend, alg)?
        };
        Ok(kat + round_trips)
    });
    match result {
        Ok(checks) => VerificationOutcome::Passed { checks },
        Err(reason) => VerificationOutcome::Failed { reason },
    }
}

fn unhex(field: &str) -> Vec<u8> {
    hex::decode(field).expect("known answers are valid hex (checked by known_answers tests)")
}

fn call<T>(what: impl FnOnce() -> String, r: Result<T, BackendError>) -> Result<T, String> {
    r.map_err(|e| format!("{}: {e}", what()))
}

fn known_answers(backend: &dyn Backend, alg: &AlgorithmSpec) -> Result<usize, String> {
    let mut checks = 0;
    for ka in known_answers_for(alg.id) {
        checks += known_answer(backend, alg, ka)?;
    }
    if let Some(iterated) = crate::checks::ocb_iterated::check(backend, alg) {
        checks += iterated?;
    }
    if checks == 0 {
        return Err(format!("no known answers are recorded for {}", alg.id));
    }
    Ok(checks)
}

fn known_answer(backend: &dyn Backend, alg: &AlgorithmSpec, ka: &KnownAnswer) -> Result<usize, String> {
    let (key, iv, aad, input, output, tag) = (
        unhex(ka.key),
        unhex(ka.iv),
        unhex(ka.aad),
        unhex(ka.input),
        unhex(ka.output),
        unhex(ka.tag),
    );
    let label = || format!("known answer ({})", ka.source);
    let message = |data| AeadCall {
        key: &key,
        iv: &iv,
        aad: &aad,
        data,
    };
    if alg.is_mac() {
        let got = call(label, backend.mac_once(alg, &key, &input))?;
        return if got == output {
            Ok(1)
        } else {
            Err(format!(
                "{}: MAC {} differs from the published {}",
                label(),
                hex::encode(got),
                ka.output
            ))
        };
    }
    if alg.is_digest() {
        let got = call(label, backend.digest_once(alg, &input))?;
        return if got == output {
            Ok(1)
        } else {
            Err(format!(
                "{}: digest {} differs from the published {}",
                label(),
                hex::encode(got),
                ka.output
            ))
        };
    }
    let sealed = call(label, backend.encrypt_once(alg, message(&input)))?;
    if sealed.ciphertext != output {
        return Err(format!(
            "{}: ciphertext {} differs from the published {}",
            label(),
            hex::encode(&sealed.ciphertext),
            ka.output
        ));
    }
    if sealed.tag != tag {
        return Err(format!(
            "{}: tag {} differs from the published {}",
            label(),
            hex::encode(&sealed.tag),
            ka.tag
        ));
    }
    let plain = call(label, backend.decrypt_once(alg, message(&output), &tag))?;
    if plain != input {
        return Err(format!("{}: decryption does not give the plaintext back", label()));
    }
    let mut checks = 2;
    if alg.class == AlgorithmClass::Aead {
        checks += tamper_checks(backend, alg, message(&output), &tag)?;
    }
    Ok(checks)
}

/// A flipped bit in the tag, the ciphertext or the AAD must be rejected.
fn tamper_checks(backend: &dyn Backend, alg: &AlgorithmSpec, sealed: AeadCall, tag: &[u8]) -> Result<usize, String> {
    let (ct, aad) = (sealed.data, sealed.aad);
    let flip = |v: &[u8]| {
        let mut v = v.to_vec();
        if let Some(b) = v.first_mut() {
            *b ^= 1;
        }
        v
    };
    let mut cases = vec![("tag", ct.to_vec(), flip(tag), aad.to_vec())];
    if !ct.is_empty() {
        cases.push(("ciphertext", flip(ct), tag.to_vec(), aad.to_vec()));
    }
    if !aad.is_empty() {
        cases.push(("AAD", ct.to_vec(), tag.to_vec(), flip(aad)));
    }
    for (what, c, t, a) in &cases {
        match backend.decrypt_once(alg, AeadCall { aad: a, data: c, ..sealed }, t) {
            Err(BackendError::AuthenticationFailed) => {}
            Ok(_) => return Err(format!("a message with a tampered {what} was accepted")),
            Err(e) => return Err(format!("a message with a tampered {what} gave an unexpected error: {e}")),
        }
    }
    Ok(cases.len())
}

/// Message lengths for round trips: empty, odd and block-multiple, allowed by the mode.
fn round_trip_lengths(alg: &AlgorithmSpec) -> Vec<usize> {
    [0, 1, 15, 16, 17, 31, 64, 100, 1024, 4099, 65536]
        .into_iter()
        .filter(|&n| alg.size_problem(n).is_none())
        .collect()
}

fn round_trips(backend: &dyn Backend, alg: &AlgorithmSpec) -> Result<usize, String> {
    let mut checks = 0;
    for (i, len) in round_trip_lengths(alg).into_iter().enumerate() {
        let inputs = inputs_for(alg, 1000 + i as u64);
        let plain = pseudo_random_bytes(77 + i as u64, len);
        let label = || format!("round trip of {len} bytes");
        let sealed = match backend.encrypt_once(alg, inputs.call(&plain)) {
            // A length the library cannot take at all (OpenSSL's SIV and an empty message) is not a wrong answer.
            Err(BackendError::Unsupported(_)) if len == 0 => continue,
            other => call(label, other)?,
        };
        if len >= 16 && sealed.ciphertext == plain {
            return Err(format!("{}: the ciphertext equals the plaintext", label()));
        }
        let back = call(label, backend.decrypt_once(alg, inputs.call(&sealed.ciphertext), &sealed.tag))?;
        if back != plain {
            return Err(format!("{}: decryption does not give the plaintext back", label()));
        }
        checks += 1;
        if alg.class == AlgorithmClass::Aead {
            checks += tamper_checks(backend, alg, inputs.call(&sealed.ciphertext), &sealed.tag)?;
        }
    }
    if alg.class == AlgorithmClass::Aead {
        checks += timed_tamper_checks(backend, alg)?;
    }
    Ok(checks)
}

/// The cell the tamper checks prepare: `message` decryption of 32 bytes
/// with the default AAD.
pub fn message_decryption_cell(alg: &AlgorithmSpec) -> CellSpec {
    CellSpec {
        algorithm: alg.id.into(),
        operation: Operation::Decrypt,
        mode: Mode::Message,
        rekey: false,
        size: 32,
        aad: DEFAULT_AAD_LEN,
        unit: CellUnit::Bytes,
    }
}

/// The timed `open` verifies what it decrypts: a `message` decryption cell
/// prepared over a message with a flipped tag bit, and one over a message
/// with a flipped ciphertext bit ([`Backend::prepare_tampered`]), each fail
/// their timed call authenticating. The checks made: 2, or 0 where the
/// library times no decryption (ring opens in place only: the cell is `n/a`).
pub fn timed_tamper_checks(backend: &dyn Backend, alg: &AlgorithmSpec) -> Result<usize, String> {
    let cell = message_decryption_cell(alg);
    let (inputs, message) = (inputs_for(alg, 4242), pseudo_random_bytes(4243, cell.size));
    let mut checks = 0;
    for tamper in [Tamper::Tag, Tamper::Ciphertext] {
        let what = tamper.name();
        let mut timed = match backend.prepare_tampered(&cell, alg, &inputs, &message, tamper) {
            Ok(p) => p,
            Err(BackendError::Unsupported(_)) => return Ok(0),
            Err(e) => {
                return Err(format!(
                    "the timed decryption of a message with a tampered {what} could not be prepared: {e}"
                ))
            }
        };
        match timed.run(1, &mut vec![0u8; cell.size]) {
            Err(BackendError::AuthenticationFailed) => checks += 1,
            Ok(()) => return Err(format!("the timed decryption accepted a message with a tampered {what}")),
            Err(e) => {
                return Err(format!(
                    "the timed decryption of a message with a tampered {what} gave an unexpected error: {e}"
                ))
            }
        }
    }
    Ok(checks)
}

/// Digests: same input, same value; one bit more, another value.
fn digest_consistency(backend: &dyn Backend, alg: &AlgorithmSpec) -> Result<usize, String> {
    let mut checks = 0;
    for len in round_trip_lengths(alg) {
        let mut msg = pseudo_random_bytes(len as u64 + 5, len);
        let a = call(|| format!("digest of {len} bytes"), backend.digest_once(alg, &msg))?;
        let b = call(|| format!("digest of {len} bytes"), backend.digest_once(alg, &msg))?;
        if a != b || a.len() != alg.digest_len {
            return Err(format!("digest of {len} bytes is not deterministic or has the wrong length"));
        }
        if let Some(x) = msg.first_mut() {
            *x ^= 1;
            if call(|| "digest".into(), backend.digest_once(alg, &msg))? == a {
                return Err(format!("digests of two different {len}-byte messages are equal"));
            }
        }
        checks += 1;
    }
    Ok(checks)
}

/// MACs: same key and message, same tag of the right length; another key
/// or a flipped message bit, another tag.
fn mac_consistency(backend: &dyn Backend, alg: &AlgorithmSpec) -> Result<usize, String> {
    let mut checks = 0;
    for (i, len) in round_trip_lengths(alg).into_iter().enumerate() {
        let key = pseudo_random_bytes(300 + i as u64, alg.key_len);
        let mut msg = pseudo_random_bytes(len as u64 + 9, len);
        let label = || format!("MAC of {len} bytes");
        let a = call(label, backend.mac_once(alg, &key, &msg))?;
        if a.len() != alg.digest_len || call(label, backend.mac_once(alg, &key, &msg))? != a {
            return Err(format!("{}: not deterministic or not {} bytes long", label(), alg.digest_len));
        }
        // Universal hashes of an empty message do not depend on the key (GHASH gives 0).
        let mut other = key.clone();
        other[key.len() - 1] ^= 1;
        if len > 0 && call(label, backend.mac_once(alg, &other, &msg))? == a {
            return Err(format!("{}: two keys give the same tag", label()));
        }
        if let Some(x) = msg.first_mut() {
            *x ^= 1;
            if call(label, backend.mac_once(alg, &key, &msg))? == a {
                return Err(format!("{}: two messages give the same tag", label()));
            }
        }
        checks += 1;
    }
    Ok(checks)
}

/// Runs a freshly prepared primitive once on a copy of `buf` and checks the
/// result against the verified one-shot path; the primitive is then timed.
pub fn check_primitive(
    backend: &dyn Backend,
    cell: &CellSpec,
    alg: &AlgorithmSpec,
    inputs: &CellInputs,
    primitive: &mut dyn Primitive,
    buf: &[u8],
) -> Result<(), String> {
    let mut work = buf.to_vec();
    call(|| "the prepared operation".into(), primitive.run(1, &mut work))?;
    if cell.mode == Mode::Message {
        // Every message is the same work from the same state: a second one from the same
        // buffer gives the same result (a library carrying state from message to message,
        // such as AAD that accumulates, fails here rather than timing the wrong work).
        let first = call(|| "the prepared operation".into(), primitive.last_output())?;
        let mut again = buf.to_vec();
        call(|| "the prepared operation, a second message".into(), primitive.run(1, &mut again))?;
        if again != work || call(|| "the second message".into(), primitive.last_output())? != first {
            return Err(format!(
                "the timed {} path gives another result for the same second message: it carries state from one message to the next",
                cell.mode_label()
            ));
        }
    }
    let mismatch = |what: &str| {
        Err(format!(
            "the timed {} path computes a different {what} than the verified one",
            cell.mode_label()
        ))
    };
    let aad: &[u8] = if cell.mode == Mode::Message { &inputs.aad } else { &[] };
    match cell.operation {
        Operation::Sign | Operation::Verify | Operation::Keygen | Operation::Encaps | Operation::Decaps | Operation::Derive => {
            return Err(format!(
                "{} is a public-key operation (crates/backends/src/checks/pk_verify.rs checks those)",
                cell.operation.short()
            ));
        }
        Operation::Mac => {
            let expected = call(|| "MAC".into(), backend.mac_once(alg, &inputs.key, buf))?;
            if call(|| "MAC".into(), primitive.last_output())? != Some(expected) {
                return mismatch("MAC");
            }
        }
        Operation::Digest => {
            let expected = call(|| "digest".into(), backend.digest_once(alg, buf))?;
            if call(|| "digest".into(), primitive.last_output())? != Some(expected) {
                return mismatch("digest");
            }
        }
        Operation::Encrypt => {
            let expected = call(
                || "encryption".into(),
                backend.encrypt_once(alg, AeadCall { aad, ..inputs.call(buf) }),
            )?;
            if work != expected.ciphertext {
                return mismatch("ciphertext");
            }
            if cell.mode == Mode::Message
                && alg.class == AlgorithmClass::Aead
                && call(|| "tag".into(), primitive.last_output())? != Some(expected.tag)
            {
                return mismatch("tag");
            }
        }
        Operation::Decrypt if cell.mode == Mode::Message => {
            if work != buf {
                return mismatch("plaintext");
            }
        }
        Operation::Decrypt => {
            let again = call(
                || "encryption".into(),
                backend.encrypt_once(
                    alg,
                    AeadCall {
                        aad: &[],
                        ..inputs.call(&work)
                    },
                ),
            )?;
            if again.ciphertext != buf {
                return mismatch("plaintext");
            }
        }
    }
    Ok(())
}

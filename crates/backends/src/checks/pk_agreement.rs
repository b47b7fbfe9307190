//! Cross-library agreement for public key (`cryptobench verify`): every
//! backend reports fingerprints of the outputs that do not depend on
//! randomness, for the same seeded keys and messages; the orchestrator
//! compares them across backends (src/cross_check.rs), as for the
//! symmetric catalog. What is compared: public keys computed from the same
//! private keys, deterministic signatures (RSA PKCS#1 v1.5, EdDSA), derived
//! secrets, ML-KEM decapsulation of a ciphertext that does not belong to the
//! key (FIPS 203's implicit rejection is deterministic), and RSA-OAEP
//! decryption of a ciphertext RustCrypto made with a seeded generator.
//! Randomised signatures are compared by verification instead, before
//! timing (crates/backends/src/checks/pk_verify.rs).

use cryptobench_core::checks::{CheckKind, CheckReport};
use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};

use crate::backend::Backend;
use crate::checks::agreement::fingerprint;
use crate::checks::pk_verify::pk_of;
use crate::error::BackendError;
use crate::pk::keys::{keys_for, seeded_bytes};

/// Messages per signing algorithm.
const MESSAGES: u64 = 4;

fn record(report: &mut CheckReport, case: String, r: Result<Vec<u8>, BackendError>) {
    match r {
        Ok(out) => report.fingerprints.push((case, fingerprint(&[&out]))),
        Err(e @ BackendError::Unsupported(_)) => report.skip(e.to_string()),
        Err(e) => report.fail(format!("{case}: {e}")),
    }
}

/// Fingerprints of `alg`'s deterministic outputs for the seed.
pub fn agreement(backend: &dyn Backend, alg: &PkAlgorithmSpec, seed: u64) -> CheckReport {
    let mut report = CheckReport::new(alg.id, CheckKind::Agreement);
    let pk = match pk_of(backend, alg) {
        Ok(pk) => pk,
        Err(reason) => {
            report.skip(reason);
            return report;
        }
    };
    let keys = keys_for(alg, seed);
    if !alg.is_rsa() {
        record(&mut report, "public key from the private key".into(), pk.public_key(alg, &keys));
    }
    match alg.kind {
        PkKind::RsaPkcs1 | PkKind::EdDsa => {
            for n in 0..MESSAGES {
                let len = if alg.message_sized {
                    [0, 1, 20, 1000][n as usize]
                } else {
                    alg.message_len
                };
                let m = seeded_bytes("agreement", seed ^ n, len);
                record(
                    &mut report,
                    format!("signature of message {n} ({len} bytes)"),
                    pk.sign(alg, &keys, &m),
                );
            }
        }
        PkKind::Ecdh => record(&mut report, "derived secret".into(), pk.derive(alg, &keys)),
        PkKind::MlKem => {
            let (ct, _) = match crate::libraries::open_reference().and_then(|r| r.pk().map(|r| r.encapsulate(alg, &keys))) {
                Some(Ok(x)) => x,
                _ => (Vec::new(), Vec::new()),
            };
            let foreign = seeded_bytes("foreign ciphertext", seed, ct.len());
            record(
                &mut report,
                "decapsulation of a ciphertext of another key (implicit rejection)".into(),
                pk.decapsulate(alg, &keys, &foreign),
            );
        }
        PkKind::RsaOaep => {
            let m = seeded_bytes("oaep", seed, alg.message_len);
            match crate::pk::keys::seeded_oaep_ciphertext(alg, &keys, &m, seed) {
                Ok(ct) => record(
                    &mut report,
                    "decryption of a seeded OAEP ciphertext".into(),
                    pk.decrypt(alg, &keys, &ct),
                ),
                Err(e) => report.fail(e),
            }
        }
        _ => {}
    }
    report
}

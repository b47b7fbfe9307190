//! The checks a backend passes before any public-key cell is timed
//! (docs/METHOD.md, "Public key"):
//!
//! 1. published known answers (crates/backends/src/checks/pk_known_answers.rs):
//!    deterministic signatures byte for byte (Ed25519), verification of
//!    published signatures and rejection of a tampered one (Ed448, ECDSA,
//!    RSA), derived secrets (X25519, X448, ECDH), public keys from seeds
//!    (ML-KEM, ML-DSA);
//! 2. round trips on the run's seeded keys: sign → verify (and a tampered
//!    signature and another message rejected), encrypt → decrypt,
//!    encapsulate → decapsulate to the same secret (a tampered ciphertext to
//!    another), both parties deriving the same secret;
//! 3. another library, in the same worker: RustCrypto (linked into every
//!    worker) verifies this library's signatures and this library verifies
//!    RustCrypto's, decapsulates each other's ciphertexts, derives and
//!    computes public keys alike; deterministic signatures (RSA PKCS#1 v1.5,
//!    Ed25519) must be identical;
//! 4. the malleability check (malleability.rs): a non-canonical form of
//!    the library's own signature must be rejected; one accepted is a
//!    library defect (`VerificationOutcome::Defect`), and the algorithm is
//!    still timed, its verify cells marked;
//! 5. the timed primitive itself ([`check_pk_primitive`]).

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptobench_core::result::VerificationOutcome;
use cryptobench_core::{CellSpec, Operation};
use sha2::{Digest, Sha256};

use crate::backend::Backend;
use crate::checks::malleability;
use crate::checks::pk_known_answers::{pk_known_answers_for, PkKnownAnswer};
use crate::error::BackendError;
use crate::pk::keys::{ec_keys_from_scalar, keys_for, seeded_bytes, PkKeys, RUN_SEED};
use crate::pk::PkBackend;
use crate::primitive::Primitive;
use crate::support::Support;

/// The backend's public-key side, or why it has none for `alg`.
pub fn pk_of<'a>(backend: &'a dyn Backend, alg: &PkAlgorithmSpec) -> Result<&'a dyn PkBackend, String> {
    let pk = backend
        .pk()
        .ok_or_else(|| format!("{} has no public-key operations in cryptobench", backend.info().name))?;
    match pk.pk_support(alg) {
        Support::Supported => Ok(pk),
        Support::Unsupported(reason) => Err(reason),
    }
}

/// Verifies one public-key algorithm of a backend; `Passed` carries the number of checks.
pub fn verify_pk_algorithm(backend: &dyn Backend, alg: &PkAlgorithmSpec) -> VerificationOutcome {
    let pk = match pk_of(backend, alg) {
        Ok(pk) => pk,
        Err(reason) => return VerificationOutcome::Unsupported { reason },
    };
    let keys = keys_for(alg, RUN_SEED);
    let reference = (backend.info().id != crate::libraries::REFERENCE)
        .then(crate::libraries::open_reference)
        .flatten();
    let reference = reference
        .as_deref()
        .and_then(|r| r.pk())
        .filter(|r| r.pk_support(alg) == Support::Supported);
    let result = known_answers(pk, alg).and_then(|kat| {
        let own = round_trips(pk, alg, &keys)?;
        let other = match reference {
            Some(r) => cross_check(pk, r, alg, &keys)?,
            None => 0,
        };
        let (malleability, defects) = malleability::check(pk, alg, &keys, &crate::checks::defects::Library::of(backend))?;
        Ok((kat + own + other + malleability, defects))
    });
    match result {
        Ok((checks, defects)) if defects.is_empty() => VerificationOutcome::Passed { checks },
        Ok((checks, defects)) => VerificationOutcome::Defect { checks, defects },
        Err(reason) => VerificationOutcome::Failed { reason },
    }
}

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("known answers are hex (tested)")
}

fn call<T>(what: &str, r: Result<T, BackendError>) -> Result<T, String> {
    r.map_err(|e| format!("{what}: {e}"))
}

/// The value, or None where the library does not offer the call.
fn optional<T>(r: Result<T, BackendError>) -> Result<Option<T>, String> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(BackendError::Unsupported(_)) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

fn flip(v: &[u8]) -> Vec<u8> {
    let mut v = v.to_vec();
    if let Some(b) = v.last_mut() {
        *b ^= 1;
    }
    v
}

/// A signature with one bit flipped that every verifier must examine: the
/// lowest bit of S for EdDSA (S is little-endian in the second half; its
/// last byte is above L, which is the malleability check's business,
/// malleability.rs), the last byte of the rest (the low byte of s in DER
/// ECDSA and in RSA, the end of an ML-DSA or SLH-DSA signature).
fn tamper(alg: &PkAlgorithmSpec, signature: &[u8]) -> Vec<u8> {
    if alg.kind != PkKind::EdDsa {
        return flip(signature);
    }
    let mut v = signature.to_vec();
    if let Some(b) = v.get_mut(signature.len() / 2) {
        *b ^= 1;
    }
    v
}

fn known_answers(pk: &dyn PkBackend, alg: &PkAlgorithmSpec) -> Result<usize, String> {
    let mut checks = 0;
    for ka in pk_known_answers_for(alg.id) {
        checks += known_answer(pk, alg, ka).map_err(|e| format!("known answer ({}): {e}", ka.source))?;
    }
    checks += pk
        .own_known_answers(alg)
        .map_err(|e| format!("the library's own known answer: {e}"))?;
    Ok(checks)
}

fn known_answer(pk: &dyn PkBackend, alg: &PkAlgorithmSpec, ka: &PkKnownAnswer) -> Result<usize, String> {
    let mut checks = 0;
    match alg.kind {
        PkKind::EdDsa | PkKind::Ecdsa | PkKind::RsaPkcs1 | PkKind::RsaPss => {
            let (message, signature) = (unhex(ka.message), unhex(ka.output));
            if !ka.seed.is_empty() {
                let keys = PkKeys {
                    seed: unhex(ka.seed),
                    ..PkKeys::default()
                };
                // A library that cannot compute a public key alone (libgcrypt) is checked by its signature.
                if let Some(public) = optional(pk.public_key(alg, &keys))? {
                    if public != unhex(ka.public) {
                        return Err("the public key computed from the secret differs from the published one".into());
                    }
                    checks += 1;
                }
                if call("signing", pk.sign(alg, &keys, &message))? != signature {
                    return Err("the signature differs from the published one".into());
                }
                checks += 1;
            }
            let public = PkKeys {
                public: if alg.kind == PkKind::Ecdsa {
                    crate::pk::encoding::point_of_spki(alg, &unhex(ka.public_der))
                } else {
                    unhex(ka.public)
                },
                public_der: unhex(ka.public_der),
                ..PkKeys::default()
            };
            if !call("verification", pk.verify(alg, &public, &message, &signature))? {
                return Err("the published signature does not verify".into());
            }
            if call("verification", pk.verify(alg, &public, &message, &tamper(alg, &signature)))? {
                return Err("a tampered signature verifies".into());
            }
            checks += 2;
        }
        PkKind::Ecdh => {
            let mut keys = if ka.ec_private.is_empty() {
                PkKeys {
                    seed: unhex(ka.seed),
                    ..PkKeys::default()
                }
            } else {
                ec_keys_from_scalar(alg, &unhex(ka.ec_private))?
            };
            keys.peer = Some(Box::new(PkKeys {
                public: unhex(ka.peer_public),
                ..PkKeys::default()
            }));
            if call("key agreement", pk.derive(alg, &keys))? != unhex(ka.output) {
                return Err("the derived secret differs from the published one".into());
            }
            checks += 1;
        }
        PkKind::MlKem | PkKind::MlDsa | PkKind::SlhDsa | PkKind::Falcon | PkKind::Hqc => {
            let keys = PkKeys {
                seed: unhex(ka.seed),
                ..PkKeys::default()
            };
            let public = call("public key from the seed", pk.public_key(alg, &keys))?;
            if hex::encode(Sha256::digest(&public)) != ka.public_sha256 {
                return Err("the public key generated from the seed differs from the published one".into());
            }
            checks += 1;
        }
        PkKind::RsaOaep => {}
    }
    Ok(checks)
}

/// What sign and verify calls sign in checks: a digest-length or openssl-speed-length message.
fn check_message(alg: &PkAlgorithmSpec, n: u64) -> Vec<u8> {
    seeded_bytes("message", n, alg.message_len.max(1))
}

fn round_trips(pk: &dyn PkBackend, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<usize, String> {
    let mut checks = 0;
    match alg.kind {
        _ if alg.signs() => {
            let (m1, m2) = (check_message(alg, 1), check_message(alg, 2));
            let sig = call("signing", pk.sign(alg, keys, &m1))?;
            if !call("verification", pk.verify(alg, keys, &m1, &sig))? {
                return Err("a fresh signature does not verify".into());
            }
            if call("verification", pk.verify(alg, keys, &m1, &tamper(alg, &sig)))? {
                return Err("a tampered signature verifies".into());
            }
            if call("verification", pk.verify(alg, keys, &m2, &sig))? {
                return Err("a signature verifies for another message".into());
            }
            checks += 3;
        }
        PkKind::RsaOaep => {
            let m = check_message(alg, 3);
            let ct = call("encryption", pk.encrypt(alg, keys, &m))?;
            if call("decryption", pk.decrypt(alg, keys, &ct))? != m {
                return Err("decryption does not give the message back".into());
            }
            match pk.decrypt(alg, keys, &flip(&ct)) {
                Ok(x) if x == m => return Err("a tampered ciphertext decrypts to the message".into()),
                _ => {}
            }
            checks += 2;
        }
        PkKind::Ecdh => {
            let ours = call("key agreement", pk.derive(alg, keys))?;
            let peer = keys.peer.as_deref().ok_or("key agreement without a peer")?;
            let mut theirs = peer.clone();
            theirs.peer = Some(Box::new(PkKeys {
                public: match optional(pk.public_key(alg, keys))? {
                    Some(p) => p,
                    None => keys.public.clone(),
                },
                ..PkKeys::default()
            }));
            if call("key agreement", pk.derive(alg, &theirs))? != ours {
                return Err("the two parties derive different secrets".into());
            }
            checks += 1;
        }
        _ if alg.encapsulates() => {
            let (ct, ss) = call("encapsulation", pk.encapsulate(alg, keys))?;
            if call("decapsulation", pk.decapsulate(alg, keys, &ct))? != ss {
                return Err("decapsulation gives another secret than encapsulation".into());
            }
            // ML-KEM rejects implicitly: a tampered ciphertext gives another
            // secret, never an error (FIPS 203 §6.3). HQC as liboqs ships it
            // (round 4) writes its implicit-rejection secret and also reports
            // the rejection (kem.c's crypto_kem_dec returns -1: OQS_ERROR).
            match pk.decapsulate(alg, keys, &flip(&ct)) {
                Ok(x) if x == ss => return Err("a tampered ciphertext decapsulates to the same secret".into()),
                Err(e) if alg.kind == PkKind::MlKem => return Err(format!("decapsulation: {e}")),
                _ => {}
            }
            checks += 2;
        }
        _ => {}
    }
    Ok(checks)
}

fn cross_check(pk: &dyn PkBackend, other: &dyn PkBackend, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<usize, String> {
    let mut checks = 0;
    let vs = |what: &str| format!("{what} (checked against RustCrypto)");
    if !matches!(alg.kind, PkKind::RsaPkcs1 | PkKind::RsaPss | PkKind::RsaOaep) {
        if let Some(ours) = optional(pk.public_key(alg, keys))? {
            if ours != call("RustCrypto's public key", other.public_key(alg, keys))? {
                return Err(vs("the public key differs from RustCrypto's for the same private key"));
            }
            checks += 1;
        }
    }
    match alg.kind {
        _ if alg.signs() => {
            let m = check_message(alg, 4);
            let ours = call("signing", pk.sign(alg, keys, &m))?;
            let theirs = call("RustCrypto's signing", other.sign(alg, keys, &m))?;
            if !call("RustCrypto's verification", other.verify(alg, keys, &m, &ours))? {
                return Err(vs("RustCrypto rejects this library's signature"));
            }
            if !call("verification", pk.verify(alg, keys, &m, &theirs))? {
                return Err(vs("this library rejects RustCrypto's signature"));
            }
            checks += 2;
            if matches!(alg.kind, PkKind::RsaPkcs1 | PkKind::EdDsa) {
                if ours != theirs {
                    return Err(vs("the deterministic signature differs from RustCrypto's"));
                }
                checks += 1;
            }
        }
        PkKind::RsaOaep => {
            let m = check_message(alg, 5);
            let ct = call("encryption", pk.encrypt(alg, keys, &m))?;
            if call("RustCrypto's decryption", other.decrypt(alg, keys, &ct))? != m {
                return Err(vs("RustCrypto does not decrypt this library's ciphertext"));
            }
            let ct = call("RustCrypto's encryption", other.encrypt(alg, keys, &m))?;
            if call("decryption", pk.decrypt(alg, keys, &ct))? != m {
                return Err(vs("this library does not decrypt RustCrypto's ciphertext"));
            }
            checks += 2;
        }
        PkKind::Ecdh => {
            if call("key agreement", pk.derive(alg, keys))? != call("RustCrypto's key agreement", other.derive(alg, keys))? {
                return Err(vs("the derived secret differs from RustCrypto's"));
            }
            checks += 1;
        }
        PkKind::MlKem => {
            let (ct, ss) = call("encapsulation", pk.encapsulate(alg, keys))?;
            if call("RustCrypto's decapsulation", other.decapsulate(alg, keys, &ct))? != ss {
                return Err(vs("RustCrypto decapsulates this library's ciphertext to another secret"));
            }
            let (ct, ss) = call("RustCrypto's encapsulation", other.encapsulate(alg, keys))?;
            if call("decapsulation", pk.decapsulate(alg, keys, &ct))? != ss {
                return Err(vs("this library decapsulates RustCrypto's ciphertext to another secret"));
            }
            checks += 2;
        }
        _ => {}
    }
    Ok(checks)
}

/// Runs a freshly prepared public-key primitive once on `message` and checks
/// what it produced with the verified one-shot calls; the primitive is then timed.
/// Encapsulating and decapsulating primitives report ciphertext ‖ secret.
pub fn check_pk_primitive(
    pk: &dyn PkBackend,
    cell: &CellSpec,
    alg: &PkAlgorithmSpec,
    keys: &PkKeys,
    primitive: &mut dyn Primitive,
    message: &[u8],
) -> Result<(), String> {
    let mut work = message.to_vec();
    call("the prepared operation", primitive.run(1, &mut work))?;
    let out = call("the prepared operation's output", primitive.last_output())?.unwrap_or_default();
    let wrong = |what: &str| Err(format!("the timed {} path {what}", cell.operation.short()));
    match cell.operation {
        Operation::Sign => {
            if !call("verification", pk.verify(alg, keys, message, &out))? {
                return wrong("makes a signature that does not verify");
            }
        }
        Operation::Verify => {
            if !call("verification", pk.verify(alg, keys, message, &out))? {
                return wrong("verified a signature the one-shot call rejects");
            }
        }
        Operation::Encrypt => {
            if call("decryption", pk.decrypt(alg, keys, &out))? != message {
                return wrong("makes a ciphertext that does not decrypt to the message");
            }
        }
        Operation::Decrypt => {
            if out != message {
                return wrong("does not give the message back");
            }
        }
        Operation::Derive => {
            if out != call("key agreement", pk.derive(alg, keys))? {
                return wrong("derives another secret than the one-shot call");
            }
        }
        Operation::Encaps | Operation::Decaps => {
            let Some(split) = out.len().checked_sub(alg.shared_secret_len()) else {
                return wrong("reports no ciphertext and secret");
            };
            let (ct, ss) = out.split_at(split);
            if call("decapsulation", pk.decapsulate(alg, keys, ct))? != ss {
                return wrong("gives a secret the ciphertext does not decapsulate to");
            }
        }
        Operation::Keygen => {
            // RSA: each library encodes a new public key its own way (the modulus, RSAPublicKey DER).
            let expected = match optional(pk.public_key(alg, keys))? {
                Some(public) if !alg.is_rsa() => public.len(),
                _ => out.len().max(1),
            };
            if out.len() != expected {
                return wrong(&format!("makes a {}-byte public key, not {expected}", out.len()));
            }
        }
        Operation::Digest | Operation::Mac => return wrong("is not a public-key operation"),
    }
    Ok(())
}

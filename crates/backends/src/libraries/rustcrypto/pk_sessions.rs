//! RustCrypto's public-key sessions: a state made once (keys decoded, the
//! generator seeded) and the one call a timed operation makes on it, a
//! function of the state (for the crates generic over a curve or parameter
//! set, one per type: pk_generic.rs). Signatures go out and come in as the
//! bytes every library exchanges (DER for ECDSA, FIPS 204's encoding for
//! ML-DSA), so a sign call encodes and a verify call decodes, as OpenSSL's do.

use std::hint::black_box;

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;
use rand_core::Rng;
use rsa::{Oaep, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};
use sha2::Sha256;

use super::pk_keys::{array, bad, peer, rng, rsa_private, rsa_public};
use crate::error::BackendError;
use crate::named::Allocation;
use crate::pk::keys::PkKeys;
use crate::pk::PkSession;

type Done = Result<(), BackendError>;
/// Whether a signature verifies.
type Verdict = Result<bool, BackendError>;

/// The call a session makes per timed operation, on its state.
pub enum Call<S> {
    Sign(fn(&mut S, &[u8], &mut Vec<u8>) -> Done),
    Verify(fn(&mut S, &[u8], &[u8]) -> Verdict),
    Encrypt(fn(&mut S, &[u8], &mut Vec<u8>) -> Done),
    Decrypt(fn(&mut S, &[u8], &mut Vec<u8>) -> Done),
    Derive(fn(&mut S, &mut Vec<u8>) -> Done),
    Encapsulate(fn(&mut S, &mut Vec<u8>, &mut Vec<u8>) -> Done),
    Decapsulate(fn(&mut S, &[u8], &mut Vec<u8>) -> Done),
    /// A new key pair kept in the state, and its public key read from there.
    Keygen(fn(&mut S) -> Done, fn(&S) -> Vec<u8>),
}

/// A state and its call; `allocates` names what the crate allocates per call.
pub struct Session<S> {
    state: S,
    call: Call<S>,
    allocates: Option<&'static str>,
}

pub type Boxed = Box<dyn PkSession + 'static>;

/// A session whose calls allocate nothing.
pub fn session<S: 'static>(state: S, call: Call<S>) -> Boxed {
    Box::new(Session {
        state,
        call,
        allocates: None,
    })
}

/// A session whose crate allocates inside its calls, for the reason given.
pub fn allocating<S: 'static>(state: S, call: Call<S>, why: &'static str) -> Boxed {
    Box::new(Session {
        state,
        call,
        allocates: Some(why),
    })
}

fn not_this(what: &str) -> BackendError {
    BackendError::Unsupported(format!("{what} (the session was made for another operation)"))
}

impl<S> PkSession for Session<S> {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Done {
        match self.call {
            Call::Sign(f) => f(&mut self.state, message, signature),
            _ => Err(not_this("signing")),
        }
    }
    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Verdict {
        match self.call {
            Call::Verify(f) => f(&mut self.state, message, signature),
            _ => Err(not_this("verification")),
        }
    }
    fn encrypt(&mut self, message: &[u8], ciphertext: &mut Vec<u8>) -> Done {
        match self.call {
            Call::Encrypt(f) => f(&mut self.state, message, ciphertext),
            _ => Err(not_this("encryption")),
        }
    }
    fn decrypt(&mut self, ciphertext: &[u8], message: &mut Vec<u8>) -> Done {
        match self.call {
            Call::Decrypt(f) => f(&mut self.state, ciphertext, message),
            _ => Err(not_this("decryption")),
        }
    }
    fn derive(&mut self, secret: &mut Vec<u8>) -> Done {
        match self.call {
            Call::Derive(f) => f(&mut self.state, secret),
            _ => Err(not_this("key agreement")),
        }
    }
    fn encapsulate(&mut self, ciphertext: &mut Vec<u8>, secret: &mut Vec<u8>) -> Done {
        match self.call {
            Call::Encapsulate(f) => f(&mut self.state, ciphertext, secret),
            _ => Err(not_this("encapsulation")),
        }
    }
    fn decapsulate(&mut self, ciphertext: &[u8], secret: &mut Vec<u8>) -> Done {
        match self.call {
            Call::Decapsulate(f) => f(&mut self.state, ciphertext, secret),
            _ => Err(not_this("decapsulation")),
        }
    }
    fn keygen(&mut self) -> Done {
        match self.call {
            Call::Keygen(f, _) => f(&mut self.state),
            _ => Err(not_this("key generation")),
        }
    }
    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        match self.call {
            Call::Keygen(_, public) => Ok(public(&self.state)),
            _ => Err(not_this("key generation")),
        }
    }
    fn allocates(&self) -> Option<Allocation> {
        self.allocates.map(Allocation::in_rust)
    }
}

/// `out` holds `bytes` (no allocation once it has grown to their length).
pub fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    out.clear();
    out.extend_from_slice(bytes);
}

/// A public key that does not decode verifies nothing (test vectors).
pub fn rejecting() -> Boxed {
    session((), Call::Verify(|_, _, _| Ok(false)))
}

const RSA_ALLOCATES: &str = "the rsa crate computes with heap-allocated big integers and returns each result as a Vec";

fn rsa_sign(kind: PkKind, key: &RsaPrivateKey, rng: &mut rand_chacha::ChaCha20Rng, digest: &[u8]) -> Result<Vec<u8>, BackendError> {
    match kind {
        PkKind::RsaPss => key.sign_with_rng(rng, Pss::<Sha256>::new_with_salt(32), digest),
        _ => key.sign_with_rng(rng, Pkcs1v15Sign::new::<Sha256>(), digest),
    }
    .map_err(bad)
}

fn rsa_verify(kind: PkKind, key: &RsaPublicKey, digest: &[u8], sig: &[u8]) -> bool {
    match kind {
        PkKind::RsaPss => key.verify(Pss::<Sha256>::new_with_salt(32), digest, sig).is_ok(),
        _ => key.verify(Pkcs1v15Sign::new::<Sha256>(), digest, sig).is_ok(),
    }
}

/// RSA: `sign_with_rng` (blinded) / `verify` with PKCS#1 v1.5 or PSS over
/// SHA-256, OAEP `encrypt` / `decrypt_blinded`, `RsaPrivateKey::new`.
pub fn rsa(alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Boxed, BackendError> {
    let kind = alg.kind;
    Ok(match (kind, op) {
        (PkKind::RsaPkcs1 | PkKind::RsaPss, Operation::Sign) => allocating(
            (kind, rsa_private(keys)?, rng()),
            Call::Sign(|s, m, out| {
                *out = rsa_sign(s.0, &s.1, &mut s.2, m)?;
                Ok(())
            }),
            RSA_ALLOCATES,
        ),
        (PkKind::RsaPkcs1 | PkKind::RsaPss, Operation::Verify) => allocating(
            (kind, rsa_public(keys)?),
            Call::Verify(|s, m, sig| Ok(rsa_verify(s.0, &s.1, m, sig))),
            RSA_ALLOCATES,
        ),
        (PkKind::RsaPkcs1, Operation::Keygen) => allocating(
            (alg.bits as usize, rng(), None::<RsaPrivateKey>),
            Call::Keygen(
                |s| {
                    s.2 = Some(black_box(RsaPrivateKey::new(&mut s.1, s.0).map_err(bad)?));
                    Ok(())
                },
                |s| {
                    use rsa::traits::PublicKeyParts;
                    s.2.as_ref().map(|k| k.n().as_ref().to_be_bytes().to_vec()).unwrap_or_default()
                },
            ),
            RSA_ALLOCATES,
        ),
        (PkKind::RsaOaep, Operation::Encrypt) => allocating(
            (rsa_public(keys)?, rng()),
            Call::Encrypt(|s, m, out| {
                *out = s.0.encrypt(&mut s.1, Oaep::<Sha256>::new(), m).map_err(bad)?;
                Ok(())
            }),
            RSA_ALLOCATES,
        ),
        (PkKind::RsaOaep, Operation::Decrypt) => allocating(
            (rsa_private(keys)?, rng()),
            Call::Decrypt(|s, c, out| {
                *out =
                    s.0.decrypt_blinded(&mut s.1, Oaep::<Sha256>::new(), c)
                        .map_err(|_| BackendError::AuthenticationFailed)?;
                Ok(())
            }),
            RSA_ALLOCATES,
        ),
        _ => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
    })
}

/// Ed25519 (ed25519-dalek): `sign` / `verify_strict`; key generation is
/// random seed bytes and the public key computed from them.
pub fn ed25519(alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Boxed, BackendError> {
    use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
    Ok(match op {
        Operation::Sign => session(
            SigningKey::from_bytes(&array(&keys.seed)?),
            Call::Sign(|s, m, out| {
                put(out, &s.sign(m).to_bytes());
                Ok(())
            }),
        ),
        Operation::Verify => {
            let key = if keys.public.is_empty() {
                SigningKey::from_bytes(&array(&keys.seed)?).verifying_key()
            } else {
                match VerifyingKey::from_bytes(&array(&keys.public)?) {
                    Ok(k) => k,
                    Err(_) => return Ok(rejecting()),
                }
            };
            session(
                key,
                Call::Verify(|s, m, sig| {
                    let Ok(sig) = Signature::from_slice(sig) else { return Ok(false) };
                    Ok(s.verify_strict(m, &sig).is_ok())
                }),
            )
        }
        Operation::Keygen => session(
            (rng(), [0u8; 32]),
            Call::Keygen(
                |s| {
                    let mut seed = [0u8; 32];
                    s.0.fill_bytes(&mut seed);
                    s.1 = black_box(SigningKey::from_bytes(&seed).verifying_key().to_bytes());
                    Ok(())
                },
                |s| s.1.to_vec(),
            ),
        ),
        other => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, other.short()))),
    })
}

/// X25519 (x25519-dalek): `diffie_hellman` with the peer's public key.
pub fn x25519(keys: &PkKeys) -> Result<Boxed, BackendError> {
    let theirs = x25519_dalek::PublicKey::from(array::<32>(&peer(keys)?.public)?);
    Ok(session(
        (x25519_dalek::StaticSecret::from(array::<32>(&keys.seed)?), theirs),
        Call::Derive(|s, out| {
            put(out, &s.0.diffie_hellman(black_box(&s.1)).to_bytes());
            Ok(())
        }),
    ))
}

//! Public key through the RustCrypto crates: `rsa` (PKCS#1 v1.5, PSS, OAEP,
//! all blinded), `p256`/`p384`/`p521` (ECDSA over a prehashed digest with
//! RFC 6979 nonces, ECDH), `ed25519-dalek`, `x25519-dalek`, `ml-kem` and
//! `ml-dsa` (hedged signing, empty context). Ed448, X448 and SLH-DSA have no
//! released RustCrypto crate the workspace uses: n/a.
//!
//! Every timed call passes its inputs and outputs through
//! `std::hint::black_box`. The crates' own allocations are theirs (the `rsa`
//! crate computes with heap-allocated big integers and returns signatures as
//! `Vec`s); the loops add none (crates/backends/tests/pk_every_backend.rs).

use std::hint::black_box;

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use cryptobench_core::{CellSpec, Operation};
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs8::DecodePublicKey;
use rsa::{Oaep, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};
use sha2::Sha256;

use super::RustcryptoBackend;
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::PkBackend;
use crate::backend::{Primitive, Support};

fn bad(what: impl std::fmt::Display) -> BackendError {
    BackendError::Invalid(what.to_string())
}

/// The generator of randomised operations (blinding, PSS salts, hedged
/// ML-DSA, encapsulation): ChaCha20 seeded from the OS once per cell.
fn rng() -> ChaCha20Rng {
    let mut seed = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut seed);
    ChaCha20Rng::from_seed(seed)
}

/// A timed loop over a state: `call` is one operation on the cell's buffer,
/// `last` gives the output of the last one (signature, secret, ciphertext).
struct Looped<S> {
    state: S,
    call: fn(&mut S, &[u8]) -> Result<(), BackendError>,
    last: fn(&S) -> Vec<u8>,
}

impl<S> Primitive for Looped<S> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            (self.call)(&mut self.state, black_box(&*buf))?;
        }
        Ok(())
    }

    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some((self.last)(&self.state)))
    }
}

fn looped<S: 'static>(state: S, call: fn(&mut S, &[u8]) -> Result<(), BackendError>, last: fn(&S) -> Vec<u8>) -> Box<dyn Primitive> {
    Box::new(Looped { state, call, last })
}

fn rsa_private(keys: &PkKeys) -> Result<RsaPrivateKey, BackendError> {
    RsaPrivateKey::from_pkcs1_der(&keys.private_der).map_err(bad)
}

fn rsa_public(keys: &PkKeys) -> Result<RsaPublicKey, BackendError> {
    if !keys.public_der.is_empty() {
        return RsaPublicKey::from_public_key_der(&keys.public_der).map_err(bad);
    }
    Ok(rsa_private(keys)?.to_public_key())
}

fn rsa_sign(kind: PkKind, key: &RsaPrivateKey, rng: &mut ChaCha20Rng, digest: &[u8]) -> Result<Vec<u8>, BackendError> {
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

/// Runs `$body` with `$C` the RustCrypto curve crate of a NIST curve.
macro_rules! with_curve {
    ($alg:expr, $C:ident => $body:expr) => {
        match $alg.openssl_name {
            "P-256" => {
                use p256 as $C;
                $body
            }
            "P-384" => {
                use p384 as $C;
                $body
            }
            "P-521" => {
                use p521 as $C;
                $body
            }
            other => Err(BackendError::Unsupported(format!("curve {other}"))),
        }
    };
}

/// Runs `$body` with `$P` the ML-KEM or ML-DSA parameter set type.
macro_rules! with_params {
    ($alg:expr, $P:ident => $body:expr) => {
        match $alg.id {
            "mlkem512" => {
                type $P = ml_kem::MlKem512;
                $body
            }
            "mlkem768" => {
                type $P = ml_kem::MlKem768;
                $body
            }
            "mlkem1024" => {
                type $P = ml_kem::MlKem1024;
                $body
            }
            other => Err(BackendError::Unsupported(format!("{other}"))),
        }
    };
}

macro_rules! with_dsa {
    ($alg:expr, $P:ident => $body:expr) => {
        match $alg.id {
            "mldsa44" => {
                type $P = ml_dsa::MlDsa44;
                $body
            }
            "mldsa65" => {
                type $P = ml_dsa::MlDsa65;
                $body
            }
            "mldsa87" => {
                type $P = ml_dsa::MlDsa87;
                $body
            }
            other => Err(BackendError::Unsupported(format!("{other}"))),
        }
    };
}

fn array<const N: usize>(v: &[u8]) -> Result<[u8; N], BackendError> {
    v.try_into().map_err(|_| bad(format!("expected {N} bytes, got {}", v.len())))
}

impl PkBackend for RustcryptoBackend {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        match (alg.kind, alg.openssl_name) {
            (PkKind::EdDsa, "ED448") | (PkKind::Ecdh, "X448") => {
                Support::Unsupported(format!("{}: the workspace has no released RustCrypto crate for Curve448", alg.id))
            }
            (PkKind::SlhDsa, _) => Support::Unsupported(format!("{}: the workspace has no RustCrypto SLH-DSA crate", alg.id)),
            _ => Support::Supported,
        }
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        match alg.kind {
            _ if alg.is_rsa() => {
                use rsa::traits::PublicKeyParts;
                let n = rsa_private(keys)?.n().as_ref().to_be_bytes();
                let start = n.iter().position(|&b| b != 0).unwrap_or(0);
                Ok(n[start..].to_vec())
            }
            PkKind::Ecdsa | PkKind::Ecdh => {
                with_curve!(alg, C => Ok(C::SecretKey::from_slice(&keys.ec_private).map_err(bad)?.public_key().to_sec1_bytes().to_vec()))
            }
            PkKind::EdDsa => Ok(ed25519_dalek::SigningKey::from_bytes(&array(&keys.seed)?)
                .verifying_key()
                .to_bytes()
                .to_vec()),
            PkKind::MlKem => with_params!(alg, P => {
                use ml_kem::KeyExport;
                let dk = ml_kem::DecapsulationKey::<P>::from_seed(array::<64>(&keys.seed)?.into());
                Ok(dk.encapsulation_key().to_bytes().to_vec())
            }),
            PkKind::MlDsa => with_dsa!(alg, P => {
                let sk = ml_dsa::SigningKey::<P>::from_seed(&array::<32>(&keys.seed)?.into());
                Ok(sk.expanded_key().verifying_key().encode().to_vec())
            }),
            _ => Err(BackendError::Unsupported(alg.id.to_string())),
        }
        .or_else(|e| match (alg.kind, alg.openssl_name) {
            (PkKind::Ecdh, "X25519") => Ok(
                x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(array::<32>(&keys.seed)?))
                    .as_bytes()
                    .to_vec(),
            ),
            _ => Err(e),
        })
    }

    fn sign(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        match alg.kind {
            PkKind::RsaPkcs1 | PkKind::RsaPss => rsa_sign(alg.kind, &rsa_private(keys)?, &mut rng(), message),
            PkKind::Ecdsa => with_curve!(alg, C => {
                use C::ecdsa::signature::hazmat::PrehashSigner;
                let key = C::ecdsa::SigningKey::from_slice(&keys.ec_private).map_err(bad)?;
                let sig: C::ecdsa::Signature = key.sign_prehash(message).map_err(bad)?;
                Ok(sig.to_der().as_bytes().to_vec())
            }),
            PkKind::EdDsa => {
                use ed25519_dalek::Signer;
                Ok(ed25519_dalek::SigningKey::from_bytes(&array(&keys.seed)?)
                    .sign(message)
                    .to_bytes()
                    .to_vec())
            }
            PkKind::MlDsa => with_dsa!(alg, P => {
                let sk = ml_dsa::SigningKey::<P>::from_seed(&array::<32>(&keys.seed)?.into());
                let sig = sk.expanded_key().sign_randomized(message, &[], &mut rng()).map_err(bad)?;
                Ok(sig.encode().to_vec())
            }),
            _ => Err(BackendError::Unsupported(format!("{} signing", alg.id))),
        }
    }

    fn verify(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        match alg.kind {
            PkKind::RsaPkcs1 | PkKind::RsaPss => Ok(rsa_verify(alg.kind, &rsa_public(keys)?, message, signature)),
            PkKind::Ecdsa => with_curve!(alg, C => {
                use C::ecdsa::signature::hazmat::PrehashVerifier;
                let key = if keys.public.is_empty() {
                    *C::ecdsa::SigningKey::from_slice(&keys.ec_private).map_err(bad)?.verifying_key()
                } else {
                    C::ecdsa::VerifyingKey::from_sec1_bytes(&keys.public).map_err(bad)?
                };
                Ok(match C::ecdsa::Signature::from_der(signature) {
                    Ok(sig) => key.verify_prehash(message, &sig).is_ok(),
                    Err(_) => false,
                })
            }),
            PkKind::EdDsa => {
                let pk = if keys.public.is_empty() {
                    ed25519_dalek::SigningKey::from_bytes(&array(&keys.seed)?).verifying_key()
                } else {
                    match ed25519_dalek::VerifyingKey::from_bytes(&array(&keys.public)?) {
                        Ok(k) => k,
                        Err(_) => return Ok(false),
                    }
                };
                let Ok(sig) = ed25519_dalek::Signature::from_slice(signature) else {
                    return Ok(false);
                };
                Ok(pk.verify_strict(message, &sig).is_ok())
            }
            PkKind::MlDsa => with_dsa!(alg, P => {
                let vk = if keys.public.is_empty() {
                    ml_dsa::SigningKey::<P>::from_seed(&array::<32>(&keys.seed)?.into()).expanded_key().verifying_key()
                } else {
                    let Ok(enc) = keys.public.as_slice().try_into() else { return Ok(false) };
                    ml_dsa::VerifyingKey::<P>::decode(enc)
                };
                let Ok(enc) = signature.try_into() else { return Ok(false) };
                Ok(match ml_dsa::Signature::<P>::decode(enc) {
                    Some(sig) => vk.verify_with_context(message, &[], &sig),
                    None => false,
                })
            }),
            _ => Err(BackendError::Unsupported(format!("{} verification", alg.id))),
        }
    }

    fn encrypt(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        if alg.kind != PkKind::RsaOaep {
            return Err(BackendError::Unsupported(format!("{} encryption", alg.id)));
        }
        rsa_public(keys)?.encrypt(&mut rng(), Oaep::<Sha256>::new(), message).map_err(bad)
    }

    fn decrypt(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, ciphertext: &[u8]) -> Result<Vec<u8>, BackendError> {
        if alg.kind != PkKind::RsaOaep {
            return Err(BackendError::Unsupported(format!("{} decryption", alg.id)));
        }
        rsa_private(keys)?
            .decrypt_blinded(&mut rng(), Oaep::<Sha256>::new(), ciphertext)
            .map_err(|_| BackendError::AuthenticationFailed)
    }

    fn derive(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let peer = keys.peer.as_deref().ok_or_else(|| bad("key agreement needs a peer"))?;
        match alg.openssl_name {
            "X25519" => {
                let ours = x25519_dalek::StaticSecret::from(array::<32>(&keys.seed)?);
                let theirs = x25519_dalek::PublicKey::from(array::<32>(&peer.public)?);
                Ok(ours.diffie_hellman(&theirs).as_bytes().to_vec())
            }
            _ => with_curve!(alg, C => {
                let ours = C::SecretKey::from_slice(&keys.ec_private).map_err(bad)?;
                let theirs = if peer.public.is_empty() {
                    use C::pkcs8::DecodePublicKey;
                    C::PublicKey::from_public_key_der(&peer.public_der).map_err(bad)?
                } else {
                    C::PublicKey::from_sec1_bytes(&peer.public).map_err(bad)?
                };
                Ok(C::ecdh::diffie_hellman(ours.to_nonzero_scalar(), theirs.as_affine()).raw_secret_bytes().to_vec())
            }),
        }
    }

    fn encapsulate(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<(Vec<u8>, Vec<u8>), BackendError> {
        with_params!(alg, P => {
            use ml_kem::Encapsulate;
            let dk = ml_kem::DecapsulationKey::<P>::from_seed(array::<64>(&keys.seed)?.into());
            let (ct, ss) = dk.encapsulation_key().encapsulate_with_rng(&mut rng());
            Ok((ct.to_vec(), ss.to_vec()))
        })
    }

    fn decapsulate(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, ciphertext: &[u8]) -> Result<Vec<u8>, BackendError> {
        with_params!(alg, P => {
            use ml_kem::Decapsulate;
            let dk = ml_kem::DecapsulationKey::<P>::from_seed(array::<64>(&keys.seed)?.into());
            let ct = ciphertext.try_into().map_err(|_| bad("ML-KEM ciphertext of the wrong length"))?;
            Ok(dk.decapsulate(ct).to_vec())
        })
    }

    fn prepare_pk(
        &self,
        cell: &CellSpec,
        alg: &PkAlgorithmSpec,
        keys: &PkKeys,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        prepare(self, cell, alg, keys, message)
    }
}

macro_rules! ecdsa_primitive {
    ($C:ident, $op:expr, $keys:expr, $message:expr) => {{
        use $C::ecdsa::signature::hazmat::{PrehashSigner, PrehashVerifier};
        let key = $C::ecdsa::SigningKey::from_slice(&$keys.ec_private).map_err(bad)?;
        match $op {
            Operation::Sign => Ok(looped(
                (key, None::<$C::ecdsa::Signature>),
                |s, m| {
                    s.1 = Some(black_box(s.0.sign_prehash(m).map_err(bad)?));
                    Ok(())
                },
                |s| s.1.map(|x| x.to_der().as_bytes().to_vec()).unwrap_or_default(),
            )),
            Operation::Verify => {
                let sig: $C::ecdsa::Signature = key.sign_prehash($message).map_err(bad)?;
                Ok(looped(
                    (*key.verifying_key(), sig),
                    |s, m| {
                        s.0.verify_prehash(m, black_box(&s.1))
                            .map_err(|_| BackendError::Invalid("the prepared signature does not verify".into()))
                    },
                    |s| s.1.to_der().as_bytes().to_vec(),
                ))
            }
            Operation::Keygen => Ok(looped(
                (rng(), None::<$C::PublicKey>),
                |s, _| {
                    #[allow(deprecated)] // SecretKey::random: the Generate trait of its successor takes another rand_core
                    let sk = $C::SecretKey::random(&mut s.0);
                    s.1 = Some(black_box(sk.public_key()));
                    Ok(())
                },
                |s| s.1.map(|p| p.to_sec1_bytes().to_vec()).unwrap_or_default(),
            )),
            other => Err(BackendError::Unsupported(format!("ECDSA {} cells", other.short()))),
        }
    }};
}

macro_rules! mlkem_primitive {
    ($P:ty, $op:expr, $keys:expr) => {{
        use ml_kem::{Decapsulate, Encapsulate, KeyExport};
        let dk = ml_kem::DecapsulationKey::<$P>::from_seed(array::<64>(&$keys.seed)?.into());
        match $op {
            Operation::Keygen => Ok(looped(
                (rng(), dk.encapsulation_key().to_bytes()),
                |s, _| {
                    let mut seed = ml_kem::Seed::default();
                    s.0.fill_bytes(&mut seed);
                    let dk = ml_kem::DecapsulationKey::<$P>::from_seed(seed);
                    s.1 = black_box(dk.encapsulation_key().to_bytes());
                    Ok(())
                },
                |s| s.1.to_vec(),
            )),
            Operation::Encaps => {
                let (ct, ss) = dk.encapsulation_key().encapsulate_with_rng(&mut rng());
                Ok(looped(
                    (dk.encapsulation_key().clone(), rng(), ct, ss),
                    |s, _| {
                        let (ct, ss) = s.0.encapsulate_with_rng(&mut s.1);
                        (s.2, s.3) = black_box((ct, ss));
                        Ok(())
                    },
                    |s| [s.2.as_slice(), s.3.as_slice()].concat(),
                ))
            }
            Operation::Decaps => {
                let (ct, ss) = dk.encapsulation_key().encapsulate_with_rng(&mut rng());
                Ok(looped(
                    (dk, ct, ss),
                    |s, _| {
                        s.2 = black_box(s.0.decapsulate(black_box(&s.1)));
                        Ok(())
                    },
                    |s| [s.1.as_slice(), s.2.as_slice()].concat(),
                ))
            }
            other => Err(BackendError::Unsupported(format!("ML-KEM {} cells", other.short()))),
        }
    }};
}

macro_rules! mldsa_primitive {
    ($P:ty, $op:expr, $keys:expr, $message:expr) => {{
        let sk = ml_dsa::SigningKey::<$P>::from_seed(&array::<32>(&$keys.seed)?.into());
        match $op {
            Operation::Keygen => Ok(looped(
                (rng(), sk.expanded_key().verifying_key().encode()),
                |s, _| {
                    let mut xi = ml_dsa::B32::default();
                    s.0.fill_bytes(&mut xi);
                    let sk = ml_dsa::SigningKey::<$P>::from_seed(&xi);
                    s.1 = black_box(sk.expanded_key().verifying_key().encode());
                    Ok(())
                },
                |s| s.1.to_vec(),
            )),
            Operation::Sign => {
                let sig = sk.expanded_key().sign_randomized($message, &[], &mut rng()).map_err(bad)?;
                Ok(looped(
                    (sk.expanded_key().clone(), rng(), sig),
                    |s, m| {
                        s.2 = black_box(s.0.sign_randomized(m, &[], &mut s.1).map_err(bad)?);
                        Ok(())
                    },
                    |s| s.2.encode().to_vec(),
                ))
            }
            Operation::Verify => {
                let sig = sk.expanded_key().sign_randomized($message, &[], &mut rng()).map_err(bad)?;
                Ok(looped(
                    (sk.expanded_key().verifying_key(), sig),
                    |s, m| {
                        if black_box(s.0.verify_with_context(m, &[], black_box(&s.1))) {
                            Ok(())
                        } else {
                            Err(BackendError::Invalid("the prepared signature does not verify".into()))
                        }
                    },
                    |s| s.1.encode().to_vec(),
                ))
            }
            other => Err(BackendError::Unsupported(format!("ML-DSA {} cells", other.short()))),
        }
    }};
}

/// The timed primitive of one cell.
fn prepare(
    backend: &RustcryptoBackend,
    cell: &CellSpec,
    alg: &PkAlgorithmSpec,
    keys: &PkKeys,
    message: &[u8],
) -> Result<Box<dyn Primitive + 'static>, BackendError> {
    if let Support::Unsupported(why) = backend.pk_support(alg) {
        return Err(BackendError::Unsupported(why));
    }
    let op = cell.operation;
    Ok(match (alg.kind, op) {
        (PkKind::RsaPkcs1 | PkKind::RsaPss, Operation::Sign) => looped(
            (alg.kind, rsa_private(keys)?, rng(), Vec::new()),
            |s, m| {
                s.3 = black_box(rsa_sign(s.0, &s.1, &mut s.2, m)?);
                Ok(())
            },
            |s| s.3.clone(),
        ),
        (PkKind::RsaPkcs1 | PkKind::RsaPss, Operation::Verify) => {
            let sig = backend.sign(alg, keys, message)?;
            looped(
                (alg.kind, rsa_public(keys)?, sig),
                |s, m| {
                    if black_box(rsa_verify(s.0, &s.1, m, black_box(&s.2))) {
                        Ok(())
                    } else {
                        Err(BackendError::Invalid("the prepared signature does not verify".into()))
                    }
                },
                |s| s.2.clone(),
            )
        }
        (PkKind::RsaPkcs1, Operation::Keygen) => looped(
            (alg.bits as usize, rng(), None::<RsaPrivateKey>),
            |s, _| {
                s.2 = Some(black_box(RsaPrivateKey::new(&mut s.1, s.0).map_err(bad)?));
                Ok(())
            },
            |s| {
                use rsa::traits::PublicKeyParts;
                s.2.as_ref().map(|k| k.n().as_ref().to_be_bytes().to_vec()).unwrap_or_default()
            },
        ),
        (PkKind::RsaOaep, Operation::Encrypt) => looped(
            (rsa_public(keys)?, rng(), Vec::new()),
            |s, m| {
                s.2 = black_box(s.0.encrypt(&mut s.1, Oaep::<Sha256>::new(), m).map_err(bad)?);
                Ok(())
            },
            |s| s.2.clone(),
        ),
        (PkKind::RsaOaep, Operation::Decrypt) => {
            let ct = backend.encrypt(alg, keys, message)?;
            looped(
                (rsa_private(keys)?, rng(), ct, Vec::new()),
                |s, _| {
                    s.3 = black_box(
                        s.0.decrypt_blinded(&mut s.1, Oaep::<Sha256>::new(), black_box(&s.2))
                            .map_err(|_| BackendError::AuthenticationFailed)?,
                    );
                    Ok(())
                },
                |s| s.3.clone(),
            )
        }
        (PkKind::Ecdsa, _) => with_curve!(alg, C => ecdsa_primitive!(C, op, keys, message))?,
        (PkKind::EdDsa, Operation::Sign) => looped(
            (ed25519_dalek::SigningKey::from_bytes(&array(&keys.seed)?), [0u8; 64]),
            |s, m| {
                use ed25519_dalek::Signer;
                s.1 = black_box(s.0.sign(m).to_bytes());
                Ok(())
            },
            |s| s.1.to_vec(),
        ),
        (PkKind::EdDsa, Operation::Verify) => {
            use ed25519_dalek::Signer;
            let sk = ed25519_dalek::SigningKey::from_bytes(&array(&keys.seed)?);
            let sig = sk.sign(message);
            looped(
                (sk.verifying_key(), sig),
                |s, m| {
                    s.0.verify_strict(m, black_box(&s.1))
                        .map_err(|_| BackendError::Invalid("the prepared signature does not verify".into()))
                },
                |s| s.1.to_bytes().to_vec(),
            )
        }
        (PkKind::EdDsa, Operation::Keygen) => looped(
            (rng(), [0u8; 32]),
            |s, _| {
                let mut seed = [0u8; 32];
                s.0.fill_bytes(&mut seed);
                s.1 = black_box(ed25519_dalek::SigningKey::from_bytes(&seed).verifying_key().to_bytes());
                Ok(())
            },
            |s| s.1.to_vec(),
        ),
        (PkKind::Ecdh, Operation::Derive) if alg.openssl_name == "X25519" => {
            let peer = keys.peer.as_deref().ok_or_else(|| bad("key agreement needs a peer"))?;
            looped(
                (
                    x25519_dalek::StaticSecret::from(array::<32>(&keys.seed)?),
                    x25519_dalek::PublicKey::from(array::<32>(&peer.public)?),
                    [0u8; 32],
                ),
                |s, _| {
                    s.2 = black_box(s.0.diffie_hellman(black_box(&s.1)).to_bytes());
                    Ok(())
                },
                |s| s.2.to_vec(),
            )
        }
        (PkKind::Ecdh, Operation::Derive) => with_curve!(alg, C => {
            let peer = keys.peer.as_deref().ok_or_else(|| bad("key agreement needs a peer"))?;
            Ok(looped(
                (
                    C::SecretKey::from_slice(&keys.ec_private).map_err(bad)?.to_nonzero_scalar(),
                    C::PublicKey::from_sec1_bytes(&peer.public).map_err(bad)?,
                    C::FieldBytes::default(),
                ),
                |s, _| {
                    s.2 = black_box(*C::ecdh::diffie_hellman(s.0, black_box(s.1.as_affine())).raw_secret_bytes());
                    Ok(())
                },
                |s| s.2.to_vec(),
            ))
        })?,
        (PkKind::MlKem, _) => with_params!(alg, P => mlkem_primitive!(P, op, keys))?,
        (PkKind::MlDsa, _) => with_dsa!(alg, P => mldsa_primitive!(P, op, keys, message))?,
        _ => return Err(BackendError::Unsupported(format!("{} {} cells", alg.id, op.short()))),
    })
}

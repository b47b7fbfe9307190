//! RustCrypto's public-key sessions over the crates that are generic over
//! a curve or a parameter set (`p256`/`p384`/`p521`, `ml-kem`, `ml-dsa`):
//! one macro per family, expanded in pk.rs once per type, each making a
//! session of pk_sessions.rs with the calls of that type.

/// ECDSA on the curve crate `$C`: `sign_prehash` (RFC 6979 nonces) into
/// DER / `verify_prehash` of a DER signature; key generation
/// `SecretKey::random` and its public key.
macro_rules! ecdsa {
    ($C:ident, $alg:expr, $keys:expr, $op:expr) => {{
        use super::pk_keys::{bad, rng};
        use super::pk_sessions::{put, session, Call};
        use crate::error::BackendError;
        use cryptobench_core::Operation;
        use std::hint::black_box;
        use $C::ecdsa::signature::hazmat::{PrehashSigner, PrehashVerifier};
        match $op {
            Operation::Sign => Ok(session(
                $C::ecdsa::SigningKey::from_slice(&$keys.ec_private).map_err(bad)?,
                Call::Sign(|s, m, out| {
                    let sig: $C::ecdsa::Signature = s.sign_prehash(m).map_err(bad)?;
                    put(out, sig.to_der().as_bytes());
                    Ok(())
                }),
            )),
            Operation::Verify => {
                let key = if $keys.public.is_empty() {
                    *$C::ecdsa::SigningKey::from_slice(&$keys.ec_private).map_err(bad)?.verifying_key()
                } else {
                    $C::ecdsa::VerifyingKey::from_sec1_bytes(&$keys.public).map_err(bad)?
                };
                Ok(session(
                    key,
                    Call::Verify(|s, m, sig| {
                        Ok(match $C::ecdsa::Signature::from_der(sig) {
                            Ok(sig) => s.verify_prehash(m, &sig).is_ok(),
                            Err(_) => false,
                        })
                    }),
                ))
            }
            Operation::Keygen => Ok(session(
                (rng(), None::<$C::PublicKey>),
                Call::Keygen(
                    |s| {
                        #[allow(deprecated)] // SecretKey::random: the Generate trait of its successor takes another rand_core
                        let sk = $C::SecretKey::random(&mut s.0);
                        s.1 = Some(black_box(sk.public_key()));
                        Ok(())
                    },
                    |s| s.1.map(|p| p.to_sec1_bytes().to_vec()).unwrap_or_default(),
                ),
            )),
            other => Err(BackendError::Unsupported(format!("{} {} cells", $alg.id, other.short()))),
        }
    }};
}

/// ECDH on the curve crate `$C`: `ecdh::diffie_hellman` of the private
/// scalar and the peer's point, the secret's x coordinate.
macro_rules! ecdh {
    ($C:ident, $keys:expr) => {{
        use super::pk_keys::{bad, peer};
        use super::pk_sessions::{put, session, Call};
        use std::hint::black_box;
        let theirs = peer($keys)?;
        let theirs = if theirs.public.is_empty() {
            use $C::pkcs8::DecodePublicKey;
            $C::PublicKey::from_public_key_der(&theirs.public_der).map_err(bad)?
        } else {
            $C::PublicKey::from_sec1_bytes(&theirs.public).map_err(bad)?
        };
        Ok(session(
            (
                $C::SecretKey::from_slice(&$keys.ec_private).map_err(bad)?.to_nonzero_scalar(),
                theirs,
            ),
            Call::Derive(|s, out| {
                put(out, &$C::ecdh::diffie_hellman(s.0, black_box(s.1.as_affine())).raw_secret_bytes());
                Ok(())
            }),
        ))
    }};
}

/// ML-KEM (ml-kem) of the parameter set `$P`, keys from their seed:
/// `encapsulate_with_rng` / `decapsulate`; key generation `from_seed` of
/// random seed bytes and the encapsulation key's encoding.
macro_rules! mlkem {
    ($P:ty, $alg:expr, $keys:expr, $op:expr) => {{
        use super::pk_keys::{array, bad, rng};
        use super::pk_sessions::{allocating, put, session, Call};
        use crate::error::BackendError;
        use cryptobench_core::Operation;
        use ml_kem::{Decapsulate, Encapsulate, KeyExport};
        use rand_core::Rng;
        use std::hint::black_box;
        let dk = ml_kem::DecapsulationKey::<$P>::from_seed(array::<64>(&$keys.seed)?.into());
        match $op {
            Operation::Keygen => Ok(allocating(
                (rng(), dk.encapsulation_key().to_bytes()),
                Call::Keygen(
                    |s| {
                        let mut seed = ml_kem::Seed::default();
                        s.0.fill_bytes(&mut seed);
                        let dk = ml_kem::DecapsulationKey::<$P>::from_seed(seed);
                        s.1 = black_box(dk.encapsulation_key().to_bytes());
                        Ok(())
                    },
                    |s| s.1.to_vec(),
                ),
                "ml-kem's key expansion from a seed allocates",
            )),
            Operation::Encaps => Ok(session(
                (dk.encapsulation_key().clone(), rng()),
                Call::Encapsulate(|s, ct, ss| {
                    let (c, k) = s.0.encapsulate_with_rng(&mut s.1);
                    put(ct, &c);
                    put(ss, &k);
                    Ok(())
                }),
            )),
            Operation::Decaps => Ok(session(
                dk,
                Call::Decapsulate(|s, ct, ss| {
                    let ct = ct.try_into().map_err(|_| bad("ML-KEM ciphertext of the wrong length"))?;
                    put(ss, &s.decapsulate(ct));
                    Ok(())
                }),
            )),
            other => Err(BackendError::Unsupported(format!("{} {} cells", $alg.id, other.short()))),
        }
    }};
}

/// ML-DSA (ml-dsa) of the parameter set `$P`, keys from their seed:
/// `sign_randomized` (hedged, empty context) into FIPS 204's encoding /
/// `Signature::decode` and `verify_with_context`; key generation `from_seed`
/// of random seed bytes and the verifying key's encoding.
macro_rules! mldsa {
    ($P:ty, $alg:expr, $keys:expr, $op:expr) => {{
        use super::pk_keys::{array, bad, rng};
        use super::pk_sessions::{allocating, put, rejecting, Call};
        use crate::error::BackendError;
        use cryptobench_core::Operation;
        use rand_core::Rng;
        use std::hint::black_box;
        let expansion = "ml-dsa's key expansion from a seed allocates";
        match $op {
            Operation::Keygen => Ok(allocating(
                (rng(), None::<ml_dsa::EncodedVerifyingKey<$P>>),
                Call::Keygen(
                    |s| {
                        let mut xi = ml_dsa::B32::default();
                        s.0.fill_bytes(&mut xi);
                        let sk = ml_dsa::SigningKey::<$P>::from_seed(&xi);
                        s.1 = Some(black_box(sk.expanded_key().verifying_key().encode()));
                        Ok(())
                    },
                    |s| s.1.as_ref().map(|k| k.to_vec()).unwrap_or_default(),
                ),
                expansion,
            )),
            Operation::Sign => Ok(allocating(
                (
                    ml_dsa::SigningKey::<$P>::from_seed(&array::<32>(&$keys.seed)?.into())
                        .expanded_key()
                        .clone(),
                    rng(),
                ),
                Call::Sign(|s, m, out| {
                    let sig = s.0.sign_randomized(m, &[], &mut s.1).map_err(bad)?;
                    put(out, &sig.encode());
                    Ok(())
                }),
                "ml-dsa's signing allocates its vectors, once more per round of its rejection loop (FIPS 204, Algorithm 7)",
            )),
            Operation::Verify => {
                let key = if $keys.public.is_empty() {
                    ml_dsa::SigningKey::<$P>::from_seed(&array::<32>(&$keys.seed)?.into())
                        .expanded_key()
                        .verifying_key()
                } else {
                    let Ok(enc) = $keys.public.as_slice().try_into() else {
                        return Ok(rejecting());
                    };
                    ml_dsa::VerifyingKey::<$P>::decode(enc)
                };
                Ok(allocating(
                    key,
                    Call::Verify(|s, m, sig| {
                        let Ok(enc) = sig.try_into() else { return Ok(false) };
                        Ok(match ml_dsa::Signature::<$P>::decode(enc) {
                            Some(sig) => s.verify_with_context(m, &[], &sig),
                            None => false,
                        })
                    }),
                    "ml-dsa's signature decoding (sigDecode, FIPS 204 Algorithm 27) boxes z and the hint (module-lattice's MaybeBox)",
                ))
            }
            other => Err(BackendError::Unsupported(format!("{} {} cells", $alg.id, other.short()))),
        }
    }};
}

pub(super) use {ecdh, ecdsa, mldsa, mlkem};

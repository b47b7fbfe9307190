//! Nettle's public key in libhogweed (hogweed.rs): Ed25519, Ed448, X25519
//! and X448 on raw keys (pk_eddsa.rs), ECDSA and ECDH on P-256/P-384/P-521
//! (pk_ecc.rs) and RSA PKCS#1 v1.5/PSS (rsa.rs) through GMP integers.

use cryptobench_core::pk::{EcdsaNonce, PkAlgorithmSpec, PkKind};
use cryptobench_core::Operation;

use super::{ecc, gmp, hogweed, pk_ecc, pk_eddsa, rsa, NettleBackend};
use crate::error::BackendError;
use crate::pk::keys::PkKeys;
use crate::pk::{PkLibrary, PkSession};
use crate::support::Support;

impl NettleBackend {
    fn hogweed(&self) -> Result<&hogweed::Hogweed, BackendError> {
        self.hogweed
            .as_ref()
            .map_err(|e| BackendError::Unsupported(format!("public key ({e})")))
    }

    /// The RSA and GMP tables, or why RSA is not offered.
    fn rsa(&self) -> Result<(&rsa::Api, &gmp::Api), BackendError> {
        let h = self.hogweed()?;
        let unsupported = |e: &String| BackendError::Unsupported(format!("RSA ({e})"));
        Ok((h.rsa.as_ref().map_err(unsupported)?, h.gmp.as_ref().map_err(unsupported)?))
    }

    /// The ECC and GMP tables, or why ECDSA and ECDH are not offered.
    fn ecc(&self) -> Result<(&ecc::Api, &gmp::Api), BackendError> {
        let h = self.hogweed()?;
        let unsupported = |e: &String| BackendError::Unsupported(format!("ECDSA and ECDH ({e})"));
        Ok((h.ecc.as_ref().map_err(unsupported)?, h.gmp.as_ref().map_err(unsupported)?))
    }
}

impl PkLibrary for NettleBackend {
    /// RSA and ECDSA verify: the signature read into Nettle's integers once (`KeptInput`).
    fn extra_work(&self, alg: &PkAlgorithmSpec, op: Operation) -> Option<&'static str> {
        if op != Operation::Verify {
            return None;
        }
        match alg.kind {
            PkKind::RsaPkcs1 | PkKind::RsaPss => Some(
                "the signature is read into the GMP integer Nettle takes once, outside the timing (KeptInput), where a \
                 library that takes bytes reads it in every call",
            ),
            PkKind::Ecdsa => Some(
                "the DER signature is decoded into the r and s integers Nettle takes once, outside the timing \
                 (KeptInput), where a library that takes DER decodes it in every call",
            ),
            _ => None,
        }
    }
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        if let Err(e) = self.hogweed() {
            return Support::Unsupported(e.to_string());
        }
        match (alg.kind, alg.openssl_name) {
            (PkKind::EdDsa, _) | (PkKind::Ecdh, "X25519" | "X448") => Support::Supported,
            _ if pk_ecc::covers(alg) => Support::from(self.ecc().map(drop)),
            _ if rsa::covers(alg) => Support::from(self.rsa().map(drop)),
            (PkKind::RsaOaep, _) => Support::Unsupported(format!(
                "{}: Nettle has RSA-OAEP from 3.10 on (rsa_oaep_sha256_encrypt); cryptobench does not drive it yet",
                alg.id
            )),
            _ => Support::Unsupported(format!("{}: Nettle has no {}", alg.id, alg.openssl_name)),
        }
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        if rsa::covers(alg) {
            let (api, gmp) = self.rsa()?;
            return rsa::public_key(api, gmp, keys);
        }
        if pk_ecc::covers(alg) {
            let (api, gmp) = self.ecc()?;
            return pk_ecc::public_key(api, gmp, alg, keys);
        }
        pk_eddsa::public_of(&self.hogweed()?.api, alg, &keys.seed)
    }

    /// `ecdsa_sign` draws k from the random function it is given: the
    /// process's generator (gmp.rs `random`).
    fn ecdsa_nonce(&self) -> Option<EcdsaNonce> {
        Some(EcdsaNonce::Random)
    }

    fn pk_session(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, op: Operation) -> Result<Box<dyn PkSession + '_>, BackendError> {
        if rsa::covers(alg) {
            let (api, gmp) = self.rsa()?;
            return rsa::session(api, gmp, alg, keys, op);
        }
        if pk_ecc::covers(alg) {
            let (api, gmp) = self.ecc()?;
            return pk_ecc::session(api, gmp, alg, keys, op);
        }
        pk_eddsa::session(&self.hogweed()?.api, alg, keys, op)
    }
}

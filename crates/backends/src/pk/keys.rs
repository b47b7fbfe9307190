//! Key material for public-key cells, generated from a seed so that every
//! library and every run works on the same keys (docs/METHOD.md, "Public
//! key"): RSA keys from the `rsa` crate driven by a ChaCha20 generator seeded
//! with the seed; EC private scalars from the same generator; EdDSA, X25519,
//! X448, ML-KEM and ML-DSA private keys are their seeds (32, 57, 32, 56, 64
//! and 32 bytes). Each library imports these (DER, raw private key or seed);
//! nothing here is timed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use rsa::pkcs1::EncodeRsaPrivateKey;
use rsa::traits::{PrivateKeyParts, PublicKeyParts};

/// The seed of `cryptobench run`'s keys (fixed, so runs compare).
pub const RUN_SEED: u64 = 20_261_123;

/// RSA key components, big-endian, without leading zeros.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RsaParts {
    pub n: Vec<u8>,
    pub e: Vec<u8>,
    /// Empty for a public key.
    pub d: Vec<u8>,
    pub p: Vec<u8>,
    pub q: Vec<u8>,
    pub dp: Vec<u8>,
    pub dq: Vec<u8>,
    pub qinv: Vec<u8>,
}

/// One key pair (or a public key alone, for test vectors) of one algorithm.
#[derive(Debug, Clone, Default)]
pub struct PkKeys {
    /// RSA: PKCS#1 RSAPrivateKey DER; EC: SEC1 ECPrivateKey DER with the
    /// named curve and the public key (RFC 5915). Empty otherwise.
    pub private_der: Vec<u8>,
    /// SubjectPublicKeyInfo DER where known (RSA, EC, Ed25519, X25519; test vectors).
    pub public_der: Vec<u8>,
    pub rsa: Option<RsaParts>,
    /// EC private scalar, big-endian, as long as the group order.
    pub ec_private: Vec<u8>,
    /// The raw private key or seed: EdDSA secret, X25519/X448 scalar,
    /// ML-KEM d‖z (64 bytes), ML-DSA ξ (32 bytes), SLH-DSA seed (3n bytes).
    pub seed: Vec<u8>,
    /// The public key where it is known without a library (EC: uncompressed
    /// point; Ed25519/X25519: raw; vectors: as given); empty otherwise.
    pub public: Vec<u8>,
    /// Key agreement: the other party's key pair (its public key is what we agree with).
    pub peer: Option<Box<PkKeys>>,
}

impl PkKeys {
    /// A key holding a public key only (verification vectors).
    pub fn is_public_only(&self) -> bool {
        self.private_der.is_empty() && self.seed.is_empty() && self.ec_private.is_empty()
    }
}

impl RsaParts {
    /// n and e of an RSA SubjectPublicKeyInfo (RFC 5280 4.1.2.7), the
    /// private parts empty: for libraries that import RSA keys by component.
    pub fn of_public_der(spki: &[u8]) -> Result<RsaParts, String> {
        use rsa::pkcs8::DecodePublicKey;
        let key = rsa::RsaPublicKey::from_public_key_der(spki).map_err(|e| format!("not an RSA SubjectPublicKeyInfo ({e})"))?;
        Ok(RsaParts {
            n: be(key.n().as_ref()),
            e: be(key.e()),
            d: Vec::new(),
            p: Vec::new(),
            q: Vec::new(),
            dp: Vec::new(),
            dq: Vec::new(),
            qinv: Vec::new(),
        })
    }
}

fn be(x: &rsa::BoxedUint) -> Vec<u8> {
    let bytes = x.to_be_bytes();
    let start = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    bytes[start..].to_vec()
}

fn rng_for(label: &str, seed: u64) -> ChaCha20Rng {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&seed.to_le_bytes());
    let l = label.as_bytes();
    for (i, b) in l.iter().enumerate() {
        s[8 + i % 24] ^= b;
    }
    ChaCha20Rng::from_seed(s)
}

fn random_bytes(rng: &mut ChaCha20Rng, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rng.fill_bytes(&mut v);
    v
}

/// An RSA key of `bits` from the seeded generator (e = 65537).
pub fn rsa_key(bits: u32, seed: u64) -> rsa::RsaPrivateKey {
    let mut rng = rng_for(&format!("rsa{bits}"), seed);
    rsa::RsaPrivateKey::new(&mut rng, bits as usize).expect("RSA key generation with a valid size")
}

fn rsa_keys(bits: u32, seed: u64) -> PkKeys {
    let key = rsa_key(bits, seed);
    let primes = key.primes();
    let parts = RsaParts {
        n: be(key.n().as_ref()),
        e: be(key.e()),
        d: be(key.d()),
        p: be(primes[0].as_ref()),
        q: be(primes[1].as_ref()),
        dp: key.dp().map(be).unwrap_or_default(),
        dq: key.dq().map(be).unwrap_or_default(),
        qinv: key.qinv().map(|m| be(&m.retrieve())).unwrap_or_default(),
    };
    use rsa::pkcs8::EncodePublicKey;
    PkKeys {
        private_der: key.to_pkcs1_der().expect("DER of a valid key").as_bytes().to_vec(),
        public_der: key
            .to_public_key()
            .to_public_key_der()
            .expect("DER of a valid key")
            .as_bytes()
            .to_vec(),
        rsa: Some(parts),
        ..PkKeys::default()
    }
}

macro_rules! ec_keys {
    ($curve:ident, $rng:expr) => {{
        use $curve::pkcs8::EncodePublicKey;
        #[allow(deprecated)] // SecretKey::random: see rustcrypto/pk.rs
        let secret = $curve::SecretKey::random($rng);
        let public = secret.public_key();
        PkKeys {
            private_der: secret.to_sec1_der().expect("DER of a valid key").to_vec(),
            public_der: public.to_public_key_der().expect("DER of a valid key").as_bytes().to_vec(),
            ec_private: secret.to_bytes().to_vec(),
            public: public.to_sec1_bytes().to_vec(),
            ..PkKeys::default()
        }
    }};
}

fn ec(alg: &PkAlgorithmSpec, rng: &mut ChaCha20Rng) -> PkKeys {
    match alg.openssl_name {
        "P-256" => ec_keys!(p256, rng),
        "P-384" => ec_keys!(p384, rng),
        _ => ec_keys!(p521, rng),
    }
}

/// Seed length of the algorithms whose private key is a seed.
pub fn seed_len(alg: &PkAlgorithmSpec) -> usize {
    match (alg.kind, alg.openssl_name) {
        (PkKind::EdDsa, "ED448") => 57,
        (PkKind::Ecdh, "X448") => 56,
        (PkKind::MlKem, _) => 64,
        (PkKind::SlhDsa, _) => 48, // SK.seed ‖ SK.prf ‖ PK.seed for n = 16 (FIPS 205 §10.1)
        // The NIST KAT generator's 48-byte seed (PQCgenKAT's randombytes_init):
        // these schemes draw their key from a generator, not from a defined seed.
        (PkKind::Falcon | PkKind::Hqc, _) => 48,
        _ => 32,
    }
}

fn seeded(alg: &PkAlgorithmSpec, rng: &mut ChaCha20Rng) -> PkKeys {
    let seed = random_bytes(rng, seed_len(alg));
    let mut keys = PkKeys {
        seed: seed.clone(),
        ..PkKeys::default()
    };
    match alg.openssl_name {
        "ED25519" => {
            let s: [u8; 32] = seed.as_slice().try_into().expect("32 bytes");
            let sk = ed25519_dalek::SigningKey::from_bytes(&s);
            keys.public = sk.verifying_key().to_bytes().to_vec();
        }
        "X25519" => {
            let s: [u8; 32] = seed.as_slice().try_into().expect("32 bytes");
            keys.public = x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(s))
                .as_bytes()
                .to_vec();
        }
        _ => {}
    }
    keys
}

fn generate(alg: &PkAlgorithmSpec, seed: u64) -> PkKeys {
    if alg.is_rsa() {
        return rsa_keys(alg.bits, seed);
    }
    let mut rng = rng_for(alg.id, seed);
    let mut keys = match alg.kind {
        PkKind::Ecdsa | PkKind::Ecdh if alg.openssl_name.starts_with("P-") => ec(alg, &mut rng),
        _ => seeded(alg, &mut rng),
    };
    if alg.kind == PkKind::Ecdh {
        let mut peer = if alg.openssl_name.starts_with("P-") {
            ec(alg, &mut rng)
        } else {
            seeded(alg, &mut rng)
        };
        peer.peer = None;
        keys.peer = Some(Box::new(peer));
    }
    keys
}

/// The key material of `alg` for `seed`, generated once per process (RSA
/// key generation takes a while); RSA schemes of one size share one key.
pub fn keys_for(alg: &PkAlgorithmSpec, seed: u64) -> Arc<PkKeys> {
    /// Keys by (algorithm or RSA size, seed).
    type Cache = Mutex<HashMap<(String, u64), Arc<PkKeys>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let name = if alg.is_rsa() {
        format!("rsa{}", alg.bits)
    } else {
        alg.id.to_string()
    };
    let cache = CACHE.get_or_init(Default::default);
    if let Some(k) = cache.lock().expect("key cache").get(&(name.clone(), seed)) {
        return k.clone();
    }
    let keys = Arc::new(generate(alg, seed));
    cache.lock().expect("key cache").insert((name, seed), keys.clone());
    keys
}

/// Fresh random bytes from a seeded generator (messages, vectors' fillers).
pub fn seeded_bytes(label: &str, seed: u64, n: usize) -> Vec<u8> {
    random_bytes(&mut rng_for(label, seed), n)
}

/// An RSA-OAEP (SHA-256) ciphertext of `message` under `keys`, made by the
/// `rsa` crate with the seeded generator: the same bytes in every worker.
pub fn seeded_oaep_ciphertext(alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8], seed: u64) -> Result<Vec<u8>, String> {
    use rsa::pkcs8::DecodePublicKey;
    let public = rsa::RsaPublicKey::from_public_key_der(&keys.public_der).map_err(|e| e.to_string())?;
    let mut rng = rng_for(&format!("oaep {}", alg.id), seed);
    public
        .encrypt(&mut rng, rsa::Oaep::<sha2::Sha256>::new(), message)
        .map_err(|e| e.to_string())
}

/// Keys for an EC private scalar: the public key and DER from RustCrypto.
pub fn ec_keys_from_scalar(alg: &PkAlgorithmSpec, scalar: &[u8]) -> Result<PkKeys, String> {
    macro_rules! build {
        ($c:ident) => {{
            let secret = $c::SecretKey::from_slice(scalar).map_err(|e| e.to_string())?;
            Ok(PkKeys {
                private_der: secret.to_sec1_der().map_err(|e| e.to_string())?.to_vec(),
                ec_private: secret.to_bytes().to_vec(),
                public: secret.public_key().to_sec1_bytes().to_vec(),
                ..PkKeys::default()
            })
        }};
    }
    match alg.openssl_name {
        "P-256" => build!(p256),
        "P-384" => build!(p384),
        "P-521" => build!(p521),
        other => Err(format!("no EC keys for {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_keys() {
        let alg = cryptobench_core::pk::find("ed25519").unwrap();
        assert_eq!(generate(alg, 1).seed, generate(alg, 1).seed);
        assert_ne!(generate(alg, 1).seed, generate(alg, 2).seed);
        let p256 = cryptobench_core::pk::find("ecdhp256").unwrap();
        let k = generate(p256, 3);
        assert_eq!(k.public.len(), 65);
        assert_eq!(k.peer.as_ref().unwrap().public.len(), 65);
        assert_ne!(k.public, k.peer.as_ref().unwrap().public);
    }
}

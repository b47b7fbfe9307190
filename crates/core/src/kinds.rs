//! The words a cell is described in: the class of an algorithm, the
//! operation timed and the mode of one call. [`crate::catalog`] and
//! [`crate::cell`] re-export them.

use serde::{Deserialize, Serialize};

/// The three classes differ in what one operation means (see docs/METHOD.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AlgorithmClass {
    /// A block or stream cipher without authentication.
    Cipher,
    /// Authenticated encryption with associated data.
    Aead,
    /// A hash function.
    Digest,
    /// A keyed digest (message authentication code): HMAC, CMAC, Poly1305,
    /// GHASH. `message` is one MAC of the buffer under the kept key,
    /// `stream` one update per call (docs/METHOD.md).
    Mac,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    Encrypt,
    Decrypt,
    Digest,
    /// Public key (crates/core/src/pk.rs): one signature.
    Sign,
    /// One signature verification.
    Verify,
    /// One key pair generated.
    Keygen,
    /// One shared secret encapsulated (KEM).
    Encaps,
    /// One ciphertext decapsulated (KEM).
    Decaps,
    /// One shared secret derived (Diffie–Hellman).
    Derive,
    /// A MAC computed over the message (keyed digest).
    Mac,
}

impl Operation {
    /// Short form used in tables ("enc", "dec", "hash").
    pub fn short(self) -> &'static str {
        match self {
            Operation::Encrypt => "enc",
            Operation::Decrypt => "dec",
            Operation::Digest => "hash",
            Operation::Sign => "sign",
            Operation::Verify => "verify",
            Operation::Keygen => "keygen",
            Operation::Encaps => "encaps",
            Operation::Decaps => "decaps",
            Operation::Derive => "derive",
            Operation::Mac => "mac",
        }
    }
}

/// How one timed call is shaped; see docs/METHOD.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// One context initialised once; each call is one update over `size` bytes.
    Stream,
    /// Each call is a whole message: the IV/nonce set again (one fixed value
    /// for every message: setting it costs the same whatever the value),
    /// update, final (AEAD: tag computed or verified); digests: the
    /// library's one-shot call.
    Message,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Stream => "stream",
            Mode::Message => "message",
        }
    }

    /// The mode whose semantics match `openssl speed -evp` for this class:
    /// plain ciphers stream updates on one context, AEADs and digests are
    /// timed per message (docs/METHOD.md cites apps/speed.c).
    pub fn default_for(class: AlgorithmClass) -> Mode {
        match class {
            AlgorithmClass::Cipher => Mode::Stream,
            AlgorithmClass::Aead | AlgorithmClass::Digest | AlgorithmClass::Mac => Mode::Message,
        }
    }
}

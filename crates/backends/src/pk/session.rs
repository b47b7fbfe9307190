//! What a library supplies for a public-key cell: a session on imported keys.

use crate::error::BackendError;
use crate::named::Allocation;

fn not_offered<T>(what: &str) -> Result<T, BackendError> {
    Err(BackendError::Unsupported(what.to_string()))
}

/// One key (or key pair) of one algorithm imported into a library, with
/// the contexts one operation needs, made outside the timing. For RSA and
/// ECDSA the `message` of sign and verify is the precomputed digest (as
/// `openssl speed` signs a buffer it does not hash); EdDSA, ML-DSA and
/// SLH-DSA sign the message itself. Outputs go into the caller's buffers
/// (cleared and refilled: no allocation once they have grown to size).
/// Every method has a default that says "not offered".
pub trait PkSession {
    fn sign(&mut self, message: &[u8], signature: &mut Vec<u8>) -> Result<(), BackendError> {
        let _ = (message, signature);
        not_offered("signing")
    }
    /// Ok(false) when the signature does not verify.
    fn verify(&mut self, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        let _ = (message, signature);
        not_offered("verification")
    }
    fn encrypt(&mut self, message: &[u8], ciphertext: &mut Vec<u8>) -> Result<(), BackendError> {
        let _ = (message, ciphertext);
        not_offered("encryption")
    }
    /// [`BackendError::AuthenticationFailed`] when the ciphertext is rejected.
    fn decrypt(&mut self, ciphertext: &[u8], message: &mut Vec<u8>) -> Result<(), BackendError> {
        let _ = (ciphertext, message);
        not_offered("decryption")
    }
    /// The shared secret of the key's private part and its peer's public key.
    fn derive(&mut self, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let _ = secret;
        not_offered("key agreement")
    }
    fn encapsulate(&mut self, ciphertext: &mut Vec<u8>, secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let _ = (ciphertext, secret);
        not_offered("encapsulation")
    }
    fn decapsulate(&mut self, ciphertext: &[u8], secret: &mut Vec<u8>) -> Result<(), BackendError> {
        let _ = (ciphertext, secret);
        not_offered("decapsulation")
    }
    /// A new key pair of the session's algorithm, kept until the next call
    /// (which frees it), as `openssl speed` generates and frees keys.
    fn keygen(&mut self) -> Result<(), BackendError> {
        not_offered("key generation")
    }
    /// Why a timed call allocates on the heap, where the library cannot
    /// avoid it (a crate computing with heap-allocated big integers), and on
    /// which heap: a named exception (docs/METHOD.md). None: no call allocates.
    fn allocates(&self) -> Option<Allocation> {
        None
    }
    /// What served the calls where the library says (OpenSSL 3: the
    /// provider of the operation's context, or the engine), as the
    /// symmetric cells' `Primitive::implementation`. None: not said.
    fn implementation(&self) -> Option<String> {
        None
    }
    /// The public key of the last generated key pair (outside the timing).
    fn generated_public(&mut self) -> Result<Vec<u8>, BackendError> {
        not_offered("key generation")
    }
}

/// Lets a call write up to `max` bytes into `out`, which then holds the
/// `n` bytes it says it wrote: the C libraries' "buffer and length" calls.
/// `out` keeps its capacity from call to call, so once it has grown to
/// `max`, no call allocates.
pub fn fill(out: &mut Vec<u8>, max: usize, write: impl FnOnce(*mut u8) -> Result<usize, BackendError>) -> Result<(), BackendError> {
    out.clear();
    out.reserve(max);
    let n = write(out.as_mut_ptr())?;
    if n > max {
        return Err(BackendError::Invalid(format!("a call wrote {n} bytes into a buffer of {max}")));
    }
    // SAFETY: the call wrote its n ≤ max bytes at the start of the reserved capacity.
    unsafe { out.set_len(n) };
    Ok(())
}

/// What an ECDSA verify cell leaves out where the library takes r ‖ s
/// (NSS, a PKCS#11 token, Crypto++'s P1363 form) and the signature is
/// decoded from DER once ([`KeptInput`]).
pub const ECDSA_DER_KEPT: &str = "the DER signature is decoded into the r ‖ s the library takes once, outside the timing \
     (KeptInput), where a library that takes DER decodes it in every call";

/// An input a library takes in its own form (libgcrypt's S-expressions,
/// Nettle's GMP integers), converted once and kept while the caller passes
/// the same bytes. A timed loop passes the same message and signature to
/// every call, so the conversion is made by the first call alone (as the
/// output buffers grow in the first call only), and each later call
/// compares the bytes with the kept ones and uses the converted value.
/// That is work short of what a library taking the bytes themselves does
/// in every call: a library that keeps an input names it
/// ([`crate::pk::PkLibrary::extra_work`], docs/METHOD.md).
pub struct KeptInput<T> {
    bytes: Vec<u8>,
    value: Option<T>,
}

impl<T> Default for KeptInput<T> {
    fn default() -> Self {
        KeptInput {
            bytes: Vec::new(),
            value: None,
        }
    }
}

impl<T> KeptInput<T> {
    /// The converted value of `input`: kept from an earlier call with the
    /// same bytes, or made now by `convert`.
    pub fn get(&mut self, input: &[u8], convert: impl FnOnce(&[u8]) -> Result<T, BackendError>) -> Result<&T, BackendError> {
        let kept = match &self.value {
            Some(_) if self.bytes == input => self.value.take(),
            _ => None,
        };
        let value = match kept {
            Some(v) => v,
            None => {
                let v = convert(input)?;
                self.bytes.clear();
                self.bytes.extend_from_slice(input);
                v
            }
        };
        Ok(self.value.insert(value))
    }
}

/// The session for a public key a library refuses to load (not a point on
/// the curve, a malformed encoding: test vectors carry such keys): it
/// verifies nothing, which is the answer those vectors expect.
pub struct Rejecting;

impl PkSession for Rejecting {
    fn verify(&mut self, _message: &[u8], _signature: &[u8]) -> Result<bool, BackendError> {
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_is_converted_once_while_it_stays_the_same() {
        let mut kept = KeptInput::default();
        let mut conversions = 0;
        for input in [&b"ab"[..], b"ab", b"ab", b"cd", b"cd"] {
            let v = kept
                .get(input, |b| {
                    conversions += 1;
                    Ok(b.to_vec())
                })
                .unwrap();
            assert_eq!(v, input);
        }
        assert_eq!(conversions, 2);
        assert!(kept.get(b"ef", |_| Err(BackendError::Invalid("no".into()))).is_err());
        assert_eq!(kept.get(b"ef", |b| Ok(b.to_vec())).unwrap(), b"ef");
    }
}

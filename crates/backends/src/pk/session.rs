//! What a library supplies for a public-key cell: a session on imported keys.

use crate::error::BackendError;

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
    /// avoid it (a crate computing with heap-allocated big integers): a
    /// named exception (docs/METHOD.md). None: no call allocates.
    fn allocates(&self) -> Option<&'static str> {
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

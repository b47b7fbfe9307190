//! The timed loops of the backends that describe a library as a keyed
//! cipher session and a digest session (GnuTLS, Mbed TLS, wolfSSL,
//! LibTomCrypt, Botan, Crypto++, ring, aws-lc-rs, BoringSSL), written once.
//!
//! A backend implements [`CipherSession`] and [`DigestSession`] over its
//! library (a MAC is a keyed [`DigestSession`]); [`prepare_cipher`] and
//! [`prepare_digest`] turn them into timed
//! primitives that keep the rules of docs/METHOD.md ("Equal work"):
//! everything is allocated in `prepare`, each call does the same work, and
//! every input and output passes through `black_box` so that no compiler
//! (linked-in Rust crates are seen through) can hoist loop-invariant work.

use std::hint::black_box;

use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};

use crate::error::BackendError;
use crate::traits::{CellInputs, Primitive, Sealed};

/// A cipher keyed once, as a library keeps it between calls.
pub trait CipherSession {
    /// Sets up the key schedule again (`--rekey`: once per message).
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError>;
    /// `stream`: one update in place, the chaining state (CBC/CFB IV, CTR
    /// counter, AEAD state without AAD or tag) carried on from the last call.
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError>;
    /// `message` encryption in place under `iv` on the kept key: AAD, one
    /// pass over `buf`, final; an AEAD writes its tag into `tag` (empty for
    /// plain ciphers).
    fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError>;
    /// `message` decryption of `input` into `out` under `iv`; `input` is the
    /// ciphertext, followed by the tag where [`CipherSession::tag_appended`]
    /// says so. An AEAD tag that does not verify is
    /// [`BackendError::AuthenticationFailed`].
    fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError>;
    /// Encryption of `input` into `out`, for the verified one-shot path
    /// only; the default copies and seals in place. A library whose
    /// in-place call cannot do every length (Mbed TLS's and wolfSSL's XTS
    /// ciphertext stealing) encrypts apart here, and refuses those lengths
    /// for timing.
    fn seal_into(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
        out.copy_from_slice(input);
        self.seal(iv, aad, out, tag)
    }
    /// Whether `open` reads an AEAD message as ciphertext ‖ tag in one
    /// buffer, as some decrypting calls do (GnuTLS's
    /// `gnutls_aead_cipher_decrypt`, Botan's `botan_cipher_update`): the
    /// prepared message is then laid out so, once, outside the timing.
    fn tag_appended(&self) -> bool {
        false
    }
}

/// The input `open` reads for a message: the ciphertext, followed by the tag where the session wants it so.
fn open_input<S: CipherSession>(s: &S, alg: &AlgorithmSpec, ciphertext: &[u8], tag: &[u8]) -> Vec<u8> {
    let mut input = ciphertext.to_vec();
    if alg.class == AlgorithmClass::Aead && s.tag_appended() {
        input.extend_from_slice(tag);
    }
    input
}

/// A hash function as a library offers it, or a MAC keyed once (a keyed
/// digest: the same two modes, docs/METHOD.md): [`prepare_digest`] times
/// both, and [`digest_once`] of a freshly keyed session is the MAC's
/// one-shot check.
pub trait DigestSession {
    /// `message`: the library's one-shot call where it has one (else
    /// init, update, final), writing the digest into `out`; a MAC's
    /// message starts again from the kept key.
    fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError>;
    /// `stream`: one update on the kept state.
    fn update(&mut self, msg: &[u8]) -> Result<(), BackendError>;
    /// The digest of everything updated so far, from a copy of the state
    /// (outside the timing; the state itself goes on).
    fn peek(&mut self) -> Result<Vec<u8>, BackendError>;
}

/// Where a session's library cannot do a cell: the reason, for `n/a`.
pub fn unsupported(what: impl Into<String>) -> BackendError {
    BackendError::Unsupported(what.into())
}

/// A MAC key of the catalog's length: CMAC and Poly1305 take one length
/// only (HMAC takes any, and is not checked), and some libraries abort
/// rather than refuse another.
pub fn check_mac_key(alg: &AlgorithmSpec, key: &[u8]) -> Result<(), BackendError> {
    if key.len() != alg.key_len {
        return Err(BackendError::Invalid(format!("{} takes a {}-byte key", alg.id, alg.key_len)));
    }
    Ok(())
}

/// A catalog algorithm the library offers that its backend does not call
/// yet: `n/a`, without claiming the library lacks it.
pub fn not_mapped(id: &str, library: &str) -> BackendError {
    unsupported(format!(
        "{id} ({library} has it, but cryptobench does not map it for {library} yet)"
    ))
}

/// Ciphertext and tag of one message through a fresh encrypting session.
pub fn seal_once<S: CipherSession>(mut s: S, alg: &AlgorithmSpec, iv: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Sealed, BackendError> {
    let mut ciphertext = vec![0u8; plaintext.len()];
    let mut tag = vec![0u8; alg.tag_len];
    s.seal_into(iv, aad, plaintext, &mut ciphertext, &mut tag)?;
    Ok(Sealed { ciphertext, tag })
}

/// The plaintext of one message through a fresh decrypting session.
pub fn open_once<S: CipherSession>(
    mut s: S,
    alg: &AlgorithmSpec,
    iv: &[u8],
    aad: &[u8],
    ciphertext: &[u8],
    tag: &[u8],
) -> Result<Vec<u8>, BackendError> {
    if tag.len() != alg.tag_len {
        // A truncated or overlong tag never verifies (the catalog's tags are whole).
        return Err(BackendError::AuthenticationFailed);
    }
    let mut out = vec![0u8; ciphertext.len()];
    let input = open_input(&s, alg, ciphertext, tag);
    s.open(iv, aad, &input, &mut out, tag)?;
    Ok(out)
}

/// The digest of `msg` through a fresh session's update and final (a path
/// independent of the timed one-shot call).
pub fn digest_once<D: DigestSession>(mut d: D, msg: &[u8]) -> Result<Vec<u8>, BackendError> {
    d.update(msg)?;
    d.peek()
}

/// Builds the timed primitive of a cipher cell. `keyed(encrypt)` returns a
/// session keyed with `inputs.key` and started at `inputs.iv`; for message
/// decryption the message is encrypted once here, so that every timed call
/// decrypts and authenticates a genuine one.
pub fn prepare_cipher<'a, S: CipherSession + 'a>(
    cell: &CellSpec,
    alg: &AlgorithmSpec,
    inputs: &CellInputs,
    message: &[u8],
    keyed: impl Fn(bool) -> Result<S, BackendError>,
    implementation: Option<String>,
) -> Result<Box<dyn Primitive + 'a>, BackendError> {
    let encrypt = cell.operation == Operation::Encrypt;
    if cell.mode == Mode::Stream {
        return Ok(Box::new(Stream {
            session: keyed(encrypt)?,
            implementation,
        }));
    }
    let sealed = if encrypt {
        Sealed {
            ciphertext: Vec::new(),
            tag: vec![0; alg.tag_len],
        }
    } else {
        seal_once(keyed(true)?, alg, &inputs.iv, &inputs.aad, message)?
    };
    let session = keyed(encrypt)?;
    let input = if encrypt {
        Vec::new()
    } else {
        open_input(&session, alg, &sealed.ciphertext, &sealed.tag)
    };
    Ok(Box::new(Message {
        session,
        key: inputs.key.clone(),
        iv: inputs.iv.clone(),
        aad: if alg.class == AlgorithmClass::Aead {
            inputs.aad.clone()
        } else {
            Vec::new()
        },
        encrypt,
        rekey: cell.rekey,
        aead: alg.class == AlgorithmClass::Aead,
        length: sealed.ciphertext.len(),
        tag: sealed.tag,
        input,
        implementation,
    }))
}

/// Builds the timed primitive of a digest cell from a fresh session.
pub fn prepare_digest<'a, D: DigestSession + 'a>(
    cell: &CellSpec,
    alg: &AlgorithmSpec,
    session: D,
    implementation: Option<String>,
) -> Box<dyn Primitive + 'a> {
    match cell.mode {
        Mode::Message => Box::new(DigestMessage {
            session,
            out: vec![0; alg.digest_len],
            implementation,
        }),
        Mode::Stream => Box::new(DigestStream { session, implementation }),
    }
}

/// `stream`: one keyed session, one update in place per call.
struct Stream<S> {
    session: S,
    implementation: Option<String>,
}

impl<S: CipherSession> Primitive for Stream<S> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            self.session.update(black_box(&mut *buf))?;
        }
        Ok(())
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

/// `message`: IV on the kept key (`rekey`: key schedule first), AAD, one
/// pass, final; encryption in place with the tag into the prepared tag
/// buffer, decryption of the prepared ciphertext into the buffer against
/// the genuine tag.
struct Message<S> {
    session: S,
    key: Vec<u8>,
    iv: Vec<u8>,
    aad: Vec<u8>,
    encrypt: bool,
    rekey: bool,
    aead: bool,
    tag: Vec<u8>,
    /// Length of the prepared ciphertext (decryption).
    length: usize,
    /// What `open` reads: the prepared ciphertext (‖ tag where the session wants it).
    input: Vec<u8>,
    implementation: Option<String>,
}

impl<S: CipherSession> Primitive for Message<S> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        if !self.encrypt && self.length != buf.len() {
            return Err(BackendError::Invalid("buffer and prepared ciphertext differ in length".into()));
        }
        for _ in 0..iterations {
            if self.rekey {
                self.session.rekey(black_box(&self.key))?;
            }
            if self.encrypt {
                self.session
                    .seal(black_box(&self.iv), black_box(&self.aad), black_box(&mut *buf), &mut self.tag)?;
                black_box(&mut self.tag);
            } else {
                self.session.open(
                    black_box(&self.iv),
                    black_box(&self.aad),
                    black_box(&self.input),
                    black_box(&mut *buf),
                    black_box(&self.tag),
                )?;
            }
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(self.aead.then(|| self.tag.clone()))
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

/// Digest `message`: one call per message into the prepared output.
struct DigestMessage<D> {
    session: D,
    out: Vec<u8>,
    implementation: Option<String>,
}

impl<D: DigestSession> Primitive for DigestMessage<D> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            self.session.digest(black_box(&*buf), black_box(&mut self.out))?;
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.out.clone()))
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

/// Digest `stream`: updates on one state; the value is read from a copy.
struct DigestStream<D> {
    session: D,
    implementation: Option<String>,
}

impl<D: DigestSession> Primitive for DigestStream<D> {
    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        for _ in 0..iterations {
            self.session.update(black_box(&*buf))?;
        }
        Ok(())
    }
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(self.session.peek()?))
    }
    fn implementation(&self) -> Option<String> {
        self.implementation.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy XOR "cipher" with a sum "tag", to test the loops alone.
    struct Toy {
        key: u8,
        rekeys: usize,
    }

    impl CipherSession for Toy {
        fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
            self.key = key[0];
            self.rekeys += 1;
            Ok(())
        }
        fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
            buf.iter_mut().for_each(|b| *b ^= self.key);
            Ok(())
        }
        fn seal(&mut self, iv: &[u8], _aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), BackendError> {
            buf.iter_mut().for_each(|b| *b ^= self.key ^ iv[0]);
            if let Some(t) = tag.first_mut() {
                *t = buf.iter().fold(0u8, |a, b| a.wrapping_add(*b));
            }
            Ok(())
        }
        fn open(&mut self, iv: &[u8], _aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), BackendError> {
            if tag.first() != Some(&input.iter().fold(0u8, |a, b| a.wrapping_add(*b))) {
                return Err(BackendError::AuthenticationFailed);
            }
            for (o, i) in out.iter_mut().zip(input) {
                *o = i ^ self.key ^ iv[0];
            }
            Ok(())
        }
    }

    #[test]
    fn message_decryption_reads_the_prepared_ciphertext_and_rekeys_per_call() {
        let alg = cryptobench_core::catalog::get("chacha20-poly1305").unwrap();
        let cell = CellSpec {
            algorithm: alg.id.into(),
            operation: Operation::Decrypt,
            mode: Mode::Message,
            rekey: true,
            size: 4,
            aad: 13,
        };
        let inputs = CellInputs {
            key: vec![5; 32],
            iv: vec![9; 12],
            aad: vec![1; 13],
        };
        let mut p = prepare_cipher(&cell, alg, &inputs, &[1, 2, 3, 4], |_| Ok(Toy { key: 5, rekeys: 0 }), None).unwrap();
        let mut buf = [0u8; 4];
        p.run(3, &mut buf).unwrap();
        assert_eq!(buf, [1, 2, 3, 4]);
        assert!(p.run(1, &mut [0u8; 3]).is_err(), "a buffer of another length is refused");
    }
}

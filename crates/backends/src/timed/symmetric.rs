//! The timed loops of every symmetric cell, over the sessions a library
//! supplies (crates/backends/src/sessions.rs): cipher `stream`, cipher
//! `message` (with `--rekey`: the key schedule set up again per message),
//! digest and MAC `message` and `stream`. This is where the equal-work rules
//! of docs/METHOD.md live, once for every library:
//!
//! - everything is allocated in `prepare`, nothing in a timed call;
//! - a `message` sets the IV on the kept key, and only `--rekey` sets up
//!   the key schedule again, through the session's own key setup;
//! - decryption reads a genuine message (sealed once here, outside the
//!   timing) and writes a separate output buffer;
//! - every input and output passes through `black_box`, so that no
//!   compiler (linked-in Rust crates are seen through) hoists
//!   loop-invariant work or drops an unused result.

use std::hint::black_box;

use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};

use crate::backend::{CellInputs, Sealed, Tamper};
use crate::error::BackendError;
use crate::named::Allocation;
use crate::primitive::Primitive;
use crate::sessions::{open_input, seal_once, CipherSession, DigestSession};

/// Builds the timed primitive of a cipher cell. `keyed(encrypt)` returns a
/// session keyed with `inputs.key` and started at `inputs.iv`; for message
/// decryption the message is encrypted once here, so that every timed call
/// decrypts and authenticates a genuine one (`tamper`: the tamper checks'
/// corrupted one, which every timed call must reject).
pub fn prepare_cipher<'a, S: CipherSession + 'a>(
    cell: &CellSpec,
    alg: &AlgorithmSpec,
    inputs: &CellInputs,
    message: &[u8],
    mut keyed: impl FnMut(bool) -> Result<S, BackendError>,
    implementation: Option<String>,
    tamper: Option<Tamper>,
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
        let mut sealed = seal_once(keyed(true)?, alg, inputs.call(message))?;
        if let Some(tamper) = tamper {
            tamper.apply(&mut sealed);
        }
        sealed
    };
    let mut session = keyed(encrypt)?;
    session.reserve(message.len());
    let input = if encrypt {
        Vec::new()
    } else {
        open_input(&session, alg, &sealed.ciphertext, &sealed.tag)
    };
    let aead = alg.class == AlgorithmClass::Aead;
    Ok(Box::new(Message {
        session,
        key: inputs.key.clone(),
        iv: inputs.iv.clone(),
        aad: if aead { inputs.aad.clone() } else { Vec::new() },
        encrypt,
        rekey: cell.rekey,
        aead,
        length: sealed.ciphertext.len(),
        tag: sealed.tag,
        input,
        implementation,
    }))
}

/// Builds the timed primitive of a digest or MAC cell from a fresh session.
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
    fn allocates(&self) -> Option<Allocation> {
        self.session.allocates(Mode::Stream, false)
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
    fn extra_work(&self) -> Option<String> {
        self.session.extra_work().map(str::to_string)
    }
    fn allocates(&self) -> Option<Allocation> {
        self.session.allocates(Mode::Message, self.rekey)
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
    fn extra_work(&self) -> Option<String> {
        self.session.extra_work().map(str::to_string)
    }
    fn allocates(&self) -> Option<Allocation> {
        self.session.allocates(true)
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
    fn allocates(&self) -> Option<Allocation> {
        self.session.allocates(false)
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
        fn extra_work(&self) -> Option<&'static str> {
            Some("toy: none really")
        }
    }

    fn cell(operation: Operation, rekey: bool) -> CellSpec {
        CellSpec {
            algorithm: "chacha20-poly1305".into(),
            operation,
            mode: Mode::Message,
            rekey,
            size: 4,
            aad: 13,
            unit: cryptobench_core::cell::CellUnit::Bytes,
        }
    }

    fn inputs() -> CellInputs {
        CellInputs {
            key: vec![5; 32],
            iv: vec![9; 12],
            aad: vec![1; 13],
        }
    }

    #[test]
    fn message_decryption_reads_the_prepared_ciphertext_and_rekeys_per_call() {
        let alg = cryptobench_core::catalog::get("chacha20-poly1305").unwrap();
        let mut p = prepare_cipher(
            &cell(Operation::Decrypt, true),
            alg,
            &inputs(),
            &[1, 2, 3, 4],
            |_| Ok(Toy { key: 5, rekeys: 0 }),
            None,
            None,
        )
        .unwrap();
        let mut buf = [0u8; 4];
        p.run(3, &mut buf).unwrap();
        assert_eq!(buf, [1, 2, 3, 4]);
        assert!(p.run(1, &mut [0u8; 3]).is_err(), "a buffer of another length is refused");
    }

    #[test]
    fn a_tampered_message_is_prepared_for_decryption_and_rejected_in_the_loop() {
        let alg = cryptobench_core::catalog::get("chacha20-poly1305").unwrap();
        for tamper in [Tamper::Tag, Tamper::Ciphertext] {
            let mut p = prepare_cipher(
                &cell(Operation::Decrypt, false),
                alg,
                &inputs(),
                &[1, 2, 3, 4],
                |_| Ok(Toy { key: 5, rekeys: 0 }),
                None,
                Some(tamper),
            )
            .unwrap();
            assert!(
                matches!(p.run(1, &mut [0u8; 4]), Err(BackendError::AuthenticationFailed)),
                "{tamper:?}"
            );
        }
    }

    #[test]
    fn a_sessions_extra_work_is_named_by_its_message_loop() {
        let alg = cryptobench_core::catalog::get("chacha20-poly1305").unwrap();
        let p = prepare_cipher(
            &cell(Operation::Encrypt, false),
            alg,
            &inputs(),
            &[1, 2, 3, 4],
            |_| Ok(Toy { key: 5, rekeys: 0 }),
            None,
            None,
        )
        .unwrap();
        assert_eq!(p.extra_work().as_deref(), Some("toy: none really"));
    }
}

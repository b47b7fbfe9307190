//! The one timed loop of every public-key cell, over the session a library
//! supplies (crates/backends/src/pk/mod.rs, `PkSession`): one operation per
//! call on keys imported outside the timing, outputs into buffers that are
//! reused from call to call, inputs and outputs through `black_box`. A
//! verify, decrypt or decaps call checks the genuine signature or
//! ciphertext the same library made once in `prepare`.

use std::hint::black_box;

use cryptobench_core::Operation;

use crate::error::BackendError;
use crate::named::Allocation;
use crate::pk::session::PkSession;
use crate::primitive::Primitive;

/// The timed primitive of one public-key operation. `prepared` is the
/// signature a verify call checks, the ciphertext a decrypt or decaps call
/// opens (empty for the other operations); `extra_work` what the library
/// names for the operation (`PkLibrary::extra_work`).
pub fn prepare<'a>(
    op: Operation,
    session: Box<dyn PkSession + 'a>,
    prepared: Vec<u8>,
    extra_work: Option<&'static str>,
) -> Result<Box<dyn Primitive + 'a>, BackendError> {
    Ok(Box::new(PkLoop {
        session,
        op,
        prepared,
        extra_work,
        out: Vec::new(),
        secret: Vec::new(),
    }))
}

struct PkLoop<'a> {
    session: Box<dyn PkSession + 'a>,
    op: Operation,
    /// The genuine signature (verify) or ciphertext (decrypt, decaps).
    prepared: Vec<u8>,
    /// Signature, ciphertext, plaintext or derived secret of the last call.
    out: Vec<u8>,
    /// The shared secret of the last encapsulation or decapsulation.
    secret: Vec<u8>,
    extra_work: Option<&'static str>,
}

impl Primitive for PkLoop<'_> {
    fn implementation(&self) -> Option<String> {
        self.session.implementation()
    }

    fn run(&mut self, iterations: u64, buf: &mut [u8]) -> Result<(), BackendError> {
        let s = &mut self.session;
        for _ in 0..iterations {
            match self.op {
                Operation::Sign => s.sign(black_box(&*buf), &mut self.out)?,
                Operation::Verify => {
                    if !s.verify(black_box(&*buf), black_box(&self.prepared))? {
                        return Err(BackendError::Invalid("a genuine signature did not verify".into()));
                    }
                }
                Operation::Encrypt => s.encrypt(black_box(&*buf), &mut self.out)?,
                Operation::Decrypt => s.decrypt(black_box(&self.prepared), &mut self.out)?,
                Operation::Derive => s.derive(&mut self.out)?,
                Operation::Encaps => s.encapsulate(&mut self.out, &mut self.secret)?,
                Operation::Decaps => s.decapsulate(black_box(&self.prepared), &mut self.secret)?,
                Operation::Keygen => s.keygen()?,
                Operation::Digest | Operation::Mac => {
                    return Err(BackendError::Invalid(format!("{} is not a public-key operation", self.op.short())))
                }
            }
            black_box(&mut self.out);
            black_box(&mut self.secret);
        }
        Ok(())
    }

    fn allocates(&self) -> Option<Allocation> {
        self.session.allocates()
    }

    fn extra_work(&self) -> Option<String> {
        self.extra_work.map(str::to_string)
    }

    /// What the check compares with the one-shot calls: the signature
    /// (made, or verified), the ciphertext or plaintext, the secret,
    /// ciphertext ‖ secret of a KEM, the public key of a generated pair.
    fn last_output(&mut self) -> Result<Option<Vec<u8>>, BackendError> {
        Ok(Some(match self.op {
            Operation::Verify => self.prepared.clone(),
            Operation::Encaps => [self.out.as_slice(), self.secret.as_slice()].concat(),
            Operation::Decaps => [self.prepared.as_slice(), self.secret.as_slice()].concat(),
            Operation::Keygen => self.session.generated_public()?,
            _ => self.out.clone(),
        }))
    }
}

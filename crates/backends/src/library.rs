//! What a library supplies ([`Library`]: its self-description and its
//! sessions) and the blanket implementations that turn it into a
//! [`Backend`] (and a [`PkLibrary`] into a [`PkBackend`]): support, the
//! one-shot calls of verification and `prepare` are written here once, for
//! every library alike.
//!
//! A library hands its sessions to a *task* rather than returning them:
//! `cipher(alg, key, iv, task)` calls `task.with(|encrypt| session)`. The
//! task is generic over the session type, so a library whose session type
//! differs per algorithm (RustCrypto: one Rust type per cipher) still gets
//! a timed loop compiled for each type, with no dynamic dispatch per call.
//! The tasks are private to this file: checking support, sealing or
//! opening once, naming extra work, preparing a timed cell.

use cryptobench_core::pk::PkAlgorithmSpec;
use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};

use crate::backend::{catalog_lengths_only, check_key_and_iv, check_mode, check_once, AeadCall, Backend, CellInputs, Sealed, Tamper};
use crate::error::BackendError;
use crate::named::NamedWork;
use crate::pk::keys::PkKeys;
use crate::pk::{PkBackend, PkLibrary};
use crate::primitive::Primitive;
use crate::sessions::{digest_once, open_once, seal_once, unsupported, CipherSession, DigestSession};
use crate::support::Support;
use crate::timed::symmetric::{prepare_cipher, prepare_digest};

/// Something done with a library's cipher sessions. `keyed(encrypt)`
/// makes a session keyed with the key and IV the library was given,
/// encrypting or decrypting.
pub trait CipherTask<'a> {
    type Done;
    fn with<S: CipherSession + 'a>(self, keyed: impl FnMut(bool) -> Result<S, BackendError>) -> Result<Self::Done, BackendError>;
}

/// Something done with a library's digest (or keyed MAC) session.
pub trait DigestTask<'a> {
    type Done;
    fn with<D: DigestSession + 'a>(self, session: D) -> Result<Self::Done, BackendError>;
}

/// A crypto library as it is added to cryptobench: one folder with a type
/// implementing this trait, and one entry in the registry (crates/backends/src/lib.rs).
/// Every method but [`Library::info`] has a default that says "not offered".
pub trait Library {
    /// Name, version, the file loaded, the library's own view of the CPU.
    fn info(&self) -> BackendInfo;

    /// Hands `task` the cipher sessions of `alg` under `key` and `iv`
    /// (whose lengths are the catalog's: checked before): `task.with(|encrypt| …)`.
    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let _ = (key, iv, task);
        Err(unsupported(format!("{} (this library has no ciphers in cryptobench)", alg.id)))
    }

    /// Hands `task` a fresh digest session of `alg`.
    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        let _ = task;
        Err(unsupported(format!("{} (this library has no digests in cryptobench)", alg.id)))
    }

    /// Hands `task` a MAC session of `alg` keyed with `key` (a keyed digest session).
    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        let _ = (key, task);
        Err(unsupported(format!("{} (this backend computes no MACs)", alg.id)))
    }

    /// A cell the library refuses although it has the algorithm (updates it
    /// cannot continue, a size it cannot take in this mode): the reason is
    /// the cell's `n/a`.
    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        let _ = (alg, cell);
        None
    }

    /// Which code path the library runs for `alg`, where it says so.
    fn implementation(&self, alg: &AlgorithmSpec) -> Option<String> {
        let _ = alg;
        None
    }

    /// One MAC through a path independent of the timed one, where the
    /// library has one (a one-shot call); the default is a fresh keyed
    /// session's update and final.
    fn one_shot_mac(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        self.mac(alg, key, DigestOnce(message))
    }

    /// One AEAD message with a test vector's IV and tag lengths, where the
    /// library takes lengths other than the catalog's: sealing (`encrypt`)
    /// writes the tag into `tag` (of the vector's length), opening checks
    /// `tag`; the output is returned. The default takes the catalog's only.
    fn vector_message(&self, alg: &AlgorithmSpec, encrypt: bool, call: AeadCall, tag: &mut [u8]) -> Result<Vec<u8>, BackendError> {
        let _ = (encrypt, call, tag);
        Err(catalog_lengths_only(alg))
    }

    /// The library's public-key operations: `Some(self)` for a library
    /// that implements [`crate::pk::PkLibrary`].
    fn pk(&self) -> Option<&dyn PkBackend> {
        None
    }

    /// A library whose calls run in another process (a language runtime's
    /// driver) times its loop there, by the same rules, and forwards it
    /// here; every other library returns None and is timed by the loops of
    /// crates/backends/src/timed/.
    /// `tamper` is the tamper checks' corruption of a decryption's prepared
    /// message ([`Backend::prepare_tampered`]), None for a timed cell.
    fn forwarded(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
        tamper: Option<Tamper>,
    ) -> Option<Result<Box<dyn Primitive + '_>, BackendError>> {
        let _ = (cell, alg, inputs, message, tamper);
        None
    }
}

/// Key and IV of the catalog's lengths for support checks, where no cell gives them.
fn probe_inputs(alg: &AlgorithmSpec) -> CellInputs {
    crate::backend::inputs_for(alg, 1)
}

/// Support: a session can be made.
struct Probe;

impl<'a> CipherTask<'a> for Probe {
    type Done = ();
    fn with<S: CipherSession + 'a>(self, mut keyed: impl FnMut(bool) -> Result<S, BackendError>) -> Result<(), BackendError> {
        keyed(true).map(drop)
    }
}

impl<'a> DigestTask<'a> for Probe {
    type Done = ();
    fn with<D: DigestSession + 'a>(self, _session: D) -> Result<(), BackendError> {
        Ok(())
    }
}

/// The extra work the `message` sessions name: of both directions of a
/// cipher (named once as `message` where they name the same; a direction
/// whose session cannot be made names none).
struct ExtraWork;

impl<'a> CipherTask<'a> for ExtraWork {
    type Done = Vec<NamedWork>;
    fn with<S: CipherSession + 'a>(self, mut keyed: impl FnMut(bool) -> Result<S, BackendError>) -> Result<Self::Done, BackendError> {
        let mut named = |encrypt| keyed(encrypt).map(|s| s.extra_work()).unwrap_or(None);
        let (encrypting, decrypting) = (named(true), named(false));
        if encrypting == decrypting {
            return Ok(NamedWork::merged(encrypting.map(|w| ("message", w))));
        }
        let both = [("message encryption", encrypting), ("message decryption", decrypting)];
        Ok(NamedWork::merged(both.into_iter().filter_map(|(cells, w)| w.map(|w| (cells, w)))))
    }
}

impl<'a> DigestTask<'a> for ExtraWork {
    type Done = Vec<NamedWork>;
    fn with<D: DigestSession + 'a>(self, session: D) -> Result<Self::Done, BackendError> {
        Ok(NamedWork::merged(session.extra_work().map(|w| ("message", w))))
    }
}

/// One message sealed through a fresh encrypting session.
struct SealOnce<'m> {
    alg: &'m AlgorithmSpec,
    call: AeadCall<'m>,
}

impl<'a> CipherTask<'a> for SealOnce<'_> {
    type Done = Sealed;
    fn with<S: CipherSession + 'a>(self, mut keyed: impl FnMut(bool) -> Result<S, BackendError>) -> Result<Sealed, BackendError> {
        seal_once(keyed(true)?, self.alg, self.call)
    }
}

/// One message opened through a fresh decrypting session.
struct OpenOnce<'m> {
    alg: &'m AlgorithmSpec,
    call: AeadCall<'m>,
    tag: &'m [u8],
}

impl<'a> CipherTask<'a> for OpenOnce<'_> {
    type Done = Vec<u8>;
    fn with<S: CipherSession + 'a>(self, mut keyed: impl FnMut(bool) -> Result<S, BackendError>) -> Result<Vec<u8>, BackendError> {
        open_once(keyed(false)?, self.alg, self.call, self.tag)
    }
}

/// One digest (or MAC) through a fresh session's update and final.
struct DigestOnce<'m>(&'m [u8]);

impl<'a> DigestTask<'a> for DigestOnce<'_> {
    type Done = Vec<u8>;
    fn with<D: DigestSession + 'a>(self, session: D) -> Result<Vec<u8>, BackendError> {
        digest_once(session, self.0)
    }
}

/// A timed cell, built by the loops of crates/backends/src/timed/symmetric.rs
/// (`tamper`: over a corrupted message, for the tamper checks).
struct Prepare<'m> {
    cell: &'m CellSpec,
    alg: &'m AlgorithmSpec,
    inputs: &'m CellInputs,
    message: &'m [u8],
    implementation: Option<String>,
    tamper: Option<Tamper>,
}

impl<'a> CipherTask<'a> for Prepare<'_> {
    type Done = Box<dyn Primitive + 'a>;
    fn with<S: CipherSession + 'a>(self, keyed: impl FnMut(bool) -> Result<S, BackendError>) -> Result<Self::Done, BackendError> {
        prepare_cipher(
            self.cell,
            self.alg,
            self.inputs,
            self.message,
            keyed,
            self.implementation,
            self.tamper,
        )
    }
}

impl<'a> DigestTask<'a> for Prepare<'_> {
    type Done = Box<dyn Primitive + 'a>;
    fn with<D: DigestSession + 'a>(self, session: D) -> Result<Self::Done, BackendError> {
        Ok(prepare_digest(self.cell, self.alg, session, self.implementation))
    }
}

/// The one implementation of [`Backend`]: every library's support, one-shot
/// calls and timed cells come from its sessions through the code above.
impl<L: Library> Backend for L {
    fn info(&self) -> BackendInfo {
        Library::info(self)
    }

    fn support(&self, alg: &AlgorithmSpec) -> Support {
        let inputs = probe_inputs(alg);
        Support::from(match alg.class {
            AlgorithmClass::Digest => self.digest(alg, Probe),
            AlgorithmClass::Mac => self.mac(alg, &inputs.key, Probe),
            _ => self.cipher(alg, &inputs.key, &inputs.iv, Probe),
        })
    }

    fn encrypt_once(&self, alg: &AlgorithmSpec, call: AeadCall) -> Result<Sealed, BackendError> {
        check_once(alg, &call)?;
        self.cipher(alg, call.key, call.iv, SealOnce { alg, call })
    }

    fn decrypt_once(&self, alg: &AlgorithmSpec, call: AeadCall, tag: &[u8]) -> Result<Vec<u8>, BackendError> {
        check_once(alg, &call)?;
        self.cipher(alg, call.key, call.iv, OpenOnce { alg, call, tag })
    }

    fn digest_once(&self, alg: &AlgorithmSpec, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        self.digest(alg, DigestOnce(message))
    }

    fn mac_once(&self, alg: &AlgorithmSpec, key: &[u8], message: &[u8]) -> Result<Vec<u8>, BackendError> {
        self.one_shot_mac(alg, key, message)
    }

    fn seal_with(&self, alg: &AlgorithmSpec, call: AeadCall, tag_len: usize) -> Result<Sealed, BackendError> {
        if call.iv.len() == alg.iv_len && tag_len == alg.tag_len {
            return self.encrypt_once(alg, call);
        }
        let mut tag = vec![0u8; tag_len];
        let ciphertext = self.vector_message(alg, true, call, &mut tag)?;
        Ok(Sealed { ciphertext, tag })
    }

    fn open_with(&self, alg: &AlgorithmSpec, call: AeadCall, tag: &[u8]) -> Result<Vec<u8>, BackendError> {
        if call.iv.len() == alg.iv_len && tag.len() == alg.tag_len {
            return self.decrypt_once(alg, call, tag);
        }
        self.vector_message(alg, false, call, &mut tag.to_vec())
    }

    fn prepare(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        prepare_cell(self, cell, alg, inputs, message, None)
    }

    fn prepare_tampered(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
        tamper: Tamper,
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        if alg.class != AlgorithmClass::Aead || cell.operation != Operation::Decrypt || cell.mode != Mode::Message {
            return Err(BackendError::Invalid(format!(
                "only an AEAD's message decryption is prepared over a tampered message, not {}",
                cell.describe()
            )));
        }
        prepare_cell(self, cell, alg, inputs, message, Some(tamper))
    }

    fn extra_work(&self, alg: &AlgorithmSpec) -> Vec<NamedWork> {
        let inputs = probe_inputs(alg);
        let named = match alg.class {
            AlgorithmClass::Digest => self.digest(alg, ExtraWork),
            AlgorithmClass::Mac => self.mac(alg, &inputs.key, ExtraWork),
            _ => self.cipher(alg, &inputs.key, &inputs.iv, ExtraWork),
        };
        named.unwrap_or_default()
    }

    fn pk(&self) -> Option<&dyn PkBackend> {
        Library::pk(self)
    }
}

/// A timed cell of `library` ([`Backend::prepare`]; `tamper`: over a
/// corrupted message, [`Backend::prepare_tampered`]).
fn prepare_cell<'l, L: Library>(
    library: &'l L,
    cell: &CellSpec,
    alg: &AlgorithmSpec,
    inputs: &CellInputs,
    message: &[u8],
    tamper: Option<Tamper>,
) -> Result<Box<dyn Primitive + 'l>, BackendError> {
    check_mode(alg, cell)?;
    if let Some(reason) = library.refuses(alg, cell) {
        return Err(BackendError::Unsupported(reason));
    }
    if let Some(forwarded) = library.forwarded(cell, alg, inputs, message, tamper) {
        return forwarded;
    }
    let task = Prepare {
        cell,
        alg,
        inputs,
        message,
        implementation: library.implementation(alg),
        tamper,
    };
    match alg.class {
        AlgorithmClass::Digest => library.digest(alg, task),
        AlgorithmClass::Mac => library.mac(alg, &inputs.key, task),
        _ => {
            check_key_and_iv(alg, &inputs.key, &inputs.iv)?;
            library.cipher(alg, &inputs.key, &inputs.iv, task)
        }
    }
}

/// Names what an operation lacks, as the cell's `n/a` reads it.
fn in_alg<T>(alg: &PkAlgorithmSpec, r: Result<T, BackendError>) -> Result<T, BackendError> {
    r.map_err(|e| match e {
        BackendError::Unsupported(what) if !what.starts_with(alg.id) => BackendError::Unsupported(format!("{} {what}", alg.id)),
        other => other,
    })
}

impl<P: PkLibrary> PkBackend for P {
    fn pk_support(&self, alg: &PkAlgorithmSpec) -> Support {
        PkLibrary::pk_support(self, alg)
    }

    fn own_known_answers(&self, alg: &PkAlgorithmSpec) -> Result<usize, String> {
        PkLibrary::own_known_answers(self, alg)
    }

    fn ecdsa_nonce(&self) -> Option<cryptobench_core::pk::EcdsaNonce> {
        PkLibrary::ecdsa_nonce(self)
    }

    fn extra_work(&self, alg: &PkAlgorithmSpec) -> Vec<NamedWork> {
        if PkLibrary::pk_support(self, alg) != Support::Supported {
            return Vec::new();
        }
        NamedWork::merged(
            alg.operations
                .iter()
                .filter_map(|&op| PkLibrary::extra_work(self, alg, op).map(|w| (op.short(), w))),
        )
    }

    fn public_key(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        PkLibrary::public_key(self, alg, keys)
    }

    fn sign(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let mut signature = Vec::new();
        in_alg(alg, self.pk_session(alg, keys, Operation::Sign)?.sign(message, &mut signature))?;
        Ok(signature)
    }

    fn verify(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8], signature: &[u8]) -> Result<bool, BackendError> {
        in_alg(alg, self.pk_session(alg, keys, Operation::Verify)?.verify(message, signature))
    }

    fn encrypt(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let mut out = Vec::new();
        in_alg(alg, self.pk_session(alg, keys, Operation::Encrypt)?.encrypt(message, &mut out))?;
        Ok(out)
    }

    fn decrypt(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, ciphertext: &[u8]) -> Result<Vec<u8>, BackendError> {
        let mut out = Vec::new();
        in_alg(alg, self.pk_session(alg, keys, Operation::Decrypt)?.decrypt(ciphertext, &mut out))?;
        Ok(out)
    }

    fn derive(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
        let mut out = Vec::new();
        in_alg(alg, self.pk_session(alg, keys, Operation::Derive)?.derive(&mut out))?;
        Ok(out)
    }

    fn encapsulate(&self, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<(Vec<u8>, Vec<u8>), BackendError> {
        let (mut ct, mut ss) = (Vec::new(), Vec::new());
        in_alg(alg, self.pk_session(alg, keys, Operation::Encaps)?.encapsulate(&mut ct, &mut ss))?;
        Ok((ct, ss))
    }

    fn decapsulate(&self, alg: &PkAlgorithmSpec, keys: &PkKeys, ciphertext: &[u8]) -> Result<Vec<u8>, BackendError> {
        let mut ss = Vec::new();
        in_alg(alg, self.pk_session(alg, keys, Operation::Decaps)?.decapsulate(ciphertext, &mut ss))?;
        Ok(ss)
    }

    fn prepare_pk(
        &self,
        cell: &CellSpec,
        alg: &PkAlgorithmSpec,
        keys: &PkKeys,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        if let Support::Unsupported(why) = PkLibrary::pk_support(self, alg) {
            return Err(BackendError::Unsupported(why));
        }
        let op = cell.operation;
        // What a verify, decrypt or decaps call checks: made once by this library.
        let prepared = match op {
            Operation::Verify => self.sign(alg, keys, message)?,
            Operation::Decrypt => self.encrypt(alg, keys, message)?,
            Operation::Decaps => self.encapsulate(alg, keys)?.0,
            Operation::Digest | Operation::Mac => return Err(BackendError::Unsupported(format!("{} {}", alg.id, op.short()))),
            _ => Vec::new(),
        };
        if let Some(forwarded) = PkLibrary::forwarded_pk(self, cell, alg, keys, &prepared) {
            return forwarded;
        }
        let session = self.pk_session(alg, keys, op)?;
        crate::timed::public_key::prepare(op, session, prepared, PkLibrary::extra_work(self, alg, op))
    }
}

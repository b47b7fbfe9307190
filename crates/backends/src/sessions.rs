//! What a library supplies for symmetric cells: a keyed cipher session and
//! a digest session (a MAC is a keyed digest session). The loops that time
//! them are written once, in crates/backends/src/timed/symmetric.rs; a
//! library never writes a loop.
//!
//! The rules a session keeps (docs/METHOD.md, "Equal work"): everything it
//! needs is allocated when it is made, each call does the work its mode
//! names and nothing else, the key schedule is kept between messages and
//! set up again only by [`CipherSession::rekey`]. Where a library cannot
//! keep a rule without extra work, the session says so in
//! [`CipherSession::extra_work`] (a named exception, shown with the cell)
//! or the library refuses the cell.

use cryptobench_core::{AlgorithmClass, AlgorithmSpec, Mode};

use crate::backend::{AeadCall, Sealed};
use crate::error::BackendError;
use crate::named::Allocation;

/// A cipher keyed once, as a library keeps it between calls. A session is
/// made for one direction (encrypting or decrypting).
pub trait CipherSession {
    /// Sets up the key schedule again (`--rekey`: once per message, before
    /// [`CipherSession::seal`] or [`CipherSession::open`]).
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
    /// Sizes what the session's `message` calls need for messages of
    /// `message_len` bytes (a kept scratch buffer), before the timing, so
    /// that no timed call allocates; the default needs nothing.
    fn reserve(&mut self, message_len: usize) {
        let _ = message_len;
    }
    /// Whether `open` reads an AEAD message as ciphertext ‖ tag in one
    /// buffer, as some decrypting calls do (GnuTLS's
    /// `gnutls_aead_cipher_decrypt`, Botan's `botan_cipher_update`, the
    /// kernel's AEAD sockets): the prepared message is then laid out so,
    /// once, outside the timing.
    fn tag_appended(&self) -> bool {
        false
    }
    /// Work a `message` call of this session (in its direction) does
    /// beyond what its mode names, which the library cannot avoid (e.g. a
    /// mode that restarts only through its key, a copy of the ciphertext
    /// where the library decrypts in place only): the named exception,
    /// shown in `algorithms` and in the cell's notes (docs/METHOD.md lists
    /// them all). None: no extra work.
    fn extra_work(&self) -> Option<&'static str> {
        None
    }
    /// Why a timed call of this session allocates on the heap in a cell of
    /// `mode` (`rekey`: a `message` cell under `--rekey`; false for a
    /// `stream`), where the library cannot avoid it (its key setup under
    /// `--rekey`, a crate that returns owned values), and on which heap: a
    /// named exception, which the allocation test requires to happen
    /// (docs/METHOD.md lists them). None: no timed call of such a cell allocates.
    fn allocates(&self, mode: Mode, rekey: bool) -> Option<Allocation> {
        let _ = (mode, rekey);
        None
    }
}

/// A hash function as a library offers it, or a MAC keyed once (a keyed
/// digest: the same two modes, docs/METHOD.md).
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
    /// As [`CipherSession::extra_work`], for a `message` cell (a MAC that
    /// sets its key up again for every message, where the library keeps no
    /// keyed state).
    fn extra_work(&self) -> Option<&'static str> {
        None
    }
    /// As [`CipherSession::allocates`], for a `message` cell (`message`)
    /// or a `stream` cell.
    fn allocates(&self, message: bool) -> Option<Allocation> {
        let _ = message;
        None
    }
}

/// Where a session's library cannot do a cell: the reason, for `n/a`.
pub fn unsupported(what: impl Into<String>) -> BackendError {
    BackendError::Unsupported(what.into())
}

/// A catalog algorithm the library offers that its backend does not call
/// yet: `n/a`, without claiming the library lacks it.
pub fn not_mapped(id: &str, library: &str) -> BackendError {
    unsupported(format!(
        "{id} ({library} has it, but cryptobench does not map it for {library} yet)"
    ))
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

/// The input `open` reads for a message: the ciphertext, followed by the
/// tag where the session wants it so.
pub fn open_input<S: CipherSession + ?Sized>(s: &S, alg: &AlgorithmSpec, ciphertext: &[u8], tag: &[u8]) -> Vec<u8> {
    let mut input = ciphertext.to_vec();
    if alg.class == AlgorithmClass::Aead && s.tag_appended() {
        input.extend_from_slice(tag);
    }
    input
}

/// One message through a fresh session keyed with `call.key`: sealing
/// (`encrypt`) writes the tag into `tag`, opening checks `tag`; the output
/// is returned.
pub fn message_once<S: CipherSession>(
    mut s: S,
    alg: &AlgorithmSpec,
    encrypt: bool,
    call: AeadCall,
    tag: &mut [u8],
) -> Result<Vec<u8>, BackendError> {
    let mut out = vec![0u8; call.data.len()];
    if encrypt {
        s.seal_into(call.iv, call.aad, call.data, &mut out, tag)?;
    } else {
        let input = open_input(&s, alg, call.data, tag);
        s.open(call.iv, call.aad, &input, &mut out, tag)?;
    }
    Ok(out)
}

/// Ciphertext and tag of one message through a fresh encrypting session.
pub fn seal_once<S: CipherSession>(s: S, alg: &AlgorithmSpec, call: AeadCall) -> Result<Sealed, BackendError> {
    let mut tag = vec![0u8; alg.tag_len];
    let ciphertext = message_once(s, alg, true, call, &mut tag)?;
    Ok(Sealed { ciphertext, tag })
}

/// The plaintext of one message through a fresh decrypting session.
pub fn open_once<S: CipherSession>(s: S, alg: &AlgorithmSpec, call: AeadCall, tag: &[u8]) -> Result<Vec<u8>, BackendError> {
    if tag.len() != alg.tag_len {
        // A truncated or overlong tag never verifies (the catalog's tags are whole).
        return Err(BackendError::AuthenticationFailed);
    }
    message_once(s, alg, false, call, &mut tag.to_vec())
}

/// The digest of `msg` through a fresh session's update and final (a path
/// independent of the timed one-shot call).
pub fn digest_once<D: DigestSession>(mut d: D, msg: &[u8]) -> Result<Vec<u8>, BackendError> {
    d.update(msg)?;
    d.peek()
}

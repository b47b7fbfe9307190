//! One request of each kind over an operation socket, as the sessions
//! (sessions.rs) make them: every call is at least one `sendmsg` and one
//! `read` system call, which is the price of the kernel path and part of
//! what is measured. Nothing here allocates.

use std::io;

use super::socket::{Control, Op, AEAD_MAX, CHUNK};
use crate::error::BackendError;

pub fn os_error(call: &'static str, e: io::Error) -> BackendError {
    BackendError::Call {
        call,
        detail: e.to_string(),
    }
}

fn op_code(encrypt: bool) -> libc::c_int {
    if encrypt {
        libc::ALG_OP_ENCRYPT
    } else {
        libc::ALG_OP_DECRYPT
    }
}

/// One skcipher request over `input`, or over `out` itself where `input`
/// is None (in place), sent in chunks below the socket buffer and chained
/// by the kernel's IV; the result is read into `out`.
pub fn skcipher(op: &Op, encrypt: bool, iv: &[u8], xts: bool, input: Option<&[u8]>, out: &mut [u8]) -> Result<(), BackendError> {
    let len = out.len();
    if input.is_some_and(|i| i.len() != len) {
        return Err(BackendError::Invalid("input and output differ in length".into()));
    }
    if xts && len > CHUNK {
        return Err(BackendError::Unsupported(format!(
            "kernel XTS data units above {CHUNK} bytes (one request must fit the socket buffer)"
        )));
    }
    let control = Control {
        op: Some(op_code(encrypt)),
        iv: (!iv.is_empty()).then_some(iv),
        assoclen: None,
    };
    let mut at = 0;
    while at < len {
        let n = CHUNK.min(len - at);
        let last = at + n == len;
        let c = if at == 0 { &control } else { &Control::default() };
        let chunk = match input {
            Some(i) => &i[at..at + n],
            None => &out[at..at + n],
        };
        op.send(c, &[chunk], !last).map_err(|e| os_error("sendmsg", e))?;
        op.read(&mut out[at..at + n]).map_err(|e| os_error("read", e))?;
        at += n;
    }
    Ok(())
}

/// One update of a skcipher stream in place: the first update of the
/// socket carries the operation and IV, later ones only data, each with
/// MSG_MORE, so the kernel chains through its IV across updates. With more
/// data announced, algif_skcipher returns whole `block`s only (the
/// algorithm's chunk size, CTR and CFB included) and waits for the rest: an
/// update of another length would never be answered, so it is refused.
pub fn skcipher_update(op: &Op, encrypt: bool, iv: &[u8], block: usize, started: &mut bool, buf: &mut [u8]) -> Result<(), BackendError> {
    if !buf.len().is_multiple_of(block) {
        return Err(BackendError::Unsupported(format!(
            "kernel stream updates of {} bytes (the kernel chains only after whole {block}-byte blocks)",
            buf.len()
        )));
    }
    let mut at = 0;
    while at < buf.len() {
        let n = CHUNK.min(buf.len() - at);
        let control = if *started {
            Control::default()
        } else {
            Control {
                op: Some(op_code(encrypt)),
                iv: (!iv.is_empty()).then_some(iv),
                assoclen: None,
            }
        };
        op.send(&control, &[&buf[at..at + n]], true).map_err(|e| os_error("sendmsg", e))?;
        *started = true;
        op.read(&mut buf[at..at + n]).map_err(|e| os_error("read", e))?;
        at += n;
    }
    Ok(())
}

/// Sends one AEAD request: AAD ‖ `data` (algif_aead); the kernel has taken
/// it all when this returns, so the caller may then read the result into
/// the same buffer.
pub fn aead_send(op: &Op, encrypt: bool, iv: &[u8], aad: &[u8], data: &[u8]) -> Result<(), BackendError> {
    if aad.len() + data.len() > AEAD_MAX {
        return Err(BackendError::Unsupported(format!(
            "kernel AEAD messages above {AEAD_MAX} bytes (algif_aead takes one request whole, within the socket buffer)"
        )));
    }
    let assoclen = u32::try_from(aad.len()).map_err(|_| BackendError::Invalid("AAD too long".into()))?;
    let control = Control {
        op: Some(op_code(encrypt)),
        iv: Some(iv),
        assoclen: Some(assoclen),
    };
    op.send(&control, &[aad, data], false).map_err(|e| os_error("sendmsg", e))
}

/// Reads an AEAD result, AAD ‖ output (‖ tag when encrypting), into the
/// buffers of `out` in order; a tag that does not verify is EBADMSG.
pub fn aead_read(op: &Op, out: &mut [&mut [u8]]) -> Result<(), BackendError> {
    op.read_parts(out).map_err(|e| match e.raw_os_error() {
        Some(libc::EBADMSG) => BackendError::AuthenticationFailed,
        _ => os_error("read", e),
    })
}

/// Hash updates with MSG_MORE: the state goes on.
pub fn hash_update(op: &Op, msg: &[u8]) -> Result<(), BackendError> {
    for chunk in msg.chunks(CHUNK) {
        op.send(&Control::default(), &[chunk], true).map_err(|e| os_error("sendmsg", e))?;
    }
    Ok(())
}

/// A whole message through a hash operation socket: updates with MSG_MORE, then the final.
pub fn hash(op: &Op, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
    hash_update(op, msg)?;
    op.send(&Control::default(), &[], false).map_err(|e| os_error("sendmsg", e))?;
    op.read(out).map_err(|e| os_error("read", e))
}

//! The Linux kernel's crypto API through AF_ALG sockets (skcipher, aead,
//! hash), the path to in-kernel drivers and crypto co-processors. The driver
//! the kernel chose for an algorithm (the highest-priority implementation
//! of that name in `/proc/crypto`) is reported per cell. Where the socket
//! family is refused (EAFNOSUPPORT, or EPERM in some containers) the backend
//! is unavailable with that reason.

mod primitives;
mod socket;

use std::collections::BTreeMap;
use std::io;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};

use self::primitives::{AeadMessage, CipherMessage, CipherStream, DigestMessage, DigestStream};
use self::socket::{Control, Op, Tfm, CHUNK};
use crate::error::{BackendError, OpenError};
use crate::backend::{check_key_and_iv, Backend, CellInputs, Primitive, Sealed, Support};

/// (AF_ALG type, kernel algorithm name) of a catalog algorithm.
fn kernel_name(alg: &AlgorithmSpec) -> Option<(&'static str, String)> {
    let digest = |n: &str| Some(("hash", n.to_string()));
    match alg.id {
        "chacha20-poly1305" => return Some(("aead", "rfc7539(chacha20,poly1305)".into())),
        "des-ede3-cbc" => return Some(("skcipher", "cbc(des3_ede)".into())),
        "md5" | "sha1" | "sha224" | "sha256" | "sha384" | "sha512" | "sha3-256" | "sha3-512" => return digest(alg.id),
        "blake2b512" => return digest("blake2b-512"),
        "blake2s256" => return digest("blake2s-256"),
        _ => {}
    }
    let mode = alg.id.strip_prefix("aes-")?.split_once('-')?.1;
    // Modes whose kernel IV and tag conventions are those of the catalog; CCM (a 16-byte
    // IV carrying L'), GCM-SIV, OCB and SIV are not mapped.
    if !matches!(mode, "ecb" | "cbc" | "cfb128" | "ctr" | "gcm" | "xts") {
        return None;
    }
    let mode = if mode == "cfb128" { "cfb" } else { mode };
    let kind = if mode == "gcm" { "aead" } else { "skcipher" };
    Some((kind, format!("{mode}(aes)")))
}

/// The driver `/proc/crypto` lists with the highest priority for `name`: the one the kernel uses.
pub fn driver_of(name: &str) -> Option<String> {
    driver_in(&std::fs::read_to_string("/proc/crypto").ok()?, name)
}

/// [`driver_of`] over the text of `/proc/crypto`: entries separated by blank
/// lines, `key : value` lines; entries whose self-test did not pass are ignored.
fn driver_in(text: &str, name: &str) -> Option<String> {
    let mut best: Option<(i64, String)> = None;
    for entry in text.split("\n\n") {
        let field = |key: &str| {
            entry.lines().find_map(|l| {
                let (k, v) = l.split_once(':')?;
                (k.trim() == key).then(|| v.trim().to_string())
            })
        };
        if field("name").as_deref() != Some(name) || field("selftest").is_some_and(|s| s != "passed") {
            continue;
        }
        let priority = field("priority").and_then(|p| p.parse().ok()).unwrap_or(0);
        if let Some(driver) = field("driver") {
            if best.as_ref().is_none_or(|(p, _)| priority > *p) {
                best = Some((priority, driver));
            }
        }
    }
    best.map(|(_, d)| d)
}

fn os_error(call: &'static str, e: io::Error) -> BackendError {
    BackendError::Call {
        call,
        detail: e.to_string(),
    }
}

pub struct KernelBackend {
    release: String,
}

impl KernelBackend {
    pub fn open() -> Result<KernelBackend, OpenError> {
        socket::family_available().map_err(|e| {
            OpenError::Refused(format!(
                "the kernel refuses AF_ALG sockets here ({e}), so its crypto API cannot be reached"
            ))
        })?;
        // SAFETY: uname fills a plain struct.
        let mut u: libc::utsname = unsafe { std::mem::zeroed() };
        let release = if unsafe { libc::uname(&mut u) } == 0 {
            // SAFETY: uname NUL-terminates its fields.
            unsafe { std::ffi::CStr::from_ptr(u.release.as_ptr()) }
                .to_string_lossy()
                .into_owned()
        } else {
            "unknown".into()
        };
        Ok(KernelBackend { release })
    }

    fn name(&self, alg: &AlgorithmSpec) -> Result<(&'static str, String), BackendError> {
        kernel_name(alg).ok_or_else(|| BackendError::Unsupported(format!("{} (no kernel algorithm mapped)", alg.id)))
    }

    /// A bound transformation, keyed (and with the tag length set, for AEADs).
    fn tfm(&self, alg: &AlgorithmSpec, key: &[u8]) -> Result<Tfm, BackendError> {
        let (kind, name) = self.name(alg)?;
        let tfm = Tfm::bind(kind, &name).map_err(|e| match e.raw_os_error() {
            Some(libc::ENOENT) => BackendError::Unsupported(format!("{} (the kernel has no {name})", alg.id)),
            _ => os_error("bind(AF_ALG)", e),
        })?;
        if !alg.is_digest() {
            tfm.set_key(key).map_err(|e| os_error("setsockopt(ALG_SET_KEY)", e))?;
        }
        if alg.class == AlgorithmClass::Aead {
            tfm.set_authsize(alg.tag_len)
                .map_err(|e| os_error("setsockopt(ALG_SET_AEAD_AUTHSIZE)", e))?;
        }
        Ok(tfm)
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
        op: Some(if encrypt { libc::ALG_OP_ENCRYPT } else { libc::ALG_OP_DECRYPT }),
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

/// Sends one AEAD request: AAD ‖ the data parts (algif_aead); the kernel
/// has taken them all when this returns, so the caller may then read the
/// result into the same buffers.
pub fn aead_send(op: &Op, encrypt: bool, iv: &[u8], aad: &[u8], parts: &[&[u8]]) -> Result<(), BackendError> {
    let total: usize = aad.len() + parts.iter().map(|p| p.len()).sum::<usize>();
    if total > CHUNK {
        return Err(BackendError::Unsupported(format!(
            "kernel AEAD messages above {CHUNK} bytes (algif_aead takes one request whole, within the socket buffer)"
        )));
    }
    let control = Control {
        op: Some(if encrypt { libc::ALG_OP_ENCRYPT } else { libc::ALG_OP_DECRYPT }),
        iv: Some(iv),
        assoclen: Some(aad.len() as u32),
    };
    match parts {
        [one] => op.send(&control, &[aad, one], false),
        [one, two] => op.send(&control, &[aad, one, two], false),
        _ => return Err(BackendError::Invalid("an AEAD request has one or two data parts".into())),
    }
    .map_err(|e| os_error("sendmsg", e))
}

/// Reads an AEAD result, AAD ‖ output (‖ tag when encrypting), into the
/// buffers of `out` in order; a tag that does not verify is EBADMSG.
pub fn aead_read(op: &Op, out: &mut [&mut [u8]]) -> Result<(), BackendError> {
    op.read_parts(out).map_err(|e| match e.raw_os_error() {
        Some(libc::EBADMSG) => BackendError::AuthenticationFailed,
        _ => os_error("read", e),
    })
}

/// A whole message through a hash operation socket: updates with MSG_MORE, then the final.
pub fn hash(op: &Op, msg: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
    for chunk in msg.chunks(CHUNK) {
        op.send(&Control::default(), &[chunk], true).map_err(|e| os_error("sendmsg", e))?;
    }
    op.send(&Control::default(), &[], false).map_err(|e| os_error("sendmsg", e))?;
    op.read(out).map_err(|e| os_error("read", e))
}

impl Backend for KernelBackend {
    fn info(&self) -> BackendInfo {
        let mut details = BTreeMap::new();
        details.insert("interface".to_string(), "AF_ALG (skcipher, aead, hash)".to_string());
        BackendInfo {
            id: "kernel".into(),
            name: "Linux kernel crypto API".into(),
            version: format!("Linux {}", self.release),
            library_path: None,
            cpu_capabilities: None,
            details,
        }
    }

    fn support(&self, alg: &AlgorithmSpec) -> Support {
        let r = self.name(alg).and_then(|(kind, name)| {
            Tfm::bind(kind, &name)
                .map(drop)
                .map_err(|e| BackendError::Unsupported(format!("{} (binding {name} fails: {e})", alg.id)))
        });
        Support::from(r)
    }

    fn encrypt_once(&self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Sealed, BackendError> {
        check_key_and_iv(alg, key, iv)?;
        let op = self.tfm(alg, key)?.accept().map_err(|e| os_error("accept", e))?;
        if alg.class == AlgorithmClass::Aead {
            let (mut aad_out, mut ciphertext, mut tag) = (vec![0u8; aad.len()], vec![0u8; plaintext.len()], vec![0u8; alg.tag_len]);
            aead_send(&op, true, iv, aad, &[plaintext])?;
            aead_read(&op, &mut [&mut aad_out, &mut ciphertext, &mut tag])?;
            return Ok(Sealed { ciphertext, tag });
        }
        let mut out = vec![0u8; plaintext.len()];
        skcipher(&op, true, iv, alg.id.ends_with("-xts"), Some(plaintext), &mut out)?;
        Ok(Sealed {
            ciphertext: out,
            tag: Vec::new(),
        })
    }

    fn decrypt_once(
        &self,
        alg: &AlgorithmSpec,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
    ) -> Result<Vec<u8>, BackendError> {
        check_key_and_iv(alg, key, iv)?;
        let op = self.tfm(alg, key)?.accept().map_err(|e| os_error("accept", e))?;
        if alg.class == AlgorithmClass::Aead {
            if tag.len() != alg.tag_len {
                return Err(BackendError::AuthenticationFailed);
            }
            let (mut aad_out, mut out) = (vec![0u8; aad.len()], vec![0u8; ciphertext.len()]);
            aead_send(&op, false, iv, aad, &[ciphertext, tag])?;
            aead_read(&op, &mut [&mut aad_out, &mut out])?;
            return Ok(out);
        }
        let mut out = vec![0u8; ciphertext.len()];
        skcipher(&op, false, iv, alg.id.ends_with("-xts"), Some(ciphertext), &mut out)?;
        Ok(out)
    }

    fn digest_once(&self, alg: &AlgorithmSpec, message: &[u8]) -> Result<Vec<u8>, BackendError> {
        let op = self.tfm(alg, &[])?.accept().map_err(|e| os_error("accept", e))?;
        let mut out = vec![0u8; alg.digest_len];
        hash(&op, message, &mut out)?;
        Ok(out)
    }

    fn prepare(
        &self,
        cell: &CellSpec,
        alg: &AlgorithmSpec,
        inputs: &CellInputs,
        message: &[u8],
    ) -> Result<Box<dyn Primitive + '_>, BackendError> {
        let (_, name) = self.name(alg)?;
        let implementation = driver_of(&name);
        if cell.rekey {
            return Err(BackendError::Unsupported(format!(
                "{} with --rekey (AF_ALG refuses a new key while an operation socket is open)",
                alg.id
            )));
        }
        if alg.is_digest() {
            let tfm = self.tfm(alg, &[])?;
            let op = tfm.accept().map_err(|e| os_error("accept", e))?;
            let out = vec![0u8; alg.digest_len];
            return Ok(match cell.mode {
                Mode::Message => Box::new(DigestMessage {
                    _tfm: tfm,
                    op,
                    out,
                    implementation,
                }),
                Mode::Stream => Box::new(DigestStream {
                    _tfm: tfm,
                    op,
                    out,
                    implementation,
                }),
            });
        }
        check_key_and_iv(alg, &inputs.key, &inputs.iv)?;
        let encrypt = cell.operation == Operation::Encrypt;
        let tfm = self.tfm(alg, &inputs.key)?;
        let op = tfm.accept().map_err(|e| os_error("accept", e))?;
        let xts = alg.id.ends_with("-xts");
        if alg.class == AlgorithmClass::Aead {
            if cell.mode == Mode::Stream {
                return Err(BackendError::Unsupported(format!(
                    "{} in stream mode (algif_aead processes whole messages only; use --mode message)",
                    alg.id
                )));
            }
            let sealed = self.encrypt_once(alg, &inputs.key, &inputs.iv, &inputs.aad, message)?;
            return Ok(Box::new(AeadMessage {
                _tfm: tfm,
                op,
                encrypt,
                iv: inputs.iv.clone(),
                aad: inputs.aad.clone(),
                tag: if encrypt { vec![0; alg.tag_len] } else { sealed.tag },
                ciphertext: if encrypt { Vec::new() } else { sealed.ciphertext },
                aad_out: vec![0; inputs.aad.len()],
                implementation,
            }));
        }
        Ok(match cell.mode {
            Mode::Stream => {
                // CTR and CFB chain through the kernel's IV only after whole blocks.
                if alg.granularity == 1 && !xts && !cell.size.is_multiple_of(16) {
                    return Err(BackendError::Unsupported(format!(
                        "{} in stream mode with {}-byte updates (the kernel chains only after whole 16-byte blocks)",
                        alg.id, cell.size
                    )));
                }
                Box::new(CipherStream {
                    _tfm: tfm,
                    op,
                    encrypt,
                    iv: inputs.iv.clone(),
                    xts,
                    started: false,
                    implementation,
                })
            }
            Mode::Message => {
                let ciphertext = if encrypt {
                    Vec::new()
                } else {
                    self.encrypt_once(alg, &inputs.key, &inputs.iv, &[], message)?.ciphertext
                };
                Box::new(CipherMessage {
                    _tfm: tfm,
                    op,
                    encrypt,
                    iv: inputs.iv.clone(),
                    xts,
                    ciphertext,
                    implementation,
                })
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROC_CRYPTO: &str = "name         : gcm(aes)
driver       : gcm_base(ctr(aes-generic),ghash-generic)
module       : gcm
priority     : 100
selftest     : passed
type         : aead

name         : gcm(aes)
driver       : generic-gcm-aesni
module       : aesni_intel
priority     : 400
selftest     : passed
type         : aead

name         : gcm(aes)
driver       : broken-gcm
priority     : 900
selftest     : unknown

name         : sha256
driver       : sha256-generic
priority     : 100
";

    #[test]
    fn the_highest_priority_tested_driver_is_the_one_used() {
        assert_eq!(driver_in(PROC_CRYPTO, "gcm(aes)").as_deref(), Some("generic-gcm-aesni"));
        assert_eq!(driver_in(PROC_CRYPTO, "sha256").as_deref(), Some("sha256-generic"));
        assert_eq!(driver_in(PROC_CRYPTO, "cbc(aes)"), None);
    }

    #[test]
    fn catalog_ids_map_to_kernel_names() {
        let name = |id: &str| kernel_name(cryptobench_core::catalog::find(id).unwrap());
        assert_eq!(name("aes-256-gcm"), Some(("aead", "gcm(aes)".into())));
        assert_eq!(name("aes-128-cfb128"), Some(("skcipher", "cfb(aes)".into())));
        assert_eq!(name("aes-256-xts"), Some(("skcipher", "xts(aes)".into())));
        assert_eq!(name("chacha20-poly1305"), Some(("aead", "rfc7539(chacha20,poly1305)".into())));
        assert_eq!(name("des-ede3-cbc"), Some(("skcipher", "cbc(des3_ede)".into())));
        assert_eq!(name("blake2b512"), Some(("hash", "blake2b-512".into())));
        for alg in cryptobench_core::CATALOG.iter().take(29) {
            assert!(kernel_name(alg).is_some(), "{} has no kernel name", alg.id);
        }
        assert_eq!(name("aes-128-ccm"), None);
        assert_eq!(name("hmac-sha256"), None);
    }
}

//! RFC 7253 Appendix A's iterated OCB test, the published known answer for
//! AES-OCB with keys other than 128 bits (the RFC lists fixed samples for
//! AES-128 only). With K = zeros(KEYLEN-8) ‖ num2str(TAGLEN, 8), for
//! i = 0..127 and S = zeros(8i), C accumulates OCB-ENCRYPT(K, N(3i+1), S, S),
//! OCB-ENCRYPT(K, N(3i+2), <empty>, S) and OCB-ENCRYPT(K, N(3i+3), S, <empty>)
//! (arguments: key, nonce, associated data, plaintext; N(x) the 96-bit
//! big-endian x); the answer is OCB-ENCRYPT(K, N(385), C, <empty>). For
//! 128-bit tags the RFC gives 67E944D23256C5E0B6C61FA22FDF1EA2 (AES-128) and
//! D90EB8E9C977C88B79DD793D7FFA161C (AES-256); both were recomputed with
//! pyca/cryptography's AESOCB3.

use cryptobench_core::AlgorithmSpec;

use crate::backend::{AeadCall, Backend};

/// (catalog id, the RFC's output for a 128-bit tag).
const ANSWERS: &[(&str, &str)] = &[
    ("aes-128-ocb", "67e944d23256c5e0b6c61fa22fdf1ea2"),
    ("aes-256-ocb", "d90eb8e9c977c88b79dd793d7ffa161c"),
];

/// Whether the iterated test applies to this catalog id.
pub fn covers(id: &str) -> bool {
    ANSWERS.iter().any(|(a, _)| *a == id)
}

fn nonce(x: u32) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[8..].copy_from_slice(&x.to_be_bytes());
    n
}

/// Runs the iterated test through the backend's one-shot encryption; the
/// number of checks made (1), or why it failed. None where it does not apply.
pub fn check(backend: &dyn Backend, alg: &AlgorithmSpec) -> Option<Result<usize, String>> {
    let (_, expected) = ANSWERS.iter().find(|(id, _)| *id == alg.id)?;
    let mut key = vec![0u8; alg.key_len];
    *key.last_mut().expect("a key") = (alg.tag_len * 8) as u8;
    let seal = |n: u32, aad: &[u8], plaintext: &[u8]| -> Result<Vec<u8>, String> {
        let sealed = backend
            .encrypt_once(
                alg,
                AeadCall {
                    key: &key,
                    iv: &nonce(n),
                    aad,
                    data: plaintext,
                },
            )
            .map_err(|e| format!("known answer (RFC 7253 Appendix A, iterated): {e}"))?;
        Ok([sealed.ciphertext, sealed.tag].concat())
    };
    let run = || -> Result<Vec<u8>, String> {
        let mut c = Vec::new();
        for i in 0..128u32 {
            let s = vec![0u8; i as usize];
            c.extend(seal(3 * i + 1, &s, &s)?);
            c.extend(seal(3 * i + 2, &[], &s)?);
            c.extend(seal(3 * i + 3, &s, &[])?);
        }
        seal(385, &c, &[])
    };
    Some(run().and_then(|out| {
        if hex::encode(&out) == *expected {
            Ok(1)
        } else {
            Err(format!(
                "known answer (RFC 7253 Appendix A, iterated, {}-bit key): {} differs from the published {expected}",
                alg.key_len * 8,
                hex::encode(out)
            ))
        }
    }))
}

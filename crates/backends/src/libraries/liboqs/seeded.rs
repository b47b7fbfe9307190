//! An ML-DSA key pair from its FIPS 204 seed ξ. liboqs 0.13 has no call
//! that takes ξ: `OQS_SIG_keypair` draws it as one 32-byte read of
//! `OQS_randombytes` (pqcrystals-dilithium-standard's `crypto_sign_keypair`,
//! sign.c: `randombytes(seedbuf, SEEDBYTES)`, then FIPS 204 Algorithm 6 on
//! it). So the import hands it ξ through liboqs's hook for another source
//! of randomness (`OQS_randombytes_custom_algorithm`, rand.h) — what its
//! own KAT tests do with the NIST DRBG — and restores the system source
//! afterwards, outside any timing.
//!
//! The hook is global to the process, so one import runs at a time (a
//! lock), and the seed is kept per thread: a call of another thread that
//! draws while the hook is set (an encapsulation, a hedged signature)
//! gets the operating system's randomness, as it would have without it.

use std::cell::RefCell;
use std::sync::Mutex;

use oqs_sys::rand as oqs_rand;

use crate::error::BackendError;

thread_local! {
    /// The seed the next draw of this thread returns.
    static SEED: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
}

/// One seeded import at a time: the hook is process-wide.
static HOOK: Mutex<()> = Mutex::new(());

/// liboqs's source of randomness while the hook is set: this thread's seed
/// where it has one of the length drawn, else `rand`'s thread generator
/// (ChaCha, seeded by the operating system).
extern "C" fn draw(out: *mut u8, n: usize) {
    // SAFETY: liboqs passes a buffer of n writable bytes.
    let buf = unsafe { std::slice::from_raw_parts_mut(out, n) };
    let seed = SEED.with(|s| {
        let mut s = s.borrow_mut();
        match s.as_ref() {
            Some(seed) if seed.len() == n => s.take(),
            _ => None,
        }
    });
    match seed {
        Some(seed) => buf.copy_from_slice(&seed),
        None => rand::RngCore::fill_bytes(&mut rand::rng(), buf),
    }
}

/// Runs `keygen` with liboqs drawing `seed` as its first `seed.len()`-byte
/// read; fails unless it drew exactly that (so a key is never made from
/// other randomness than the seed).
pub fn with_seed<T>(seed: &[u8], keygen: impl FnOnce() -> Result<T, BackendError>) -> Result<T, BackendError> {
    let _one = HOOK.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    SEED.with(|s| *s.borrow_mut() = Some(seed.to_vec()));
    // SAFETY: `draw` fills the buffer it is given, from any thread.
    unsafe { oqs_rand::OQS_randombytes_custom_algorithm(Some(draw as unsafe extern "C" fn(*mut u8, usize))) };
    let made = keygen();
    // SAFETY: the name is one rand.h defines, NUL-terminated.
    let restored = unsafe { oqs_rand::OQS_randombytes_switch_algorithm(oqs_rand::OQS_RAND_alg_system.as_ptr().cast()) };
    let unused = SEED.with(|s| s.borrow_mut().take()).is_some();
    if restored != oqs_sys::common::OQS_STATUS::OQS_SUCCESS {
        return Err(BackendError::Call {
            call: "OQS_randombytes_switch_algorithm",
            detail: "the system source was not restored".into(),
        });
    }
    let made = made?;
    if unused {
        return Err(BackendError::Call {
            call: "OQS_SIG_keypair",
            detail: format!("it did not draw its {}-byte seed in one read", seed.len()),
        });
    }
    Ok(made)
}

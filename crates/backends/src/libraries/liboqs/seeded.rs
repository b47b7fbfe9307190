//! Key pairs from a seed, through liboqs's hook for another source of
//! randomness (`OQS_randombytes_custom_algorithm`, rand.h): what its own KAT
//! tests do with the NIST generator (tests/test_helpers.c). The hook is set
//! outside any timing, and the system source restored afterwards.
//!
//! - ML-DSA: liboqs 0.13 has no call that takes ξ: `OQS_SIG_keypair` draws
//!   it as one 32-byte read of `OQS_randombytes` (pqcrystals-dilithium-
//!   standard's `crypto_sign_keypair`, sign.c: `randombytes(seedbuf,
//!   SEEDBYTES)`, then FIPS 204 Algorithm 6 on it): [`with_seed`] hands it ξ.
//! - Falcon and HQC define no seed at all: their key generation draws from a
//!   generator, which the NIST KAT files seed with 48 bytes ([`with_stream`]
//!   and [`super::kat_rng`]).
//!
//! The hook is global to the process, so one seeded key generation runs at
//! a time (a lock), and the source is kept per thread: a call of another
//! thread that draws while the hook is set (an encapsulation, a hedged
//! signature) gets the operating system's randomness, as it would have
//! without it.

use std::cell::RefCell;
use std::sync::Mutex;

use oqs_sys::rand as oqs_rand;

use crate::error::BackendError;

/// A generator: fills each buffer it is given with its next bytes.
pub type Draw = Box<dyn FnMut(&mut [u8])>;

/// Where this thread's draws come from while the hook is set.
enum Source {
    /// One read of exactly this length returns these bytes (then the system's).
    Once(Vec<u8>),
    /// Every read comes from this generator.
    Stream(Draw),
}

thread_local! {
    static SOURCE: RefCell<Option<Source>> = const { RefCell::new(None) };
}

/// One seeded key generation at a time: the hook is process-wide.
static HOOK: Mutex<()> = Mutex::new(());

/// liboqs's source of randomness while the hook is set: this thread's
/// source where it has one, else `rand`'s thread generator (ChaCha, seeded
/// by the operating system).
extern "C" fn draw(out: *mut u8, n: usize) {
    // SAFETY: liboqs passes a buffer of n writable bytes.
    let buf = unsafe { std::slice::from_raw_parts_mut(out, n) };
    let served = SOURCE.with(|s| {
        let mut s = s.borrow_mut();
        match s.as_mut() {
            Some(Source::Stream(next)) => {
                next(buf);
                true
            }
            Some(Source::Once(seed)) if seed.len() == n => {
                buf.copy_from_slice(seed);
                *s = None;
                true
            }
            _ => false,
        }
    });
    if !served {
        rand::RngCore::fill_bytes(&mut rand::rng(), buf);
    }
}

/// Runs `f` with liboqs drawing from `source` on this thread; gives back
/// what `f` gave and whether the source is still set (a seed not drawn).
fn with_source<T>(source: Source, f: impl FnOnce() -> Result<T, BackendError>) -> Result<(T, bool), BackendError> {
    let _one = HOOK.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    SOURCE.with(|s| *s.borrow_mut() = Some(source));
    // SAFETY: `draw` fills the buffer it is given, from any thread.
    unsafe { oqs_rand::OQS_randombytes_custom_algorithm(Some(draw as unsafe extern "C" fn(*mut u8, usize))) };
    let made = f();
    // SAFETY: the name is one rand.h defines, NUL-terminated.
    let restored = unsafe { oqs_rand::OQS_randombytes_switch_algorithm(oqs_rand::OQS_RAND_alg_system.as_ptr().cast()) };
    let left = SOURCE.with(|s| s.borrow_mut().take()).is_some();
    if restored != oqs_sys::common::OQS_STATUS::OQS_SUCCESS {
        return Err(BackendError::Call {
            call: "OQS_randombytes_switch_algorithm",
            detail: "the system source was not restored".into(),
        });
    }
    Ok((made?, left))
}

/// Runs `keygen` with liboqs drawing `seed` as its first `seed.len()`-byte
/// read; fails unless it drew exactly that (so a key is never made from
/// other randomness than the seed).
pub fn with_seed<T>(seed: &[u8], keygen: impl FnOnce() -> Result<T, BackendError>) -> Result<T, BackendError> {
    let (made, unused) = with_source(Source::Once(seed.to_vec()), keygen)?;
    if unused {
        return Err(BackendError::Call {
            call: "OQS_SIG_keypair",
            detail: format!("it did not draw its {}-byte seed in one read", seed.len()),
        });
    }
    Ok(made)
}

/// Runs `f` with every draw liboqs makes on this thread coming from `stream`.
pub fn with_stream<T>(stream: Draw, f: impl FnOnce() -> Result<T, BackendError>) -> Result<T, BackendError> {
    with_source(Source::Stream(stream), f).map(|(made, _)| made)
}

//! GMP integers (`mpz_t`, gmp.h) as Nettle's RSA, ECDSA and ECDH take them.
//! The calls are resolved through libhogweed, which links libgmp; a Nettle
//! built with mini-gmp exports other names and is reported as lacking them.

use std::ffi::{c_int, c_void};

use crate::error::BackendError;

/// GMP's `__mpz_struct` (gmp.h): allocated limbs, signed used limbs, limb pointer.
#[repr(C)]
pub struct Mpz {
    _alloc: c_int,
    _size: c_int,
    _d: *mut u64,
}

crate::native::api_table! {
    required {
        __gmpz_init: fn(*mut Mpz) -> ();
        __gmpz_clear: fn(*mut Mpz) -> ();
        __gmpz_import: fn(*mut Mpz, usize, c_int, usize, c_int, usize, *const c_void) -> ();
        __gmpz_export: fn(*mut c_void, *mut usize, c_int, usize, c_int, usize, *const Mpz) -> *mut c_void;
        __gmpz_sizeinbase: fn(*const Mpz, c_int) -> usize;
    }
    optional {}
}

impl Mpz {
    /// An all-zero struct for a C init call to fill.
    pub fn empty() -> Mpz {
        Mpz {
            _alloc: 0,
            _size: 0,
            _d: std::ptr::null_mut(),
        }
    }
}

/// A `nettle_random_func` (nettle-types.h) for nonces, blinding, salts and
/// key generation: the process's generator, as OpenSSL draws from its DRBG.
pub unsafe extern "C" fn random(_ctx: *mut c_void, length: usize, dst: *mut u8) {
    if length > 0 {
        // SAFETY: Nettle passes a buffer of `length` bytes.
        let out = unsafe { std::slice::from_raw_parts_mut(dst, length) };
        rand::RngCore::fill_bytes(&mut rand::rng(), out);
    }
}

/// Sets an initialised `z` to the integer of big-endian `bytes`.
pub fn set_be(api: &Api, z: &mut Mpz, bytes: &[u8]) {
    // SAFETY: `z` is initialised; `bytes.len()` one-byte words, most significant first, no nails.
    unsafe { (api.__gmpz_import)(z, bytes.len(), 1, 1, 1, 0, bytes.as_ptr().cast()) };
}

/// A GMP integer, cleared when dropped.
pub struct Int<'a> {
    api: &'a Api,
    pub raw: Mpz,
}

impl<'a> Int<'a> {
    pub fn new(api: &'a Api) -> Box<Int<'a>> {
        let mut i = Box::new(Int { api, raw: Mpz::empty() });
        // SAFETY: initialises the struct in place; it does not move (boxed).
        unsafe { (api.__gmpz_init)(&mut i.raw) };
        i
    }

    /// The integer of big-endian `bytes`.
    pub fn from_be(api: &'a Api, bytes: &[u8]) -> Box<Int<'a>> {
        let mut i = Int::new(api);
        set_be(api, &mut i.raw, bytes);
        i
    }

    /// Big-endian bytes, left-padded to `n`.
    pub fn to_be(&self, n: usize) -> Vec<u8> {
        export(self.api, &self.raw, n)
    }
}

impl Drop for Int<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in new.
        unsafe { (self.api.__gmpz_clear)(&mut self.raw) };
    }
}

/// The length of `z` in bytes (1 for 0).
fn byte_len(api: &Api, z: &Mpz) -> usize {
    // SAFETY: an initialised integer.
    unsafe { (api.__gmpz_sizeinbase)(z, 2) }.div_ceil(8)
}

/// Big-endian bytes of `z`, left-padded to `n`.
pub fn export(api: &Api, z: &Mpz, n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n.max(byte_len(api, z))];
    export_into(api, z, &mut out).expect("sized to hold the integer");
    out
}

/// Big-endian bytes of `z` into all of `out`, left-padded, without
/// allocating; an integer longer than `out` is refused.
pub fn export_into(api: &Api, z: &Mpz, out: &mut [u8]) -> Result<(), BackendError> {
    let len = byte_len(api, z);
    let Some(start) = out.len().checked_sub(len) else {
        return Err(BackendError::Invalid(format!(
            "a {len}-byte integer where {} bytes were expected",
            out.len()
        )));
    };
    out.fill(0);
    let mut count = 0usize;
    // SAFETY: `out[start..]` holds the integer's `len` bytes; GMP writes `count` ≤ `len` bytes (none for 0).
    unsafe { (api.__gmpz_export)(out[start..].as_mut_ptr().cast(), &mut count, 1, 1, 1, 0, z) };
    Ok(())
}

//! Nettle's ECDSA and ECDH on the NIST curves P-256, P-384 and P-521
//! (libhogweed: ecdsa.h, ecc.h, ecc-curve.h of Nettle 3.5+). Keys, points
//! and signatures pass through GMP integers (gmp.rs).
//!
//! ECDSA signs the digest it is given (`ecdsa_sign` takes a digest, as
//! `openssl speed` signs an unhashed buffer); its nonce comes from a
//! `nettle_random_func` fed by the process's generator, as OpenSSL's comes
//! from its DRBG. Signatures are written as DER (SEC 1 §C.8), like OpenSSL's.

use std::ffi::{c_int, c_void};

use cryptobench_core::pk::PkAlgorithmSpec;

use super::gmp::{self, export_into, random, set_be, Int, Mpz};
use crate::error::BackendError;
use crate::pk::encoding::{ecdsa_der_into, ecdsa_from_der};

/// `struct ecc_point` and `struct ecc_scalar` (ecc.h): the curve and its limbs.
#[repr(C)]
pub struct EccValue {
    _ecc: *const c_void,
    _p: *mut u64,
}

/// `struct dsa_signature` (dsa.h): r and s.
#[repr(C)]
pub struct DsaSignature {
    r: Mpz,
    s: Mpz,
}

/// `nettle_random_func` (nettle-types.h).
type RandomFn = unsafe extern "C" fn(*mut c_void, usize, *mut u8);

crate::native::api_table! {
    required {
        nettle_get_secp_256r1: fn() -> *const c_void;
        nettle_get_secp_384r1: fn() -> *const c_void;
        nettle_get_secp_521r1: fn() -> *const c_void;
        nettle_ecc_point_init: fn(*mut EccValue, *const c_void) -> ();
        nettle_ecc_point_clear: fn(*mut EccValue) -> ();
        nettle_ecc_point_set: fn(*mut EccValue, *const Mpz, *const Mpz) -> c_int;
        nettle_ecc_point_get: fn(*const EccValue, *mut Mpz, *mut Mpz) -> ();
        nettle_ecc_point_mul: fn(*mut EccValue, *const EccValue, *const EccValue) -> ();
        nettle_ecc_point_mul_g: fn(*mut EccValue, *const EccValue) -> ();
        nettle_ecc_scalar_init: fn(*mut EccValue, *const c_void) -> ();
        nettle_ecc_scalar_clear: fn(*mut EccValue) -> ();
        nettle_ecc_scalar_set: fn(*mut EccValue, *const Mpz) -> c_int;
        nettle_dsa_signature_init: fn(*mut DsaSignature) -> ();
        nettle_dsa_signature_clear: fn(*mut DsaSignature) -> ();
        nettle_ecdsa_sign: fn(*const EccValue, *mut c_void, RandomFn, usize, *const u8, *mut DsaSignature) -> ();
        nettle_ecdsa_verify: fn(*const EccValue, usize, *const u8, *const DsaSignature) -> c_int;
        nettle_ecdsa_generate_keypair: fn(*mut EccValue, *mut EccValue, *mut c_void, RandomFn) -> ();
    }
    optional {}
}

fn bad(what: &str) -> BackendError {
    BackendError::Invalid(what.to_string())
}

/// Bytes of a field element and of the group order (P-521: 66).
pub fn field_bytes(alg: &PkAlgorithmSpec) -> usize {
    alg.bits.div_ceil(8) as usize
}

/// A point or scalar on a curve, cleared when dropped.
pub struct Value<'a> {
    api: &'a Api,
    point: bool,
    pub raw: EccValue,
}

impl<'a> Value<'a> {
    fn new(api: &'a Api, curve: *const c_void, point: bool) -> Box<Value<'a>> {
        let mut v = Box::new(Value {
            api,
            point,
            raw: EccValue {
                _ecc: std::ptr::null(),
                _p: std::ptr::null_mut(),
            },
        });
        // SAFETY: initialised in place for a curve of Nettle's; boxed, so it does not move.
        unsafe {
            if point {
                (api.nettle_ecc_point_init)(&mut v.raw, curve)
            } else {
                (api.nettle_ecc_scalar_init)(&mut v.raw, curve)
            }
        };
        v
    }
}

impl Drop for Value<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in new.
        unsafe {
            if self.point {
                (self.api.nettle_ecc_point_clear)(&mut self.raw)
            } else {
                (self.api.nettle_ecc_scalar_clear)(&mut self.raw)
            }
        }
    }
}

/// An ECDSA signature (r, s), cleared when dropped.
pub struct Signature<'a> {
    api: &'a Api,
    gmp: &'a gmp::Api,
    pub raw: DsaSignature,
}

impl<'a> Signature<'a> {
    fn new(api: &'a Api, gmp: &'a gmp::Api) -> Box<Signature<'a>> {
        let mut s = Box::new(Signature {
            api,
            gmp,
            raw: DsaSignature {
                r: Mpz::empty(),
                s: Mpz::empty(),
            },
        });
        // SAFETY: initialised in place; boxed.
        unsafe { (api.nettle_dsa_signature_init)(&mut s.raw) };
        s
    }

    /// DER into `out`, as OpenSSL and RustCrypto encode it, without
    /// allocating once `out` has grown: r and s exported (`mpz_export`)
    /// into buffers of the group order's length, then encoded.
    pub fn der_into(&self, alg: &PkAlgorithmSpec, out: &mut Vec<u8>) -> Result<(), BackendError> {
        // P-521's 66 bytes are the longest.
        let n = field_bytes(alg);
        let (mut r, mut s) = ([0u8; 66], [0u8; 66]);
        let (r, s) = (&mut r[..n], &mut s[..n]);
        export_into(self.gmp, &self.raw.r, r)?;
        export_into(self.gmp, &self.raw.s, s)?;
        ecdsa_der_into(out, r, s);
        Ok(())
    }
}

impl Drop for Signature<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in new.
        unsafe { (self.api.nettle_dsa_signature_clear)(&mut self.raw) };
    }
}

/// One curve of Nettle's, with the calls on it.
pub struct Curve<'a> {
    pub api: &'a Api,
    pub gmp: &'a gmp::Api,
    curve: *const c_void,
    alg: &'a PkAlgorithmSpec,
}

impl<'a> Curve<'a> {
    /// The curve of `alg` (P-256, P-384, P-521), or None for another.
    pub fn of(api: &'a Api, gmp: &'a gmp::Api, alg: &'a PkAlgorithmSpec) -> Option<Curve<'a>> {
        // SAFETY: Nettle's curve getters take nothing and return a static curve.
        let curve = unsafe {
            match alg.openssl_name {
                "P-256" => (api.nettle_get_secp_256r1)(),
                "P-384" => (api.nettle_get_secp_384r1)(),
                "P-521" => (api.nettle_get_secp_521r1)(),
                _ => return None,
            }
        };
        Some(Curve { api, gmp, curve, alg })
    }

    pub fn scalar(&self, big_endian: &[u8]) -> Result<Box<Value<'a>>, BackendError> {
        let mut s = Value::new(self.api, self.curve, false);
        let z = Int::from_be(self.gmp, big_endian);
        // SAFETY: both initialised; Nettle copies the integer.
        if unsafe { (self.api.nettle_ecc_scalar_set)(&mut s.raw, &z.raw) } != 1 {
            return Err(bad("the private scalar is not below the group order"));
        }
        Ok(s)
    }

    /// The point of an uncompressed encoding (0x04 ‖ x ‖ y); None when it is not one or not on the curve.
    pub fn point(&self, uncompressed: &[u8]) -> Option<Box<Value<'a>>> {
        let n = field_bytes(self.alg);
        if uncompressed.len() != 1 + 2 * n || uncompressed[0] != 4 {
            return None;
        }
        let x = Int::from_be(self.gmp, &uncompressed[1..1 + n]);
        let y = Int::from_be(self.gmp, &uncompressed[1 + n..]);
        let mut p = Value::new(self.api, self.curve, true);
        // SAFETY: all initialised; ecc_point_set checks that (x, y) is on the curve.
        (unsafe { (self.api.nettle_ecc_point_set)(&mut p.raw, &x.raw, &y.raw) } == 1).then_some(p)
    }

    /// The uncompressed encoding of a point.
    pub fn encode(&self, p: &Value<'_>) -> Vec<u8> {
        let n = field_bytes(self.alg);
        let (mut x, mut y) = (Int::new(self.gmp), Int::new(self.gmp));
        // SAFETY: all initialised.
        unsafe { (self.api.nettle_ecc_point_get)(&p.raw, &mut x.raw, &mut y.raw) };
        [vec![4u8], x.to_be(n), y.to_be(n)].concat()
    }

    /// The public point of a private scalar.
    pub fn public_of(&self, scalar: &Value<'_>) -> Box<Value<'a>> {
        let mut p = Value::new(self.api, self.curve, true);
        // SAFETY: both initialised on this curve.
        unsafe { (self.api.nettle_ecc_point_mul_g)(&mut p.raw, &scalar.raw) };
        p
    }

    pub fn new_point(&self) -> Box<Value<'a>> {
        Value::new(self.api, self.curve, true)
    }

    pub fn new_scalar(&self) -> Box<Value<'a>> {
        Value::new(self.api, self.curve, false)
    }

    pub fn new_signature(&self) -> Box<Signature<'a>> {
        Signature::new(self.api, self.gmp)
    }

    /// Signs `digest` into `sig`.
    pub fn sign_into(&self, key: &Value<'_>, digest: &[u8], sig: &mut Signature<'_>) {
        // SAFETY: all initialised; the random function fills the buffers Nettle passes.
        unsafe { (self.api.nettle_ecdsa_sign)(&key.raw, std::ptr::null_mut(), random, digest.len(), digest.as_ptr(), &mut sig.raw) };
    }

    pub fn verify_raw(&self, public: &Value<'_>, digest: &[u8], sig: &Signature<'_>) -> bool {
        // SAFETY: all initialised.
        unsafe { (self.api.nettle_ecdsa_verify)(&public.raw, digest.len(), digest.as_ptr(), &sig.raw) == 1 }
    }

    /// A signature of a DER encoding; None when it is not strict DER.
    pub fn signature_of_der(&self, der: &[u8]) -> Option<Box<Signature<'a>>> {
        let (r, s) = ecdsa_from_der(self.alg, der)?;
        let mut sig = Signature::new(self.api, self.gmp);
        set_be(self.gmp, &mut sig.raw.r, &r);
        set_be(self.gmp, &mut sig.raw.s, &s);
        Some(sig)
    }

    /// A new key pair into `public` and `private`.
    pub fn generate_into(&self, public: &mut Value<'_>, private: &mut Value<'_>) {
        // SAFETY: both initialised on this curve; the random function fills what Nettle asks.
        unsafe { (self.api.nettle_ecdsa_generate_keypair)(&mut public.raw, &mut private.raw, std::ptr::null_mut(), random) };
    }

    /// `scalar` × `point` into `out` (ECDH).
    pub fn mul_into(&self, out: &mut Value<'_>, scalar: &Value<'_>, point: &Value<'_>) {
        // SAFETY: all initialised on this curve.
        unsafe { (self.api.nettle_ecc_point_mul)(&mut out.raw, &scalar.raw, &point.raw) };
    }

    /// The x coordinate of a point into `x` (the ECDH shared secret, SEC 1 §3.3.1).
    pub fn x_into(&self, p: &Value<'_>, x: &mut Int<'_>, y: &mut Int<'_>) {
        // SAFETY: all initialised.
        unsafe { (self.api.nettle_ecc_point_get)(&p.raw, &mut x.raw, &mut y.raw) };
    }

    pub fn field_bytes(&self) -> usize {
        field_bytes(self.alg)
    }

    /// The algorithm the curve was found for.
    pub fn alg(&self) -> &'a PkAlgorithmSpec {
        self.alg
    }
}

//! The BearSSL functions cryptobench calls, resolved with `libloading`, and
//! the C structures it fills. Signatures, layouts and values from Debian
//! 12's libbearssl-dev 0.6+dfsg.1 headers (bearssl_hash.h, bearssl_hmac.h,
//! bearssl_block.h, bearssl_aead.h, bearssl_rand.h, bearssl_rsa.h,
//! bearssl_ec.h); the context sizes were printed with `sizeof` against those
//! headers on x86-64 and are checked against the buffers at compile time.
//! BearSSL allocates nothing: every context lives in memory the caller
//! gives, and the implementations are reached through vtables
//! (`br_*_class`) or function pointers that its `*_get*` calls return.

use std::ffi::{c_char, c_int, c_uint, c_void};

use crate::native::api_table;

/// Room for any context used here: `br_hmac_context` is the largest, 280
/// bytes (bearssl_hmac.h:110-116, struct of a `br_hash_compat_context`, 208
/// bytes, two 64-byte keyed states and a size); the AES key schedules
/// (`br_aes_x86ni_*_keys`, `br_aes_ct64_*_keys`, bearssl_block.h:1629 and
/// :1407) are 256 bytes, `br_gcm_context` 112 (bearssl_aead.h:355-369), `br_ccm_context` 88 (bearssl_aead.h:896-906),
/// `br_hmac_drbg_context` 144 (bearssl_rand.h:196-208).
pub const CTX_BYTES: usize = 512;
const _: () = assert!(280 <= CTX_BYTES && 256 <= CTX_BYTES && 208 <= CTX_BYTES && 144 <= CTX_BYTES);

/// `br_hash_class` (bearssl_hash.h:222): a hash function's vtable.
#[repr(C)]
pub struct HashClass {
    pub context_size: usize,
    /// The output length is in `desc` (bearssl_hash.h:336, `BR_HASHDESC_OUT`).
    pub desc: u32,
    pub init: unsafe extern "C" fn(*mut c_void),
    pub update: unsafe extern "C" fn(*mut c_void, *const c_void, usize),
    pub out: unsafe extern "C" fn(*const c_void, *mut c_void),
    pub state: *const c_void,
    pub set_state: *const c_void,
}

/// `BR_HASHDESC_OUT_OFF`, `BR_HASHDESC_OUT_MASK` (bearssl_hash.h:337-338).
const BR_HASHDESC_OUT_OFF: u32 = 8;
const BR_HASHDESC_OUT_MASK: u32 = 0x7F;

impl HashClass {
    /// The digest length the class writes.
    pub fn output_len(&self) -> usize {
        ((self.desc >> BR_HASHDESC_OUT_OFF) & BR_HASHDESC_OUT_MASK) as usize
    }
}

/// `br_block_cbcenc_class` and `br_block_cbcdec_class` (bearssl_block.h:394, :450): same layout.
#[repr(C)]
pub struct CbcClass {
    pub context_size: usize,
    pub block_size: c_uint,
    pub log_block_size: c_uint,
    pub init: unsafe extern "C" fn(*mut c_void, *const c_void, usize),
    pub run: unsafe extern "C" fn(*const c_void, *mut c_void, *mut c_void, usize),
}

/// `br_block_ctr_class` (bearssl_block.h:507): `run(ctx, iv12, cc, data, len)` returns the next counter.
#[repr(C)]
pub struct CtrClass {
    pub context_size: usize,
    pub block_size: c_uint,
    pub log_block_size: c_uint,
    pub init: unsafe extern "C" fn(*mut c_void, *const c_void, usize),
    pub run: unsafe extern "C" fn(*const c_void, *const c_void, u32, *mut c_void, usize) -> u32,
}

/// The first fields of `br_block_ctrcbc_class` (bearssl_block.h:574-604),
/// all that is read here: CCM's `br_ccm_init` takes the context, `init` keys it.
#[repr(C)]
pub struct CtrCbcClass {
    pub context_size: usize,
    pub block_size: c_uint,
    pub log_block_size: c_uint,
    pub init: unsafe extern "C" fn(*mut c_void, *const c_void, usize),
}

/// `br_ghash` (bearssl_hash.h:1239).
pub type Ghash = unsafe extern "C" fn(*mut c_void, *const c_void, *const c_void, usize);
/// `br_chacha20_run` (bearssl_block.h:2442).
pub type ChaCha20Run = unsafe extern "C" fn(*const c_void, *const c_void, u32, *mut c_void, usize) -> u32;
/// `br_poly1305_run` (bearssl_block.h:2513): ChaCha20-Poly1305 over a whole message.
pub type Poly1305Run =
    unsafe extern "C" fn(*const c_void, *const c_void, *mut c_void, usize, *const c_void, usize, *mut c_void, ChaCha20Run, c_int);

/// `br_rsa_private_key` (bearssl_rsa.h:181-204): the CRT form, big-endian.
#[repr(C)]
pub struct RsaPrivateKey {
    pub n_bitlen: u32,
    pub p: *mut u8,
    pub plen: usize,
    pub q: *mut u8,
    pub qlen: usize,
    pub dp: *mut u8,
    pub dplen: usize,
    pub dq: *mut u8,
    pub dqlen: usize,
    pub iq: *mut u8,
    pub iqlen: usize,
}

/// `br_rsa_public_key` (bearssl_rsa.h:161-170).
#[repr(C)]
pub struct RsaPublicKey {
    pub n: *mut u8,
    pub nlen: usize,
    pub e: *mut u8,
    pub elen: usize,
}

/// `br_ec_private_key` and `br_ec_public_key` (bearssl_ec.h:258-265, :241-248): a curve id and its bytes.
#[repr(C)]
pub struct EcKey {
    pub curve: c_int,
    pub data: *mut u8,
    pub len: usize,
}

/// `br_ec_impl` (bearssl_ec.h:270-415).
#[repr(C)]
pub struct EcImpl {
    pub supported_curves: u32,
    pub generator: unsafe extern "C" fn(c_int, *mut usize) -> *const u8,
    pub order: unsafe extern "C" fn(c_int, *mut usize) -> *const u8,
    pub xoff: unsafe extern "C" fn(c_int, *mut usize) -> usize,
    pub mul: unsafe extern "C" fn(*mut u8, usize, *const u8, usize, c_int) -> u32,
    pub mulgen: unsafe extern "C" fn(*mut u8, *const u8, usize, c_int) -> usize,
    pub muladd: *const c_void,
}

/// Curve ids (bearssl_ec.h:215-233, the TLS NamedCurve values).
pub const BR_EC_SECP256R1: c_int = 23;
pub const BR_EC_SECP384R1: c_int = 24;
pub const BR_EC_SECP521R1: c_int = 25;
pub const BR_EC_CURVE25519: c_int = 29;

/// `BR_HASH_OID_SHA256` (bearssl_rsa.h:403-404): the OID's length byte, then
/// the DER value of 2.16.840.1.101.3.4.2.1.
pub const BR_HASH_OID_SHA256: &[u8] = b"\x09\x60\x86\x48\x01\x65\x03\x04\x02\x01";

/// `br_config_option` (bearssl.h:149-154).
#[repr(C)]
pub struct ConfigOption {
    pub name: *const c_char,
    pub value: std::ffi::c_long,
}

pub type PrngClass = c_void;
pub type RsaPkcs1Sign = unsafe extern "C" fn(*const u8, *const u8, usize, *const RsaPrivateKey, *mut u8) -> u32;
pub type RsaPkcs1Vrfy = unsafe extern "C" fn(*const u8, usize, *const u8, usize, *const RsaPublicKey, *mut u8) -> u32;
pub type RsaOaepEncrypt = unsafe extern "C" fn(
    *const *const PrngClass,
    *const HashClass,
    *const c_void,
    usize,
    *const RsaPublicKey,
    *mut c_void,
    usize,
    *const c_void,
    usize,
) -> usize;
pub type RsaOaepDecrypt =
    unsafe extern "C" fn(*const HashClass, *const c_void, usize, *const RsaPrivateKey, *mut c_void, *mut usize) -> u32;
pub type RsaKeygen =
    unsafe extern "C" fn(*const *const PrngClass, *mut RsaPrivateKey, *mut c_void, *mut RsaPublicKey, *mut c_void, c_uint, u32) -> u32;
pub type RsaComputeModulus = unsafe extern "C" fn(*mut c_void, *const RsaPrivateKey) -> usize;
pub type EcdsaSign = unsafe extern "C" fn(*const EcImpl, *const HashClass, *const c_void, *const EcKey, *mut c_void) -> usize;
pub type EcdsaVrfy = unsafe extern "C" fn(*const EcImpl, *const c_void, usize, *const EcKey, *const c_void, usize) -> u32;
pub type PrngSeeder = unsafe extern "C" fn(*const *const PrngClass) -> c_int;

api_table! {
    required {
        br_get_config: fn() -> *const ConfigOption;
        br_hmac_key_init: fn(*mut c_void, *const HashClass, *const c_void, usize) -> ();
        br_hmac_init: fn(*mut c_void, *const c_void, usize) -> ();
        br_hmac_update: fn(*mut c_void, *const c_void, usize) -> ();
        br_hmac_out: fn(*const c_void, *mut c_void) -> usize;
        br_aes_x86ni_cbcenc_get_vtable: fn() -> *const CbcClass;
        br_aes_x86ni_cbcdec_get_vtable: fn() -> *const CbcClass;
        br_aes_x86ni_ctr_get_vtable: fn() -> *const CtrClass;
        br_aes_x86ni_ctrcbc_get_vtable: fn() -> *const CtrCbcClass;
        br_ccm_init: fn(*mut c_void, *const *const CtrCbcClass) -> ();
        br_ccm_reset: fn(*mut c_void, *const c_void, usize, u64, u64, usize) -> c_int;
        br_ccm_aad_inject: fn(*mut c_void, *const c_void, usize) -> ();
        br_ccm_flip: fn(*mut c_void) -> ();
        br_ccm_run: fn(*mut c_void, c_int, *mut c_void, usize) -> ();
        br_ccm_get_tag: fn(*mut c_void, *mut c_void) -> usize;
        br_ccm_check_tag: fn(*mut c_void, *const c_void) -> u32;
        br_ghash_pclmul_get: fn() -> Option<Ghash>;
        br_ghash_ctmul64: fn(*mut c_void, *const c_void, *const c_void, usize) -> ();
        br_chacha20_sse2_get: fn() -> Option<ChaCha20Run>;
        br_chacha20_ct_run: fn(*const c_void, *const c_void, u32, *mut c_void, usize) -> u32;
        br_poly1305_ctmulq_get: fn() -> Option<Poly1305Run>;
        br_poly1305_ctmul_run: fn(*const c_void, *const c_void, *mut c_void, usize, *const c_void, usize, *mut c_void, ChaCha20Run, c_int) -> ();
        br_gcm_init: fn(*mut c_void, *const *const CtrClass, Ghash) -> ();
        br_gcm_reset: fn(*mut c_void, *const c_void, usize) -> ();
        br_gcm_aad_inject: fn(*mut c_void, *const c_void, usize) -> ();
        br_gcm_flip: fn(*mut c_void) -> ();
        br_gcm_run: fn(*mut c_void, c_int, *mut c_void, usize) -> ();
        br_gcm_get_tag_trunc: fn(*mut c_void, *mut c_void, usize) -> ();
        br_gcm_check_tag_trunc: fn(*mut c_void, *const c_void, usize) -> u32;
        br_hmac_drbg_init: fn(*mut c_void, *const HashClass, *const c_void, usize) -> ();
        br_prng_seeder_system: fn(*mut *const c_char) -> Option<PrngSeeder>;
        br_rsa_pkcs1_sign_get_default: fn() -> RsaPkcs1Sign;
        br_rsa_pkcs1_vrfy_get_default: fn() -> RsaPkcs1Vrfy;
        br_rsa_oaep_encrypt_get_default: fn() -> RsaOaepEncrypt;
        br_rsa_oaep_decrypt_get_default: fn() -> RsaOaepDecrypt;
        br_rsa_keygen_get_default: fn() -> RsaKeygen;
        br_rsa_compute_modulus_get_default: fn() -> RsaComputeModulus;
        br_rsa_i62_private_get: fn() -> *const c_void;
        br_ec_get_default: fn() -> *const EcImpl;
        br_ecdsa_sign_asn1_get_default: fn() -> EcdsaSign;
        br_ecdsa_vrfy_asn1_get_default: fn() -> EcdsaVrfy;
        br_ec_keygen: fn(*const *const PrngClass, *const EcImpl, *mut EcKey, *mut c_void, c_int) -> usize;
        br_ec_compute_pub: fn(*const EcImpl, *mut EcKey, *mut c_void, *const EcKey) -> usize;
    }
    optional {}
}

/// The address of a data symbol (a `const br_*_class` or `br_ec_impl`), or its name when absent.
///
/// # Safety
/// `lib` must be BearSSL and outlive the use of the address.
pub unsafe fn data<T>(lib: &libloading::Library, name: &'static str) -> Result<*const T, &'static str> {
    let symbol = name.trim_end_matches('\0');
    // SAFETY: the symbol's address is the object's; read only through the layouts above.
    unsafe { lib.get::<*const T>(name.as_bytes()) }.map(|s| *s).map_err(|_| symbol)
}

//! The functions of Botan's C API (botan/ffi.h, Botan 2.x) cryptobench
//! calls, resolved with `libloading`.

use std::ffi::{c_char, c_int};

use crate::native::api_table;

pub type Cipher = *mut std::ffi::c_void;
pub type BlockCipher = *mut std::ffi::c_void;
pub type Hash = *mut std::ffi::c_void;
pub type Mac = *mut std::ffi::c_void;

/// `BOTAN_CIPHER_INIT_FLAG_ENCRYPT`/`DECRYPT` (ffi.h).
pub const BOTAN_CIPHER_INIT_FLAG_ENCRYPT: u32 = 0;
pub const BOTAN_CIPHER_INIT_FLAG_DECRYPT: u32 = 1;
/// `BOTAN_CIPHER_UPDATE_FLAG_FINAL` (ffi.h).
pub const BOTAN_CIPHER_UPDATE_FLAG_FINAL: u32 = 1;
/// `BOTAN_FFI_ERROR_BAD_MAC` (ffi.h): a tag that does not verify.
pub const BOTAN_FFI_ERROR_BAD_MAC: c_int = -2;

api_table! {
    required {
        botan_error_description: fn(c_int) -> *const c_char;
        botan_cipher_init: fn(*mut Cipher, *const c_char, u32) -> c_int;
        botan_cipher_destroy: fn(Cipher) -> c_int;
        botan_cipher_set_key: fn(Cipher, *const u8, usize) -> c_int;
        botan_cipher_start: fn(Cipher, *const u8, usize) -> c_int;
        botan_cipher_set_associated_data: fn(Cipher, *const u8, usize) -> c_int;
        botan_cipher_update: fn(Cipher, u32, *mut u8, usize, *mut usize, *const u8, usize, *mut usize) -> c_int;
        botan_cipher_get_update_granularity: fn(Cipher, *mut usize) -> c_int;
        botan_cipher_get_tag_length: fn(Cipher, *mut usize) -> c_int;
        botan_block_cipher_init: fn(*mut BlockCipher, *const c_char) -> c_int;
        botan_block_cipher_destroy: fn(BlockCipher) -> c_int;
        botan_block_cipher_set_key: fn(BlockCipher, *const u8, usize) -> c_int;
        botan_block_cipher_encrypt_blocks: fn(BlockCipher, *const u8, *mut u8, usize) -> c_int;
        botan_block_cipher_decrypt_blocks: fn(BlockCipher, *const u8, *mut u8, usize) -> c_int;
        botan_hash_init: fn(*mut Hash, *const c_char, u32) -> c_int;
        botan_hash_destroy: fn(Hash) -> c_int;
        botan_hash_update: fn(Hash, *const u8, usize) -> c_int;
        botan_hash_final: fn(Hash, *mut u8) -> c_int;
        botan_hash_copy_state: fn(*mut Hash, Hash) -> c_int;
        botan_hash_output_length: fn(Hash, *mut usize) -> c_int;
        botan_mac_init: fn(*mut Mac, *const c_char, u32) -> c_int;
        botan_mac_destroy: fn(Mac) -> c_int;
        botan_mac_set_key: fn(Mac, *const u8, usize) -> c_int;
        botan_mac_update: fn(Mac, *const u8, usize) -> c_int;
        botan_mac_final: fn(Mac, *mut u8) -> c_int;
        botan_mac_output_length: fn(Mac, *mut usize) -> c_int;
    }
    optional {}
}

